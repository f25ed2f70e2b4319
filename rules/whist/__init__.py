"""Whist: four players in two partnerships, thirteen tricks a deal, trump turned up.

The smallest complete trick-taking game cardtable ships; it exercises every part
of the server (hidden hands, turn order, multi-deal matches) and shares its
trick mechanics with bridge through :mod:`engine.tricks`.
"""

from rules.whist.game import WhistGame
from rules.whist.options import WhistConfig
from rules.whist.state import WhistState

__all__ = ["WhistConfig", "WhistGame", "WhistState"]
