"""The Claude Agent SDK with Ratchet as its MCP server. The SDK runs its bundled Claude Code CLI, whose
model is a local server speaking Anthropic's Messages API (fake_anthropic.py): everything else is real,
the CLI's MCP client and Ratchet's MCP endpoint included."""

import asyncio
import os
import tempfile

import pytest
from claude_agent_sdk import ClaudeAgentOptions

from claude_agent_sdk_agent import answer
from conftest import AGENT, URL, decide_when_asked, unique, writes_for
from fake_anthropic import FakeAnthropic

TOKEN = os.environ["RATCHET_AGENT_TOKEN"]


@pytest.fixture
def config_dir():
    with tempfile.TemporaryDirectory(prefix="claude-config") as directory:
        yield directory


def run(fake, session, config_dir):
    options = ClaudeAgentOptions(max_turns=4, cwd=config_dir, env={
        "ANTHROPIC_BASE_URL": fake.url, "ANTHROPIC_API_KEY": "sk-ant-local-test", "CLAUDE_CONFIG_DIR": config_dir,
        "DISABLE_TELEMETRY": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1",
        "ENABLE_TOOL_SEARCH": "false"})  # the local model calls the MCP tools directly, without searching first
    try:
        return asyncio.run(asyncio.wait_for(answer(URL, TOKEN, AGENT, session, "help", options), 90))
    finally:
        fake.close()


def test_claude_code_runs_a_read_and_a_write_through_ratchets_mcp_endpoint(agent, approver, config_dir):
    session, order = unique("s"), unique("o")
    fake = FakeAnthropic("msg_cc_1", [("toolu_1", "mcp__ratchet__look_up_order", {"order": order}),
                                      ("toolu_2", "mcp__ratchet__add_note", {"order": order, "note": "n"})])
    result = run(fake, session, config_dir)
    assert "shipped" in result and "add_note" in result, (result, fake.requests[-1:])
    assert writes_for(agent, order) == {"add_note": 1}
    assert len(approver.session(session)["turns"]) == 2  # Claude Code sends no turn id: a turn per call


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
