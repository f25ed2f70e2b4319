"""The bidding system: a partnership agreement, public in bridge (opponents are told
what every call means), so it lives with the rules.  ``hand.py`` has what a call can
show, ``rulebook.py`` how a table of rules bids and reads an auction,
``situations.py`` the words rules are written in, ``natural.py`` the natural
system's table, and ``explain.py`` every call's meaning as the table shows it to the
table (docs/bridge_bidding.md, "Every call explained")."""
