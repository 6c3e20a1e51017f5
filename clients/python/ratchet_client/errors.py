"""Errors of the Ratchet API and of tool calls that did not succeed."""

from __future__ import annotations

from typing import Any, Mapping


class RatchetError(Exception):
    """An error answered by the Ratchet API: the HTTP status and the API's error code."""

    def __init__(self, status: int, code: str, message: str | None = None) -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.status = status
        self.code = code
        self.api_message = message

    @property
    def retryable(self) -> bool:
        """Whether the same request may be sent again as it is."""
        return self.status in (502, 503, 504)


class ToolCallError(Exception):
    """A call that ended ``failed`` or ``outcome_unknown``; its message is Ratchet's text for the model."""

    def __init__(self, call: Mapping[str, Any]) -> None:
        super().__init__(call.get("error") or f"the call ended {call.get('outcome')}")
        self.call = dict(call)
        self.outcome: str = call.get("outcome", "")
        self.skipped: bool = bool(call.get("skipped"))
