from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, query

from ratchet_client.claude_agent_sdk import with_ratchet


async def answer(base_url: str, token: str, agent: str, session_id: str, question: str,
                 options: ClaudeAgentOptions | None = None) -> str:
    options = with_ratchet(options or ClaudeAgentOptions(), base_url, token, agent, session_id=session_id)
    text = ""
    async for message in query(prompt=question, options=options):  # tool calls wait up to 1 h for approvals
        if isinstance(message, ResultMessage):
            text = message.result or ""
    return text
