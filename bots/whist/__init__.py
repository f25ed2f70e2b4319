"""Whist bots."""
