"""The built wheel works outside the repository: content, scenarios and training configs
ship as package data, the console scripts are installed, and a game plays to its end.

The wheel is installed into a fresh venv whose only other packages are those of the
running interpreter (a ``.pth`` line adds its site-packages: numpy, numba, torch are not
downloaded again); nothing from the checkout is importable there. The commands run with
numba's JIT off (``NUMBA_DISABLE_JIT=1``): a new install path means compiling every
kernel afresh (minutes), and what is checked here is the packaging; the rest of the suite
runs the compiled engine.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# what the build needs; copied so the build leaves nothing in the checkout
BUILD_INPUTS = ("pyproject.toml", "README.md", "hon_env", "agents", "configs")

PLAY = """
import numpy as np
import hon_env
from hon_env import Game, list_content
from hon_env.content.loader import CONFIGS_DIR
assert "site-packages" in hon_env.__file__, hon_env.__file__
assert CONFIGS_DIR.is_relative_to(Path(hon_env.__file__).parent), CONFIGS_DIR
g = Game("origin_story", seed=0)
rng = np.random.default_rng(0)
while not g.is_over:
    legal = g.legal_actions()
    g.apply(int(legal[rng.integers(len(legal))]))
print("outcome", g.outcome, "heroes", len(list_content()["heroes"]))
"""


def _packages_in_tree() -> set[str]:
    found = {"hon_env.configs"}
    for top in ("hon_env", "agents"):
        for init in (ROOT / top).rglob("__init__.py"):
            found.add(".".join(init.parent.relative_to(ROOT).parts))
    return found


def test_pyproject_lists_every_package():
    """The package list is written by hand (configs/ is mapped into hon_env)."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"]
    assert set(listed) == _packages_in_tree()


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed; returns the venv folder."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in BUILD_INPUTS:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy(path, src / name)
    dist = tmp / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "--no-index", "-q", "-w", str(dist), str(src)], check=True, cwd=tmp)
    wheel = next(dist.glob("hon_env-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for needed in ("hon_env/configs/scenarios/origin_story.yaml",
                   "hon_env/configs/content/heroes/majesty.yaml",
                   "hon_env/configs/train/mappo.yaml", "hon_env/py.typed",
                   "agents/cli/train.py", "agents/pretrained/mappo_duo.pt"):
        assert needed in names, needed

    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    py = bindir / "python"
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()"
                           "['purelib'])"], check=True, capture_output=True, text=True
                          ).stdout.strip()
    # the running interpreter's packages (numpy, numba, pip...) without processing its
    # .pth files, so an editable install of the checkout stays out of sight
    Path(site, "shared_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([str(py), "-m", "pip", "install", "--no-deps", "--no-index",
                    "--ignore-installed", "-q", str(wheel)], check=True, cwd=tmp)
    return venv


def _run(venv: Path, args: list[str], cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["NUMBA_DISABLE_JIT"] = "1"
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_wheel_plays_a_game_outside_the_repo(installed, tmp_path):
    out = _run(installed, [str(installed / "bin" / "python"), "-c",
                           "from pathlib import Path\n" + PLAY], tmp_path)
    assert out.startswith("outcome ") and "heroes 0" not in out


def test_console_scripts_document_every_flag(installed, tmp_path):
    """``--help`` of every command gives each flag's meaning and default."""
    bindir = installed / "bin"
    for cmd in (["hon-train", "--help"], ["hon-train", "--algo", "ppo", "--help"],
                ["hon-eval", "--help"], ["hon-bench", "--help"]):
        out = _run(installed, [str(bindir / cmd[0]), *cmd[1:]], tmp_path)
        flags = [ln for ln in out.splitlines() if ln.strip().startswith("--")]
        assert flags, out
        text = " ".join(out.split())
        assert text.count("(default:") >= len(flags) - 1, out  # --help itself has none
    out = _run(installed, [str(bindir / "hon-train"), "--help"], tmp_path)
    assert "hon_env/configs/train/mappo.yaml" in out and "--kickstart-coef" in out
