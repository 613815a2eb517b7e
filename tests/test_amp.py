"""When ``amp: auto`` turns bf16 autocast on (agents/networks/mlp.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from agents.networks.mlp import cpu_has_amx, resolve_amp

XEON_NO_AMX = ("processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Processor\n"
               "flags\t\t: fpu sse2 avx2 avx512f avx512_bf16 avx512_vnni\n")
XEON_AMX = XEON_NO_AMX.replace("avx512_vnni", "avx512_vnni amx_bf16 amx_tile amx_int8")


def test_auto_bf16_needs_amx_tiles_on_a_cpu():
    """AVX-512 BF16 alone is not enough: bf16 trained slower than float32 there."""
    assert cpu_has_amx(XEON_AMX)
    assert not cpu_has_amx(XEON_NO_AMX)
    assert not cpu_has_amx("")
    # a flag named in another field than the flags line does not count
    assert not cpu_has_amx("model name\t: amx_bf16 test part\nflags\t\t: avx2\n")


def test_resolve_amp_settings():
    """``true``/``false`` are obeyed on any device; anything else is refused."""
    cpu = torch.device("cpu")
    assert resolve_amp("true", cpu) is True
    assert resolve_amp("false", cpu) is False
    if Path("/proc/cpuinfo").exists():
        assert resolve_amp("auto", cpu) is cpu_has_amx(Path("/proc/cpuinfo").read_text())
    with pytest.raises(ValueError, match="amp must be"):
        resolve_amp("fast", cpu)
