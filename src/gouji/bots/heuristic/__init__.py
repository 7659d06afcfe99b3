"""The heuristic bot: plays Gouji by the lines players teach, from one seat's view alone.

It plans the hand as plays — one per natural rank, with 2s and jokers (the control cards) kept apart —
and estimates, from the card counter (``view["played"]``, the seat's own hand and the card counts), how
likely a play is to stand: for each opponent who may still answer it, the chance that its hidden hand
holds a play that beats it (each opponent's share of the unseen cards drawn binomially).

The lines it follows (the rule book and the regional texts' 技巧, playing tips):

- **Leads**: go out when the hand is one play; otherwise shed the lowest natural group, naked, and keep
  the control cards; open the point early with a pure gouji play that will likely stand (and lead the
  4 after it where ``kaidian_needs_four`` asks, a single one under ``kaidian_four_single``); when big
  jokers (or plays nobody can beat) carry every play but the last, chain out with them; with two plays
  left, lead the likelier to stand and keep the other to go out with; never lead a play of the size of
  an opponent's last cards, gladly one of a teammate's (without 憋三, where counts include unseen 3s).
- **憋三**: 3s go last, so the play before them must stand (else 闷): the bot reserves its safest play
  (a big joker, or everything attached) for that moment, counts the danger of a hand whose last play
  before the 3s could be beaten, and never leaves only 3s behind a play that is likely beaten.  It does
  not beat a teammate who may hold only 3s (that would smother them), and gladly smothers an opponent.
- **Answers**: each answer is scored — a natural group of the right size sheds a play for nothing
  (high groups are worth keeping: they answer later), a split group sheds cards only, 2s and jokers
  cost control, a play that stands wins the round and denies it to the opponent; pass (or yield, 让牌,
  so a teammate gets in first) when nothing scores.  The 对头's gouji plays are answered only when that
  pays; among answers the one the 对头 cannot beat back scores higher (逢Q盖帽).  A teammate's play is
  overtaken only cheaply and surely, or to go out.
- **Burning**: only when every later play but the last can carry a joker (small jokers first, the big
  one kept for the play that must stand), and a teammate's play only when big jokers make the rest
  certain.  With no joker to spare it declines.
- **Before play**: revolt with a hand too weak to place well (no 2, no joker, few As and Ks), keep the
  head (要头), declare the point (宣点) with jokers and 2s enough to stop the 对头's gouji plays, buy a 4
  only when it is needed to open the point; return (还贡) the lowest cards, preferring ones that shorten
  the hand.  The regional decisions of rule book §16: discard the 5s (汇5) — fewer cards to shed; hand a
  teammate's 落贡 back (退贡) — it is the team's either way, and the 大落 needs it more; 无级自开 whenever
  allowed — a hand without gouji plays has nothing to hide worth the point; 冲点 only with three pure
  gouji groups and three As or more, since losing it costs 大落 — and its attempts lead the play most
  likely to stand.  An unknown kind of decision gets a safe legal choice (``pass`` when it is open).
- **Free-for-all**: the same scoring with every seat answering everything: race out.

The weights (:class:`Params`) were tuned by duplicate self-play against earlier versions; against the
random bot the heuristic team wins practically every duplicate pair in every preset.

:meth:`HeuristicBot.explain` returns the action with its reason, a :class:`~gouji.reasons.Reason` (a code
with parameters, used by :func:`gouji.hint`); :meth:`HeuristicBot.choose` gives the reason as an English
line, :meth:`HeuristicBot.decide` drops it.  Decisions are deterministic for a given view.

The modules: :mod:`.params` (the weights), :mod:`.odds` (what a hidden hand may hold), :mod:`.hands`
(hands as plans of plays), :mod:`.context` (one decision's facts from the view), :mod:`.leads`,
:mod:`.answers`, :mod:`.burns`, :mod:`.decisions` (before play, 还贡) and :mod:`.bot` (the dispatch).
"""

from __future__ import annotations

from .bot import HeuristicBot, tuned
from .params import DEFAULT, Params

__all__ = ["DEFAULT", "HeuristicBot", "Params", "tuned"]
