"""Kernels of this project are compiled once per array layout, not once per call site's
constants and integer widths (hon_env/numba_calls.py); other packages' kernels keep
numba's own rule."""

from __future__ import annotations

import numpy as np
from numba import njit, types

import hon_env  # noqa: F401  (installs the rule)
from hon_env.numba_calls import _widened, widen_kernel_calls


def _callee(module: str):
    """A fresh jitted ``x + 1`` that numba takes for a function of ``module``."""
    def plus_one(x):
        return x + 1

    plus_one.__module__ = module
    return njit(plus_one)


def _calls(callee):
    """A jitted caller that hands ``callee`` a constant, an int32 and an int64."""
    @njit
    def caller(row, i):
        return callee(0) + callee(row[0]) + callee(i)

    return caller


def test_widened_types():
    assert _widened(types.literal(3)) == types.int64
    assert _widened(types.int32) == types.int64
    assert _widened(types.int8) == types.int64
    assert _widened(types.literal(True)) == types.boolean
    assert _widened(types.uint64) == types.uint64  # unsigned values could not fit
    assert _widened(types.float32) == types.float32
    assert _widened(types.int32[:]) == types.int32[:]  # arrays keep their layout


def test_a_project_kernel_compiles_once_for_every_call_site():
    """A callee of this project's packages gets one version for a constant, an int32
    and an int64 argument, and the same result as numba's rule gives."""
    assert widen_kernel_calls()
    ours = _callee("hon_env.core.probe")
    caller = _calls(ours)
    assert caller(np.array([4], np.int32), np.int64(7)) == 1 + 5 + 8
    assert ours.signatures == [(types.int64,)]


def test_other_packages_keep_numbas_rule():
    """A callee of another package is compiled per argument type, literal included, as
    numba does: the rule touches only this project's kernels."""
    theirs = _callee("someone_else.kernels")
    caller = _calls(theirs)
    assert caller(np.array([4], np.int32), np.int64(7)) == 1 + 5 + 8
    assert len(theirs.signatures) == 3, theirs.signatures


def test_installing_twice_wraps_once():
    from numba.core.dispatcher import Dispatcher

    assert widen_kernel_calls()
    first = Dispatcher.get_call_template
    assert widen_kernel_calls()
    assert Dispatcher.get_call_template is first


def test_a_numba_without_the_internals_runs_without_the_rule(monkeypatch):
    """Where numba's internals the rule wraps are gone, installing it says so (False)
    and changes nothing, instead of breaking every kernel call."""
    from numba.core import dispatcher

    before = dispatcher.Dispatcher.get_call_template
    monkeypatch.setattr(dispatcher, "_FunctionCompiler", type("Compiler", (), {}))
    assert widen_kernel_calls() is False
    assert dispatcher.Dispatcher.get_call_template is before
