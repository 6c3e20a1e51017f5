"""The examples in docs/CLIENTS.md and docs/ADAPTERS.md are the files the framework tests run."""

import re

from conftest import PACKAGE
from test_install import BUILD, INSTALL

DOCS = PACKAGE.parents[1] / "docs"
EXAMPLE = re.compile(r"<!-- example: (clients/python/examples/\S+) -->\n```python\n(.*?)```\n", re.S)


def examples(doc):
    return EXAMPLE.findall((DOCS / doc).read_text())


def test_every_python_example_in_the_docs_is_the_tested_file_verbatim():
    found = examples("CLIENTS.md") + examples("ADAPTERS.md")
    assert {path for path, _ in found} == {f"clients/python/examples/{f.name}"
                                           for f in (PACKAGE / "examples").glob("*.py")}
    for path, text in found:
        assert text == (PACKAGE.parents[1] / path).read_text(), path


def test_the_documented_install_commands_are_the_ones_the_install_test_runs():
    text = (DOCS / "CLIENTS.md").read_text()
    assert f"```sh\n{BUILD}\n{INSTALL}\n```" in text
