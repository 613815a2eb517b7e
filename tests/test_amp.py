"""When ``amp: auto`` turns bf16 autocast on (agents/networks/mlp.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from agents.networks.mlp import cpu_bf16_is_fast, resolve_amp

XEON_NO_AMX = ("processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Processor\n"
               "flags\t\t: fpu sse2 avx2 avx512f avx512_bf16 avx512_vnni\n")
XEON_AMX = XEON_NO_AMX.replace("avx512_vnni", "avx512_vnni amx_bf16 amx_tile amx_int8")
EPYC_BF16 = ("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\n"
             "model name\t: AMD EPYC\nflags\t\t: fpu sse2 avx2 avx512f avx512_bf16\n")
EPYC_NO_BF16 = EPYC_BF16.replace(" avx512_bf16", "")


def test_auto_bf16_where_it_was_measured_faster():
    """AMX tiles, or AVX-512 BF16 on AMD: bf16 trained faster there. AVX-512 BF16 on an
    Intel CPU without AMX is not enough (float32 trained faster), nor AMD without it."""
    assert cpu_bf16_is_fast(XEON_AMX)
    assert not cpu_bf16_is_fast(XEON_NO_AMX)
    assert cpu_bf16_is_fast(EPYC_BF16)
    assert not cpu_bf16_is_fast(EPYC_NO_BF16)
    assert not cpu_bf16_is_fast("")
    # a flag or vendor named in another field than its own line does not count
    assert not cpu_bf16_is_fast("model name\t: amx_bf16 test part\nflags\t\t: avx2\n")
    assert not cpu_bf16_is_fast(XEON_NO_AMX.replace("model name\t: Intel(R) Xeon(R)",
                                                    "model name\t: AuthenticAMD"))


def test_resolve_amp_settings():
    """``true``/``false`` are obeyed on any device; anything else is refused."""
    cpu = torch.device("cpu")
    assert resolve_amp("true", cpu) is True
    assert resolve_amp("false", cpu) is False
    if Path("/proc/cpuinfo").exists():
        assert resolve_amp("auto", cpu) is cpu_bf16_is_fast(Path("/proc/cpuinfo").read_text())
    with pytest.raises(ValueError, match="amp must be"):
        resolve_amp("fast", cpu)
