"""Every ```python block of docs/api.md runs as written (each in a fresh namespace)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

API_MD = Path(__file__).resolve().parents[1] / "docs" / "api.md"
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def _blocks() -> list[tuple[str, str]]:
    """(id, code) of each python block, the id naming the section it sits in."""
    text = API_MD.read_text()
    out = []
    for m in _BLOCK.finditer(text):
        headings = re.findall(r"^## (.+)$", text[:m.start()], re.M)
        section = headings[-1] if headings else "top"
        out.append((f"{section} (line {text[:m.start()].count(chr(10)) + 1})", m.group(1)))
    return out


BLOCKS = _blocks()


def test_the_page_has_examples():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("code", [c for _, c in BLOCKS], ids=[i for i, _ in BLOCKS])
def test_example_runs(code, capsys):
    if "sb3_contrib" in code:
        pytest.importorskip("sb3_contrib")
    if "rllib" in code:
        pytest.importorskip("ray.rllib")  # the optional extra hon_env[rllib]
    if "torchrl" in code:
        pytest.importorskip("torchrl")  # the optional extra hon_env[torchrl]
    exec(compile(code, str(API_MD), "exec"), {"__name__": "__docs__"})
    capsys.readouterr()  # the examples print; keep test output quiet
