"""A node of a cluster: tables owned through leases in the database, requests
forwarded over the bus to the owner, the whole lobby shared (docs/cluster.md);
and a tournament's games played by workers over the bus (``dispatch``, ``worker``)."""
