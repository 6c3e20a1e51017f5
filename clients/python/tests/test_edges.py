import asyncio
import os
import threading

import httpx
import pytest

from conftest import AGENT, URL, restart_ratchet, unique, wait_for_approval, writes_for
from gateway import Gateway
from ratchet_client import (AsyncRatchetClient, RatchetClient, RatchetUnavailableError, TurnTimeoutError, calls_of,
                            value_of)

TOKEN = os.environ["RATCHET_AGENT_TOKEN"]


@pytest.fixture
def gateway():
    proxy = Gateway(URL)
    yield proxy
    proxy.close()


class CountingTransport(httpx.HTTPTransport):
    """The real transport, counting the requests that found no Ratchet to answer them."""

    def __init__(self) -> None:
        super().__init__()
        self.failures = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return super().handle_request(request)
        except httpx.TransportError:
            self.failures += 1
            raise


def test_a_proxys_html_502_503_and_504_pages_are_retried_and_the_write_runs_once(agent, gateway):
    order = unique("o")
    client = RatchetClient(gateway.url, TOKEN)
    gateway.fail_next(502, 503, 504)
    answer = client.run_turn(unique("s"), AGENT, "t1", [{"name": "add_note", "arguments": {"order": order}}],
                             timeout=30)
    assert value_of(calls_of(answer)[0])["done"] == "add_note"
    assert gateway.served_pages == [502, 503, 504]
    assert writes_for(agent, order) == {"add_note": 1}


def test_a_proxy_that_keeps_answering_its_html_page_raises_a_typed_error_never_a_json_parse_error(gateway):
    gateway.fail_next(*[502] * 1000)
    client = RatchetClient(gateway.url, TOKEN, retry_timeout=1, turn_timeout=1)
    with pytest.raises(RatchetUnavailableError) as listing:
        client.agents()
    assert (listing.value.status, listing.value.code, listing.value.retryable) == (502, "HTTP_502", True)
    assert "text/html, not Ratchet's JSON" in str(listing.value)
    with pytest.raises(TurnTimeoutError) as turn:
        client.run_turn(unique("s"), AGENT, "t1", [{"name": "look_up_order", "arguments": {"order": "1"}}])
    assert turn.value.code == "TURN_TIMEOUT"
    assert isinstance(turn.value.last_error, RatchetUnavailableError)
    assert turn.value.last_error.code == "HTTP_502"
    assert len(gateway.served_pages) > 2


def test_the_asyncio_client_waits_through_a_proxys_pages_while_a_write_waits_for_approval(agent, approver, gateway):
    session, order = unique("s"), unique("o")

    async def wait():
        async with AsyncRatchetClient(gateway.url, TOKEN, poll_seconds=1) as client:
            waiting = asyncio.create_task(client.run_turn(session, AGENT, "t1", [
                {"name": "cancel_order", "arguments": {"order": order}}]))
            pending = await asyncio.to_thread(wait_for_approval, approver, session, "cancel_order")
            gateway.fail_next(502, 504, 503, 502)
            for _ in range(100):
                if len(gateway.served_pages) == 4:
                    break
                await asyncio.sleep(0.1)
            await asyncio.to_thread(lambda: approver.decide(session, pending["callId"], approved=True,
                                                            arguments_hash=pending["argumentsHash"], reason="ok"))
            return await asyncio.wait_for(waiting, 30)

    answer = asyncio.run(wait())
    assert calls_of(answer)[0]["outcome"] == "succeeded"
    assert gateway.served_pages == [502, 504, 503, 502]
    assert writes_for(agent, order) == {"cancel_order": 1}


def test_a_turn_waiting_for_approval_is_awaited_on_its_id_while_ratchet_restarts(agent, approver):
    session, order = unique("s"), unique("o")
    transport = CountingTransport()
    # a request alone gives up after 1 s: only waiting on the turn until its deadline outlasts the outage
    client = RatchetClient(URL, TOKEN, poll_seconds=1, retry_timeout=1, http=httpx.Client(transport=transport))
    outcome: dict = {}
    waiting = threading.Thread(target=lambda: outcome.update(answer=client.run_turn(
        session, AGENT, "t-restart", [{"name": "cancel_order", "arguments": {"order": order}}], timeout=90)))
    waiting.start()
    wait_for_approval(approver, session, "cancel_order")
    restart_ratchet(down_millis=4000)
    pending = wait_for_approval(approver, session, "cancel_order")
    approver.decide(session, pending["callId"], arguments_hash=pending["argumentsHash"], approved=True, reason="ok")
    waiting.join(60)
    assert not waiting.is_alive()
    assert calls_of(outcome["answer"])[0]["outcome"] == "succeeded"
    assert transport.failures >= 1, "the client never saw Ratchet down"
    assert writes_for(agent, order) == {"cancel_order": 1}
    assert [t["turnId"] for t in approver.session(session)["turns"]] == ["t-restart"]


def test_a_turn_submitted_while_ratchet_is_down_runs_once_it_is_back(agent):
    order = unique("o")
    restarting = threading.Thread(target=restart_ratchet, kwargs={"down_millis": 2000})
    restarting.start()
    try:
        answer = RatchetClient(URL, TOKEN).run_turn(unique("s"), AGENT, "t1", [
            {"name": "add_note", "arguments": {"order": order}}], timeout=60)
    finally:
        restarting.join(60)
    assert value_of(calls_of(answer)[0])["done"] == "add_note"
    assert writes_for(agent, order) == {"add_note": 1}


def test_a_turn_that_outlives_its_deadline_raises_turn_timeout_naming_the_turn(agent):
    session = unique("s")
    with pytest.raises(TurnTimeoutError) as late:
        agent.run_turn(session, AGENT, "t-late", [{"name": "cancel_order", "arguments": {"order": unique("o")}}],
                       timeout=1.5)
    assert (late.value.session_id, late.value.turn_id) == (session, "t-late")
    assert "may still run" in str(late.value)
