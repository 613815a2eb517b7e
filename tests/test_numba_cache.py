"""The kernel cache folder follows the engine source (hon_env/numba_cache.py); other
versions' folders are pruned; parallel warm-up workers share one folder safely
(hon_env/warmup.py)."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from numba.core import config

import hon_env
from hon_env import numba_cache, warmup
from hon_env.numba_cache import PACKAGE, engine_fingerprint

ROOT = PACKAGE.parent


def _copy_packages(to: Path) -> Path:
    """Copies of ``hon_env`` and ``agents`` side by side under ``to``; the copy of hon_env."""
    for name in ("hon_env", "agents"):
        shutil.copytree(PACKAGE.parent / name, to / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return to / "hon_env"


def test_fingerprint_changes_with_any_engine_source(tmp_path: Path):
    """A changed layout constant (or any engine file) gives another cache folder, so no
    stale compiled kernel can be loaded; a changed non-engine file does not."""
    copy = _copy_packages(tmp_path)
    before = engine_fingerprint(copy)
    assert before == engine_fingerprint(PACKAGE)
    (copy / "render.py").write_text((copy / "render.py").read_text() + "\n# note\n")
    assert engine_fingerprint(copy) == before
    layout = copy / "spec" / "layout.py"
    layout.write_text(layout.read_text().replace("STACK_DEPTH = 96", "STACK_DEPTH = 97"))
    assert engine_fingerprint(copy) != before


def test_fingerprint_changes_with_the_scripted_teams_kernels(tmp_path: Path):
    """The scripted teams' kernels share the cache folder and call each other across files
    (``coordinated`` calls ``heuristic``): an edit to one of their files gives another
    folder too, so ``coordinated`` is never loaded with an old ``heuristic`` inside; an
    edit to a plain agents module does not."""
    before = engine_fingerprint(_copy_packages(tmp_path))
    assert before == engine_fingerprint(PACKAGE)
    plain = tmp_path / "agents" / "evaluation.py"
    plain.write_text(plain.read_text() + "\n# note\n")
    assert engine_fingerprint(tmp_path / "hon_env") == before
    kernel = tmp_path / "agents" / "heuristic.py"
    kernel.write_text(kernel.read_text() + "\n# note\n")
    assert engine_fingerprint(tmp_path / "hon_env") != before


def test_numba_uses_the_engine_cache_folder():
    """Importing hon_env points numba at the folder of this engine version (unless the
    user set NUMBA_CACHE_DIR before, which wins)."""
    assert config.CACHE_DIR == os.environ["NUMBA_CACHE_DIR"] == hon_env.NUMBA_CACHE_DIR
    if Path(hon_env.NUMBA_CACHE_DIR).name.startswith("numba-"):
        assert Path(hon_env.NUMBA_CACHE_DIR).name == f"numba-{engine_fingerprint()}"


def test_first_compile_is_announced_once(tmp_path: Path, monkeypatch, capsys):
    """A kernel missing from the cache folder is announced on stderr, once per process;
    a cached one (its numba index file present) is not."""
    from hon_env import numba_cache

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(numba_cache, "_checked", set())
    (tmp_path / "core_x").mkdir()
    (tmp_path / "core_x" / "kernels.game_run-68.py311.nbi").write_bytes(b"")
    numba_cache.announce_compile("game", "kernels.game_run")
    assert capsys.readouterr().err == ""
    numba_cache.announce_compile("vector", "vector.vector_step")
    numba_cache.announce_compile("vector", "vector.vector_step")
    numba_cache.announce_compile("rollout", "kernels.step_serial")
    err = capsys.readouterr().err
    assert err.count("compiling the rules engine, once per version") == 1
    assert f"~{numba_cache.COMPILE_SECONDS['vector']} s" in err and str(tmp_path) in err


def test_first_compile_message_quotes_the_helped_time(tmp_path: Path, monkeypatch, capsys):
    """Where the first run's helper starts on a second core, the message quotes the time
    with it (``HELPED_SECONDS``); where it cannot, the one-core time."""
    from hon_env import numba_cache, shared_compile

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    for started, table in ((True, numba_cache.HELPED_SECONDS),
                           (False, numba_cache.COMPILE_SECONDS)):
        monkeypatch.setattr(numba_cache, "_checked", set())
        monkeypatch.setattr(shared_compile, "start_helper", lambda started=started: started)
        numba_cache.announce_compile("vector", "vector.vector_step")
        err = capsys.readouterr().err
        assert f"~{table['vector']} s" in err
        assert ("(two processes)" in err) == started
    assert numba_cache.HELPED_SECONDS["vector"] < numba_cache.COMPILE_SECONDS["vector"]


def test_same_sources_give_the_same_folder(tmp_path: Path):
    """The folder is named by the engine files' relative paths and bytes only: the same
    version installed elsewhere, at another time, reuses the folder (no recompile)."""
    copy = _copy_packages(tmp_path / "elsewhere")
    for path in copy.rglob("*.py"):
        os.utime(path, (1_000_000_000, 1_000_000_000))
    assert engine_fingerprint(copy) == engine_fingerprint(PACKAGE)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(PYTHONPATH=str(copy.parent), HON_ENV_CACHE_DIR=str(tmp_path / "cache"))
    code = "import hon_env; print(hon_env.__file__); print(hon_env.NUMBA_CACHE_DIR)"
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, text=True,
                         capture_output=True, check=True).stdout.split()
    assert out == [str(copy / "__init__.py"),
                   str(tmp_path / "cache" / f"numba-{engine_fingerprint()}")]


def _fake_cache_root(root: Path) -> dict[str, int]:
    """This version's folders, two other versions' and unrelated entries under ``root``;
    the other versions' folder names with their bytes."""
    fp = engine_fingerprint()
    for name in (f"numba-{fp}", f"numba-{fp}-debug"):
        (root / name / "core_x").mkdir(parents=True)
        (root / name / "core_x" / "kernels.game_run-68.py311.nbi").write_bytes(b"x" * 10)
    others = {"numba-0123456789abcdef": 1_500_000, "numba-fedcba9876543210-debug": 250_000}
    for name, size in others.items():
        (root / name / "core_x").mkdir(parents=True)
        with open(root / name / "core_x" / "f-1.py311.1.nbc", "wb") as f:
            f.truncate(size - 100)
        (root / name / "f-1.py311.nbi").write_bytes(b"i" * 100)
    (root / "notes.txt").write_text("not a cache")
    (root / "numba-not-a-hash").mkdir()
    (root / "numba-abc.txt").write_text("a file, not a folder")
    return others


def test_prune_removes_only_other_versions(tmp_path: Path, monkeypatch, capsys):
    """``--prune`` deletes every other engine version's ``numba-<hash>`` folder, keeps this
    version's (plain and debug) and everything else, and says the bytes freed."""
    monkeypatch.setenv("HON_ENV_CACHE_DIR", str(tmp_path))
    others = _fake_cache_root(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    assert [p.name for p in numba_cache.other_versions()] == sorted(others)
    warmup.main(["--prune"])
    err = capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(set(before) - set(others))
    fp = engine_fingerprint()
    assert (tmp_path / f"numba-{fp}" / "core_x" / "kernels.game_run-68.py311.nbi").is_file()
    assert (tmp_path / "notes.txt").read_text() == "not a cache"
    assert "removed" in err and "numba-0123456789abcdef (1.5 MB)" in err
    assert "freed 1.8 MB in 2 folder(s)" in err
    assert numba_cache.prune_other_versions() == []  # nothing left to prune
    warmup.main(["--prune"])
    assert "freed 0.0 MB in 0 folder(s)" in capsys.readouterr().err


def test_prune_reports_bytes(tmp_path: Path):
    """``prune_other_versions`` returns each folder deleted with its files' bytes."""
    others = _fake_cache_root(tmp_path)
    removed = numba_cache.prune_other_versions(tmp_path)
    assert {p.name: size for p, size in removed} == others


def test_first_compile_message_names_prune(tmp_path: Path, monkeypatch, capsys):
    """The first-compile message names ``--prune`` when other versions' folders exist,
    and not otherwise."""
    monkeypatch.setenv("HON_ENV_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / f"numba-{engine_fingerprint()}"))
    monkeypatch.setattr(numba_cache, "_checked", set())
    numba_cache.announce_compile("game", "kernels.game_run")
    assert "--prune" not in capsys.readouterr().err
    _fake_cache_root(tmp_path)
    shutil.rmtree(tmp_path / f"numba-{engine_fingerprint()}")
    monkeypatch.setattr(numba_cache, "_checked", set())
    numba_cache.announce_compile("game", "kernels.game_run")
    err = capsys.readouterr().err
    assert "2 other engine version(s) keep 2 MB" in err
    assert "python -m hon_env.warmup --prune" in err


# A cached function compiled for one argument type per process; loading the index is
# slowed so that processes started together all read it before any writes it back.
TOY = """
from numba import njit

@njit(cache=True)
def plus_one(x):
    return x + 1
"""
COMPILE_ONE = """
import sys, time
import numpy as np
from numba.core.caching import IndexDataCacheFile
load = IndexDataCacheFile._load_index
IndexDataCacheFile._load_index = lambda self: (load(self), time.sleep(1.5))[0]
if sys.argv[2] == "lock":
    from hon_env.numba_cache import lock_index_updates
    assert lock_index_updates()
import toy
print(toy.plus_one(getattr(np, sys.argv[1])(1)))
"""
LOAD_ALL = """
import json
import numpy as np
import toy
out = [str(toy.plus_one(getattr(np, t)(1))) for t in ("int64", "float64", "int32")]
print(json.dumps([out, sum(toy.plus_one.stats.cache_misses.values())]))
"""


def test_locked_index_updates_keep_every_version(tmp_path: Path):
    """Processes compiling one function for different argument types into one cache
    folder at once (``warmup --jobs``'s workers) each leave their version in numba's index
    when they lock its updates: a fresh process then loads all of them, compiling none."""
    (tmp_path / "toy.py").write_text(TOY)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    procs = [subprocess.Popen([sys.executable, "-c", COMPILE_ONE, t, "lock"], env=env,
                              cwd=tmp_path, stdout=subprocess.PIPE, text=True)
             for t in ("int64", "float64", "int32")]
    assert [p.communicate(timeout=300)[0].split() for p in procs] == [["2"], ["2.0"], ["2"]]
    out = subprocess.run([sys.executable, "-c", LOAD_ALL], env=env, cwd=tmp_path, text=True,
                         capture_output=True, check=True).stdout
    assert json.loads(out) == [["2", "2.0", "2"], 0]


# Random play through play_batch on the batch and the one-game kernels; prints a digest of
# every state seen, the outcomes, and how many kernel versions had to be compiled.
ROLLOUT_PROBE = """
import hashlib, json
import numpy as np
from hon_env import load_scenario
from hon_env.core import kernels as K
from hon_env.rollout import play_batch, random_policy
sc = load_scenario("origin_story")
digest = hashlib.sha256()
seen = lambda state, masks: (digest.update(state.tobytes()), digest.update(masks.tobytes()))
batch = play_batch(sc, np.arange(3), random_policy(np.random.default_rng(0)), on_step=seen)
one = play_batch(sc, np.array([7]), random_policy(np.random.default_rng(1)), on_step=seen)
kernels = (K.reset_serial, K.step_serial, K._reset_parallel, K._step_parallel)
print(json.dumps({
    "states": digest.hexdigest(),
    "outcomes": [r.tolist() for b in (batch, one) for r in (b.outcome, b.rounds, b.decisions)],
    "compiled": sum(sum(k.stats.cache_misses.values()) for k in kernels)}))
"""


@pytest.mark.slow
def test_parallel_warmup_plays_like_serial(tmp_path: Path):
    """The kernels two warm-up workers compile at once into one empty cache folder play
    the same games, state for state, as those of a one-process warm-up; and a process
    loading them compiles nothing. Runs on a copy of the packages and configs, so that an
    edit to the checkout meanwhile changes nothing. (Two cold compiles: 10 to 30 minutes
    on 2 cores.)"""
    copy = _copy_packages(tmp_path / "copy").parent
    shutil.copytree(ROOT / "configs", copy / "configs")  # the scenarios
    base = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    results = []
    for jobs in (1, 2):
        env = dict(base, HON_ENV_CACHE_DIR=str(tmp_path / f"jobs{jobs}"), PYTHONPATH=str(copy))
        subprocess.run([sys.executable, "-c", "from hon_env.warmup import warm; "
                        f"warm(('rollout',), jobs={jobs})"], env=env, cwd=copy, check=True)
        out = subprocess.run([sys.executable, "-c", ROLLOUT_PROBE], env=env, cwd=copy,
                             text=True, capture_output=True, check=True).stdout
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert results[0]["compiled"] == results[1]["compiled"] == 0
    assert results[1] == results[0]


def test_prune_removes_other_generator_versions_content(tmp_path: Path, monkeypatch, capsys):
    """``--prune`` also deletes generated content of other generator versions
    (``procgen/v<N>_...``), keeping this version's folders of every knob setting and not
    following their links into the shipped content."""
    from hon_env.content.procgen.knobs import GENERATOR_VERSION

    monkeypatch.setenv("HON_ENV_CACHE_DIR", str(tmp_path))
    gen = tmp_path / "procgen"
    mine = [f"v{GENERATOR_VERSION}_d0p5_medium", f"v{GENERATOR_VERSION}_d1p0_large"]
    old = f"v{GENERATOR_VERSION + 1000}_d0p5_medium"
    for name in [*mine, old]:
        (gen / name / "content" / "issues").mkdir(parents=True)
        (gen / name / "content" / "issues" / "gen_1.yaml").write_bytes(b"y" * 2_000_000)
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    (shipped / "keep.yaml").write_text("shipped")
    (gen / old / "content" / "heroes").symlink_to(shipped, target_is_directory=True)
    warmup.main(["--prune"])
    err = capsys.readouterr().err
    assert sorted(p.name for p in gen.iterdir()) == sorted(mine)
    assert (shipped / "keep.yaml").read_text() == "shipped"  # the link's target stays
    assert f"{old} (2.0 MB)" in err and "1 of other content generator versions" in err


def _prange_loops(tree: ast.AST):
    """The ``for`` loops over ``prange(...)`` in ``tree``."""
    for node in ast.walk(tree):
        if (isinstance(node, ast.For) and isinstance(node.iter, ast.Call)
                and getattr(node.iter.func, "id", None) == "prange"):
            yield node


def test_batch_kernels_hand_the_engine_an_int64_row():
    """``prange`` numbers its rows in uint64. Every ``prange`` loop of the kernels turns
    its index into an int64 row first (``i = np.int64(j)``) and uses only that, as the
    single-game kernels pass ``np.int64(0)``: the interpreter, the observation writers
    and the scripted teams are then compiled once for both instead of once more for a
    uint64 row (the warm-up's largest saving, docs/benchmarks.md "Cold start"). A static
    check of the source: compiling from an empty cache would take minutes."""
    loops = []
    for path in sorted((ROOT / "hon_env").rglob("*.py")) + sorted((ROOT / "agents").rglob("*.py")):
        loops += [(path, loop) for loop in _prange_loops(ast.parse(path.read_text()))]
    assert len(loops) >= 6  # batch reset and step, the vector env's three, the teams'
    problems = []
    for path, loop in loops:
        first = loop.body[0]
        index = loop.target.id
        cast = isinstance(first, ast.Assign) and ast.unparse(first.value) == f"np.int64({index})"
        rest = [n.id for stmt in loop.body[1:] for n in ast.walk(stmt)
                if isinstance(n, ast.Name) and n.id == index]
        if not cast or rest:
            problems.append(f"{path.relative_to(ROOT)}:{loop.lineno}")
    assert not problems, problems
