"""Inbound frames of the common kind, read without the protocol library's parser.

A client's request is one unfragmented, masked text frame.  While the library's
parser stands at a frame boundary (nothing buffered, no fragmented message open,
no extension, no debug logging), whole frames of that kind at the head of the
bytes received are unmasked here and put in the library's message queue, as its
parser would put them.  Everything else (control frames, fragments, a frame cut
by the read, anything malformed or too big) goes to the library from the first
byte not taken here, so its checks, its replies and its close codes stay its own.
"""

from __future__ import annotations

from websockets.asyncio.server import ServerConnection
from websockets.frames import Frame, Opcode
from websockets.protocol import State

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - the library ships its C speedups for CPython
    from websockets.utils import apply_mask

_FIN_TEXT = 0x81  # FIN set, no reserved bit, opcode 1 (RFC 6455, 5.2)
_MASKED = 0x80


def take_text_frames(data: bytes, max_size: int | None) -> tuple[list[bytes], int]:
    """The unmasked payloads of the whole, masked, unfragmented text frames at the
    head of ``data`` (each at most ``max_size`` bytes), and where the rest begins."""
    payloads: list[bytes] = []
    i, end_of_data = 0, len(data)
    while end_of_data - i >= 6:
        second = data[i + 1]
        if data[i] != _FIN_TEXT or second < _MASKED:
            break
        size, head = second & 0x7F, i + 2
        if size == 126:
            size, head = int.from_bytes(data[head : head + 2], "big"), head + 2
        elif size == 127:
            break  # 64-bit lengths are rare and large: the library's
        start = head + 4
        end = start + size
        if end > end_of_data or (max_size is not None and size > max_size):
            break
        payloads.append(apply_mask(data[start:end], data[head:start]))
        i = end
    return payloads, i


class RequestConnection(ServerConnection):
    """The library's server connection, with the common request frame read here
    (its parser's share of a durable action was about 3% of the instructions)."""

    def data_received(self, data: bytes) -> None:
        protocol = self.protocol
        if (
            protocol.state is State.OPEN
            and not protocol.reader.buffer
            and protocol.current_size is None
            and not protocol.extensions
            and not protocol.debug
            and not self.recv_messages.closed
        ):
            payloads, used = take_text_frames(data, protocol.max_message_size)
            for payload in payloads:
                self.recv_messages.put(Frame(Opcode.TEXT, payload))
            if used == len(data):
                return
            data = data[used:]
        super().data_received(data)
