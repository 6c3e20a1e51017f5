"""The Claude Agent SDK with Ratchet as its MCP server. The SDK runs its bundled Claude Code CLI, whose
model is a local server speaking Anthropic's Messages API (fake_anthropic.py): everything else is real,
the CLI's MCP client and Ratchet's MCP endpoint included."""

import asyncio
import os
import tempfile

import pytest

from claude_agent_sdk_agent import answer
from conftest import AGENT, URL, decide_when_asked, kill_between_writes_and_replay, unique, writes_for
from fake_anthropic import FakeAnthropic
from ratchet_client import turn_id_for

TOKEN = os.environ["RATCHET_AGENT_TOKEN"]


@pytest.fixture
def config_dir():
    with tempfile.TemporaryDirectory(prefix="claude-config") as directory:
        yield directory


def run(fake, session, config_dir):
    try:
        return asyncio.run(asyncio.wait_for(answer(URL, TOKEN, AGENT, session, "help", fake.options(config_dir)), 90))
    finally:
        fake.close()


def test_claude_code_runs_a_read_and_a_write_through_ratchets_mcp_endpoint(agent, approver, config_dir):
    session, order = unique("s"), unique("o")
    fake = FakeAnthropic("msg_cc_1", [("toolu_1", "mcp__ratchet__look_up_order", {"order": order}),
                                      ("toolu_2", "mcp__ratchet__add_note", {"order": order, "note": "n"})])
    result = run(fake, session, config_dir)
    assert "shipped" in result and "add_note" in result, (result, fake.requests[-1:])
    assert writes_for(agent, order) == {"add_note": 1}
    # Claude Code sends no Ratchet turn id but each call's tool_use id: a turn per call, named by it
    assert [t["turnId"] for t in approver.session(session)["turns"]] == [
        turn_id_for(None, ["toolu_1"]), turn_id_for(None, ["toolu_2"])]


def test_a_claude_agent_killed_between_two_writes_and_replayed_runs_each_write_once(agent, approver, config_dir):
    out = kill_between_writes_and_replay(agent, approver, "claude_agent_sdk_process.py", config_dir, turns=2)
    assert "add_note" in out and "cancel_order" in out, out


def test_a_rejected_writes_reason_reaches_claude(approver, config_dir):
    session = unique("s")
    decide_when_asked(approver, session, "cancel_order", approved=False, reason="the customer changed their mind")
    fake = FakeAnthropic("msg_cc_rej", [("toolu_c", "mcp__ratchet__cancel_order", {"order": unique("o")})])
    run(fake, session, config_dir)
    assert "a person refused it" in fake.read[0] and "the customer changed their mind" in fake.read[0]


def test_an_approval_that_takes_a_while_completes_within_the_configured_tool_timeout(agent, approver, config_dir):
    session, order = unique("s"), unique("o")
    decide_when_asked(approver, session, "cancel_order", approved=True, reason="ok", after=7)
    fake = FakeAnthropic("msg_cc_slow", [("toolu_c", "mcp__ratchet__cancel_order", {"order": order})])
    result = run(fake, session, config_dir)
    assert "cancel_order" in result, result
    assert writes_for(agent, order) == {"cancel_order": 1}
