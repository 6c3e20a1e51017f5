"""Ratchet's Python client: idempotent turns, results, events and approvals over the HTTP API."""

from .aio import AsyncRatchetClient
from .client import Call, Event, RatchetClient, calls_of, value_of
from .errors import RatchetError, ToolCallError
from .turn_ids import is_valid_id, model_call_id_for, turn_id_for

__all__ = [
    "AsyncRatchetClient", "Call", "Event", "RatchetClient", "RatchetError", "ToolCallError",
    "calls_of", "is_valid_id", "model_call_id_for", "turn_id_for", "value_of",
]
