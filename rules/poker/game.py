"""The poker game the registry names: the hold'em table's rules (rules/poker/table.py)
with the files it reads and writes (PHH, PokerStars text), the tracker statistics
it keeps and its command-line tool (``showdown``).  Apart from the table's rules
because those modules replay hands through them: the game lists them, they use the
rules, and nothing goes round in a circle."""

from __future__ import annotations

from collections.abc import Sequence

from engine.formats import GameRecord
from engine.statistics import StatTable
from rules.poker.phh import PHH
from rules.poker.stars import STARS
from rules.poker.stats import statistics
from rules.poker.table import PokerTable
from rules.poker.tools import SHOWDOWN


class PokerGame(PokerTable):
    formats = (PHH, STARS)
    tools = (SHOWDOWN,)

    def statistics(self, records: Sequence[GameRecord]) -> StatTable:
        return statistics(records)
