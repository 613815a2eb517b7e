"""The episode video example (scripts/record_video.py): frames of an episode with the
last action drawn, written as a GIF and read back."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

iio = pytest.importorskip("imageio.v3", reason="imageio is not installed "
                          "(pip install -e '.[play]')")
from record_video import main  # noqa: E402


def test_record_video_writes_a_gif(tmp_path, capsys):
    out = tmp_path / "ep.gif"
    main(["--policy", "heuristic", "--seed", "3", "--max-steps", "6", "--scale", "0.3",
          "--out", str(out)])
    assert "7 frames" in capsys.readouterr().out
    frames = iio.imread(out, index=None)
    assert frames.shape[0] == 7 and frames.shape[1:3] == (225, 390)
    assert any((frames[k] != frames[k + 1]).any() for k in range(6))


def test_rgb_render_of_the_env_shows_the_last_action():
    """The Gymnasium env's rgb_array render changes once an action was taken (the last
    action line), even where the board did not."""
    from hon_env import HourOfNeedEnv

    env = HourOfNeedEnv(render_mode="rgb_array")
    env.reset(seed=0)
    first = env.render()
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert env.render().shape == first.shape == (750, 1300, 3)
    assert env._session.last_action() is not None
    assert (env.render() != first).any()
