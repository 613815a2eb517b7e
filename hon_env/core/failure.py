"""Engine errors recorded in the state instead of raised.

A numba exception raised inside a ``prange`` loop ends the whole batch (numba surfaces it
as a ``SystemError``), so the kernels never raise: an impossible situation (stack
overflow, a decision with no legal action, a loop past the step budget...) is recorded as
an ``ERR_*`` code in the game's ``error`` field, ``run`` stops that game, and the Python
front ends turn it into ``hon_env.EngineError`` (engine.md, "Engine errors").
"""

from __future__ import annotations

from numba import njit

from hon_env.spec import layout as L


@njit(cache=True)
def fail(s, b, code):
    """Record error ``code`` for game ``b`` (the first error wins) and the op on top of its
    stack. Writes ``error`` and ``error_op`` of row ``b``; the caller returns at once."""
    if s[b, L.ERROR] != 0:
        return
    s[b, L.ERROR] = code
    sp = s[b, L.SP]
    if 0 < sp <= L.STACK_DEPTH:
        s[b, L.ERROR_OP] = s[b, L.STACK + (sp - 1) * L.STACK_W]
