"""The asyncio client of Ratchet's HTTP API, on httpx: native coroutines, no thread per waiting call."""

from __future__ import annotations

import asyncio
import time
from typing import Any, AsyncIterator, Sequence

import httpx

from . import _protocol as p
from ._protocol import Call, Event, Request
from .errors import RatchetError, RatchetUnavailableError, TurnTimeoutError


class AsyncRatchetClient:
    """The operations of RatchetClient as coroutines, with the same retries and turn deadlines."""

    def __init__(self, base_url: str, token: str, *, timeout: float = 30.0,
                 turn_timeout: float | None = p.DEFAULT_TURN_TIMEOUT, retry_timeout: float = p.DEFAULT_RETRY_TIMEOUT,
                 poll_seconds: int = p.LONG_POLL_SECONDS,
                 http: httpx.AsyncClient | None = None) -> None:
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
        self._http = http or httpx.AsyncClient(timeout=timeout)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncRatchetClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def _send(self, request: Request) -> Any:
        attempt = 0
        while True:
            try:
                timeout = self.timeout + (request.server_wait or 0)
                response = await self._http.request(request.method, self.base_url + request.path, json=request.body,
                                                    headers=p.headers(self.token), timeout=timeout)
                return p.read_answer(response.status_code, response.headers.get("content-type"), response.content)
            except httpx.TransportError as e:
                error: RatchetUnavailableError = p.unreachable(e)
            except RatchetUnavailableError as e:
                error = e
            delay = p.retry_delay(attempt, request)
            if delay is None:
                raise error
            await asyncio.sleep(delay)
            attempt += 1

    async def _read(self, path: str) -> Any:
        return await self._send(Request("GET", path, retry_until=p.deadline_in(self.retry_timeout)))

    async def submit_turn(self, session_id: str, agent: str, turn_id: str, calls: Sequence[Call]) -> dict[str, Any]:
        """Submits one model response as a turn; the same (session, turn id) runs once."""
        answer: dict[str, Any] = await self._send(p.turn_request(session_id, agent, turn_id, calls,
                                                                 p.deadline_in(self.retry_timeout)))
        return answer

    async def await_turn(self, session_id: str, turn_id: str, *, timeout: float | None = None) -> dict[str, Any]:
        """Waits for a turn's results until ``timeout`` seconds (default ``turn_timeout``), through restarts."""
        return await self._await(session_id, turn_id, self.turn_timeout if timeout is None else timeout)

    async def _await(self, session_id: str, turn_id: str, seconds: float | None,
                     deadline: float | None = None) -> dict[str, Any]:
        deadline = p.deadline_in(seconds) if deadline is None else deadline
        last: RatchetError | None = None
        while time.monotonic() < deadline:
            try:
                answer = await self._send(p.poll_request(session_id, turn_id, deadline, self.poll_seconds))
            except RatchetUnavailableError as e:
                last = e
                continue
            if p.completed(answer):
                result: dict[str, Any] = answer
                return result
        raise TurnTimeoutError(session_id, turn_id, seconds or 0.0, last)

    async def run_turn(self, session_id: str, agent: str, turn_id: str, calls: Sequence[Call],
                       *, timeout: float | None = None) -> dict[str, Any]:
        """Submits a turn and waits for its results, both within ``timeout`` seconds (default ``turn_timeout``)."""
        seconds = self.turn_timeout if timeout is None else timeout
        deadline = p.deadline_in(seconds)
        try:
            submitted = await self._send(p.turn_request(session_id, agent, turn_id, calls, deadline))
        except RatchetUnavailableError as e:
            raise TurnTimeoutError(session_id, turn_id, seconds or 0.0, e) from e
        if p.completed(submitted):
            result: dict[str, Any] = submitted
            return result
        return await self._await(session_id, turn_id, seconds, deadline)

    async def send_message(self, session_id: str, agent: str, text: str, *, message_id: str | None = None,
                           wait_seconds: int | None = None) -> dict[str, Any]:
        """Sends a user message to an agent that runs Ratchet's own loop (retried only with a message id)."""
        answer: dict[str, Any] = await self._send(p.message_request(session_id, agent, text, message_id, wait_seconds,
                                                                    p.deadline_in(self.retry_timeout)))
        return answer

    async def messages(self, session_id: str) -> dict[str, Any]:
        """The session's conversation rebuilt from the journal."""
        answer: dict[str, Any] = await self._read(f"/api/sessions/{p.quote(session_id)}/messages")
        return answer

    async def session(self, session_id: str) -> dict[str, Any]:
        """The session's timeline (a token that may read sessions)."""
        answer: dict[str, Any] = await self._read(f"/api/sessions/{p.quote(session_id)}")
        return answer

    async def agents(self) -> list[dict[str, Any]]:
        """The agents this token may use."""
        answer: list[dict[str, Any]] = (await self._read("/api/agents"))["agents"]
        return answer

    async def tools(self, agent: str) -> list[dict[str, Any]]:
        """An agent's catalogue: name, description, effect class, approval rule and exact input schema."""
        answer: list[dict[str, Any]] = (await self._read(f"/api/agents/{p.quote(agent)}/tools"))["tools"]
        return answer

    async def approvals(self) -> list[dict[str, Any]]:
        """Pending approvals of the token's tenants (role viewer or approver)."""
        answer: list[dict[str, Any]] = (await self._read("/api/approvals"))["approvals"]
        return answer

    async def decide(self, session_id: str, call_id: str, *, arguments_hash: str, approved: bool,
                     reason: str | None = None) -> dict[str, Any]:
        """Approves or rejects a waiting call (role approver); rejecting needs a reason, which the model is told."""
        answer: dict[str, Any] = await self._send(
            Request("POST", f"/api/approvals/{p.quote(session_id)}/{p.quote(call_id)}",
                    p.decision_body(arguments_hash, approved, reason)))
        return answer

    async def events(self, session_id: str, *, last_event_id: str | None = None) -> AsyncIterator[Event]:
        """The session's events (server-sent events): past ones first, then live ones, resuming after drops."""
        last = last_event_id
        attempt = 0
        while True:
            request_headers = p.headers(self.token, "text/event-stream")
            if last:
                request_headers["Last-Event-ID"] = last
            try:
                async with self._http.stream("GET", f"{self.base_url}/api/sessions/{p.quote(session_id)}/events",
                                             headers=request_headers,
                                             timeout=httpx.Timeout(self.timeout, read=None)) as r:
                    if r.status_code >= 400:
                        p.read_answer(r.status_code, r.headers.get("content-type"), await r.aread())
                    attempt = 0
                    parser = p.EventParser()
                    async for line in r.aiter_lines():
                        event = parser.line(line)
                        if event is not None:
                            if event["id"]:
                                last = event["id"]
                            yield event
            except (httpx.TransportError, RatchetUnavailableError):
                pass
            await asyncio.sleep(p.retry_delay(attempt, Request("GET", "", retry_until=float("inf"))) or 0.1)
            attempt += 1
