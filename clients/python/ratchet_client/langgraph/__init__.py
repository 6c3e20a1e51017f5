"""LangGraph: a ToolNode replacement that runs one AIMessage's tool calls as one Ratchet turn.

Install with ``pip install "ratchet-client[langgraph]"``; see docs/CLIENTS.md, LangGraph."""

from __future__ import annotations

import asyncio
from typing import Any, Mapping, Sequence

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda

from .._protocol import calls_of, text_for_model
from .._turns import ModelCall, ResponseTurn
from ..aio import AsyncRatchetClient
from ..client import RatchetClient

__all__ = ["RatchetToolNode", "bindable_tools"]


def bindable_tools(catalogue: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """An agent's catalogue (``client.tools(agent)``) as function tools for a chat model's ``bind_tools``."""
    return [{"type": "function", "function": {"name": t["name"], "description": t.get("description") or t["name"],
                                              "parameters": t.get("inputSchema") or {"type": "object"}}}
            for t in catalogue]


class RatchetToolNode(RunnableLambda[Any, Any]):
    """Runs the tool calls of the last AIMessage in the state as one turn named by the message's id.

    Use it where a graph has LangGraph's ``ToolNode``: it answers one ToolMessage per call, with the
    text Ratchet's own agent loop gives its model (status ``error`` for a call that failed, was
    rejected by a person, or ended ``outcome_unknown``). The Ratchet session is ``session_id``, else
    the run's ``thread_id``. A call without an id is refused (MissingCallIdError).
    """

    def __init__(self, client: RatchetClient | AsyncRatchetClient, agent: str, *, session_id: str | None = None,
                 timeout: float | None = None, messages_key: str = "messages", name: str = "tools") -> None:
        super().__init__(self._run, afunc=self._arun, name=name)
        self.client = client
        self.agent = agent
        self.session_id = session_id
        self.timeout = timeout
        self.messages_key = messages_key

    def _run(self, state: Any, config: RunnableConfig) -> Any:
        if not isinstance(self.client, RatchetClient):
            raise TypeError("RatchetToolNode with an AsyncRatchetClient runs only asynchronously (ainvoke, astream)")
        session, message, turn = self._turn(state, config)
        answer = self.client.run_turn(session, self.agent, turn.turn_id, turn.ratchet_calls(), timeout=self.timeout)
        return self._output(state, message, calls_of(answer))

    async def _arun(self, state: Any, config: RunnableConfig) -> Any:
        session, message, turn = self._turn(state, config)
        if isinstance(self.client, AsyncRatchetClient):
            answer = await self.client.run_turn(session, self.agent, turn.turn_id, turn.ratchet_calls(),
                                                timeout=self.timeout)
        else:
            answer = await asyncio.to_thread(self.client.run_turn, session, self.agent, turn.turn_id,
                                             turn.ratchet_calls(), timeout=self.timeout)
        return self._output(state, message, calls_of(answer))

    def _turn(self, state: Any, config: RunnableConfig) -> tuple[str, AIMessage, ResponseTurn]:
        messages: Sequence[AnyMessage] = state if isinstance(state, list) else state[self.messages_key]
        message = next((m for m in reversed(messages) if isinstance(m, AIMessage)), None)
        if message is None or not message.tool_calls:
            raise ValueError("RatchetToolNode needs an AIMessage with tool calls as the last AI message of the state")
        session = self.session_id or (config.get("configurable") or {}).get("thread_id")
        if not session:
            raise ValueError("RatchetToolNode needs a session: pass session_id, or run the graph with a thread_id")
        calls = [ModelCall(c.get("id"), c["name"], c["args"]) for c in message.tool_calls]
        return str(session), message, ResponseTurn.of(message.id, calls)

    def _output(self, state: Any, message: AIMessage, records: list[dict[str, Any]]) -> Any:
        results = [ToolMessage(content=text_for_model(record), tool_call_id=call["id"] or "", name=call["name"],
                               status="success" if record.get("outcome") == "succeeded" else "error")
                   for call, record in zip(message.tool_calls, records)]
        return results if isinstance(state, list) else {self.messages_key: results}
