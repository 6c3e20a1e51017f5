import asyncio
import json
import os

from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import FunctionModel
from pydantic_ai.models.test import TestModel

from conftest import AGENT, URL, decide_when_asked, kill_between_writes_and_replay, unique, writes_for
from pydantic_ai_agent import answer
from ratchet_client import AsyncRatchetClient

TOKEN = os.environ["RATCHET_AGENT_TOKEN"]


def calling(response_id, *calls):
    """A FunctionModel that answers one response with these calls, then the tool results it read, as text."""

    def model(messages, info):
        returns = [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
        if returns:
            return ModelResponse(parts=[TextPart(" | ".join(str(r.content) for r in returns))])
        return ModelResponse(provider_response_id=response_id,
                             parts=[ToolCallPart(n, a, tool_call_id=i) for i, n, a in calls])
    return FunctionModel(model)


def run(model, session, **client_options):
    async def go():
        async with AsyncRatchetClient(URL, TOKEN, **client_options) as client:
            return await asyncio.wait_for(answer(model, client, AGENT, session, "help"), 60)
    return asyncio.run(go())


def test_one_model_responses_calls_run_as_one_turn_named_by_the_provider_response_id(agent, approver):
    session, order = unique("s"), unique("o")
    read = run(calling("resp_pyd_1", ("call_1", "look_up_order", {"order": order}),
                       ("call_2", "add_note", {"order": order, "note": "n"})), session)
    assert '"status":"shipped"' in read and '"done":"add_note"' in read
    assert [t["turnId"] for t in approver.session(session)["turns"]] == ["resp_pyd_1"]
    assert writes_for(agent, order) == {"add_note": 1}


def test_the_frameworks_test_model_calls_every_tool_of_the_catalogue_through_ratchet(approver):
    session = unique("s")
    decide_when_asked(approver, session, "cancel_order", approved=True, reason="ok")
    read = run(TestModel(), session)
    results = {tool: json.loads(text) for tool, text in json.loads(read).items()}  # TestModel's summary
    assert results["add_note"]["result"]["done"] == "add_note"
    assert results["cancel_order"]["result"]["done"] == "cancel_order"
    assert results["look_up_order"]["result"]["status"] == "shipped"
    assert len(approver.session(session)["turns"]) == 1


def test_a_pydantic_ai_agent_killed_between_two_writes_and_replayed_runs_each_write_once(agent, approver):
    out = kill_between_writes_and_replay(agent, approver, "pydantic_ai_process.py")
    assert out.count('"outcome":"succeeded"') == 2, out


def test_a_rejected_writes_reason_reaches_the_model(approver):
    session = unique("s")
    decide_when_asked(approver, session, "cancel_order", approved=False, reason="the customer changed their mind")
    read = run(calling("resp_pyd_rej", ("call_c", "cancel_order", {"order": unique("o")})), session)
    assert "a person refused it" in read and "the customer changed their mind" in read


def test_an_approval_longer_than_the_clients_request_timeout_completes(agent, approver):
    session, order = unique("s"), unique("o")
    decide_when_asked(approver, session, "cancel_order", approved=True, reason="ok", after=4)
    read = run(calling("resp_pyd_slow", ("call_c", "cancel_order", {"order": order})), session,
               timeout=1.0, poll_seconds=1)
    assert '"outcome":"succeeded"' in read
    assert writes_for(agent, order) == {"cancel_order": 1}
