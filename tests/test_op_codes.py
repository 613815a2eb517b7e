"""The op vocabulary is written once (``spec/ops.py``): the kernels import its codes, and
the interpreter dispatches every op the loader accepts."""

import re
from pathlib import Path

from hon_env.spec import ops
from hon_env.spec.ops import OP_BY_NAME, OPS

INTERP = Path(ops.__file__).resolve().parents[1] / "core" / "interp.py"
# the interpreter's loop and the op families it dispatches to (core/interp.py's docstring)
INTERPRETER = [INTERP.parent / f"{m}.py"
               for m in ("interp", "stack", "round_flow", "hero_turn", "content_ops")]


def _const(name: str) -> str:
    return "OP_CAPTURE" if name == "capture_bystanders" else f"OP_{name.upper()}"


def test_codes_are_unique_and_named_once():
    codes = [op.code for op in OPS]
    assert len(codes) == len(set(codes))
    assert len(OP_BY_NAME) == len(OPS)
    for op in OPS:
        assert getattr(ops, _const(op.name)) == op.code, op.name


def test_no_module_types_an_op_code_by_hand():
    """Kernels import op codes from spec/ops.py instead of assigning numbers."""
    root = INTERP.parents[1]
    for path in list(root.rglob("*.py")) + list((root.parent / "agents").rglob("*.py")):
        if path.name == "ops.py":
            continue
        text = path.read_text()
        assert not re.search(r"^OP_[A-Z_]+\s*(,\s*OP_[A-Z_]+\s*)*=", text, re.M), path


def test_the_interpreter_dispatches_every_op():
    """Every op has a branch in the interpreter's dispatch (``op == OP_X``), except
    ``prevent``, which only exists as an Exhaust ability answered in the damage window
    (the legal mask finds it by code, the damage frame reads its amount)."""
    text = "\n".join(path.read_text() for path in INTERPRETER)
    dispatched = set(re.findall(r"op == (?:ops\.)?(OP_[A-Z_]+)", text))
    declared = {_const(op.name) for op in OPS}
    assert declared - dispatched == {"OP_PREVENT"}
    masks = (INTERP.parent / "masks.py").read_text()
    assert re.search(r"== (ops\.)?OP_PREVENT", masks)
