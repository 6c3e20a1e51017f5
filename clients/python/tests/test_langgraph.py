import asyncio
import os

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage

from conftest import AGENT, URL, decide_when_asked, kill_between_writes_and_replay, unique, writes_for
from langgraph_agent import answer
from ratchet_client import AsyncRatchetClient, MissingCallIdError, RatchetClient, RatchetError
from ratchet_client.langgraph import RatchetToolNode

TOKEN = os.environ["RATCHET_AGENT_TOKEN"]


def model_calling(message_id, *calls):
    return GenericFakeChatModel(messages=iter([
        AIMessage(id=message_id, content="", tool_calls=[{"id": i, "name": n, "args": a} for i, n, a in calls]),
        AIMessage(content="done")]))


def run(model, session, **client_options):
    async def go():
        async with AsyncRatchetClient(URL, TOKEN, **client_options) as client:
            return await asyncio.wait_for(answer(model, client, AGENT, session, "help"), 60)
    return asyncio.run(go())


def test_one_ai_messages_tool_calls_run_as_one_turn_named_by_the_message_id(agent, approver):
    session, order = unique("s"), unique("o")
    messages = run(model_calling("chatcmpl-lg-1", ("call_1", "look_up_order", {"order": order}),
                                 ("call_2", "add_note", {"order": order, "note": "n"})), session)
    results = [m for m in messages if isinstance(m, ToolMessage)]
    assert [(m.tool_call_id, m.status) for m in results] == [("call_1", "success"), ("call_2", "success")]
    assert '"status":"shipped"' in results[0].content
    assert [t["turnId"] for t in approver.session(session)["turns"]] == ["chatcmpl-lg-1"]
    assert writes_for(agent, order) == {"add_note": 1}


def test_a_langgraph_agent_killed_between_two_writes_and_replayed_runs_each_write_once(agent, approver):
    out = kill_between_writes_and_replay(agent, approver, "langgraph_process.py")
    assert "outcomes ['success', 'success']" in out


def test_a_rejected_writes_reason_reaches_the_model(approver):
    session, order = unique("s"), unique("o")
    decide_when_asked(approver, session, "cancel_order", approved=False, reason="the customer changed their mind")
    messages = run(model_calling("chatcmpl-lg-rej", ("call_c", "cancel_order", {"order": order})), session)
    result = next(m for m in messages if isinstance(m, ToolMessage))
    assert result.status == "error"
    assert "a person refused it" in result.content and "the customer changed their mind" in result.content
    assert isinstance(messages[-1], AIMessage) and messages[-1].content == "done"  # the model ran on it


def test_an_approval_longer_than_the_clients_request_timeout_completes(agent, approver):
    session, order = unique("s"), unique("o")
    decide_when_asked(approver, session, "cancel_order", approved=True, reason="ok", after=4)
    messages = run(model_calling("chatcmpl-lg-slow", ("call_c", "cancel_order", {"order": order})), session,
                   timeout=1.0, poll_seconds=1)
    assert next(m for m in messages if isinstance(m, ToolMessage)).status == "success"
    assert writes_for(agent, order) == {"cancel_order": 1}


def test_a_tool_call_without_an_id_is_refused_and_nothing_runs(approver):
    session = unique("s")
    node = RatchetToolNode(RatchetClient(URL, TOKEN), AGENT, session_id=session)
    message = AIMessage(id="chatcmpl-lg-noid", content="", tool_calls=[
        {"id": None, "name": "add_note", "args": {"order": "1"}, "type": "tool_call"}])
    with pytest.raises(MissingCallIdError, match="has no call id"):
        node.invoke({"messages": [message]})
    with pytest.raises(RatchetError) as unknown:
        approver.session(session)
    assert unknown.value.code == "UNKNOWN_SESSION"


def test_the_sync_graph_path_runs_with_the_sync_client(approver):
    session, order = unique("s"), unique("o")
    node = RatchetToolNode(RatchetClient(URL, TOKEN), AGENT)
    message = AIMessage(id="chatcmpl-lg-sync", content="", tool_calls=[
        {"id": "call_s", "name": "look_up_order", "args": {"order": order}, "type": "tool_call"}])
    out = node.invoke({"messages": [message]}, {"configurable": {"thread_id": session}})
    assert out["messages"][0].status == "success"
