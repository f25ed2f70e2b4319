"""The one error type a rejected action or bad option raises."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action or option the rules reject.

    ``code`` is a stable machine-readable identifier (``must_follow_suit``,
    ``not_your_turn``, ``bad_option`` ...); ``message`` is for humans and never
    names a card the receiver may not see.  Raising it leaves the state as it was.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
