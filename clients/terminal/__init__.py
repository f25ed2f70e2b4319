"""Terminal clients: play against bots, replay stored games."""
