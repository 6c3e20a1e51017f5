import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(PACKAGE), str(PACKAGE / "examples")]
os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")  # the tests reach no service

from ratchet_client import RatchetClient, calls_of, value_of  # noqa: E402

URL = os.environ.get("RATCHET_URL")
AGENT = os.environ.get("RATCHET_AGENT", "shop")

if not URL:
    raise RuntimeError("RATCHET_URL is not set: these tests run against a real Ratchet (see PythonClientTest)")


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def agent() -> RatchetClient:
    return RatchetClient(URL, os.environ["RATCHET_AGENT_TOKEN"])


@pytest.fixture
def approver() -> RatchetClient:
    return RatchetClient(URL, os.environ["RATCHET_APPROVER_TOKEN"])


def wait_for_approval(approver: RatchetClient, session_id: str, tool: str) -> dict:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for pending in approver.approvals():
            if pending["sessionId"] == session_id and pending["tool"] == tool:
                return pending
        time.sleep(0.1)
    raise AssertionError(f"no approval of {tool} was asked in session {session_id}")


def writes_for(client: RatchetClient, order: str) -> dict:
    answer = client.run_turn(unique("counts"), AGENT, "count", [{"name": "count_writes", "arguments": {"order": order}}])
    return value_of(calls_of(answer)[0])


def restart_ratchet(down_millis: int) -> None:
    """Stops the Ratchet under test, keeps it down for down_millis and starts it again (PythonSuite)."""
    control = os.environ["RATCHET_CONTROL_URL"]
    with urllib.request.urlopen(urllib.request.Request(f"{control}/restart?downMillis={down_millis}", method="POST"),
                                timeout=60) as answer:
        assert answer.status == 204


def agent_process(script: str, *args: str) -> subprocess.Popen:
    """Starts tests/agents/<script> as an agent process of its own, with the package and its examples importable."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PACKAGE), str(PACKAGE / "examples"),
                                                                   str(PACKAGE / "tests")]))
    # a process group of its own, so that killing the agent kills the processes it started too (Claude Code's CLI)
    return subprocess.Popen([sys.executable, str(PACKAGE / "tests" / "agents" / script), *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)


def kill(process: subprocess.Popen) -> None:
    """Kills an agent process and every process it started (SIGKILL), as a crash of its machine would."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(10)


def kill_between_writes_and_replay(agent: RatchetClient, approver: RatchetClient, script: str, *args: str,
                                   turns: int = 1) -> str:
    """Runs an agent process whose model answers a note and a cancel (approval) in one response, kills it
    (SIGKILL) while the cancel waits, runs it again and approves: each write ran once, in ``turns`` turns.
    The replay's output."""
    session, order = unique("s"), unique("o")
    first = agent_process(script, session, order, *args)
    try:
        wait_for_approval(approver, session, "cancel_order")
    finally:
        kill(first)
    assert writes_for(agent, order) == {"add_note": 1}
    replay = agent_process(script, session, order, *args)
    try:
        pending = wait_for_approval(approver, session, "cancel_order")
        approver.decide(session, pending["callId"], arguments_hash=pending["argumentsHash"], approved=True,
                        reason="checked")
        out, _ = replay.communicate(timeout=60)
    finally:
        kill(replay)
    assert replay.returncode == 0, out
    assert writes_for(agent, order) == {"add_note": 1, "cancel_order": 1}
    assert len(approver.session(session)["turns"]) == turns, approver.session(session)
    return out


def decide_when_asked(approver: RatchetClient, session_id: str, tool: str, *, approved: bool, reason: str,
                      after: float = 0.0) -> threading.Thread:
    """Decides the call of ``tool`` in the session ``after`` seconds once it is asked, in a thread of its own."""

    def decide() -> None:
        pending = wait_for_approval(approver, session_id, tool)
        time.sleep(after)
        approver.decide(session_id, pending["callId"], arguments_hash=pending["argumentsHash"], approved=approved,
                        reason=reason)

    thread = threading.Thread(target=decide, daemon=True)
    thread.start()
    return thread
