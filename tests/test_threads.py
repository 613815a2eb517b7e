"""The OpenMP wait policy and spin count the package sets for the engine's and torch's
worker threads (``hon_env/threads.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# what hon-train imports first that loads torch, then what the policy and the spin count
# were when it did
PROBE = ("import sys; import agents.training.distributed, os; "
         "print('torch' in sys.modules, os.environ.get('OMP_WAIT_POLICY'), "
         "os.environ.get('GOMP_SPINCOUNT'))")
KEYS = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")


def _run(**user: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in KEYS}
    env.update(user)
    return subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=ROOT, text=True,
                          capture_output=True, check=True).stdout.split()


def test_idle_workers_spin_briefly_then_sleep_before_torch_loads():
    """A trainer's first import of torch comes after the package set a short spin and a
    passive wait: long-spinning workers starved a run beside another one ninefold, and
    workers that slept at once slowed a run alone on a VM by a seventh."""
    from hon_env.threads import SPIN_COUNT

    assert _run() == ["True", "PASSIVE", SPIN_COUNT]


@pytest.mark.parametrize("policy", ["ACTIVE", "passive"])
def test_a_policy_the_user_set_is_kept_and_not_given_a_spin(policy: str):
    """A spin count would override the user's policy (libgomp reads it first)."""
    assert _run(OMP_WAIT_POLICY=policy) == ["True", policy, "None"]


def test_a_spin_count_the_user_set_is_kept():
    assert _run(GOMP_SPINCOUNT="0") == ["True", "PASSIVE", "0"]


def test_configure_returns_the_policy_in_force(monkeypatch):
    from hon_env.threads import SPIN_COUNT, configure_openmp_wait

    for key in KEYS:
        monkeypatch.delenv(key, raising=False)
    assert configure_openmp_wait() == "PASSIVE"
    assert os.environ["GOMP_SPINCOUNT"] == SPIN_COUNT
    monkeypatch.delenv("GOMP_SPINCOUNT")
    monkeypatch.setenv("OMP_WAIT_POLICY", "ACTIVE")
    assert configure_openmp_wait() == "ACTIVE"
    assert "GOMP_SPINCOUNT" not in os.environ
