"""Rummy bots: a greedy baseline and a combo bot built on the combo generator."""
