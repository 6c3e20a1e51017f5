"""The asyncio face of the client: each request runs in a worker thread, so no event loop blocks."""

from __future__ import annotations

import asyncio
from typing import Any, Sequence

from .client import Call, RatchetClient


class AsyncRatchetClient:
    """The same operations as RatchetClient, as coroutines."""

    def __init__(self, base_url: str, token: str, *, timeout: float = 75.0) -> None:
        self.sync = RatchetClient(base_url, token, timeout=timeout)

    async def submit_turn(self, session_id: str, agent: str, turn_id: str, calls: Sequence[Call]) -> dict[str, Any]:
        return await asyncio.to_thread(self.sync.submit_turn, session_id, agent, turn_id, calls)

    async def await_turn(self, session_id: str, turn_id: str, *, timeout: float | None = None) -> dict[str, Any]:
        return await asyncio.to_thread(self.sync.await_turn, session_id, turn_id, timeout=timeout)

    async def run_turn(self, session_id: str, agent: str, turn_id: str, calls: Sequence[Call],
                       *, timeout: float | None = None) -> dict[str, Any]:
        return await asyncio.to_thread(self.sync.run_turn, session_id, agent, turn_id, calls, timeout=timeout)

    async def send_message(self, session_id: str, agent: str, text: str, *, message_id: str | None = None,
                           wait_seconds: int | None = None) -> dict[str, Any]:
        return await asyncio.to_thread(self.sync.send_message, session_id, agent, text, message_id=message_id,
                                       wait_seconds=wait_seconds)

    async def tools(self, agent: str) -> list[dict[str, Any]]:
        return await asyncio.to_thread(self.sync.tools, agent)

    async def approvals(self) -> list[dict[str, Any]]:
        return await asyncio.to_thread(self.sync.approvals)

    async def decide(self, session_id: str, call_id: str, *, arguments_hash: str, approved: bool,
                     reason: str | None = None) -> dict[str, Any]:
        return await asyncio.to_thread(self.sync.decide, session_id, call_id, arguments_hash=arguments_hash,
                                       approved=approved, reason=reason)
