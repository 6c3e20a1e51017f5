"""An agent process written with Pydantic AI for the crash test: its FunctionModel answers one response
that adds a note and cancels the order (the cancel waits for approval), then reports what it read."""

import asyncio
import os
import sys

from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import FunctionModel

from pydantic_ai_agent import answer
from ratchet_client import AsyncRatchetClient

session_id, order = sys.argv[1:3]


def model(messages, info):
    returns = [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
    if returns:
        return ModelResponse(parts=[TextPart(" | ".join(str(r.content) for r in returns))])
    return ModelResponse(provider_response_id="resp_pyd_crash", parts=[
        ToolCallPart("add_note", {"order": order, "note": "customer asked to cancel"}, tool_call_id="call_note"),
        ToolCallPart("cancel_order", {"order": order}, tool_call_id="call_cancel")])


async def main() -> None:
    async with AsyncRatchetClient(os.environ["RATCHET_URL"], os.environ["RATCHET_AGENT_TOKEN"]) as client:
        print("started", flush=True)
        print("model read:", await answer(FunctionModel(model), client, os.environ["RATCHET_AGENT"], session_id,
                                          f"cancel {order}"), flush=True)


asyncio.run(main())
