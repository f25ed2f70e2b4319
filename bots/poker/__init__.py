"""Poker bots: a rule bot (hand-strength buckets, pot odds) and an equity bot (Monte
Carlo equity against ranges read from the opponents' actions)."""
