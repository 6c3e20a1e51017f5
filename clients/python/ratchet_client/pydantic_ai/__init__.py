"""Pydantic AI: a toolset of a Ratchet agent's tools whose calls run in Ratchet, one model response
as one turn. Install with ``pip install "ratchet-client[pydantic-ai]"``; see docs/CLIENTS.md, Pydantic AI."""

from __future__ import annotations

from typing import Any, Callable

from pydantic_ai import RunContext
from pydantic_ai.messages import ModelResponse, ToolCallPart
from pydantic_ai.tools import ToolDefinition
from pydantic_ai.toolsets import AbstractToolset
from pydantic_ai.toolsets.abstract import ToolsetTool
from pydantic_core import SchemaValidator, core_schema

from .._protocol import text_for_model
from .._turns import ModelCall, ResponseTurn, TurnRunner
from ..aio import AsyncRatchetClient

__all__ = ["RatchetToolset"]

# Ratchet validates each call against the tool's schema and tells the model what is wrong
_ANY = SchemaValidator(schema=core_schema.dict_schema())


class RatchetToolset(AbstractToolset[Any]):
    """The tools of Ratchet agent ``agent``; the calls of one ModelResponse run as one turn named by
    its ``provider_response_id`` (else by its tool call ids), and each call answers the text Ratchet's
    own agent loop gives its model (``{"outcome":"succeeded","result":…}``, or the outcome and the
    error, such as a person's reason for a rejection).

    The session is ``session_id``, or ``session_of(ctx)`` for each run (for example from its deps).
    """

    def __init__(self, client: AsyncRatchetClient, agent: str, *, session_id: str | None = None,
                 session_of: Callable[[RunContext[Any]], str] | None = None, timeout: float | None = None,
                 id: str | None = None) -> None:
        if (session_id is None) == (session_of is None):
            raise ValueError("give RatchetToolset exactly one of session_id and session_of")
        self.client = client
        self.agent = agent
        self._session_id = session_id
        self._session_of = session_of
        self._id = id
        self._runner = TurnRunner(client, agent, timeout)
        self._catalogue: list[dict[str, Any]] | None = None

    @property
    def id(self) -> str | None:
        return self._id

    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        if self._catalogue is None:
            self._catalogue = await self.client.tools(self.agent)
        return {t["name"]: ToolsetTool(toolset=self, max_retries=0, args_validator=_ANY, tool_def=ToolDefinition(
            name=t["name"], description=t.get("description"),
            parameters_json_schema=t.get("inputSchema") or {"type": "object", "properties": {}}))
            for t in self._catalogue}

    async def call_tool(self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any],
                        tool: ToolsetTool[Any]) -> Any:
        session = self._session_id if self._session_of is None else self._session_of(ctx)
        call_id = ctx.tool_call_id
        if not call_id or not session:
            raise ValueError("RatchetToolset needs the call's id and a session")
        turn = self._turn_of(ctx, call_id, name, tool_args)
        return text_for_model(await self._runner.record(session, turn, call_id))

    def _turn_of(self, ctx: RunContext[Any], call_id: str, name: str, tool_args: dict[str, Any]) -> ResponseTurn:
        names = {t["name"] for t in self._catalogue or []}
        for message in reversed(ctx.messages):
            if isinstance(message, ModelResponse):
                parts = [p for p in message.parts if isinstance(p, ToolCallPart) and p.tool_name in names]
                if any(p.tool_call_id == call_id for p in parts):
                    return ResponseTurn.of(message.provider_response_id,
                                           [ModelCall(p.tool_call_id, p.tool_name, p.args_as_dict()) for p in parts])
        return ResponseTurn.of(None, [ModelCall(call_id, name, tool_args)])
