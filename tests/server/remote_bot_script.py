"""A websocket bot for the tournament tests: speaks the public protocol, plays
the first legal action, and with --quit-after N drops its connection after N
actions (a remote bot that goes away mid-tournament); with --slow S it waits S
seconds before each action (one that runs out of time); with --illegal-first it
sends an action the rules refuse before each legal one (a buggy bot)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


async def play(url: str, token: str, quit_after: int | None, slow: float,
               illegal_first: bool = False) -> int:
    acted = 0
    seat_tokens: dict[int, str] = {}
    async with connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "id": 1, "protocol": 1, "token": token}))
        try:
            async for raw in ws:
                msg = json.loads(raw)
                if msg["type"] == "welcome":
                    assert msg["resumed"] is True, msg
                elif msg["type"] == "joined":
                    assert "id" not in msg, msg  # pushed by the tournament, not asked for
                    seat_tokens[msg["table"]] = msg["seat_token"]
                elif (
                    msg["type"] in ("snapshot", "update")
                    and msg.get("legal")
                    and msg["table"] in seat_tokens
                    and msg["status"] == "live"
                ):
                    if quit_after is not None and acted >= quit_after:
                        return acted  # leaves the connection: a disconnect
                    await asyncio.sleep(slow)  # thinking past the budget: a time-out
                    if illegal_first:
                        await ws.send(json.dumps({
                            "type": "act", "table": msg["table"],
                            "seat_token": seat_tokens[msg["table"]], "version": msg["version"],
                            "action": {"type": "no_such_move"}}))
                    await ws.send(
                        json.dumps(
                            {
                                "type": "act",
                                "table": msg["table"],
                                "seat_token": seat_tokens[msg["table"]],
                                "version": msg["version"],
                                "action": msg["legal"][0],
                            }
                        )
                    )
                    acted += 1
        except ConnectionClosed:
            pass
    return acted


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("url")
    p.add_argument("token")
    p.add_argument("--quit-after", type=int)
    p.add_argument("--slow", type=float, default=0.0, help="seconds to wait before acting")
    p.add_argument("--illegal-first", action="store_true")
    args = p.parse_args()
    acted = asyncio.run(play(args.url, args.token, args.quit_after, args.slow,
                             args.illegal_first))
    print(f"acted {acted}", flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
