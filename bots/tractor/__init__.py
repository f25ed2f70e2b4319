"""Tractor bots: the heuristic player (random-legal is ``bots.base.RandomBot``)."""
