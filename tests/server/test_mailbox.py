"""A table's inbox: first in, first out; bounded (a full one refuses, which the
table answers with ``table_busy``); its reader waits for the next item."""

from __future__ import annotations

import asyncio

import pytest

from server.mailbox import Mailbox


async def test_items_come_out_in_the_order_they_went_in() -> None:
    box: Mailbox[int] = Mailbox(10)
    for n in range(5):
        box.put_nowait(n)
    assert [await box.get() for _ in range(5)] == [0, 1, 2, 3, 4]


async def test_a_full_mailbox_refuses_until_its_reader_takes_one() -> None:
    box: Mailbox[str] = Mailbox(2)
    box.put_nowait("a")
    box.put_nowait("b")
    with pytest.raises(asyncio.QueueFull):
        box.put_nowait("c")
    assert await box.get() == "a"
    box.put_nowait("c")
    assert [await box.get(), await box.get()] == ["b", "c"]


async def test_the_reader_waits_for_the_next_item_and_can_be_cancelled() -> None:
    box: Mailbox[str] = Mailbox(2)
    reader = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    assert not reader.done()
    box.put_nowait("job")
    assert await asyncio.wait_for(reader, 1) == "job"
    idle = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    idle.cancel()
    with pytest.raises(asyncio.CancelledError):
        await idle
    box.put_nowait("later")  # a cancelled reader leaves the mailbox usable
    assert await box.get() == "later"
