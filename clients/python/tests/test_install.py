"""The package as users install it: a wheel built from the checkout, installed with the documented
command into a fresh environment in a temporary folder outside the repository, where pip resolves
the framework; the LangGraph example then runs there against the real Ratchet."""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from conftest import AGENT, PACKAGE, unique, writes_for

BUILD = "pip wheel --no-deps -w dist ./clients/python"
INSTALL = 'pip install "dist/ratchet_client-0.2.0-py3-none-any.whl[langgraph]"'

PROGRAM = '''
import asyncio, os, sys
import ratchet_client
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langgraph_agent import answer
from ratchet_client import AsyncRatchetClient

order = sys.argv[1]
model = GenericFakeChatModel(messages=iter([AIMessage(id="chatcmpl-installed", content="", tool_calls=[
    {"id": "call_1", "name": "add_note", "args": {"order": order, "note": "installed"}}]), AIMessage(content="done")]))

async def main():
    async with AsyncRatchetClient(os.environ["RATCHET_URL"], os.environ["RATCHET_AGENT_TOKEN"]) as client:
        messages = await answer(model, client, os.environ["RATCHET_AGENT"], "installed-" + order, "note it")
    print("from", ratchet_client.__file__)
    print("statuses", [m.status for m in messages if isinstance(m, ToolMessage)])

asyncio.run(main())
'''


def run(command, cwd, env=None):
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=400)
    assert result.returncode == 0, f"{command}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def test_the_wheel_installs_with_the_documented_command_in_a_fresh_environment_and_its_example_runs(agent):
    with tempfile.TemporaryDirectory(prefix="ratchet-install-") as home:
        home_path = Path(home)
        shutil.copytree(PACKAGE, home_path / "clients" / "python",
                        ignore=shutil.ignore_patterns(".venv*", "__pycache__", "*.egg-info", "build", "tests"))
        venv = home_path / "venv"
        run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", str(venv)], home)
        env = dict(os.environ, PATH=f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}", VIRTUAL_ENV=str(venv))
        env.pop("PYTHONPATH", None)
        for command in (BUILD, INSTALL):
            run(["bash", "-c", command + " -q --disable-pip-version-check"], home, env)
        app = home_path / "app"
        app.mkdir()
        shutil.copy(PACKAGE / "examples" / "langgraph_agent.py", app)
        (app / "main.py").write_text(PROGRAM)
        order = unique("o")
        out = run([str(venv / "bin" / "python"), "main.py", order], app, env)
        assert f"from {venv}" in out, out
        assert "statuses ['success']" in out
        assert writes_for(agent, order) == {"add_note": 1}
