from google.adk.agents import LlmAgent
from google.adk.models import BaseLlm
from google.adk.runners import InMemoryRunner
from google.genai import types

from ratchet_client import AsyncRatchetClient
from ratchet_client.google_adk import RatchetToolset


async def answer(model: BaseLlm | str, client: AsyncRatchetClient, agent: str, session_id: str, question: str) -> str:
    tools = RatchetToolset(client, agent, session_id=session_id)  # one model response's calls = one turn
    runner = InMemoryRunner(agent=LlmAgent(name="support", model=model, instruction="Help with orders.",
                                           tools=[tools]), app_name="support")
    session = await runner.session_service.create_session(app_name="support", user_id="customer")
    text = ""
    async for event in runner.run_async(user_id="customer", session_id=session.id,
                                        new_message=types.Content(role="user", parts=[types.Part(text=question)])):
        if event.is_final_response() and event.content and event.content.parts:
            text = "".join(part.text or "" for part in event.content.parts)
    return text
