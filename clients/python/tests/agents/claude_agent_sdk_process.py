"""An agent process written with the Claude Agent SDK for the crash test: Claude Code's model (a local
server speaking Anthropic's Messages API) answers one message that adds a note and cancels the order
(the cancel waits for approval)."""

import asyncio
import os
import sys

from claude_agent_sdk_agent import answer
from fake_anthropic import FakeAnthropic

session_id, order, config_dir = sys.argv[1:4]
fake = FakeAnthropic("msg_cc_crash", [
    ("toolu_crash_note", "mcp__ratchet__add_note", {"order": order, "note": "customer asked to cancel"}),
    ("toolu_crash_cancel", "mcp__ratchet__cancel_order", {"order": order})])
print("started", flush=True)
read = asyncio.run(asyncio.wait_for(answer(os.environ["RATCHET_URL"], os.environ["RATCHET_AGENT_TOKEN"],
                                           os.environ["RATCHET_AGENT"], session_id, "cancel", fake.options(config_dir)),
                                    90))
print("model read:", read, flush=True)
fake.close()
