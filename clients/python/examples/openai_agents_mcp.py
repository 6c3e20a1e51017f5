from agents import Agent, Runner
from agents.models.interface import Model

from ratchet_client.openai_agents import ratchet_mcp_server


async def answer(model: Model, base_url: str, token: str, agent: str, session_id: str, question: str) -> str:
    async with ratchet_mcp_server(base_url, token, agent, session_id=session_id) as ratchet:  # waits up to 1 h
        support = Agent(name="support", instructions="Help customers with their orders.", mcp_servers=[ratchet],
                        model=model)
        result = await Runner.run(support, question)
    return str(result.final_output)
