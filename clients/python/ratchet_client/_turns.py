"""What every adapter shares: one model response's tool calls as one Ratchet turn, and a coordinator
for frameworks that hand an adapter the calls of a response one at a time."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ._protocol import Call, calls_of
from .aio import AsyncRatchetClient
from .errors import MissingCallIdError
from .turn_ids import model_call_id_for, turn_id_for


@dataclass(frozen=True)
class ModelCall:
    """One tool call as the model gave it: its id, the tool's name and the arguments."""

    call_id: str | None
    name: str
    arguments: Mapping[str, Any]


@dataclass(frozen=True)
class ResponseTurn:
    """The turn of one model response: its id (docs/CLIENTS.md, turn ids) and its calls in the model's order."""

    turn_id: str
    calls: tuple[ModelCall, ...]

    @staticmethod
    def of(response_id: str | None, calls: Sequence[ModelCall]) -> ResponseTurn:
        """The response's turn; a call without the model's call id is refused, never merged with another."""
        if not calls:
            raise ValueError("a model response without tool calls is not a turn")
        for index, call in enumerate(calls):
            if not call.call_id:
                raise MissingCallIdError(
                    f"tool call {index} ('{call.name}') of model response '{response_id}' has no call id; Ratchet "
                    "runs each call once by its turn and call ids, so a call the model gave no id is refused "
                    "rather than guessed (two identical calls would look like one)")
        ids = [c.call_id for c in calls if c.call_id]
        return ResponseTurn(turn_id_for(response_id, ids), tuple(calls))

    def ratchet_calls(self) -> list[Call]:
        calls: list[Call] = []
        for call in self.calls:
            entry: Call = {"name": call.name, "arguments": dict(call.arguments)}
            model_call_id = model_call_id_for(call.call_id)
            if model_call_id:
                entry["modelCallId"] = model_call_id
            calls.append(entry)
        return calls

    def index_of(self, call_id: str) -> int:
        for index, call in enumerate(self.calls):
            if call.call_id == call_id:
                return index
        raise KeyError(call_id)


class TurnRunner:
    """Runs each response's turn once per (session, turn) while its calls come one at a time: the first
    call submits the whole response, the others join it, and each gets its own call's record."""

    def __init__(self, client: AsyncRatchetClient, agent: str, timeout: float | None = None) -> None:
        self.client = client
        self.agent = agent
        self.timeout = timeout
        self._running: dict[tuple[str, str], asyncio.Future[dict[str, Any]]] = {}

    async def record(self, session_id: str, turn: ResponseTurn, call_id: str) -> dict[str, Any]:
        """The record of call ``call_id`` of ``turn`` (waits while the turn runs, for example for approval)."""
        key = (session_id, turn.turn_id)
        running = self._running.get(key)
        if running is None:
            running = asyncio.ensure_future(self.client.run_turn(session_id, self.agent, turn.turn_id,
                                                                 turn.ratchet_calls(), timeout=self.timeout))
            self._running[key] = running
            running.add_done_callback(lambda _: self._running.pop(key, None))
        answer = await asyncio.shield(running)
        return calls_of(answer)[turn.index_of(call_id)]
