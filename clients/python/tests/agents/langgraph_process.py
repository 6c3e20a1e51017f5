"""An agent process written with LangGraph for the crash test: its model answers one AIMessage that
adds a note and cancels the order (the cancel waits for approval), then says it is done."""

import asyncio
import os
import sys

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage

from langgraph_agent import answer
from ratchet_client import AsyncRatchetClient

session_id, order = sys.argv[1:3]
model = GenericFakeChatModel(messages=iter([
    AIMessage(id="chatcmpl-lg-crash", content="", tool_calls=[
        {"id": "call_note", "name": "add_note", "args": {"order": order, "note": "customer asked to cancel"}},
        {"id": "call_cancel", "name": "cancel_order", "args": {"order": order}}]),
    AIMessage(content="done")]))


async def main() -> None:
    async with AsyncRatchetClient(os.environ["RATCHET_URL"], os.environ["RATCHET_AGENT_TOKEN"]) as client:
        print("started", flush=True)
        messages = await answer(model, client, os.environ["RATCHET_AGENT"], session_id, f"cancel {order}")
        print("outcomes", [m.status for m in messages if isinstance(m, ToolMessage)], flush=True)


asyncio.run(main())
