"""Records the function calls of each model response, so that tools run one at a time by the SDK can
be gathered into the response's turn."""

from __future__ import annotations

import json
from typing import Any, AsyncIterator

from agents.items import ModelResponse
from agents.models.interface import Model
from openai.types.responses import ResponseCompletedEvent, ResponseFunctionToolCall

from .._turns import ModelCall, ResponseTurn


class ResponseRecorder:
    """Remembers the tool calls of the responses of the models it wrapped, by call id."""

    def __init__(self, keep: int = 1024) -> None:
        self._calls: dict[str, tuple[str | None, tuple[ModelCall, ...]]] = {}
        self._keep = keep

    def wrap(self, model: Model) -> Model:
        """``model``, its responses recorded here (both ``get_response`` and ``stream_response``)."""
        return _RecordingModel(model, self)

    def record(self, response_id: str | None, output: list[Any]) -> None:
        calls = tuple(ModelCall(item.call_id, item.name, _object(item.arguments))
                      for item in output if isinstance(item, ResponseFunctionToolCall))
        for call in calls:
            if call.call_id:
                self._calls[call.call_id] = (response_id, calls)
        while len(self._calls) > self._keep:
            self._calls.pop(next(iter(self._calls)))

    def turn_of(self, call_id: str, tool_names: set[str]) -> ResponseTurn | None:
        """The turn of the recorded response with call ``call_id``, among its calls of ``tool_names``."""
        recorded = self._calls.get(call_id)
        if recorded is None:
            return None
        response_id, calls = recorded
        return ResponseTurn.of(response_id, [c for c in calls if c.name in tool_names])


def _object(arguments: str) -> dict[str, Any]:
    try:
        value = json.loads(arguments) if arguments else {}
    except ValueError:
        return {"": arguments}
    return value if isinstance(value, dict) else {"": value}


class _RecordingModel(Model):
    def __init__(self, model: Model, recorder: ResponseRecorder) -> None:
        self._model = model
        self._recorder = recorder

    async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
        response = await self._model.get_response(*args, **kwargs)
        self._recorder.record(response.response_id, response.output)
        return response

    async def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        async for event in self._model.stream_response(*args, **kwargs):
            if isinstance(event, ResponseCompletedEvent):
                self._recorder.record(event.response.id, list(event.response.output))
            yield event

    def __getattr__(self, name: str) -> Any:
        return getattr(self._model, name)
