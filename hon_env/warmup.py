"""Compile the rules engine's kernels into the on-disk cache, timing each one.

    python -m hon_env.warmup            # the kernels of every front end
    python -m hon_env.warmup --game     # only those of Game and the PettingZoo/Gym envs
    python -m hon_env.warmup --agents   # also the scripted team's kernels (agents/)

numba compiles a kernel on its first call and keeps it in the cache folder of this engine
version (``hon_env/numba_cache.py``); later processes load it. Running this once before
work that starts many processes at once (``make test`` runs pytest on every core) lets
them all load the cache instead of each compiling the same kernels.

Each kernel's first call is timed on its own: the first kernel of a group pays for the
functions it shares with the next ones (``game_init`` compiles most of the interpreter
that ``game_apply`` then reuses), so the figures add up to the whole compile.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

import numpy as np

from hon_env import NUMBA_CACHE_DIR, Game, load_scenario, vector_env
from hon_env.content import Scenario

GROUPS = ("game", "vector", "rollout", "agents")


def _timed(out: dict[str, float], name: str, call: Callable[[], object]) -> None:
    t0 = time.perf_counter()
    call()
    out[name] = time.perf_counter() - t0


def warm_game(sc: Scenario, out: dict[str, float]) -> None:
    """The single-game kernels (``core/kernels.py``, ``core/positions.py``) that ``Game``,
    the PettingZoo envs and the Gymnasium env call."""
    from hon_env import positions as P

    holder: list[Game] = []
    _timed(out, "game_init", lambda: holder.append(Game(sc, seed=0)))
    g = holder[0]
    _timed(out, "game_apply", lambda: g.apply(int(g.legal_actions()[0])))
    _timed(out, "game_observe", g.observation)
    _timed(out, "game_state", g.global_state)
    _timed(out, "game_refresh", g.refresh)
    _timed(out, "game_remask", lambda: P.remask(g))


def warm_vector(sc: Scenario, out: dict[str, float]) -> None:
    """The vector env's two parallel kernels (``core/vector.py``)."""
    env = vector_env(2, seed=0, scenario=sc)
    _timed(out, "vector_reset", env.reset)
    actions = env.sample_actions(np.random.default_rng(0))
    _timed(out, "vector_step", lambda: env.step(actions))


def warm_rollout(sc: Scenario, out: dict[str, float]) -> None:
    """``play_batch``'s kernels (``core/kernels.py``): one thread for one game, parallel
    for a batch; called as ``play_batch`` calls them."""
    from hon_env.core import layout as L
    from hon_env.core.kernels import reset_batch, reset_serial, step_batch, step_serial

    for (reset, step), n in (((reset_serial, step_serial), 1), ((reset_batch, step_batch), 2)):
        state = np.zeros((n, L.STATE_LEN), np.int32)
        masks = np.zeros((n, L.N_ACTIONS), np.int8)
        status = np.zeros(n, np.int32)
        name = reset.__name__.lstrip("_")
        _timed(out, name, lambda r=reset, s=state, m=masks, k=n:
               r(s, sc.engine_tables, np.arange(k, dtype=np.int64), m))
        _timed(out, step.__name__.lstrip("_"), lambda t=step, s=state, m=masks, st=status:
               t(s, sc.engine_tables, m.argmax(axis=1), m, st))


def warm_agents(sc: Scenario, out: dict[str, float]) -> None:
    """The scripted team's batched kernels (``agents/heuristic.py``, ``coordinated.py``);
    needs the ``agents`` package of a checkout or of the wheel."""
    from agents import HeuristicPolicy
    from agents.coordinated import CoordinatedPolicy

    env = vector_env(2, seed=0, scenario=sc, observations=False)
    obs, _ = env.reset()
    for name, policy in (("heuristic", HeuristicPolicy()),
                         ("coordinated", CoordinatedPolicy())):
        _timed(out, name, lambda p=policy: p.act(obs["observation"], obs["action_mask"],
                                                 obs["agent"], engine=env.engine))


WARMERS = {"game": warm_game, "vector": warm_vector, "rollout": warm_rollout,
           "agents": warm_agents}


def warm(groups: tuple[str, ...] = ("game", "vector", "rollout"),
         scenario: str = "origin_story") -> dict[str, float]:
    """First-call seconds of each kernel of ``groups`` (compile, or load from the cache)."""
    unknown = [g for g in groups if g not in WARMERS]
    if unknown:
        raise ValueError(f"unknown kernel groups {unknown}; known: {list(GROUPS)}")
    sc = load_scenario(scenario)
    out: dict[str, float] = {}
    for group in groups:
        WARMERS[group](sc, out)
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m hon_env.warmup",
                                description=__doc__.split("\n")[0])
    p.add_argument("--game", action="store_true",
                   help="only the single-game kernels (Game, PettingZoo, Gymnasium)")
    p.add_argument("--agents", action="store_true",
                   help="also the scripted team's kernels (needs the agents package)")
    p.add_argument("--quiet", action="store_true", help="print nothing")
    args = p.parse_args(argv)
    groups: tuple[str, ...] = ("game",) if args.game else ("game", "vector", "rollout")
    if args.agents:
        groups += ("agents",)
    t0 = time.perf_counter()
    times = warm(groups)
    if args.quiet:
        return
    for name, seconds in times.items():
        print(f"{name:26s} {seconds:7.1f} s", file=sys.stderr)
    print(f"first calls (compile or cache load) {time.perf_counter() - t0:.1f} s in all; "
          f"cache {NUMBA_CACHE_DIR}", file=sys.stderr)


if __name__ == "__main__":
    main()
