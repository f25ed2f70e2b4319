"""The bus between the nodes of a cluster: an interface, its topic names
(``server/bus/topics.py``), an in-process implementation (one node, the default)
and an MQTT 5 one (``server/bus/mqtt.py``).  See docs/cluster.md, "Topics"."""

from __future__ import annotations

import secrets

from server.bus.base import Bus, BusUnavailable, Handler
from server.bus.local import LocalBus, LocalHub
from server.bus.topics import Topics, valid_node_name

__all__ = [
    "Bus",
    "BusUnavailable",
    "Handler",
    "LocalBus",
    "LocalHub",
    "Topics",
    "make_bus",
    "valid_node_name",
]


def make_bus(url: str | None, node: str, will: tuple[str, bytes] | None = None) -> Bus:
    """The bus a URL names: None or ``local:`` for the in-process bus,
    ``mqtt://[USER:PASSWORD@]HOST[:PORT]`` for an MQTT 5 broker (``ValueError``
    otherwise)."""
    if url is None or url in ("local", "local:"):
        return LocalBus(LocalHub(), will=will)
    from server.bus.mqtt import MqttBus, parse_mqtt_url

    broker = parse_mqtt_url(url)
    # Unique per run: a broker disconnects a client whose id another one takes.
    return MqttBus(broker.host, broker.port, username=broker.username,
                   password=broker.password,
                   client_id=f"cardtable-{node}-{secrets.token_hex(4)}", will=will)
