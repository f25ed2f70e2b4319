"""The bus contract every implementation meets (tests/server/bus_conformance.py
checks it): publish and subscribe with MQTT's topic wildcards, retained messages,
a last will, and in-order delivery per publisher."""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Callable

log = logging.getLogger("cardtable.bus")

# Called with (topic, payload) for each message that matches a subscription.
Handler = Callable[[str, bytes], None]


class BusUnavailable(Exception):
    """The bus is not connected: the message was not published."""


class Bus(ABC):
    """A publish/subscribe bus.

    ``publish`` never blocks: it queues the message, in order, or raises
    :class:`BusUnavailable` when disconnected.  Handlers run on the event loop,
    one message at a time, in the order each publisher published; a handler that
    raises is logged and the message dropped (a malformed message from a buggy or
    foreign publisher never stops the bus).
    """

    on_connect: Callable[[], None] | None = None  # called after each (re)connection
    on_disconnect: Callable[[], None] | None = None  # called when a connection is lost

    @property
    @abstractmethod
    def connected(self) -> bool:
        """Whether a publish now would reach the bus."""

    @abstractmethod
    async def start(self, wait: float = 5.0) -> None:
        """Connect, and keep reconnecting until closed; returns once connected the
        first time, or after ``wait`` seconds (still trying: see ``connected``)."""

    @abstractmethod
    async def close(self) -> None:
        """Disconnect cleanly (the last will is not sent)."""

    @abstractmethod
    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        """Queue ``payload`` for ``topic``; a retained empty payload clears the
        topic's retained message."""

    @abstractmethod
    async def subscribe(self, pattern: str, handler: Handler) -> None:
        """Call ``handler`` for every message on a topic matching ``pattern``
        (``+`` one level, ``#`` the rest), retained ones included."""

    @abstractmethod
    async def unsubscribe(self, pattern: str) -> None:
        """Stop delivering messages for ``pattern``."""

    @staticmethod
    def deliver(handler: Handler, topic: str, payload: bytes) -> None:
        """Run one handler; a failure is the message's fault, logged and dropped."""
        try:
            handler(topic, payload)
        except Exception:
            log.warning("bus message on %s dropped: its handler failed", topic, exc_info=True)
