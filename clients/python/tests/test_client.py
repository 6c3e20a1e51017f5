import asyncio
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import AGENT, URL, unique, wait_for_approval, writes_for
from ratchet_client import (AsyncRatchetClient, RatchetClient, RatchetError, ToolCallError, calls_of,
                            turn_id_for, value_of)


def test_a_turn_submitted_twice_runs_its_write_once_and_answers_the_same_results(agent):
    session, order = unique("s"), unique("o")
    calls = [{"name": "add_note", "arguments": {"order": order, "note": "hi"}}]
    first = agent.run_turn(session, AGENT, "t1", calls)
    second = agent.run_turn(session, AGENT, "t1", calls)
    assert calls_of(second) == calls_of(first)
    assert value_of(calls_of(first)[0])["done"] == "add_note"
    assert writes_for(agent, order) == {"add_note": 1}


def test_api_errors_are_typed_and_carry_the_api_error_code(agent):
    session = unique("s")
    agent.run_turn(session, AGENT, "t1", [{"name": "look_up_order", "arguments": {"order": "1"}}])
    with pytest.raises(RatchetError) as reused:
        agent.submit_turn(session, AGENT, "t1", [{"name": "look_up_order", "arguments": {"order": "2"}}])
    assert (reused.value.status, reused.value.code) == (409, "TURN_ID_REUSED")
    with pytest.raises(RatchetError) as unknown:
        agent.submit_turn(unique("s"), "no-such-agent", "t1", [{"name": "x", "arguments": {}}])
    assert (unknown.value.status, unknown.value.code) == (404, "UNKNOWN_AGENT")
    with pytest.raises(RatchetError) as unauthenticated:
        RatchetClient(URL, "rt_wrong").agents()
    assert (unauthenticated.value.status, unauthenticated.value.code) == (401, "UNAUTHENTICATED")


def test_a_write_that_needs_approval_completes_once_an_approver_approves_it(agent, approver):
    session, order = unique("s"), unique("o")
    submitted = agent.submit_turn(session, AGENT, "t1", [{"name": "cancel_order", "arguments": {"order": order}}])
    assert submitted["status"] == "accepted"
    pending = wait_for_approval(approver, session, "cancel_order")
    approver.decide(session, pending["callId"], arguments_hash=pending["argumentsHash"], approved=True,
                    reason="checked")
    call = calls_of(agent.await_turn(session, "t1", timeout=30))[0]
    assert call["outcome"] == "succeeded"
    assert call["approval"]["status"] == "approved"
    assert writes_for(agent, order) == {"cancel_order": 1}


def test_a_rejected_write_raises_a_tool_call_error_with_the_approvers_reason(agent, approver):
    session = unique("s")
    agent.submit_turn(session, AGENT, "t1", [{"name": "cancel_order", "arguments": {"order": unique("o")}}])
    pending = wait_for_approval(approver, session, "cancel_order")
    approver.decide(session, pending["callId"], arguments_hash=pending["argumentsHash"], approved=False,
                    reason="the customer changed their mind")
    with pytest.raises(ToolCallError) as rejected:
        value_of(calls_of(agent.await_turn(session, "t1", timeout=30))[0])
    assert "a person refused it" in str(rejected.value)
    assert "the customer changed their mind" in str(rejected.value)


def test_the_event_stream_yields_the_turns_journaled_events_in_order(agent):
    session = unique("s")
    agent.run_turn(session, AGENT, "t1", [{"name": "look_up_order", "arguments": {"order": "7"}}])
    types = []
    for event in agent.events(session):
        types.append(event["type"])
        if event["type"] == "turn.completed":
            break
    assert [t for t in types if t not in ("session.claimed", "call.started")] == [
        "turn.submitted", "call.completed", "turn.completed"]


def test_the_asyncio_client_runs_turns_concurrently(agent):
    client = AsyncRatchetClient(URL, os.environ["RATCHET_AGENT_TOKEN"])

    async def both():
        return await asyncio.gather(*[
            client.run_turn(unique("s"), AGENT, "t1", [{"name": "look_up_order", "arguments": {"order": str(i)}}])
            for i in range(2)])

    answers = asyncio.run(both())
    assert [value_of(calls_of(a)[0])["order"] for a in answers] == ["0", "1"]


def test_the_asyncio_client_waits_for_approvals_without_a_thread_per_waiting_call(approver):
    sessions = [unique("s") for _ in range(4)]
    approver_pool = ThreadPoolExecutor(max_workers=1)

    async def wait_all():
        # one worker thread for the whole loop: a client that parked a thread per waiting call would
        # submit only the first turn, and the other approvals would never be asked
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=1))
        async with AsyncRatchetClient(URL, os.environ["RATCHET_AGENT_TOKEN"], poll_seconds=1) as client:
            waits = [asyncio.create_task(client.run_turn(s, AGENT, "t1", [
                {"name": "cancel_order", "arguments": {"order": unique("o")}}])) for s in sessions]
            for s in sessions:
                pending = await asyncio.get_running_loop().run_in_executor(
                    approver_pool, wait_for_approval, approver, s, "cancel_order")
                approver.decide(s, pending["callId"], arguments_hash=pending["argumentsHash"], approved=True,
                                reason="checked")
            return await asyncio.wait_for(asyncio.gather(*waits), 30)

    answers = asyncio.run(wait_all())
    assert [calls_of(a)[0]["outcome"] for a in answers] == ["succeeded"] * 4


def test_an_agent_process_killed_while_a_write_waits_replays_its_response_without_running_a_write_twice(
        agent, approver):
    session, order = unique("s"), unique("o")
    script = str(Path(__file__).with_name("agent_process.py"))
    args = [sys.executable, script, session, "chatcmpl-crash-1", order]
    first = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    wait_for_approval(approver, session, "cancel_order")
    first.kill()
    first.wait(timeout=10)
    assert writes_for(agent, order) == {"add_note": 1}

    replay = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    pending = wait_for_approval(approver, session, "cancel_order")
    approver.decide(session, pending["callId"], arguments_hash=pending["argumentsHash"], approved=True,
                    reason="checked")
    out, _ = replay.communicate(timeout=30)
    assert replay.returncode == 0, out
    assert "outcomes ['succeeded', 'succeeded']" in out
    assert writes_for(agent, order) == {"add_note": 1, "cancel_order": 1}
    assert [t["turnId"] for t in approver.session(session)["turns"]] == ["chatcmpl-crash-1"]


def test_turn_ids_derive_from_the_model_response_id_or_a_digest():
    assert turn_id_for("chatcmpl-abc123") == "chatcmpl-abc123"
    assert turn_id_for("resp with spaces/and slashes").startswith("sha256:")
    assert turn_id_for("x y") == turn_id_for("x y")
    assert turn_id_for(None, ["call_1", "call_2"]) == "calls:sha256:85dd584336591c630e0fb02d611d70a5"
    with pytest.raises(ValueError):
        turn_id_for(None, [])
