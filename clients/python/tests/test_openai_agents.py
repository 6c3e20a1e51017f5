import asyncio
import os

from conftest import AGENT, URL, decide_when_asked, kill_between_writes_and_replay, unique, writes_for
from openai_agents_agent import answer
from openai_agents_mcp import answer as answer_over_mcp
from ratchet_client import AsyncRatchetClient, turn_id_for
from scripted_openai_model import ScriptedModel

TOKEN = os.environ["RATCHET_AGENT_TOKEN"]


def run(model, session, **client_options):
    async def go():
        async with AsyncRatchetClient(URL, TOKEN, **client_options) as client:
            return await asyncio.wait_for(answer(model, client, AGENT, session, "help"), 60)
    return asyncio.run(go())


def run_over_mcp(model, session):
    return asyncio.run(asyncio.wait_for(answer_over_mcp(model, URL, TOKEN, AGENT, session, "help"), 60))


def test_one_responses_function_calls_run_as_one_turn_named_by_the_response_id(agent, approver):
    session, order = unique("s"), unique("o")
    read = run(ScriptedModel("resp_oa_1", ("call_1", "look_up_order", {"order": order}),
                             ("call_2", "add_note", {"order": order, "note": "n"})), session)
    assert '"status":"shipped"' in read and '"done":"add_note"' in read
    assert [t["turnId"] for t in approver.session(session)["turns"]] == ["resp_oa_1"]
    assert writes_for(agent, order) == {"add_note": 1}


def test_an_openai_agents_process_killed_between_two_writes_and_replayed_runs_each_write_once(agent, approver):
    out = kill_between_writes_and_replay(agent, approver, "openai_agents_process.py")
    assert out.count('"outcome":"succeeded"') == 2, out


def test_a_rejected_writes_reason_reaches_the_model(approver):
    session = unique("s")
    decide_when_asked(approver, session, "cancel_order", approved=False, reason="the customer changed their mind")
    model = ScriptedModel("resp_oa_rej", ("call_c", "cancel_order", {"order": unique("o")}))
    run(model, session)
    assert "a person refused it" in model.read[0] and "the customer changed their mind" in model.read[0]


def test_an_approval_longer_than_the_clients_request_timeout_completes(agent, approver):
    session, order = unique("s"), unique("o")
    decide_when_asked(approver, session, "cancel_order", approved=True, reason="ok", after=4)
    read = run(ScriptedModel("resp_oa_slow", ("call_c", "cancel_order", {"order": order})), session,
               timeout=1.0, poll_seconds=1)
    assert '"done":"cancel_order"' in read
    assert writes_for(agent, order) == {"cancel_order": 1}


def test_over_mcp_each_call_is_a_turn_named_after_its_call_id_and_a_replayed_response_writes_once(agent, approver):
    session, order = unique("s"), unique("o")
    calls = (("call_1", "look_up_order", {"order": order}), ("call_2", "add_note", {"order": order, "note": "n"}))
    read = run_over_mcp(ScriptedModel("resp_mcp_1", *calls), session)
    assert "shipped" in read and "add_note" in read
    again = run_over_mcp(ScriptedModel("resp_mcp_1", *calls), session)  # the same response, after a crash
    assert "add_note" in again
    assert [t["turnId"] for t in approver.session(session)["turns"]] == [
        turn_id_for(None, ["call_1"]), turn_id_for(None, ["call_2"])]
    assert writes_for(agent, order) == {"add_note": 1}


def test_over_mcp_an_approval_longer_than_the_sdks_default_session_timeout_completes(agent, approver):
    session, order = unique("s"), unique("o")
    decide_when_asked(approver, session, "cancel_order", approved=True, reason="ok", after=7)  # the SDK's default: 5 s
    read = run_over_mcp(ScriptedModel("resp_mcp_slow", ("call_c", "cancel_order", {"order": order})), session)
    assert "cancel_order" in read, read
    assert writes_for(agent, order) == {"cancel_order": 1}


def test_over_mcp_a_rejected_writes_reason_reaches_the_model(approver):
    session = unique("s")
    decide_when_asked(approver, session, "cancel_order", approved=False, reason="the customer changed their mind")
    model = ScriptedModel("resp_mcp_rej", ("call_c", "cancel_order", {"order": unique("o")}))
    run_over_mcp(model, session)
    assert "a person refused it" in model.read[0] and "the customer changed their mind" in model.read[0]
