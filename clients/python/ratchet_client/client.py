"""The synchronous client of Ratchet's HTTP API, on httpx."""

from __future__ import annotations

import time
from typing import Any, Iterator, Sequence

import httpx

from . import _protocol as p
from ._protocol import Call, Event, Request
from .errors import RatchetError, RatchetUnavailableError, TurnTimeoutError


class RatchetClient:
    """A client of one Ratchet server, authenticated with an API token.

    Requests that are safe to repeat (submitting a turn is idempotent by turn id, reads change
    nothing) are retried while Ratchet is unavailable: a connection error, a 502, 503 or 504, or a
    proxy's page instead of the API's JSON. A turn is awaited on its id until the caller's deadline
    (``turn_timeout``, 10 minutes unless told), through approvals and Ratchet restarts.
    """

    def __init__(self, base_url: str, token: str, *, timeout: float = 30.0,
                 turn_timeout: float | None = p.DEFAULT_TURN_TIMEOUT, retry_timeout: float = p.DEFAULT_RETRY_TIMEOUT,
                 poll_seconds: int = p.LONG_POLL_SECONDS,
                 http: httpx.Client | None = None) -> None:
        if not base_url:
            raise ValueError("base_url is required")
        if not token:
            raise ValueError("token is required")
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.turn_timeout = turn_timeout
        self.retry_timeout = retry_timeout
        self.poll_seconds = poll_seconds
        self._http = http or httpx.Client(timeout=timeout)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> RatchetClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _send(self, request: Request) -> Any:
        attempt = 0
        while True:
            try:
                timeout = self.timeout + (request.server_wait or 0)
                response = self._http.request(request.method, self.base_url + request.path, json=request.body,
                                              headers=p.headers(self.token), timeout=timeout)
                return p.read_answer(response.status_code, response.headers.get("content-type"), response.content)
            except httpx.TransportError as e:
                error: RatchetUnavailableError = p.unreachable(e)
            except RatchetUnavailableError as e:
                error = e
            delay = p.retry_delay(attempt, request)
            if delay is None:
                raise error
            time.sleep(delay)
            attempt += 1

    def _read(self, path: str) -> Any:
        return self._send(Request("GET", path, retry_until=p.deadline_in(self.retry_timeout)))

    def submit_turn(self, session_id: str, agent: str, turn_id: str, calls: Sequence[Call]) -> dict[str, Any]:
        """Submits one model response as a turn; the same (session, turn id) runs once.

        Answers ``{"status": "accepted", ...}`` while the turn runs (for example while a write
        waits for approval) or ``{"status": "completed", "results": ...}``.
        """
        answer: dict[str, Any] = self._send(p.turn_request(session_id, agent, turn_id, calls,
                                                           p.deadline_in(self.retry_timeout)))
        return answer

    def await_turn(self, session_id: str, turn_id: str, *, timeout: float | None = None) -> dict[str, Any]:
        """Waits for a turn's results by long-polling, until ``timeout`` seconds (default ``turn_timeout``).

        Ratchet restarting meanwhile is waited out on the same turn id; at the deadline raises
        TurnTimeoutError (the turn may still run)."""
        return self._await(session_id, turn_id, self.turn_timeout if timeout is None else timeout)

    def _await(self, session_id: str, turn_id: str, seconds: float | None,
               deadline: float | None = None) -> dict[str, Any]:
        deadline = p.deadline_in(seconds) if deadline is None else deadline
        last: RatchetError | None = None
        while time.monotonic() < deadline:
            try:
                answer = self._send(p.poll_request(session_id, turn_id, deadline, self.poll_seconds))
            except RatchetUnavailableError as e:
                last = e
                continue
            if p.completed(answer):
                result: dict[str, Any] = answer
                return result
        raise TurnTimeoutError(session_id, turn_id, seconds or 0.0, last)

    def run_turn(self, session_id: str, agent: str, turn_id: str, calls: Sequence[Call],
                 *, timeout: float | None = None) -> dict[str, Any]:
        """Submits a turn and waits for its results, both within ``timeout`` seconds (default ``turn_timeout``)."""
        seconds = self.turn_timeout if timeout is None else timeout
        deadline = p.deadline_in(seconds)
        try:
            submitted = self._send(p.turn_request(session_id, agent, turn_id, calls, deadline))
        except RatchetUnavailableError as e:
            raise TurnTimeoutError(session_id, turn_id, seconds or 0.0, e) from e
        if p.completed(submitted):
            result: dict[str, Any] = submitted
            return result
        return self._await(session_id, turn_id, seconds, deadline)

    def send_message(self, session_id: str, agent: str, text: str, *, message_id: str | None = None,
                     wait_seconds: int | None = None) -> dict[str, Any]:
        """Sends a user message to an agent that runs Ratchet's own loop (retried only with a message id)."""
        answer: dict[str, Any] = self._send(p.message_request(session_id, agent, text, message_id, wait_seconds,
                                                              p.deadline_in(self.retry_timeout)))
        return answer

    def messages(self, session_id: str) -> dict[str, Any]:
        """The session's conversation rebuilt from the journal."""
        answer: dict[str, Any] = self._read(f"/api/sessions/{p.quote(session_id)}/messages")
        return answer

    def session(self, session_id: str) -> dict[str, Any]:
        """The session's timeline (a token that may read sessions)."""
        answer: dict[str, Any] = self._read(f"/api/sessions/{p.quote(session_id)}")
        return answer

    def agents(self) -> list[dict[str, Any]]:
        """The agents this token may use."""
        answer: list[dict[str, Any]] = self._read("/api/agents")["agents"]
        return answer

    def tools(self, agent: str) -> list[dict[str, Any]]:
        """An agent's catalogue: name, description, effect class, approval rule and exact input schema."""
        answer: list[dict[str, Any]] = self._read(f"/api/agents/{p.quote(agent)}/tools")["tools"]
        return answer

    def approvals(self) -> list[dict[str, Any]]:
        """Pending approvals of the token's tenants (role viewer or approver)."""
        answer: list[dict[str, Any]] = self._read("/api/approvals")["approvals"]
        return answer

    def decide(self, session_id: str, call_id: str, *, arguments_hash: str, approved: bool,
               reason: str | None = None) -> dict[str, Any]:
        """Approves or rejects a waiting call (role approver); rejecting needs a reason, which the model is told."""
        answer: dict[str, Any] = self._send(Request("POST", f"/api/approvals/{p.quote(session_id)}/{p.quote(call_id)}",
                                                    p.decision_body(arguments_hash, approved, reason)))
        return answer

    def events(self, session_id: str, *, last_event_id: str | None = None) -> Iterator[Event]:
        """The session's events (server-sent events): past ones first, then live ones, resuming after drops."""
        last = last_event_id
        attempt = 0
        while True:
            request_headers = p.headers(self.token, "text/event-stream")
            if last:
                request_headers["Last-Event-ID"] = last
            try:
                with self._http.stream("GET", f"{self.base_url}/api/sessions/{p.quote(session_id)}/events",
                                       headers=request_headers, timeout=httpx.Timeout(self.timeout, read=None)) as r:
                    if r.status_code >= 400:
                        p.read_answer(r.status_code, r.headers.get("content-type"), r.read())
                    attempt = 0
                    for event in p.EventParser().feed(r.iter_lines()):
                        if event["id"]:
                            last = event["id"]
                        yield event
            except (httpx.TransportError, RatchetUnavailableError):
                pass
            time.sleep(p.retry_delay(attempt, Request("GET", "", retry_until=float("inf"))) or 0.1)
            attempt += 1
