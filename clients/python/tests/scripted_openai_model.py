"""A Model of the OpenAI Agents SDK for tests: it answers one response with the given function calls,
then, once it has read their outputs, a message that repeats them."""

from __future__ import annotations

import json
from typing import Any

from agents.items import ModelResponse
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText


class ScriptedModel(Model):
    def __init__(self, response_id: str, *calls: tuple[str, str, dict[str, Any]]) -> None:
        self.response_id = response_id
        self.calls = calls
        self.read: list[str] = []

    async def get_response(self, system_instructions, input, *args: Any, **kwargs: Any) -> ModelResponse:
        outputs = [item for item in input if isinstance(item, dict) and item.get("type") == "function_call_output"] \
            if isinstance(input, list) else []
        if outputs:
            self.read = [str(o["output"]) for o in outputs]
            text = " | ".join(self.read)
            message = ResponseOutputMessage(id="msg_final", type="message", role="assistant", status="completed",
                                            content=[ResponseOutputText(type="output_text", text=text, annotations=[])])
            return ModelResponse(output=[message], usage=Usage(), response_id=None)
        return ModelResponse(usage=Usage(), response_id=self.response_id, output=[
            ResponseFunctionToolCall(type="function_call", call_id=i, name=n, arguments=json.dumps(a))
            for i, n, a in self.calls])

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("the tests run the agent without streaming")
