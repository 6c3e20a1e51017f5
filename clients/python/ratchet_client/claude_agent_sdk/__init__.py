"""Claude Agent SDK: Ratchet's MCP endpoint as the agent's MCP server. Install with
``pip install "ratchet-client[claude-agent-sdk]"``; see docs/CLIENTS.md, Claude Agent SDK."""

from __future__ import annotations

import dataclasses
import math

from claude_agent_sdk import ClaudeAgentOptions
from claude_agent_sdk.types import McpHttpServerConfig

__all__ = ["DEFAULT_TOOL_TIMEOUT", "ratchet_mcp_server_config", "with_ratchet"]

DEFAULT_TOOL_TIMEOUT = 3600.0
"""Seconds an MCP tool call may take (a person's approval included) unless told."""


def ratchet_mcp_server_config(base_url: str, token: str, agent: str, *,
                              session_id: str | None = None) -> McpHttpServerConfig:
    """The MCP server entry for Ratchet agent ``agent``: its endpoint, the token and the session."""
    headers = {"Authorization": f"Bearer {token}"}
    if session_id:
        headers["ratchet-session"] = session_id
    return {"type": "http", "url": f"{base_url.rstrip('/')}/mcp/{agent}", "headers": headers}


def with_ratchet(options: ClaudeAgentOptions, base_url: str, token: str, agent: str, *,
                 session_id: str | None = None, timeout: float = DEFAULT_TOOL_TIMEOUT,
                 server_name: str = "ratchet") -> ClaudeAgentOptions:
    """A copy of ``options`` with Ratchet as MCP server ``server_name``: its tools allowed
    (``mcp__<server_name>__*``) and Claude Code's MCP tool timeout (``MCP_TOOL_TIMEOUT``) set to
    ``timeout`` seconds, so a call that waits for a person's approval is not given up early."""
    if not isinstance(options.mcp_servers, dict):
        raise ValueError("with_ratchet needs options whose mcp_servers is a dict, not a configuration file")
    servers = dict(options.mcp_servers)
    servers[server_name] = ratchet_mcp_server_config(base_url, token, agent, session_id=session_id)
    allowed = [*options.allowed_tools, f"mcp__{server_name}__*"]
    env = dict(options.env, MCP_TOOL_TIMEOUT=str(math.ceil(timeout * 1000)))
    return dataclasses.replace(options, mcp_servers=servers, allowed_tools=allowed, env=env)
