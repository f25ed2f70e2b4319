"""Contract bridge: auction, play, claims, duplicate scoring, PBN."""

from rules.bridge.game import BridgeGame
from rules.bridge.options import BridgeConfig, ClaimPolicy
from rules.bridge.state import BridgeState

__all__ = ["BridgeConfig", "BridgeGame", "BridgeState", "ClaimPolicy"]
