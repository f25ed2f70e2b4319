"""Game-independent core: cards, seeded RNG, the Game contract, events, replay."""
