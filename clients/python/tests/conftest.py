import os
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

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
