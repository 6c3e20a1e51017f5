"""OpenAI Agents SDK: a Ratchet agent's tools as the SDK's function tools, or Ratchet's MCP endpoint as
an ``MCPServerStreamableHttp``; a wrapped model makes each response's calls one turn.
Install with ``pip install "ratchet-client[openai-agents]"``; see docs/CLIENTS.md, OpenAI Agents SDK."""

from __future__ import annotations

import json
from typing import Any

from agents import FunctionTool
from agents.mcp import MCPServerStreamableHttp
from agents.mcp.util import MCPToolMetaContext
from agents.tool_context import ToolContext

from .._protocol import text_for_model
from .._turns import ModelCall, ResponseTurn, TurnRunner
from ..aio import AsyncRatchetClient
from ..errors import MissingCallIdError
from ._responses import ResponseRecorder

__all__ = ["RatchetAgentTools", "ResponseRecorder", "ratchet_mcp_server"]

DEFAULT_MCP_TIMEOUT = 3600.0
"""How long an MCP call may wait (for a person's approval) unless told: the SDK's own default is 5 s."""


class RatchetAgentTools:
    """The tools of Ratchet agent ``agent`` as FunctionTools whose calls run in Ratchet session ``session_id``.

    Give the agent ``wrap_model(model)``: it records each response, so the calls of one response run
    as one turn named by its ``response_id``. A call whose response was not recorded runs as a turn of
    its own, named after its call id. Each call answers the text Ratchet's own agent loop gives its
    model: the result, or the outcome and the error (a person's reason for a rejection).
    """

    def __init__(self, client: AsyncRatchetClient, agent: str, session_id: str, catalogue: list[dict[str, Any]],
                 *, timeout: float | None = None, recorder: ResponseRecorder | None = None) -> None:
        self.session_id = session_id
        self.recorder = recorder or ResponseRecorder()
        self._runner = TurnRunner(client, agent, timeout)
        self.tools = [FunctionTool(name=t["name"], description=t.get("description") or t["name"],
                                   params_json_schema=t.get("inputSchema") or {"type": "object", "properties": {}},
                                   on_invoke_tool=self._invoke, strict_json_schema=False) for t in catalogue]

    @staticmethod
    async def create(client: AsyncRatchetClient, agent: str, session_id: str, *,
                     timeout: float | None = None) -> RatchetAgentTools:
        """The agent's tools, with its catalogue read from Ratchet."""
        return RatchetAgentTools(client, agent, session_id, await client.tools(agent), timeout=timeout)

    def wrap_model(self, model: Any) -> Any:
        """``model`` (an agents ``Model``), recording each response's tool calls."""
        return self.recorder.wrap(model)

    async def _invoke(self, ctx: ToolContext[Any], arguments: str) -> str:
        turn = self.recorder.turn_of(ctx.tool_call_id, {t.name for t in self.tools}) or ResponseTurn.of(
            None, [ModelCall(ctx.tool_call_id, ctx.tool_name, _arguments(arguments))])
        return text_for_model(await self._runner.record(self.session_id, turn, ctx.tool_call_id))


def _arguments(text: str) -> dict[str, Any]:
    value = json.loads(text) if text else {}
    # a model's arguments that are not an object go to Ratchet as they are, and fail its validation
    return value if isinstance(value, dict) else {"": value}


def ratchet_mcp_server(base_url: str, token: str, agent: str, *, session_id: str | None = None,
                       timeout: float = DEFAULT_MCP_TIMEOUT, name: str = "ratchet") -> MCPServerStreamableHttp:
    """Ratchet's MCP endpoint ``/mcp/<agent>`` as the SDK's MCP server, with the token, the session
    (header ``ratchet-session``) and ``timeout`` seconds for a call (approvals included) on every
    timeout the SDK has.

    Each call carries the ``_meta`` turn convention (docs/MCP-SERVER.md) as a turn of its own named
    after the model's call id, so a response run again after a crash runs no write twice. The SDK
    sends one request at a time on an MCP session, so the calls of one response cannot be gathered
    into one turn here; RatchetAgentTools does that.
    """
    headers = {"Authorization": f"Bearer {token}"}
    if session_id:
        headers["ratchet-session"] = session_id

    def meta(context: MCPToolMetaContext) -> dict[str, Any] | None:
        call_id = getattr(context.run_context, "tool_call_id", None)
        if not isinstance(call_id, str) or not call_id:
            raise MissingCallIdError(f"the call of '{context.tool_name}' has no call id from the model")
        turn = ResponseTurn.of(None, [ModelCall(call_id, context.tool_name, context.arguments or {})])
        return {"dev.ratchet/turn": turn.turn_id, "dev.ratchet/index": 0, "dev.ratchet/count": 1}

    return MCPServerStreamableHttp(
        params={"url": f"{base_url.rstrip('/')}/mcp/{agent}", "headers": headers, "timeout": 30.0,
                "sse_read_timeout": timeout},
        name=name, cache_tools_list=True, client_session_timeout_seconds=timeout, tool_meta_resolver=meta)
