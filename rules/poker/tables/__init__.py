"""Building the evaluator's lookup tables.

Everything here runs once, at the evaluator's first use, in well under a second,
so no generated table is checked in: the code that builds the tables is the
documentation of how they were built (see docs/poker.md).

- :mod:`.classes` enumerates the 7,462 five-card equivalence classes in order.
- :mod:`.cactus` lays them out as Cactus Kev's tables (card words, ``flushes``,
  ``unique5``, and the prime products of the remaining 4,888 classes).
- :mod:`.perfect_hash` builds the hash-and-displace perfect hashes that replace
  Cactus Kev's binary search.
- :mod:`.multiset` builds the direct 6- and 7-card tables (rank multiset and
  flush tables) from the five-card ones.
"""
