from agents import Agent, Runner
from agents.models.interface import Model

from ratchet_client import AsyncRatchetClient
from ratchet_client.openai_agents import RatchetAgentTools


async def answer(model: Model, client: AsyncRatchetClient, agent: str, session_id: str, question: str) -> str:
    ratchet = await RatchetAgentTools.create(client, agent, session_id)
    support = Agent(name="support", instructions="Help customers with their orders.", tools=ratchet.tools,
                    model=ratchet.wrap_model(model))  # so that one response's calls run as one turn
    result = await Runner.run(support, question)
    return str(result.final_output)
