"""Google ADK: a toolset of a Ratchet agent's tools whose calls run in Ratchet, one model response as
one turn. Install with ``pip install "ratchet-client[google-adk]"``; see docs/CLIENTS.md, Google ADK."""

from __future__ import annotations

import json
from typing import Any, Optional

from google.adk.agents.readonly_context import ReadonlyContext
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.base_toolset import BaseToolset
from google.adk.tools.tool_context import ToolContext
from google.genai import types

from .._protocol import text_for_model
from .._turns import ModelCall, ResponseTurn, TurnRunner
from ..aio import AsyncRatchetClient

__all__ = ["RatchetTool", "RatchetToolset"]


class RatchetToolset(BaseToolset):
    """The tools of Ratchet agent ``agent`` for an ADK agent (``LlmAgent(tools=[toolset])``).

    The function calls of one model response run as one turn, named by the response's call ids (ADK
    keeps no provider response id): the model's own ids, or the ``adk-<uuid>`` ids ADK gives calls
    that came without one (unique per call, never merged). The Ratchet session is ``session_id``,
    else the ADK session's id. Each call answers Ratchet's record for the model as a dict:
    ``{"outcome": "succeeded", "result": …}`` or the outcome and the error (a person's reason for a rejection).
    """

    def __init__(self, client: AsyncRatchetClient, agent: str, *, session_id: str | None = None,
                 timeout: float | None = None) -> None:
        super().__init__()
        self.client = client
        self.agent = agent
        self.session_id = session_id
        self.runner = TurnRunner(client, agent, timeout)
        self._tools: list[BaseTool] | None = None

    async def get_tools(self, readonly_context: Optional[ReadonlyContext] = None) -> list[BaseTool]:
        if self._tools is None:
            self._tools = [RatchetTool(self, t) for t in await self.client.tools(self.agent)]
        return list(self._tools)

    def names(self) -> set[str]:
        return {t.name for t in self._tools or []}


class RatchetTool(BaseTool):
    """One tool of a RatchetToolset."""

    def __init__(self, toolset: RatchetToolset, entry: dict[str, Any]) -> None:
        super().__init__(name=entry["name"], description=entry.get("description") or entry["name"])
        self._toolset = toolset
        self._schema: dict[str, Any] = entry.get("inputSchema") or {"type": "object", "properties": {}}

    def _get_declaration(self) -> types.FunctionDeclaration:
        return types.FunctionDeclaration(name=self.name, description=self.description,
                                         parameters_json_schema=self._schema)

    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        call_id = tool_context.function_call_id
        session = self._toolset.session_id or tool_context.session.id
        turn = _turn_of(tool_context, call_id, self.name, args, self._toolset.names())
        record = await self._toolset.runner.record(session, turn, call_id or "")
        return json.loads(text_for_model(record))


def _turn_of(context: ToolContext, call_id: str | None, name: str, args: dict[str, Any],
             names: set[str]) -> ResponseTurn:
    if call_id:
        for event in reversed(context.session.events):
            calls = [c for c in event.get_function_calls() if c.name in names]
            if any(c.id == call_id for c in calls):
                return ResponseTurn.of(None, [ModelCall(c.id, c.name or "", c.args or {}) for c in calls])
    return ResponseTurn.of(None, [ModelCall(call_id, name, args)])
