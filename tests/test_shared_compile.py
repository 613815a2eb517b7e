"""Processes compiling into one cache folder share the work (``hon_env/shared_compile.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# A kernel of the ``agents`` package (the compile locks cover this project's packages only),
# written to a folder of its own that stands first on the path.
TOY = """
from numba import njit

@njit(cache=True)
def plus_one(x):
    return x + 1
"""
# Compiles the toy kernel; with "slow" it says so in a file once it holds the lock and
# takes 3 s more to compile, so that a second process asks for the kernel meanwhile.
COMPILE = """
import json, sys, time
from pathlib import Path
import hon_env
from hon_env import shared_compile
if sys.argv[1] == "off":
    from numba.core import dispatcher
    dispatcher.Dispatcher.compile = dispatcher.Dispatcher.compile.__wrapped__
if sys.argv[2] == "slow":
    from numba.core import dispatcher
    compile_core = dispatcher._FunctionCompiler._compile_core
    def slow(self, args, return_type):
        Path("compiling").write_text("")
        time.sleep(3)
        return compile_core(self, args, return_type)
    dispatcher._FunctionCompiler._compile_core = slow
from agents import toy
print(json.dumps([toy.plus_one(1), sum(toy.plus_one.stats.cache_misses.values())]))
"""


def _toy_env(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "__init__.py").write_text("")
    (tmp_path / "agents" / "toy.py").write_text(TOY)
    return dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
                PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))


def _second_while_first_compiles(tmp_path: Path, locks: str) -> list[list[int]]:
    """The first process compiles the toy kernel slowly; the second asks for it meanwhile.
    Returns each one's [result, versions it compiled]."""
    env = _toy_env(tmp_path)
    first = subprocess.Popen([sys.executable, "-c", COMPILE, locks, "slow"], env=env,
                             cwd=tmp_path, stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (tmp_path / "compiling").exists():
        assert first.poll() is None and time.monotonic() < deadline, "the first never compiled"
        time.sleep(0.05)
    second = subprocess.run([sys.executable, "-c", COMPILE, locks, "fast"], env=env,
                            cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stderr
    out, _ = first.communicate(timeout=300)
    return [json.loads(out), json.loads(second.stdout)]


def test_a_second_process_loads_what_the_first_compiles(tmp_path: Path):
    """A process that needs a kernel another process is compiling into the same cache
    folder waits for it and loads it, compiling nothing."""
    assert _second_while_first_compiles(tmp_path, "on") == [[2, 1], [2, 0]]


def test_without_the_locks_both_compile(tmp_path: Path):
    """The control: with numba's own compile the second process compiles the kernel too
    (the case the locks remove)."""
    assert _second_while_first_compiles(tmp_path, "off") == [[2, 1], [2, 1]]


def test_locks_refused_where_the_folder_cannot_be_made(tmp_path: Path, monkeypatch):
    """No lock folder, no locks: ``lock_compiles`` says so and leaves numba as it is."""
    from numba.core import dispatcher

    from hon_env import shared_compile

    before = dispatcher.Dispatcher.compile
    monkeypatch.setattr(dispatcher.Dispatcher, "compile", before.__wrapped__)
    (tmp_path / "file").write_text("")
    assert shared_compile.lock_compiles(tmp_path / "file") is False
    assert dispatcher.Dispatcher.compile is before.__wrapped__


def test_a_file_system_without_locks_compiles_unlocked(tmp_path: Path):
    """Where ``flock`` fails for another reason than a held lock (a network file system
    without locks), the wait gives up at once and the compile goes on."""
    from hon_env import shared_compile

    class NoLocks:
        LOCK_EX = LOCK_NB = 0

        @staticmethod
        def flock(f, how):
            raise OSError(37, "No locks available")

    t0 = time.monotonic()
    with open(tmp_path / "lock", "a") as f:
        shared_compile._acquire(NoLocks, f)
    assert time.monotonic() - t0 < 1.0


def test_no_helper_on_one_core_or_when_switched_off(monkeypatch):
    """The helper process starts only with two cores or more and not with
    ``HON_ENV_COMPILE_HELPER=0``."""
    from hon_env import shared_compile

    monkeypatch.setattr(shared_compile, "_helper", [])
    monkeypatch.setattr(shared_compile.subprocess, "Popen", lambda *a, **k: pytest.fail())
    monkeypatch.setenv("HON_ENV_COMPILE_HELPER", "1")
    monkeypatch.setattr(shared_compile, "cores", lambda: 1)
    assert shared_compile.start_helper() is False
    monkeypatch.setattr(shared_compile, "cores", lambda: 2)
    monkeypatch.setenv("HON_ENV_COMPILE_HELPER", "0")
    assert shared_compile.start_helper() is False


def test_no_helper_without_an_interpreter_to_start(monkeypatch):
    """Where no process can be started (an embedded Python without ``sys.executable``) the
    first run goes on without the helper instead of failing."""
    from hon_env import shared_compile

    monkeypatch.setattr(shared_compile, "_helper", [])
    monkeypatch.setattr(shared_compile, "cores", lambda: 2)
    monkeypatch.setenv("HON_ENV_COMPILE_HELPER", "1")
    monkeypatch.setattr(shared_compile.sys, "executable", "")
    assert shared_compile.start_helper() is False
    assert shared_compile._helper == []


# A game started, stepped and observed; prints how many versions of the op loop and the
# encoder this process compiled (the rest it loaded).
GAME = """
import json
from hon_env import Game
from hon_env.core import interp, observe
g = Game("origin_story", seed=3)
g.apply(int(g.legal_actions()[0]))
g.observation()
kernels = (interp.step_op, observe.encode_obs)
print(json.dumps([sum(f.stats.cache_misses.values()) for f in kernels]))
"""


@pytest.mark.slow
def test_first_run_helper_compiles_what_the_game_loads(tmp_path: Path):
    """On an empty cache the first ``Game`` starts the helper, and between them the op loop
    and the observation encoder compile once each: the helper compiles them for the very
    types the game kernels call them with. (One cold compile of the game kernels: one to
    three minutes on 2 cores.)"""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               HON_ENV_COMPILE_HELPER="1")
    game = subprocess.run([sys.executable, "-c", GAME], env=env, cwd=ROOT, text=True,
                          capture_output=True, timeout=1200)
    assert game.returncode == 0, game.stderr
    # a second game loads both (waiting on the lock of any the helper still writes)
    again = subprocess.run([sys.executable, "-c", GAME], env=env, cwd=ROOT, text=True,
                           capture_output=True, timeout=600)
    assert json.loads(again.stdout) == [0, 0]
    versions = [len(list((tmp_path / "cache").glob(f"*/{name}-*.nbc")))
                for name in ("interp.step_op", "observe.encode_obs")]
    assert versions == [1, 1]  # the helper's types are the kernels': one version each
    assert sum(json.loads(game.stdout)) < 2  # the helper compiled at least one of them
