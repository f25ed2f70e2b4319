"""The phases of a tractor round, one module each: who acts, what is legal, how
an action is checked and what it does (``game.py`` dispatches on the phase)."""
