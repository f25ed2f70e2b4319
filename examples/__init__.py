"""Example bots for bot authors (docs/bots.md)."""
