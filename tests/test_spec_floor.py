"""The vocabulary floor (``hon_env/spec/``): it imports nothing of the project but itself,
and the module names it had before the move are the same modules."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

SPEC = Path(__file__).resolve().parents[1] / "hon_env" / "spec"


@pytest.mark.parametrize("path", sorted(SPEC.glob("*.py")), ids=lambda p: p.name)
def test_the_floor_imports_only_the_floor(path):
    """Every import of a spec module is the standard library, numpy, numba or the floor."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        for name in names:
            if name.split(".")[0] in ("hon_env", "agents"):
                assert name == "hon_env.spec" or name.startswith("hon_env.spec."), (path, name)


@pytest.mark.parametrize("old,new", [
    ("hon_env.core.layout", "hon_env.spec.layout"),
    ("hon_env.core.obs_features", "hon_env.spec.obs_features"),
    ("hon_env.content.tables", "hon_env.spec.tables"),
    ("hon_env.content.ops", "hon_env.spec.ops"),
])
def test_old_module_names_are_the_same_modules(old, new):
    """Code written against the old names reads the very same module (one set of
    constants, not a copy)."""
    assert importlib.import_module(old) is importlib.import_module(new)
    package, _, leaf = old.rpartition(".")
    assert getattr(importlib.import_module(package), leaf) is importlib.import_module(new)
