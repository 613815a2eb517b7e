"""scripts/profile_kernels.py: numba symbols shortened to module.function, and a perf map
of a function compiled in this process (address, size, name)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _script():
    spec = importlib.util.spec_from_file_location("profile_kernels",
                                                  ROOT / "scripts" / "profile_kernels.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_numba_symbols_are_shortened_to_module_and_function():
    short = _script().short_name
    mangled = ("_ZN7hon_env4core6interp7step_opB2v1B40c8tJTIeFIjxB2IKSgI4CrvSCKg1MMfAwK4L"
               "IaQIAE5ArrayIiLi2E1C7mutable7alignedEx")
    assert short(mangled) == "hon_env.core.interp.step_op"
    assert short("_ZN13_3cdynamic_3e36__numba_parfor_gufunc_0x7f4f59d50c10B4v245B1"
                 ) == "__numba_parfor_gufunc"
    assert short("malloc") == "malloc"


def test_the_perf_map_names_a_function_compiled_here():
    import numba

    mod = _script()

    @numba.njit(cache=False)
    def add_one(x):
        return x + 1

    assert add_one(1) == 2
    lines = mod.perf_map_lines([add_one])
    assert lines
    fields = [line.split(" ", 2) for line in lines]
    starts = [int(a, 16) for a, _, _ in fields]
    assert starts == sorted(starts) and all(int(n, 16) > 0 for _, n, _ in fields)
    assert any(name.endswith("add_one") for _, _, name in fields), fields


def test_a_function_never_called_has_no_map_lines():
    import numba

    @numba.njit(cache=False)
    def unused(x):
        return x

    assert _script().perf_map_lines([unused]) == []


def test_bad_arguments_are_refused():
    with pytest.raises(SystemExit):
        _script().main(["--batch", "0"])
