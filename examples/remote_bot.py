"""A complete websocket bot: plays a random legal move at every table it is seated at.

Any language works the same way; this one uses Python and the ``websockets``
library.  Start a tournament with a remote seat, then this with the URL and the
token(s) the tournament prints (one per seat the bot takes at a table):

    cardtable tournament --game poker --options '{"seats": 2}' --bots equity \\
        --remote-seat mybot --port 8800
    python examples/remote_bot.py ws://127.0.0.1:8800/ TOKEN

The protocol is in docs/protocol.md ("Tournament seats" and "Playing").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The bot's brain: here, any legal action.  Put yours here."""
    return rng.choice(legal)


async def play(url: str, token: str, seed: int) -> None:
    """One session: say hello with the tournament token, then act whenever a
    frame for a table we are seated at offers legal actions on our turn (``to_act``
    names our seat; a frame may also offer actions allowed out of turn, such as a
    bridge claim, which this bot leaves alone)."""
    rng = random.Random(seed)
    seat_tokens: dict[int, str] = {}  # table -> the seat token its ``joined`` gave
    async with connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        try:
            async for raw in ws:
                msg = json.loads(raw)
                kind = msg.get("type")
                if kind == "joined":
                    seat_tokens[msg["table"]] = msg["seat_token"]
                elif kind in ("snapshot", "update") and msg.get("legal"):
                    table = msg["table"]
                    on_turn = msg.get("seat") in (msg.get("to_act") or [])
                    if table in seat_tokens and msg.get("status") == "live" and on_turn:
                        act = {
                            "type": "act",
                            "table": table,
                            "seat_token": seat_tokens[table],
                            "version": msg["version"],
                            "action": choose(msg["legal"], rng),
                        }
                        await ws.send(json.dumps(act))
                elif kind == "error" and msg.get("code") not in ("stale_version", "not_your_turn"):
                    print("error:", msg.get("code"), msg.get("message"), flush=True)
        except ConnectionClosed:
            pass  # the tournament ended (the server closes with 1001)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the server's websocket URL")
    parser.add_argument("tokens", nargs="+", help="the tournament's token(s) for this bot")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    await asyncio.gather(*(play(args.url, t, args.seed + i) for i, t in enumerate(args.tokens)))


if __name__ == "__main__":
    asyncio.run(main())
