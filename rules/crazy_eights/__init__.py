"""Crazy Eights: 2-5 players shed their hands onto one discard pile, matching its top
card by rank or suit; eights are wild.  The smallest shedding game cardtable ships,
and the walk-through of docs/architecture.md, "How to add a game".
"""

from rules.crazy_eights.game import CrazyEightsGame
from rules.crazy_eights.options import CrazyEightsConfig
from rules.crazy_eights.state import CrazyEightsState

__all__ = ["CrazyEightsConfig", "CrazyEightsGame", "CrazyEightsState"]
