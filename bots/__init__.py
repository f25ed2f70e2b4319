"""Bot players.  A bot sees only its seat's view and the legal actions."""
