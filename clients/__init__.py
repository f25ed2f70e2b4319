"""The clients of the cardtable server: the terminal client and the web client.
They speak the wire protocol (the ``protocol`` package) and nothing of the server."""
