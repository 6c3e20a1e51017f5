"""An agent process written with Google ADK for the crash test: its model answers one response that
adds a note and cancels the order (the cancel waits for approval)."""

import asyncio
import os
import sys

from google_adk_agent import answer
from ratchet_client import AsyncRatchetClient
from scripted_adk_model import ScriptedLlm

session_id, order = sys.argv[1:3]
model = ScriptedLlm(calls=[("call_note", "add_note", {"order": order, "note": "customer asked"}),
                           ("call_cancel", "cancel_order", {"order": order})])


async def main() -> None:
    async with AsyncRatchetClient(os.environ["RATCHET_URL"], os.environ["RATCHET_AGENT_TOKEN"]) as client:
        print("started", flush=True)
        print("model read:", await answer(model, client, os.environ["RATCHET_AGENT"], session_id, "cancel"),
              flush=True)


asyncio.run(main())
