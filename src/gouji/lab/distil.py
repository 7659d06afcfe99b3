"""Labels for distilling the lookahead into a seat-view model (大师, issue 46).

Self-play deals with the heuristic in all six seats.  At a sample of the decisions with more than one
candidate, a handful of candidates (:func:`gouji.lab.lookahead.candidates`: the heuristic's choice first)
are each played out to the end with the true hands and the heuristic everywhere — the machinery of the
复盘 review, one deterministic rollout a candidate.  A candidate's **label** is its advantage over the
heuristic's choice in the same world: its seat's team points less the heuristic choice's, in the preset's
unit — a paired difference, free of the deal's luck.  The heuristic's own line is the deal itself, so its
result costs no rollout.

Beside each label is what a seat-view model needs: the seat's observation as the ``learned`` bot encodes it
(:func:`gouji.bots.features.encode_state`, from the seat's view only) and the candidate's action row
(:func:`gouji.bots.features.encode_actions`, the heuristic's choice flagged as the prior).

Storage (``DIR``): one compressed ``.npz`` a **chunk** of deals, written to a temporary name and renamed
(atomic: a crash loses at most the chunks in the works), and ``manifest.json`` — the settings and, a chunk,
its seeds, labels and time.  A run resumes where the files say it stopped; chunk ``k`` is always the same
deals (preset ``rules[k % len(rules)]``, seeds ``f"{prefix}/{k}/{i}"``), so the labels do not depend on how
often it was interrupted.  ``docs/review.md`` (labels) has the measured rate.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..bots.features import ACTION_SIZE, STATE_SIZE, encode_actions, encode_state
from ..bots.learned import DECISION_KINDS, decision_kind
from ..engine.deal import Deal
from ..engine.rules import PRESETS
from ..engine.seats import team
from .lookahead import DEFAULT_LIMIT, Lookahead, candidates, history_key, next_key

FORMAT = "gouji-labels"
VERSION = 1
MANIFEST = "manifest.json"


class LabelsError(ValueError):
    """A labels folder that cannot be resumed with these settings; the message says why."""


@dataclass(frozen=True)
class Settings:
    """What a labels run is made of (stored in its manifest; a resumed run must match it)."""

    rules: tuple[str, ...] = ("qingdao", "tournament")
    chunk_deals: int = 20
    sample: float = 0.25
    """The chance that a decision with several candidates is labelled."""
    limit: int = DEFAULT_LIMIT
    """Candidates at most a decision."""
    prefix: str = "distil46"
    """The seeds' prefix (the tests' seeds are numbers: these never meet them)."""

    def seed(self, chunk: int, i: int) -> str:
        return f"{self.prefix}/{chunk}/{i}"

    def preset(self, chunk: int) -> str:
        return self.rules[chunk % len(self.rules)]


@dataclass
class Chunk:
    """The labels of one chunk of deals, as arrays (see :func:`label_chunk`)."""

    states: list[np.ndarray] = field(default_factory=list)
    rows: list[np.ndarray] = field(default_factory=list)
    per_decision: dict[str, list[int]] = field(
        default_factory=lambda: {"deal": [], "index": [], "seat": [], "kind": [], "rules": []}
    )
    per_label: dict[str, list[Any]] = field(
        default_factory=lambda: {"decision": [], "advantage": [], "result": [], "heuristic": [], "action": []}
    )
    rollouts: int = 0
    steps: int = 0
    decisions: int = 0
    """Decisions with several candidates seen (labelled or not)."""

    def arrays(self) -> dict[str, np.ndarray]:
        d, lab = self.per_decision, self.per_label
        return {
            "states": np.stack(self.states) if self.states else np.zeros((0, STATE_SIZE), np.float32),
            "actions": np.concatenate(self.rows) if self.rows else np.zeros((0, ACTION_SIZE), np.float32),
            "deal": np.asarray(d["deal"], np.int32),
            "index": np.asarray(d["index"], np.int16),
            "seat": np.asarray(d["seat"], np.int8),
            "kind": np.asarray(d["kind"], np.int8),
            "rules": np.asarray(d["rules"], np.int8),
            "decision": np.asarray(lab["decision"], np.int32),
            "advantage": np.asarray(lab["advantage"], np.float32),
            "result": np.asarray(lab["result"], np.float32),
            "heuristic": np.asarray(lab["heuristic"], bool),
            "action": np.asarray(lab["action"], dtype=np.str_),
        }


def label_deal(deal: Deal, number: int, sample: float, limit: int, rng: random.Random, out: Chunk) -> None:
    """Play ``deal`` with the heuristic in every seat, labelling a ``sample`` of its decisions into ``out``."""
    la = Lookahead()
    key = history_key(deal)
    la.play_out(Deal.replay(deal.events), key)  # the heuristic's line: every position's end remembered
    rules = PRESETS.index(deal.rules.name) if deal.rules.name in PRESETS else -1
    while (seat := deal.to_act) is not None:
        legal = deal.legal_actions()
        choice = la.choice(deal)
        if len(legal) > 1:
            out.decisions += 1
            if rng.random() < sample:
                _label(la, deal, key, choice, seat, number, limit, rules, out)
        deal.act(choice)
        key = next_key(key, seat, choice)
    out.rollouts += la.rollouts
    out.steps += la.steps


def _label(
    la: Lookahead, deal: Deal, key: int, choice: Any, seat: int, number: int, limit: int, rules: int, out: Chunk
) -> None:
    cands = candidates(deal, [choice], limit=limit)
    if len(cands) < 2:
        return
    view = deal.view(seat)
    results = [s[team(seat)] for s in la.evaluate(deal, cands, key)]
    i = len(out.states)
    out.states.append(encode_state(view))
    out.rows.append(encode_actions(view, cands, prior=0))
    d = out.per_decision
    d["deal"].append(number)
    d["index"].append(deal.decisions + 1)
    d["seat"].append(seat)
    d["kind"].append(DECISION_KINDS.index(decision_kind(view)))
    d["rules"].append(rules)
    lab = out.per_label
    for j, (a, r) in enumerate(zip(cands, results, strict=True)):
        lab["decision"].append(i)
        lab["advantage"].append(r - results[0])
        lab["result"].append(r)
        lab["heuristic"].append(j == 0)
        lab["action"].append(a.text)


def label_chunk(settings: Settings, chunk: int) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Chunk ``chunk``'s labels (arrays) and its facts (seeds, counts, CPU seconds)."""
    t = time.process_time()
    rules = settings.preset(chunk)
    out = Chunk()
    seeds = [settings.seed(chunk, i) for i in range(settings.chunk_deals)]
    for i, seed in enumerate(seeds):
        rng = random.Random(f"{seed}:sample")
        label_deal(
            Deal.new(rules, seed=seed), chunk * settings.chunk_deals + i, settings.sample, settings.limit, rng, out
        )
    arrays = out.arrays()
    facts = {
        "chunk": chunk,
        "rules": rules,
        "seeds": [seeds[0], seeds[-1]],
        "deals": len(seeds),
        "decisions": out.decisions,
        "labelled": len(out.states),
        "labels": int(arrays["advantage"].size),
        "alternatives": int(arrays["advantage"].size - arrays["heuristic"].sum()),
        "nonzero": int(np.count_nonzero(arrays["advantage"])),
        "rollouts": out.rollouts,
        "steps": out.steps,
        "cpu_seconds": round(time.process_time() - t, 2),
    }
    return arrays, facts


def chunk_path(out: Path, chunk: int) -> Path:
    return out / f"chunk-{chunk:06d}.npz"


def write_chunk(out: Path, chunk: int, arrays: dict[str, np.ndarray], facts: dict[str, Any]) -> Path:
    """Write a chunk's ``.npz`` atomically (a temporary file, then a rename)."""
    path = chunk_path(out, chunk)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        named: dict[str, Any] = {"meta": np.asarray(json.dumps(facts)), **arrays}
        np.savez_compressed(f, **named)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return path


def read_chunk(path: Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """A chunk's arrays and facts."""
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files if k != "meta"}
        facts = json.loads(str(z["meta"]))
    return arrays, facts


def _write_json(path: Path, data: Any) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def open_run(out: Path, settings: Settings) -> dict[str, Any]:
    """The run's manifest: read (the settings must match) and brought up to the chunks on disk, or new."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / MANIFEST
    want = {"format": FORMAT, "version": VERSION, "settings": _settings_json(settings)}
    if path.exists():
        try:
            read = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise LabelsError(f"{path}: cannot read the manifest: {e}") from None
        if not isinstance(read, dict) or not isinstance(read.get("chunks"), dict):
            raise LabelsError(f"{path} is not a labels manifest")
        manifest: dict[str, Any] = read
        if {k: manifest.get(k) for k in want} != want:
            raise LabelsError(
                f"{out} holds labels made with other settings ({manifest.get('settings')}): "
                "resume with those, or write to another folder"
            )
    else:
        manifest = {**want, "chunks": {}}
    for p in sorted(out.glob("chunk-*.npz")):  # a chunk written but not yet in the manifest (a crash between)
        k = int(p.stem.split("-")[1])
        if str(k) not in manifest["chunks"]:
            manifest["chunks"][str(k)] = read_chunk(p)[1]
    _totals(manifest)
    _write_json(path, manifest)
    return manifest


def _settings_json(settings: Settings) -> dict[str, Any]:
    d = asdict(settings)
    d["rules"] = list(settings.rules)
    d["state_size"], d["action_size"] = STATE_SIZE, ACTION_SIZE
    return d


def _totals(manifest: dict[str, Any]) -> None:
    chunks = manifest["chunks"].values()
    for name in ("deals", "labels", "alternatives", "labelled", "rollouts", "cpu_seconds"):
        manifest[name] = round(sum(c[name] for c in chunks), 2)
    manifest["chunks_done"] = sorted(int(k) for k in manifest["chunks"])


def _work(args: tuple[Settings, str, int]) -> dict[str, Any]:
    settings, out, chunk = args
    arrays, facts = label_chunk(settings, chunk)
    write_chunk(Path(out), chunk, arrays, facts)
    return facts


def run(
    out: Path,
    settings: Settings,
    hours: float,
    jobs: int = 1,
    max_chunks: int | None = None,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Label chunks into ``out`` until ``hours`` have passed (no chunk starts after) or ``max_chunks`` new
    chunks are done; resumes a run already there.  Returns the manifest."""
    manifest = open_run(out, settings)
    done = {int(k) for k in manifest["chunks"]}
    deadline = time.monotonic() + hours * 3600
    todo = (k for k in range(10**9) if k not in done)
    started = 0

    def more() -> int | None:
        nonlocal started
        if time.monotonic() >= deadline or (max_chunks is not None and started >= max_chunks):
            return None
        started += 1
        return next(todo)

    def finished(facts: dict[str, Any]) -> None:
        manifest["chunks"][str(facts["chunk"])] = facts
        _totals(manifest)
        _write_json(out / MANIFEST, manifest)
        rate = facts["alternatives"] / max(facts["cpu_seconds"], 1e-9) * 3600
        total = manifest["alternatives"] / max(manifest["cpu_seconds"], 1e-9) * 3600
        log(
            f"{time.strftime('%Y-%m-%d %H:%M:%S')} chunk {facts['chunk']} ({facts['rules']}): {facts['deals']} deals, "
            f"{facts['labelled']} of {facts['decisions']} decisions labelled, {facts['alternatives']} labels of "
            f"alternatives ({facts['nonzero']} nonzero; +{facts['labelled']} of the heuristic's choice, 0), "
            f"{facts['cpu_seconds']:.0f} s CPU: {rate:.0f} labels/hour/core; run: {manifest['alternatives']} labels "
            f"in {len(manifest['chunks'])} chunks, {total:.0f} labels/hour/core"
        )

    if jobs <= 1:
        while (k := more()) is not None:
            finished(_work((settings, str(out), k)))
        return manifest
    import multiprocessing as mp

    with mp.get_context("spawn").Pool(jobs) as pool:
        pending: list[Any] = []
        while True:
            while len(pending) < jobs and (k := more()) is not None:
                pending.append(pool.apply_async(_work, ((settings, str(out), k),)))
            if not pending:
                break
            pending[0].wait()
            for p in [p for p in pending if p.ready()]:
                pending.remove(p)
                finished(p.get())
    return manifest


def load_labels(out: Path) -> dict[str, np.ndarray]:
    """Every chunk of a labels folder as one set of arrays (``decision`` made global)."""
    parts = [read_chunk(p)[0] for p in sorted(out.glob("chunk-*.npz"))]
    if not parts:
        raise LabelsError(f"{out} holds no chunk of labels")
    offset = np.cumsum([0] + [len(p["states"]) for p in parts[:-1]])
    merged = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    merged["decision"] = np.concatenate([p["decision"] + o for p, o in zip(parts, offset, strict=True)])
    return merged


def check_rules(names: Sequence[str]) -> tuple[str, ...]:
    bad = [n for n in names if n not in PRESETS]
    if not names or bad:
        raise LabelsError(f"{', '.join(bad) or 'no preset'}: the presets are {', '.join(PRESETS)}")
    return tuple(names)


__all__ = [
    "FORMAT",
    "MANIFEST",
    "VERSION",
    "Chunk",
    "LabelsError",
    "Settings",
    "check_rules",
    "label_chunk",
    "label_deal",
    "load_labels",
    "open_run",
    "read_chunk",
    "run",
    "write_chunk",
]
