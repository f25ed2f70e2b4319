"""The bus over an MQTT 5 broker (aiomqtt): reconnects with backoff, and says
whether it is connected; a node keeps serving its own tables meanwhile."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

import aiomqtt
from paho.mqtt.client import topic_matches_sub

from server.bus.base import Bus, BusUnavailable, Handler
from server.bus.topics import topic_filter

log = logging.getLogger("cardtable.bus")
QOS = 1  # at least once per connection: a lost PUBACK resends, a lost TCP link does not
OUTBOX = 10_000  # messages queued for the broker before publishing refuses


@dataclass(frozen=True)
class Broker:
    """Where the broker is, and the user a node logs in as (the broker's own
    password file and ACLs decide what that user may do)."""

    host: str
    port: int = 1883
    username: str | None = None
    password: str | None = field(default=None, repr=False)


def parse_mqtt_url(url: str) -> Broker:
    """``mqtt://[USER:PASSWORD@]HOST[:PORT]``; ``ValueError`` for anything else."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:  # a port that is not a number, or out of range
        port, parts = None, None
    if parts is None or parts.scheme != "mqtt" or not parts.hostname or (
            parts.path not in ("", "/")):
        raise ValueError(f"not an mqtt://[USER:PASSWORD@]HOST:PORT URL: {shown_bus(url)!r}")
    user = unquote(parts.username) if parts.username else None
    secret = unquote(parts.password) if parts.password is not None else None
    return Broker(parts.hostname, port or 1883, user, secret)


def shown_bus(url: str) -> str:
    """A bus URL fit to print: its password, if any, as ``***``."""
    head, at, tail = url.rpartition("@")
    if not at or "://" not in head:
        return url
    scheme, _, login = head.partition("://")
    user, colon, _ = login.partition(":")
    return f"{scheme}://{user}{':***' if colon else ''}@{tail}"


class MqttBus(Bus):
    def __init__(
        self,
        host: str,
        port: int = 1883,
        *,
        username: str | None = None,
        password: str | None = None,
        client_id: str | None = None,
        will: tuple[str, bytes] | None = None,
        keepalive: int = 5,
        max_backoff: float = 5.0,
    ) -> None:
        self.host, self.port = host, port
        self.username, self.password = username, password
        self.client_id = client_id
        self.will = will
        self.keepalive = keepalive  # the broker sends the will this long after a silent death
        self.max_backoff = max_backoff
        self.subscriptions: dict[str, Handler] = {}
        self._client: aiomqtt.Client | None = None
        # None: a wake-up for the sender of a connection that has ended.
        self._outbox: asyncio.Queue[tuple[str, bytes, bool] | None] = asyncio.Queue(OUTBOX + 10)
        self._up = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._refused = ""  # the broker's last reason for a failed connection

    @property
    def connected(self) -> bool:
        return self._client is not None

    async def start(self, wait: float = 5.0) -> None:
        self._task = asyncio.create_task(self._run(), name="mqtt-bus")
        try:
            await asyncio.wait_for(self._up.wait(), wait)
        except TimeoutError:
            why = f" ({self._refused})" if self._refused else ""
            log.warning("MQTT broker %s:%d not reachable yet%s; still trying",
                        self.host, self.port, why)

    async def close(self) -> None:
        self._closing = True
        if self._task is not None:
            self._task.cancel()
            # Bounded, for the reason given in _run; the task ends on its own then.
            await asyncio.wait({self._task}, timeout=10.0)
        self._client = None

    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        if self._client is None:
            raise BusUnavailable(f"not connected to the MQTT broker {self.host}:{self.port}")
        if self._outbox.qsize() >= OUTBOX:
            raise BusUnavailable("the MQTT broker is not keeping up")
        self._outbox.put_nowait((topic, bytes(payload), retain))

    async def subscribe(self, pattern: str, handler: Handler) -> None:
        self.subscriptions[pattern] = handler
        if self._client is not None:
            await self._client.subscribe(pattern, qos=QOS)

    async def unsubscribe(self, pattern: str) -> None:
        self.subscriptions.pop(pattern, None)
        if self._client is not None:
            await self._client.unsubscribe(pattern)

    async def _run(self) -> None:
        delay = 0.1
        will = None
        if self.will is not None:
            will = aiomqtt.Will(self.will[0], self.will[1], qos=QOS, retain=True)
        while not self._closing:
            up = False  # this attempt connected
            try:
                async with aiomqtt.Client(
                    self.host,
                    self.port,
                    username=self.username,
                    password=self.password,
                    identifier=self.client_id,
                    protocol=aiomqtt.ProtocolVersion.V5,
                    will=will,
                    keepalive=self.keepalive,
                    timeout=5,
                ) as client:
                    for pattern in self.subscriptions:
                        await client.subscribe(pattern, qos=QOS)
                    self._drain_stale()
                    self._client = client
                    self._up.set()
                    up, delay = True, 0.1
                    log.info("connected to the MQTT broker %s:%d", self.host, self.port)
                    self._tell(self.on_connect)
                    sender = asyncio.create_task(self._send(client), name="mqtt-send")
                    try:
                        async for message in client.messages:
                            self._dispatch(str(message.topic), message.payload)
                    finally:
                        self._client = None
                        sender.cancel()
                        self._outbox.put_nowait(None)  # wakes the sender if it missed that
                        # Bounded: Python 3.11's wait_for (inside aiomqtt's publish) can
                        # swallow a cancellation; the sender then ends on its own.
                        await asyncio.wait({sender}, timeout=1.0)
            except aiomqtt.MqttError as exc:
                self._refused = str(exc)  # "Not authorized" says more than "not reachable"
                if up or delay == 0.1:  # once per outage, not once per attempt
                    log.warning(
                        "lost the MQTT broker %s:%d (%s); local tables keep playing, reconnecting",
                        self.host,
                        self.port,
                        exc,
                    )
            finally:
                self._client = None
                if up and not self._closing:
                    self._tell(self.on_disconnect)
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.max_backoff)

    @staticmethod
    def _tell(callback: Callable[[], None] | None) -> None:
        """Run a connection callback; its failure must not stop reconnecting."""
        if callback is None:
            return
        try:
            callback()
        except Exception:
            log.exception("bus connection callback failed")

    def _drain_stale(self) -> None:
        """Messages queued before a disconnection are not sent after it: their
        receivers have been told the link was down and resynchronise themselves."""
        dropped = 0
        while not self._outbox.empty():
            self._outbox.get_nowait()
            dropped += 1
        if dropped:
            log.warning("dropped %d bus messages queued while the broker was lost", dropped)

    async def _send(self, client: aiomqtt.Client) -> None:
        """Publish the outbox in order while ``client`` is the connection."""
        while self._client is client:
            item = await self._outbox.get()
            if item is None:
                continue  # a wake-up, not a message
            if self._client is not client:
                return  # that connection is gone: what it queued is dropped
            topic, payload, retain = item
            await client.publish(topic, payload, qos=QOS, retain=retain)

    def _dispatch(self, topic: str, payload: object) -> None:
        if isinstance(payload, bytes | bytearray):
            data = bytes(payload)
        elif payload is None:
            data = b""
        else:
            data = str(payload).encode()
        for pattern, handler in list(self.subscriptions.items()):
            if topic_matches_sub(topic_filter(pattern)[1], topic):
                self.deliver(handler, topic, data)
