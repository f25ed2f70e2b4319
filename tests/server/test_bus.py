"""The bus conformance suite, run on both implementations: the in-process bus and
the MQTT 5 bus against the real Mosquitto on 127.0.0.1:1883 (each test under its
own topic prefix, so parallel runs never see each other's messages)."""

from __future__ import annotations

import asyncio
import getpass
import logging
import socket
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from server.bus import Bus, BusUnavailable, LocalBus, LocalHub, make_bus
from server.bus.mqtt import Broker, MqttBus, parse_mqtt_url, shown_bus
from server.lifeline import set_parent_death_signal
from tests.server.serverproc import ROOT, free_port

BROKER = ("127.0.0.1", 1883)
Factory = Callable[..., Awaitable[Bus]]


class Inbox:
    """What one subscription received, in order."""

    def __init__(self) -> None:
        self.got: list[tuple[str, bytes]] = []
        self.changed = asyncio.Event()

    def __call__(self, topic: str, payload: bytes) -> None:
        self.got.append((topic, payload))
        self.changed.set()

    async def wait_for(self, count: int, timeout: float = 5.0) -> list[tuple[str, bytes]]:
        async def enough() -> None:
            while len(self.got) < count:
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(enough(), timeout)
        return self.got


@pytest.fixture(params=["local", "mqtt"])
async def bus_factory(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Factory, str]]:
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    made: list[Bus] = []
    hub = LocalHub()

    async def make(will: tuple[str, bytes] | None = None) -> Bus:
        bus: Bus
        if request.param == "local":
            bus = LocalBus(hub, will=will)
        else:
            bus = MqttBus(*BROKER, client_id=f"{prefix}-{len(made)}", will=will)
        await bus.start()
        assert bus.connected
        made.append(bus)
        return bus

    yield make, prefix
    for bus in made:
        await bus.close()
    if request.param == "mqtt":  # leave no retained messages behind on the shared broker
        cleaner = MqttBus(*BROKER)
        await cleaner.start()
        for topic in ("r", "r/gone", "will"):
            cleaner.publish(f"{prefix}/{topic}", b"", retain=True)
        await asyncio.sleep(0.2)
        await cleaner.close()


async def settle(a: Bus, b: Bus, prefix: str) -> None:
    """Publish a marker from ``a`` and wait until ``b`` has it: everything ``a``
    published before has been delivered to ``b`` by then (in-order delivery)."""
    marker = Inbox()
    await b.subscribe(f"{prefix}/marker", marker)
    a.publish(f"{prefix}/marker", b"!")
    await marker.wait_for(1)
    await b.unsubscribe(f"{prefix}/marker")


async def test_messages_arrive_in_order(bus_factory: tuple[Factory, str]) -> None:
    make, prefix = bus_factory
    a, b = await make(), await make()
    inbox = Inbox()
    await b.subscribe(f"{prefix}/t", inbox)
    for i in range(200):
        a.publish(f"{prefix}/t", str(i).encode())
    got = await inbox.wait_for(200)
    assert [p for _, p in got] == [str(i).encode() for i in range(200)]
    assert {t for t, _ in got} == {f"{prefix}/t"}


async def test_wildcards_match_as_mqtt_does(bus_factory: tuple[Factory, str]) -> None:
    make, prefix = bus_factory
    a, b = await make(), await make()
    one, rest = Inbox(), Inbox()
    await b.subscribe(f"{prefix}/n/+/frames", one)
    await b.subscribe(f"{prefix}/lobby/#", rest)
    for topic in ("n/x/frames", "n/x/y/frames", "n/x/other", "lobby/a", "lobby/a/events", "lob"):
        a.publish(f"{prefix}/{topic}", topic.encode())
    await settle(a, b, prefix)
    assert [p for _, p in one.got] == [b"n/x/frames"]
    assert [p for _, p in rest.got] == [b"lobby/a", b"lobby/a/events"]


async def test_retained_reaches_later_subscribers_until_cleared(
    bus_factory: tuple[Factory, str],
) -> None:
    make, prefix = bus_factory
    a = await make()
    a.publish(f"{prefix}/r", b"first", retain=True)
    a.publish(f"{prefix}/r", b"second", retain=True)
    a.publish(f"{prefix}/r/gone", b"x", retain=True)
    a.publish(f"{prefix}/r/gone", b"", retain=True)
    b = await make()
    await settle(a, b, prefix)
    inbox = Inbox()
    await b.subscribe(f"{prefix}/r/#", inbox)
    got = await inbox.wait_for(1)
    await settle(a, b, prefix)
    assert got == [(f"{prefix}/r", b"second")]


async def test_unsubscribe_stops_delivery(bus_factory: tuple[Factory, str]) -> None:
    make, prefix = bus_factory
    a, b = await make(), await make()
    inbox = Inbox()
    await b.subscribe(f"{prefix}/u", inbox)
    a.publish(f"{prefix}/u", b"1")
    await inbox.wait_for(1)
    await b.unsubscribe(f"{prefix}/u")
    a.publish(f"{prefix}/u", b"2")
    await settle(a, b, prefix)
    assert [p for _, p in inbox.got] == [b"1"]


async def test_a_failing_handler_drops_only_its_message(bus_factory: tuple[Factory, str]) -> None:
    make, prefix = bus_factory
    a, b = await make(), await make()
    inbox = Inbox()

    def picky(topic: str, payload: bytes) -> None:
        payload.decode("utf-8")  # raises on the malformed one
        inbox(topic, payload)

    await b.subscribe(f"{prefix}/p", picky)
    for payload in (b"ok", b"\xff\xfe not utf-8", b"", b"still ok"):
        a.publish(f"{prefix}/p", payload)
    got = await inbox.wait_for(3)
    assert [p for _, p in got] == [b"ok", b"", b"still ok"]


async def test_publishing_after_close_refuses(bus_factory: tuple[Factory, str]) -> None:
    make, prefix = bus_factory
    a = await make()
    await a.close()
    assert not a.connected
    with pytest.raises(BusUnavailable):
        a.publish(f"{prefix}/x", b"lost")


async def test_the_last_will_is_published_when_a_member_dies(
    bus_factory: tuple[Factory, str], request: pytest.FixtureRequest
) -> None:
    make, prefix = bus_factory
    watcher = await make()
    inbox = Inbox()
    await watcher.subscribe(f"{prefix}/will", inbox)
    will = (f"{prefix}/will", b"offline")
    if isinstance(watcher, LocalBus):
        member = await make(will=will)
        assert isinstance(member, LocalBus)
        member.crash()
    else:
        # A real process connected with a will, killed with SIGKILL.
        code = (
            "import asyncio,sys\n"
            "from server.bus.mqtt import MqttBus\n"
            "async def main():\n"
            f"    b = MqttBus('127.0.0.1', 1883, will=({will[0]!r}, b'offline'))\n"
            "    await b.start()\n"
            "    print('up', flush=True)\n"
            "    await asyncio.sleep(60)\n"
            "asyncio.run(main())\n"
        )
        proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE)
        try:
            assert proc.stdout is not None
            line = await asyncio.to_thread(proc.stdout.readline)
            assert line.strip() == b"up"
            proc.kill()
        finally:
            proc.wait(10)
            if proc.stdout is not None:
                proc.stdout.close()
    got = await inbox.wait_for(1, timeout=15)
    assert got == [will]


def test_mqtt_urls() -> None:
    assert parse_mqtt_url("mqtt://127.0.0.1:1884") == Broker("127.0.0.1", 1884)
    assert parse_mqtt_url("mqtt://broker") == Broker("broker", 1883)
    # A login, its password percent-decoded as in any URL.
    assert parse_mqtt_url("mqtt://node1:p%40ss@broker:1884") == Broker(
        "broker", 1884, "node1", "p@ss")
    assert "p@ss" not in repr(parse_mqtt_url("mqtt://node1:p%40ss@broker"))
    assert shown_bus("mqtt://node1:p%40ss@broker:1884") == "mqtt://node1:***@broker:1884"
    assert shown_bus("mqtt://broker:1884") == "mqtt://broker:1884"
    for bad in ("http://x:1", "mqtt://", "127.0.0.1:1883", "mqtt://h:port", "mqtt://h:99999",
                "mqtt://h:1/topic"):
        with pytest.raises(ValueError, match="not an mqtt://"):
            parse_mqtt_url(bad)
    with pytest.raises(ValueError) as err:
        parse_mqtt_url("mqtts://node1:secret@broker")
    assert "secret" not in str(err.value)


async def test_a_broker_that_asks_for_a_login_gets_the_urls(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A broker with a password file: the node logs in with the URL's user and
    password; without them it is refused, and says why."""
    secrets_file = tmp_path / "passwords"
    subprocess.run(["mosquitto_passwd", "-b", "-c", str(secrets_file), "node1", "s3cret"],
                   check=True, capture_output=True)
    port = free_port()
    conf = tmp_path / "mosquitto.conf"
    # As root, mosquitto becomes another user unless told not to, and that one
    # cannot read the test's own directory.
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous false\n"
                    f"password_file {secrets_file}\npersistence false\n"
                    f"user {getpass.getuser()}\n")
    broker = subprocess.Popen(["mosquitto", "-c", str(conf)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, preexec_fn=set_parent_death_signal)
    try:
        for _ in range(100):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert broker.poll() is None, broker.stderr.read() if broker.stderr else ""
            await asyncio.sleep(0.05)
        member = make_bus(f"mqtt://node1:s3cret@127.0.0.1:{port}", "n1")
        await member.start()
        try:
            assert member.connected
        finally:
            await member.close()
        stranger = make_bus(f"mqtt://127.0.0.1:{port}", "n2")
        with caplog.at_level(logging.WARNING, "cardtable.bus"):
            await stranger.start(wait=1.0)
        try:
            assert not stranger.connected
            assert "not reachable yet ([code:135] Not authorized)" in caplog.text
        finally:
            await stranger.close()
    finally:
        broker.terminate()
        broker.wait(10)


class Cuttable:
    """A TCP relay to the broker whose connections the test can cut."""

    def __init__(self) -> None:
        self.server: asyncio.Server | None = None
        self.links: list[asyncio.StreamWriter] = []
        self.port = 0

    async def open(self) -> None:
        self.server = await asyncio.start_server(self._link, "127.0.0.1", self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        assert self.server is not None
        self.server.close()
        for w in self.links:
            w.transport.abort()
        self.links.clear()
        await self.server.wait_closed()

    async def _link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_r, up_w = await asyncio.open_connection(*BROKER)
        self.links += [writer, up_w]

        async def pump(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
            try:
                while data := await r.read(65536):
                    w.write(data)
                    await w.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                w.transport.abort()

        await asyncio.gather(pump(reader, up_w), pump(up_r, writer))


async def test_mqtt_reconnects_and_resubscribes_after_losing_the_broker() -> None:
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    relay = Cuttable()
    await relay.open()
    bus = MqttBus("127.0.0.1", relay.port, max_backoff=0.2)
    peer = MqttBus(*BROKER)
    reconnected = asyncio.Event()
    try:
        await bus.start()
        await peer.start()
        inbox = Inbox()
        await bus.subscribe(f"{prefix}/x", inbox)
        peer.publish(f"{prefix}/x", b"before")
        await inbox.wait_for(1)
        await relay.cut()
        for _ in range(100):
            if not bus.connected:
                break
            await asyncio.sleep(0.05)
        assert not bus.connected
        with pytest.raises(BusUnavailable):
            bus.publish(f"{prefix}/x", b"lost")
        bus.on_connect = reconnected.set
        await relay.open()
        await asyncio.wait_for(reconnected.wait(), 10)
        peer.publish(f"{prefix}/x", b"after")
        got: Any = await inbox.wait_for(2)
        assert [p for _, p in got] == [b"before", b"after"]
    finally:
        await bus.close()
        await peer.close()
        await relay.cut()


async def test_a_shared_subscription_gives_each_message_to_one_member(
    bus_factory: tuple[Factory, str],
) -> None:
    make, prefix = bus_factory
    publisher, one, two = await make(), await make(), await make()
    first, second = Inbox(), Inbox()
    await one.subscribe(f"$share/workers/{prefix}/jobs", first)
    await two.subscribe(f"$share/workers/{prefix}/jobs", second)
    for i in range(40):
        publisher.publish(f"{prefix}/jobs", str(i).encode())
    for _ in range(100):
        if len(first.got) + len(second.got) >= 40:
            break
        await asyncio.sleep(0.05)
    await settle(publisher, one, prefix)
    await settle(publisher, two, prefix)
    got = sorted(int(p) for _, p in first.got + second.got)
    assert got == list(range(40))  # every message once, to one member
    assert first.got and second.got  # shared between the members
