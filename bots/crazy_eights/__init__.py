"""Crazy Eights bots."""
