"""An agent process for the crash test: it runs one model response (a note, then a cancel that waits
for approval) through Ratchet, with the turn id taken from the response id."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ratchet_client import RatchetClient, calls_of, turn_id_for  # noqa: E402

session_id, response_id, order = sys.argv[1:4]
client = RatchetClient(os.environ["RATCHET_URL"], os.environ["RATCHET_AGENT_TOKEN"])
response = {"id": response_id, "tool_calls": [
    {"id": "call_0", "name": "add_note", "arguments": {"order": order, "note": "customer asked to cancel"}},
    {"id": "call_1", "name": "cancel_order", "arguments": {"order": order}},
]}
turn_id = turn_id_for(response["id"], [c["id"] for c in response["tool_calls"]])
print("started", flush=True)
answer = client.run_turn(session_id, os.environ.get("RATCHET_AGENT", "shop"), turn_id,
                         [{"name": c["name"], "arguments": c["arguments"], "modelCallId": c["id"]}
                          for c in response["tool_calls"]])
print("outcomes", [c["outcome"] for c in calls_of(answer)], flush=True)
