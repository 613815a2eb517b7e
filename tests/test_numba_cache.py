"""The kernel cache folder follows the engine source (hon_env/numba_cache.py)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from numba.core import config

import hon_env
from hon_env.numba_cache import PACKAGE, engine_fingerprint


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
    layout = copy / "core" / "layout.py"
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
    (tmp_path / "core_x" / "kernels.game_apply-68.py311.nbi").write_bytes(b"")
    numba_cache.announce_compile("game", "kernels.game_apply")
    assert capsys.readouterr().err == ""
    numba_cache.announce_compile("vector", "vector.vector_step")
    numba_cache.announce_compile("vector", "vector.vector_step")
    numba_cache.announce_compile("rollout", "kernels.step_serial")
    err = capsys.readouterr().err
    assert err.count("compiling the rules engine, once per version") == 1
    assert f"~{numba_cache.COMPILE_SECONDS['vector']} s" in err and str(tmp_path) in err
