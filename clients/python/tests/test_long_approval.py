"""One real long approval: a write approved after two minutes, longer than the MCP SDKs' 60 s default
request timeout, completes through the OpenAI Agents SDK's MCP client."""

import asyncio
import os

from conftest import AGENT, URL, decide_when_asked, unique, writes_for
from openai_agents_mcp import answer
from scripted_openai_model import ScriptedModel


def test_a_write_approved_after_two_minutes_completes_through_the_mcp_adapter(agent, approver):
    session, order = unique("s"), unique("o")
    decide_when_asked(approver, session, "cancel_order", approved=True, reason="checked at last", after=121)
    model = ScriptedModel("resp_long", ("call_long", "cancel_order", {"order": order}))
    read = asyncio.run(asyncio.wait_for(answer(model, URL, os.environ["RATCHET_AGENT_TOKEN"], AGENT, session,
                                               "cancel"), 200))
    assert "cancel_order" in read, read
    assert writes_for(agent, order) == {"cancel_order": 1}
