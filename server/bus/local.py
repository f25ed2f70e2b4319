"""The in-process bus: what a single node uses (and tests run several nodes on)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from paho.mqtt.client import topic_matches_sub

from server.bus.base import Bus, BusUnavailable, Handler
from server.bus.topics import topic_filter


@dataclass
class LocalHub:
    """The broker of in-process buses: retained messages and every subscription."""

    retained: dict[str, bytes] = field(default_factory=dict)
    buses: list[LocalBus] = field(default_factory=list)
    turn: int = 0  # rotates a shared subscription's deliveries among its members

    def route(self, topic: str, payload: bytes, retain: bool) -> None:
        if retain:
            if payload:
                self.retained[topic] = payload
            else:
                self.retained.pop(topic, None)
        groups: dict[str, list[tuple[LocalBus, Handler]]] = {}
        for bus in list(self.buses):
            for pattern, handler in list(bus.subscriptions.items()):
                group, filt = topic_filter(pattern)
                if not topic_matches_sub(filt, topic):
                    continue
                if group is None:
                    bus.receive(handler, topic, payload)
                else:
                    groups.setdefault(group, []).append((bus, handler))
        for members in groups.values():
            self.turn += 1
            bus, handler = members[self.turn % len(members)]
            bus.receive(handler, topic, payload)


class LocalBus(Bus):
    def __init__(self, hub: LocalHub, *, will: tuple[str, bytes] | None = None) -> None:
        self.hub = hub
        self.will = will
        self.subscriptions: dict[str, Handler] = {}
        self._connected = False
        # Deliveries run later on the loop, in order, as a broker's would.
        self._inbox: asyncio.Queue[tuple[Handler, str, bytes]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    @property
    def connected(self) -> bool:
        return self._connected

    async def start(self, wait: float = 5.0) -> None:
        self.hub.buses.append(self)
        self._connected = True
        self._task = asyncio.create_task(self._deliver(), name="local-bus")
        if self.on_connect is not None:
            self.on_connect()

    async def close(self) -> None:
        self._disconnect()

    def crash(self) -> None:
        """Drop off the bus as a killed node would: the last will is published."""
        self._disconnect()
        if self.will is not None:
            self.hub.route(self.will[0], self.will[1], True)

    def _disconnect(self) -> None:
        self._connected = False
        if self in self.hub.buses:
            self.hub.buses.remove(self)
        if self._task is not None:
            self._task.cancel()

    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        if not self._connected:
            raise BusUnavailable("the in-process bus is closed")
        self.hub.route(topic, bytes(payload), retain)

    async def subscribe(self, pattern: str, handler: Handler) -> None:
        self.subscriptions[pattern] = handler
        group, filt = topic_filter(pattern)
        for topic, payload in list(self.hub.retained.items()):
            if group is None and topic_matches_sub(filt, topic):
                self._inbox.put_nowait((handler, topic, payload))

    async def unsubscribe(self, pattern: str) -> None:
        self.subscriptions.pop(pattern, None)

    def receive(self, handler: Handler, topic: str, payload: bytes) -> None:
        self._inbox.put_nowait((handler, topic, payload))

    async def _deliver(self) -> None:
        while True:
            handler, topic, payload = await self._inbox.get()
            self.deliver(handler, topic, payload)
