"""The learning environment: Gouji in PettingZoo's AEC API and Gymnasium's single-agent API.

- ``gouji.env.env(rules="qingdao", seed=…)`` / ``raw_env``: the six-agent AEC environment
  (:mod:`gouji.env.aec`);
- ``gouji.env.SingleAgentEnv``: one seat against five of the project's bots (:mod:`gouji.env.single`);
- :mod:`gouji.env.catalogue`: the fixed action catalogue (index <-> action, masks);
- :mod:`gouji.bots.features`: the observation and action encodings;
- :mod:`gouji.env.tracker`: the observation encoding kept up to date step by step (the environments' own);
- :mod:`gouji.env.core`: episodes, observations and rewards, numpy only.

The environment classes need the ``rl`` extra (``pip install 'gouji[rl]'``: Gymnasium, PettingZoo, Ray);
they are imported when first named, so the catalogue and the encodings work on numpy alone.
"""

from __future__ import annotations

from typing import Any

from .catalogue import Catalogue, catalogue

_LAZY = {"env": "aec", "raw_env": "aec", "GoujiEnv": "aec", "SingleAgentEnv": "single"}

__all__ = ["Catalogue", "GoujiEnv", "SingleAgentEnv", "catalogue", "env", "raw_env"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'gouji.env' has no attribute {name!r}")
    import importlib

    try:
        mod = importlib.import_module(f".{module}", __name__)
    except ImportError as e:
        raise ImportError(f"gouji.env.{name} needs the rl extra: pip install 'gouji[rl]' ({e})") from None
    return getattr(mod, name)
