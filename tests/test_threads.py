"""The OpenMP wait policy the package sets for the engine's worker threads
(``hon_env/threads.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# what hon-train imports first that loads torch, then what the policy was when it did
PROBE = ("import sys; import agents.training.distributed, os; "
         "print('torch' in sys.modules, os.environ.get('OMP_WAIT_POLICY'))")


def _run(env_policy: str | None) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if env_policy is not None:
        env["OMP_WAIT_POLICY"] = env_policy
    return subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=ROOT, text=True,
                          capture_output=True, check=True).stdout.split()


def test_idle_workers_sleep_before_torch_loads():
    """A trainer's first import of torch comes after the package made idle OpenMP workers
    passive: spinning workers starved a run beside another one ninefold."""
    assert _run(None) == ["True", "PASSIVE"]


@pytest.mark.parametrize("policy", ["ACTIVE", "passive"])
def test_a_policy_the_user_set_is_kept(policy: str):
    assert _run(policy) == ["True", policy]


def test_configure_returns_the_policy_in_force(monkeypatch):
    from hon_env.threads import configure_openmp_wait

    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    assert configure_openmp_wait() == "PASSIVE"
    monkeypatch.setenv("OMP_WAIT_POLICY", "ACTIVE")
    assert configure_openmp_wait() == "ACTIVE"
