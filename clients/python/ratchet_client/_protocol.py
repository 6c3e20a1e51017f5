"""What the sync and asyncio clients share: requests, how answers are read, and when to try again."""

from __future__ import annotations

import json
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping, Sequence, TypedDict

from .errors import RatchetError, RatchetUnavailableError, ToolCallError

VERSION = "0.2.0"
DEFAULT_TURN_TIMEOUT = 600.0
"""How long run_turn and await_turn wait for a turn by default, through approvals and Ratchet restarts."""
DEFAULT_RETRY_TIMEOUT = 60.0
"""How long a request that is safe to repeat is retried while Ratchet is unavailable, outside a turn wait."""
LONG_POLL_SECONDS = 30
_DELAYS = (0.1, 0.25, 0.5, 1.0, 2.0)


class Call(TypedDict, total=False):
    """One tool call of a turn."""

    name: str
    arguments: Mapping[str, Any]
    modelCallId: str


class Event(TypedDict):
    """One journaled event of a session's event stream."""

    id: str | None
    type: str
    data: Any


@dataclass(frozen=True)
class Request:
    """One API request and how long it may be tried again while Ratchet is unavailable."""

    method: str
    path: str
    body: Any = None
    retry_until: float | None = None
    """A time.monotonic() deadline for retries; None: never retried."""
    server_wait: int | None = None
    """Seconds the server may hold the answer (a long poll), on top of the client's timeout."""


def quote(segment: str) -> str:
    return urllib.parse.quote(segment, safe="")


def deadline_in(seconds: float | None) -> float:
    return float("inf") if seconds is None else time.monotonic() + seconds


def retry_delay(attempt: int, request: Request) -> float | None:
    """Seconds to wait before sending ``request`` again, or None when its deadline leaves no time."""
    if request.retry_until is None:
        return None
    delay = _DELAYS[min(attempt, len(_DELAYS) - 1)]
    left = request.retry_until - time.monotonic()
    return None if left <= 0 else min(delay, left)


def headers(token: str, accept: str = "application/json") -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "Accept": accept, "User-Agent": f"ratchet-client-python/{VERSION}"}


def unreachable(error: Exception) -> RatchetUnavailableError:
    return RatchetUnavailableError(0, "UNREACHABLE", f"{type(error).__name__}: {error}")


def read_answer(status: int, content_type: str | None, content: bytes) -> Any:
    """The answer's JSON, or a typed error: the API's code, or HTTP_<status> for a page that is not Ratchet's."""
    unavailable = status in (502, 503, 504)
    try:
        payload = json.loads(content.decode("utf-8")) if content else {}
    except ValueError:
        kind = (content_type or "no content type").split(";")[0]
        message = f"the server answered {status} with {kind}, not Ratchet's JSON (a proxy or gateway in between?)"
        if unavailable or 200 <= status < 300:
            raise RatchetUnavailableError(status, f"HTTP_{status}", message) from None
        raise RatchetError(status, f"HTTP_{status}", message) from None
    if status < 400:
        return payload
    code = payload.get("code") if isinstance(payload, dict) else None
    said = payload.get("message") if isinstance(payload, dict) else None
    error_type = RatchetUnavailableError if unavailable else RatchetError
    raise error_type(status, code if isinstance(code, str) else f"HTTP_{status}", said if isinstance(said, str) else None)


def turn_request(session_id: str, agent: str, turn_id: str, calls: Sequence[Call], retry_until: float) -> Request:
    return Request("POST", f"/api/sessions/{quote(session_id)}/turns",
                   {"agent": agent, "turn": {"turnId": turn_id, "calls": [dict(c) for c in calls]}},
                   retry_until=retry_until)


def poll_request(session_id: str, turn_id: str, deadline: float, poll_seconds: int) -> Request:
    left = deadline - time.monotonic()
    wait = poll_seconds if left == float("inf") else max(1, min(poll_seconds, int(left)))
    return Request("GET", f"/api/sessions/{quote(session_id)}/turns/{quote(turn_id)}?wait={wait}",
                   retry_until=deadline, server_wait=wait)


def completed(answer: Any) -> bool:
    return isinstance(answer, dict) and answer.get("status") == "completed"


def decision_body(arguments_hash: str, approved: bool, reason: str | None) -> dict[str, Any]:
    body: dict[str, Any] = {"argumentsHash": arguments_hash, "approved": approved}
    if reason:
        body["reason"] = reason
    return body


def message_request(session_id: str, agent: str, text: str, message_id: str | None, wait_seconds: int | None,
                    retry_until: float) -> Request:
    query = f"?wait={min(60, wait_seconds)}" if wait_seconds else ""
    body: dict[str, Any] = {"agent": agent, "text": text}
    if message_id:
        body["messageId"] = message_id
    return Request("POST", f"/api/sessions/{quote(session_id)}/messages{query}", body,
                   retry_until=retry_until if message_id else None,
                   server_wait=min(60, wait_seconds or 0))


def calls_of(turn_answer: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The records of a completed turn's calls, in the order of the turn."""
    return list((turn_answer.get("results") or {}).get("results") or [])


def value_of(call: Mapping[str, Any]) -> Any:
    """A call's result when it succeeded; otherwise raises ToolCallError with Ratchet's text for the model."""
    if call.get("outcome") == "succeeded":
        return call.get("result")
    raise ToolCallError(call)


def text_for_model(call: Mapping[str, Any]) -> str:
    """What a model reads for a call, the text Ratchet's own agent loop gives its model (docs/ADAPTERS.md):
    ``{"outcome":"succeeded","result":…}``, or the outcome and Ratchet's error (a person's reason for a rejection)."""
    text: dict[str, Any] = {"outcome": call.get("outcome")}
    if call.get("outcome") == "succeeded":
        if call.get("result") is not None:
            text["result"] = call.get("result")
    else:
        text["error"] = call.get("error")
        if call.get("skipped"):
            text["skipped"] = True
    return json.dumps(text, separators=(",", ":"), ensure_ascii=False)


class EventParser:
    """Reads a server-sent event stream line by line."""

    def __init__(self) -> None:
        self.event_id: str | None = None
        self.event_type: str | None = None
        self.data: list[str] = []

    def feed(self, lines: Iterable[str]) -> Iterator[Event]:
        for line in lines:
            event = self.line(line)
            if event is not None:
                yield event

    def line(self, line: str) -> Event | None:
        line = line.rstrip("\r\n")
        if line == "":
            event: Event | None = None
            if self.data:
                text = "\n".join(self.data)
                try:
                    parsed: Any = json.loads(text)
                except ValueError:
                    parsed = text
                event = {"id": self.event_id, "type": self.event_type or "message", "data": parsed}
            self.event_type, self.data = None, []
            return event
        if not line.startswith(":"):
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "id":
                self.event_id = value
            elif field == "event":
                self.event_type = value
            elif field == "data":
                self.data.append(value)
        return None
