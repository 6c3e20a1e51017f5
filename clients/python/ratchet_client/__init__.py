"""Ratchet's Python client: idempotent turns, results, events and approvals over the HTTP API."""

from ._protocol import DEFAULT_TURN_TIMEOUT, Call, Event, calls_of, text_for_model, value_of
from .aio import AsyncRatchetClient
from .client import RatchetClient
from .errors import (MissingCallIdError, RatchetError, RatchetUnavailableError, ToolCallError,
                     TurnTimeoutError)
from .turn_ids import is_valid_id, model_call_id_for, turn_id_for

__all__ = [
    "AsyncRatchetClient", "Call", "DEFAULT_TURN_TIMEOUT", "Event", "MissingCallIdError", "RatchetClient",
    "RatchetError", "RatchetUnavailableError", "ToolCallError", "TurnTimeoutError", "calls_of", "is_valid_id",
    "model_call_id_for", "text_for_model", "turn_id_for", "value_of",
]
