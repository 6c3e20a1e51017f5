"""A synchronous client of Ratchet's HTTP API, on the standard library only."""

from __future__ import annotations

import json
import math
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Iterator, Mapping, Sequence, TypedDict

from .errors import RatchetError, ToolCallError

_RETRY_DELAYS = (0.2, 0.5, 1.0, 2.0, 4.0)
_LONG_POLL_SECONDS = 30


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


def _quote(segment: str) -> str:
    return urllib.parse.quote(segment, safe="")


def calls_of(turn_answer: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The records of a completed turn's calls, in the order of the turn."""
    return list((turn_answer.get("results") or {}).get("results") or [])


def value_of(call: Mapping[str, Any]) -> Any:
    """A call's result when it succeeded; otherwise raises ToolCallError with Ratchet's text for the model."""
    if call.get("outcome") == "succeeded":
        return call.get("result")
    raise ToolCallError(call)


class RatchetClient:
    """A client of one Ratchet server, authenticated with an API token.

    Submitting a turn is idempotent by turn id, so requests that change nothing twice are retried
    on network errors and 502/503/504 answers with the same body.
    """

    def __init__(self, base_url: str, token: str, *, timeout: float = 75.0) -> None:
        if not base_url:
            raise ValueError("base_url is required")
        if not token:
            raise ValueError("token is required")
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def _request(self, method: str, path: str, body: Any = None, *, retry: bool = True) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        attempt = 0
        while True:
            request = urllib.request.Request(self.base_url + path, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    text = response.read().decode("utf-8")
                    return response.status, json.loads(text) if text else {}
            except urllib.error.HTTPError as e:
                text = e.read().decode("utf-8", errors="replace")
                try:
                    payload = json.loads(text) if text else {}
                except ValueError:
                    payload = {}
                error = RatchetError(e.code, payload.get("code") or f"HTTP_{e.code}", payload.get("message"))
                if not retry or not error.retryable or attempt >= len(_RETRY_DELAYS):
                    raise error from None
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if not retry or attempt >= len(_RETRY_DELAYS):
                    raise
            time.sleep(_RETRY_DELAYS[attempt])
            attempt += 1

    def submit_turn(self, session_id: str, agent: str, turn_id: str, calls: Sequence[Call]) -> dict[str, Any]:
        """Submits one model response as a turn; the same (session, turn id) runs once.

        Answers ``{"status": "accepted", ...}`` while the turn runs (for example while a write
        waits for approval) or ``{"status": "completed", "results": ...}``.
        """
        _, body = self._request("POST", f"/api/sessions/{_quote(session_id)}/turns",
                                {"agent": agent, "turn": {"turnId": turn_id, "calls": [dict(c) for c in calls]}})
        return body

    def await_turn(self, session_id: str, turn_id: str, *, timeout: float | None = None) -> dict[str, Any]:
        """Waits for a turn's results by long-polling; without ``timeout`` as long as an approval takes."""
        deadline = math.inf if timeout is None else time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise RatchetError(408, "TIMEOUT", f"turn '{turn_id}' did not complete in {timeout} s")
            wait = _LONG_POLL_SECONDS if left == math.inf else max(1, min(_LONG_POLL_SECONDS, int(left)))
            status, body = self._request(
                "GET", f"/api/sessions/{_quote(session_id)}/turns/{_quote(turn_id)}?wait={wait}")
            if status == 200 and body.get("status") == "completed":
                return body

    def run_turn(self, session_id: str, agent: str, turn_id: str, calls: Sequence[Call],
                 *, timeout: float | None = None) -> dict[str, Any]:
        """Submits a turn and waits for its results."""
        submitted = self.submit_turn(session_id, agent, turn_id, calls)
        if submitted.get("status") == "completed":
            return submitted
        return self.await_turn(session_id, turn_id, timeout=timeout)

    def send_message(self, session_id: str, agent: str, text: str, *, message_id: str | None = None,
                     wait_seconds: int | None = None) -> dict[str, Any]:
        """Sends a user message to an agent that runs Ratchet's own loop."""
        query = f"?wait={min(60, wait_seconds)}" if wait_seconds else ""
        body: dict[str, Any] = {"agent": agent, "text": text}
        if message_id:
            body["messageId"] = message_id
        _, answer = self._request("POST", f"/api/sessions/{_quote(session_id)}/messages{query}", body,
                                  retry=message_id is not None)
        return answer

    def messages(self, session_id: str) -> dict[str, Any]:
        """The session's conversation rebuilt from the journal."""
        return self._request("GET", f"/api/sessions/{_quote(session_id)}/messages")[1]

    def session(self, session_id: str) -> dict[str, Any]:
        """The session's timeline (a token that may read sessions)."""
        return self._request("GET", f"/api/sessions/{_quote(session_id)}")[1]

    def agents(self) -> list[dict[str, Any]]:
        """The agents this token may use."""
        return self._request("GET", "/api/agents")[1]["agents"]

    def tools(self, agent: str) -> list[dict[str, Any]]:
        """An agent's catalogue: name, description, effect class, approval rule and exact input schema."""
        return self._request("GET", f"/api/agents/{_quote(agent)}/tools")[1]["tools"]

    def approvals(self) -> list[dict[str, Any]]:
        """Pending approvals of the token's tenants (role viewer or approver)."""
        return self._request("GET", "/api/approvals")[1]["approvals"]

    def decide(self, session_id: str, call_id: str, *, arguments_hash: str, approved: bool,
               reason: str | None = None) -> dict[str, Any]:
        """Approves or rejects a waiting call (role approver); rejecting needs a reason, which the model is told."""
        body: dict[str, Any] = {"argumentsHash": arguments_hash, "approved": approved}
        if reason:
            body["reason"] = reason
        return self._request("POST", f"/api/approvals/{_quote(session_id)}/{_quote(call_id)}", body,
                             retry=False)[1]

    def events(self, session_id: str, *, last_event_id: str | None = None) -> Iterator[Event]:
        """The session's events (server-sent events): past ones first, then live ones, resuming after drops."""
        last = last_event_id
        attempt = 0
        while True:
            headers = {"Authorization": f"Bearer {self.token}", "Accept": "text/event-stream"}
            if last:
                headers["Last-Event-ID"] = last
            request = urllib.request.Request(f"{self.base_url}/api/sessions/{_quote(session_id)}/events",
                                             headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    attempt = 0
                    for event in _parse_event_stream(response):
                        if event["id"]:
                            last = event["id"]
                        yield event
            except urllib.error.HTTPError as e:
                payload = json.loads(e.read().decode("utf-8") or "{}")
                raise RatchetError(e.code, payload.get("code") or f"HTTP_{e.code}", payload.get("message")) from None
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(_RETRY_DELAYS[min(attempt, len(_RETRY_DELAYS) - 1)])
            attempt += 1


def _parse_event_stream(lines: Any) -> Iterator[Event]:
    event_id: str | None = None
    event_type: str | None = None
    data: list[str] = []
    for raw in lines:
        line = raw.decode("utf-8").rstrip("\r\n")
        if line == "":
            if data:
                text = "\n".join(data)
                try:
                    parsed: Any = json.loads(text)
                except ValueError:
                    parsed = text
                yield {"id": event_id, "type": event_type or "message", "data": parsed}
            event_type, data = None, []
        elif not line.startswith(":"):
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "id":
                event_id = value
            elif field == "event":
                event_type = value
            elif field == "data":
                data.append(value)
