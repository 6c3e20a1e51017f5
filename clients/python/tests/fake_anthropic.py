"""A local server speaking Anthropic's Messages API, enough for Claude Code (the Claude Agent SDK's
CLI): asked with tools, it answers one message of tool_use blocks for the given calls; once it has
read their tool_result blocks, a text that repeats them. Requests without tools get a short text."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from claude_agent_sdk import ClaudeAgentOptions


class FakeAnthropic:
    def __init__(self, message_id: str, calls: list[tuple[str, str, dict[str, Any]]]) -> None:
        self.message_id = message_id
        self.calls = calls
        self.read: list[str] = []
        self.requests: list[dict[str, Any]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                if not self.path.startswith("/v1/messages") or self.path.startswith("/v1/messages/count_tokens"):
                    self.answer(200, {"input_tokens": 10} if "count_tokens" in self.path else {})
                    return
                fake.requests.append(body)
                message = fake.reply(body)
                if body.get("stream"):
                    self.stream(message)
                else:
                    self.answer(200, message)

            def do_GET(self) -> None:
                self.answer(404, {"type": "error", "error": {"type": "not_found_error", "message": "none"}})

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def answer(self, status: int, payload: Any) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def stream(self, message: dict[str, Any]) -> None:
                events: list[tuple[str, dict[str, Any]]] = [
                    ("message_start", {"type": "message_start", "message": dict(message, content=[],
                                                                                stop_reason=None)})]
                for i, block in enumerate(message["content"]):
                    if block["type"] == "text":
                        events += [("content_block_start", {"type": "content_block_start", "index": i,
                                                            "content_block": {"type": "text", "text": ""}}),
                                   ("content_block_delta", {"type": "content_block_delta", "index": i,
                                                            "delta": {"type": "text_delta", "text": block["text"]}})]
                    else:
                        events += [("content_block_start", {"type": "content_block_start", "index": i,
                                                            "content_block": dict(block, input={})}),
                                   ("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {
                                       "type": "input_json_delta", "partial_json": json.dumps(block["input"])}})]
                    events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
                events += [("message_delta", {"type": "message_delta", "usage": {"output_tokens": 5},
                                              "delta": {"stop_reason": message["stop_reason"],
                                                        "stop_sequence": None}}),
                           ("message_stop", {"type": "message_stop"})]
                data = "".join(f"event: {name}\ndata: {json.dumps(event)}\n\n" for name, event in events).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        base = {"type": "message", "role": "assistant", "model": body.get("model", "claude"),
                "usage": {"input_tokens": 10, "output_tokens": 5}, "stop_sequence": None}
        tool_names = {t.get("name") for t in body.get("tools") or []}
        results = [block for m in body.get("messages", []) if m.get("role") == "user"
                   for block in (m.get("content") if isinstance(m.get("content"), list) else [])
                   if isinstance(block, dict) and block.get("type") == "tool_result"]
        if results:
            self.read = [_text(r.get("content")) for r in results]
            return dict(base, id="msg_final", content=[{"type": "text", "text": " | ".join(self.read)}],
                        stop_reason="end_turn")
        if not any(name and name.startswith("mcp__") for name in tool_names):
            return dict(base, id="msg_aside", content=[{"type": "text", "text": "ok"}], stop_reason="end_turn")
        return dict(base, id=self.message_id, stop_reason="tool_use", content=[
            {"type": "tool_use", "id": i, "name": n, "input": a} for i, n, a in self.calls])

    def options(self, config_dir: str) -> ClaudeAgentOptions:
        """Options that run Claude Code against this server, with its configuration in ``config_dir``."""
        return ClaudeAgentOptions(max_turns=4, cwd=config_dir, env={
            "ANTHROPIC_BASE_URL": self.url, "ANTHROPIC_API_KEY": "sk-ant-local-test", "CLAUDE_CONFIG_DIR": config_dir,
            "DISABLE_TELEMETRY": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1",
            "ENABLE_TOOL_SEARCH": "false"})  # the local model calls the MCP tools directly, without searching first

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(c.get("text", "") for c in content if isinstance(c, dict))
    return str(content)
