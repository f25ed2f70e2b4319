"""Tournaments between bots: schedules, the per-game job, ratings and standings.

Pure parts only (no database, no clock): the server's tournament runner
(``server/tournament``) drives them and stores what they produce.
"""
