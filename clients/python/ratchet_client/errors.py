"""Errors of the Ratchet API, of an unreachable Ratchet, and of tool calls that did not succeed."""

from __future__ import annotations

from typing import Any, Mapping


class RatchetError(Exception):
    """An error answered by the Ratchet API: the HTTP status and the API's error code (docs/HTTP-API.md)."""

    def __init__(self, status: int, code: str, message: str | None = None) -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.status = status
        self.code = code
        self.api_message = message

    @property
    def retryable(self) -> bool:
        """Whether the same request may be sent again as it is."""
        return False


class RatchetUnavailableError(RatchetError):
    """Ratchet could not be reached or did not answer as itself: a connection error, a 502, 503 or 504
    (Ratchet's own ``JOURNAL_UNAVAILABLE`` or a proxy's HTML page), or an answer that is not the API's JSON.

    ``code`` is the API's code when Ratchet answered one, else ``UNREACHABLE`` (no answer at all) or
    ``HTTP_<status>`` (a proxy's page). Idempotent requests are retried on it until their deadline.
    """

    @property
    def retryable(self) -> bool:
        return True


class TurnTimeoutError(RatchetError):
    """A turn did not complete before the caller's deadline. It may still run (for example, it waits
    for a person's approval): submitting or awaiting the same turn id later answers its results."""

    def __init__(self, session_id: str, turn_id: str, seconds: float, last_error: RatchetError | None = None) -> None:
        why = f"; last error: {last_error}" if last_error else ""
        super().__init__(408, "TURN_TIMEOUT",
                         f"turn '{turn_id}' of session '{session_id}' did not complete within {seconds:g} s; "
                         f"it may still run, and awaiting the same turn id later answers its results{why}")
        self.session_id = session_id
        self.turn_id = turn_id
        self.last_error = last_error


class MissingCallIdError(ValueError):
    """A tool call came without the model's call id: an adapter refuses to run it rather than risk
    merging it with an identical earlier call or running it twice on a replay."""


class ToolCallError(Exception):
    """A call that ended ``failed`` or ``outcome_unknown``; its message is Ratchet's text for the model."""

    def __init__(self, call: Mapping[str, Any]) -> None:
        super().__init__(call.get("error") or f"the call ended {call.get('outcome')}")
        self.call = dict(call)
        self.outcome: str = call.get("outcome", "")
        self.skipped: bool = bool(call.get("skipped"))
