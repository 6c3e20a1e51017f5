from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import tools_condition

from ratchet_client import AsyncRatchetClient
from ratchet_client.langgraph import RatchetToolNode


async def answer(model: BaseChatModel, client: AsyncRatchetClient, agent: str, session_id: str,
                 question: str) -> list[AnyMessage]:
    # a real chat model gets the agent's tools: model.bind_tools(bindable_tools(await client.tools(agent)))
    async def call_model(state: MessagesState) -> dict[str, Any]:
        return {"messages": [await model.ainvoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("model", call_model)
    graph.add_node("tools", RatchetToolNode(client, agent))  # one AIMessage's calls = one turn
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", tools_condition)
    graph.add_edge("tools", "model")
    state = await graph.compile().ainvoke({"messages": [("user", question)]},
                                          {"configurable": {"thread_id": session_id}})
    return state["messages"]
