"""The wire protocol both sides share: message models and builders, error and
close codes, the inbound frame decoder and the JSON Schema.  Depends only on the
standard library and pydantic, so a client can use it without the server."""
