"""The table (rule book §1): six seats, two teams, the 对头 across, and the status a seat can have."""

from __future__ import annotations

SEATS = 6
PLACE_NAMES = ("头科", "二科", "三科", "四科", "二落", "大落")
PLACE_NAMES_EN = ("first", "second", "third", "fourth", "fifth", "last")

# Seat status
IN_PLAY = "in_play"
OUT = "out"  # 走科: went out
SMOTHERED = "smothered"  # 闷
FAILED_BURN = "failed_burn"  # 诈烧 / 烧失败
REVOLTED = "revolted"  # 革命
NO_THREE = "no_three"  # 大拉 for holding no 3 (no_three = "last")


def opposite(seat: int) -> int:
    """对头: the seat across the table, always an opponent."""
    return (seat + 3) % SEATS


def team(seat: int) -> int:
    """Team 0 is seats 0, 2, 4; team 1 is seats 1, 3, 5."""
    return seat % 2
