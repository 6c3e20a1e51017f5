"""A BaseLlm for tests: it answers one response with the given function calls, then, once it has read
their responses, a text that repeats them."""

from __future__ import annotations

import json
from typing import Any, AsyncGenerator

from google.adk.models import BaseLlm, LlmRequest, LlmResponse
from google.genai import types


class ScriptedLlm(BaseLlm):
    model: str = "scripted"
    calls: list[tuple[str | None, str, dict[str, Any]]] = []
    read: list[str] = []

    async def generate_content_async(self, llm_request: LlmRequest,
                                     stream: bool = False) -> AsyncGenerator[LlmResponse, None]:
        responses = [p.function_response for c in llm_request.contents for p in c.parts or [] if p.function_response]
        if responses:
            self.read[:] = [json.dumps(r.response, separators=(",", ":")) for r in responses]
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=" | ".join(self.read))]))
            return
        yield LlmResponse(content=types.Content(role="model", parts=[
            types.Part(function_call=types.FunctionCall(id=i, name=n, args=a)) for i, n, a in self.calls]))
