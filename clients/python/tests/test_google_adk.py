import asyncio
import os

from conftest import AGENT, URL, decide_when_asked, kill_between_writes_and_replay, unique, writes_for
from google_adk_agent import answer
from ratchet_client import AsyncRatchetClient, turn_id_for
from scripted_adk_model import ScriptedLlm

TOKEN = os.environ["RATCHET_AGENT_TOKEN"]


def run(model, session, **client_options):
    async def go():
        async with AsyncRatchetClient(URL, TOKEN, **client_options) as client:
            return await asyncio.wait_for(answer(model, client, AGENT, session, "help"), 60)
    return asyncio.run(go())


def test_one_responses_function_calls_run_as_one_turn_named_by_their_call_ids(agent, approver):
    session, order = unique("s"), unique("o")
    read = run(ScriptedLlm(calls=[("call_1", "look_up_order", {"order": order}),
                                  ("call_2", "add_note", {"order": order, "note": "n"})]), session)
    assert '"status":"shipped"' in read and '"done":"add_note"' in read
    assert [t["turnId"] for t in approver.session(session)["turns"]] == [turn_id_for(None, ["call_1", "call_2"])]
    assert writes_for(agent, order) == {"add_note": 1}


def test_calls_the_model_gave_no_id_get_adks_unique_ids_and_are_never_merged(agent, approver):
    session, order = unique("s"), unique("o")
    note = {"order": order, "note": "same"}
    read = run(ScriptedLlm(calls=[(None, "add_note", note), (None, "add_note", note)]), session)
    assert read.count('"done":"add_note"') == 2
    assert writes_for(agent, order) == {"add_note": 2}
    assert len(approver.session(session)["turns"]) == 1


def test_a_google_adk_agent_killed_between_two_writes_and_replayed_runs_each_write_once(agent, approver):
    out = kill_between_writes_and_replay(agent, approver, "google_adk_process.py")
    assert out.count('"outcome":"succeeded"') == 2, out


def test_a_rejected_writes_reason_reaches_the_model(approver):
    session = unique("s")
    decide_when_asked(approver, session, "cancel_order", approved=False, reason="the customer changed their mind")
    read = run(ScriptedLlm(calls=[("call_c", "cancel_order", {"order": unique("o")})]), session)
    assert "a person refused it" in read and "the customer changed their mind" in read


def test_an_approval_longer_than_the_clients_request_timeout_completes(agent, approver):
    session, order = unique("s"), unique("o")
    decide_when_asked(approver, session, "cancel_order", approved=True, reason="ok", after=4)
    read = run(ScriptedLlm(calls=[("call_c", "cancel_order", {"order": order})]), session,
               timeout=1.0, poll_seconds=1)
    assert '"done":"cancel_order"' in read
    assert writes_for(agent, order) == {"cancel_order": 1}
