"""docs/python.md runs: its ```python blocks, in order, in one namespace, in a fresh
directory (the page's outputs are written in its comments)."""

import re

from conftest import ROOT

PAGE = ROOT / "docs" / "python.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def test_the_pages_python_blocks_run(in_tmp, capsys):
    blocks = BLOCK.findall(PAGE.read_text())
    assert len(blocks) >= 6, "the page lost its examples"
    namespace = {"__name__": "docs_python"}
    for i, code in enumerate(blocks, 1):
        exec(compile(code, f"{PAGE.name} block {i}", "exec"), namespace)
    out = capsys.readouterr().out
    assert "sat 9 exhaustive search by the line engine" in out
    assert "VERIFIED" in out
