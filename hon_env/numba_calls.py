"""One compiled version of each kernel per array layout, not one per call site.

numba compiles a jitted function once for every distinct tuple of argument types it is
called with from other jitted code, and a call site's constant is a type of its own
(``Literal[int](0)``, ``Literal[bool](False)``), as is an ``int32`` read from the state
array next to an ``int64`` loop index. The engine's helpers are called from hundreds of
sites with such mixes, so the interpreter was compiled in up to ten versions of a
function, each pulling its own versions of the callees: most of a cold start.

``widen_kernel_calls`` makes a call from one jitted function to another of this project
(``hon_env``, ``agents``) look up, and compile, the callee for the call's argument types
with constants made plain and signed integers made ``int64``. The values are the same
(numba computes integer arithmetic in 64 bits either way), so the games are state for
state those of before (the golden replays, ``tests/test_golden_replays.py``); only fewer
versions compile: the single-game kernels' first call took 123 s instead of 177 s from
an empty cache on 2 cores (docs/benchmarks.md, "Cold start"). Other packages' kernels in
the same process keep numba's own rule. numba versions without the hook it wraps run
without it, only slower to compile.
"""

from __future__ import annotations

from typing import Any

_PACKAGES = ("hon_env.", "agents.")


def _widened(ty: Any) -> Any:
    """``ty`` without a literal value, and a signed integer narrower than 64 bits as
    ``int64``; anything else as it is."""
    from numba.core import types

    ty = types.unliteral(ty)
    if isinstance(ty, types.Integer) and ty.signed and ty.bitwidth < 64:
        return types.int64
    return ty


def widen_kernel_calls() -> bool:
    """Install the rule on numba's dispatcher (once per process); False where this numba
    lacks the two internals it relies on (``Dispatcher.get_call_template`` to wrap and
    ``_FunctionCompiler.fold_argument_types``)."""
    from numba.core import dispatcher

    original = getattr(dispatcher.Dispatcher, "get_call_template", None)
    compiler = getattr(dispatcher, "_FunctionCompiler", None)
    if original is None or not hasattr(compiler, "fold_argument_types"):
        return False
    if getattr(original, "_hon_env_widened", False):
        return True

    def get_call_template(self: dispatcher.Dispatcher, args: tuple, kws: dict) -> Any:
        if self.py_func.__module__.startswith(_PACKAGES):
            _, folded = self._compiler.fold_argument_types(args, kws)
            args, kws = tuple(_widened(a) for a in folded), {}
        return original(self, args, kws)

    get_call_template._hon_env_widened = True  # type: ignore[attr-defined]
    dispatcher.Dispatcher.get_call_template = get_call_template
    return True
