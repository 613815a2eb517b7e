"""Record one episode as a video: every decision rendered with its last action.

    python scripts/record_video.py --policy heuristic --seed 3 --out episode.gif
    python scripts/record_video.py --heroes majesty stride --out duo.mp4 --fps 4
    python scripts/record_video.py --policy runs/mappo/model.pt --scale 0.6 --out m.gif

The frames come from the Gymnasium env with ``render_mode="rgb_array"`` (``render_rgb``:
the board, the pending decision and the last action), written with imageio: GIF through
Pillow, MP4 when ``imageio-ffmpeg`` is installed. ``--max-steps`` cuts long games.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import imageio.v3 as iio
import numpy as np

from agents.registry import load_policy
from hon_env import HourOfNeedEnv


def episode_frames(policy_spec: str = "heuristic", seed: int = 0, max_steps: int = 400,
                   scale: float = 1.0, **env_kwargs) -> list[np.ndarray]:
    """RGB frames of one episode played by ``policy_spec`` (the first before any action)."""
    from hon_env.views.raster import rasterize

    env = HourOfNeedEnv(render_mode="rgb_array", **env_kwargs)
    policy = load_policy(policy_spec, seed=seed)
    obs, info = env.reset(seed=seed)
    last = None

    def frame() -> np.ndarray:
        if scale == 1.0:
            return env.render()
        return rasterize(env.game, last_action=last, scale=scale)

    frames = [frame()]
    done = False
    while not done and len(frames) <= max_steps:
        seat = env.game.current_seat
        a = int(policy.act(obs[None], info["action_mask"][None], np.array([seat]),
                           engine=env.game.engine)[0])
        last = env.game.action_to_string(a)
        obs, _, terminated, truncated, info = env.step(a)
        frames.append(frame())
        done = terminated or truncated
    env.close()
    return frames


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--policy", default="heuristic", help="heuristic, random or a checkpoint")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--scenario", default="origin_story")
    p.add_argument("--heroes", nargs="+", default=None)
    p.add_argument("--out", type=Path, default=Path("episode.gif"), help=".gif or .mp4")
    p.add_argument("--fps", type=float, default=3.0)
    p.add_argument("--scale", type=float, default=1.0, help="image size (1.0: 1300 x 750)")
    p.add_argument("--max-steps", type=int, default=400)
    args = p.parse_args(argv)
    kwargs = {"scenario": args.scenario}
    if args.heroes:
        kwargs["heroes"] = args.heroes
    frames = episode_frames(args.policy, args.seed, args.max_steps, args.scale, **kwargs)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if args.out.suffix.lower() == ".gif":
        iio.imwrite(args.out, np.stack(frames), duration=1000.0 / args.fps, loop=0)
    else:
        iio.imwrite(args.out, np.stack(frames), fps=args.fps)
    print(f"wrote {args.out}: {len(frames)} frames")


if __name__ == "__main__":
    main()
