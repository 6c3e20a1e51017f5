from pydantic_ai import Agent
from pydantic_ai.models import Model

from ratchet_client import AsyncRatchetClient
from ratchet_client.pydantic_ai import RatchetToolset


async def answer(model: Model | str, client: AsyncRatchetClient, agent: str, session_id: str, question: str) -> str:
    tools = RatchetToolset(client, agent, session_id=session_id)  # one model response's calls = one turn
    result = await Agent(model, toolsets=[tools]).run(question)
    return result.output
