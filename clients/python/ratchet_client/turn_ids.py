"""Turn ids derived from the model's own response and tool call ids."""

from __future__ import annotations

import hashlib
import re
from typing import Sequence

_ID = re.compile(r"^[A-Za-z0-9_.:@+-]{1,128}$")


def is_valid_id(value: object) -> bool:
    """Whether Ratchet accepts this string as a session, turn or model call id as it is."""
    return isinstance(value, str) and _ID.match(value) is not None


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def turn_id_for(response_id: str | None, tool_call_ids: Sequence[str] = ()) -> str:
    """The turn id of one model response, by the convention every Ratchet client shares (docs/ADAPTERS.md).

    Its id when valid, else ``sha256:`` and 32 hex digits of its SHA-256, else ``calls:sha256:`` and a
    digest of its tool call ids.

    The same response always gives the same turn id, so an agent process that crashes and replays
    its last step resubmits the same turn, and Ratchet answers it from its journal.
    """
    if response_id:
        return response_id if is_valid_id(response_id) else f"sha256:{_digest(response_id)}"
    if not tool_call_ids:
        raise ValueError("a turn id needs the model response id or its tool call ids")
    return f"calls:sha256:{_digest(chr(10).join(tool_call_ids))}"


def model_call_id_for(tool_call_id: str | None) -> str | None:
    """A model call id Ratchet accepts: the id itself, or a digest of it."""
    if tool_call_id is None:
        return None
    return tool_call_id if is_valid_id(tool_call_id) else f"sha256:{_digest(tool_call_id)}"
