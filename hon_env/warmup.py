"""Compile the rules engine's kernels into the on-disk cache, timing each one.

    python -m hon_env.warmup            # the kernels of every front end
    python -m hon_env.warmup --game     # only those of Game and the PettingZoo/Gym envs
    python -m hon_env.warmup --agents   # also the scripted team's kernels (agents/)
    python -m hon_env.warmup --jobs 2   # in 2 worker processes (see below)
    python -m hon_env.warmup --prune    # delete other engine / generator versions' caches

numba compiles a kernel on its first call and keeps it in the cache folder of this engine
version (``hon_env/numba_cache.py``); later processes load it. Running this once before
work that starts many processes at once (``make test`` runs pytest on every core) lets
them all load the cache instead of each compiling the same kernels.

Each kernel's first call is timed on its own and said on stderr as it finishes: the first
kernel of a unit pays for the functions it shares with the next ones (``game_run``
compiles the interpreter that the vector env's kernels then reuse), so the figures add up
to the whole compile.

``--jobs N`` shares the units (``UNITS``) out to N worker processes writing the one cache
folder, with numba's index updates locked (``numba_cache.lock_index_updates``). A function
two units need is compiled by the first to reach it while the other waits and loads it
(``hon_env/shared_compile.py``): on 2 idle cores two workers take 155 s, for 187 s of CPU,
where one process alone takes 184 s and with a first run's helper 172 s (docs/benchmarks.md,
"Cold start"). The default is one process; ``make test`` passes ``--jobs 2`` where there
are two cores or more.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

import numpy as np

from hon_env import NUMBA_CACHE_DIR, Game, load_scenario, numba_cache, vector_env
from hon_env.content import Scenario
from hon_env.core.episode import N_PREV, N_REWARD_PARAMS
from hon_env.core.kernels import game_rewards
from hon_env.spec.layout import MAX_HEROES


class Timings(dict):
    """First-call seconds of each entry point, in the order they finished; each one is said
    on stderr as it is added when ``say``."""

    def __init__(self, start: float, say: bool = False):
        super().__init__()
        self.start = start  # time.time() when the warm-up began (workers share it)
        self.say = say

    def add(self, name: str, seconds: float) -> None:
        self[name] = seconds
        if self.say:
            print(f"{name:26s} {seconds:7.1f} s   (at {time.time() - self.start:4.0f} s)",
                  file=sys.stderr, flush=True)


def _timed(out: Timings, name: str, call: Callable[[], object]) -> None:
    t0 = time.perf_counter()
    call()
    out.add(name, time.perf_counter() - t0)


def warm_game(sc: Scenario, out: Timings) -> None:
    """The single-game kernels (``core/kernels.py``, ``core/positions.py``) that ``Game``,
    the PettingZoo envs and the Gymnasium env call."""
    from hon_env import positions as P

    holder: list[Game] = []
    # one kernel starts, steps and refreshes a game (``kernels.game_run``)
    _timed(out, "game_run", lambda: holder.append(Game(sc, seed=0)))
    g = holder[0]
    _timed(out, "game_observe", g.observation)
    _timed(out, "game_state", g.global_state)
    _timed(out, "game_remask", lambda: P.remask(g))
    state, tables = g.engine  # the envs' rewards of a step, as ``Session.step`` scores them
    _timed(out, "game_rewards", lambda: game_rewards(
        state, tables, np.zeros(N_REWARD_PARAMS), np.zeros(N_PREV, np.int32),
        np.zeros(MAX_HEROES)))


def warm_vector(sc: Scenario, out: Timings) -> None:
    """The vector env's parallel kernels (``core/vector.py``): reset, and the step with its
    action check and info gather."""
    env = vector_env(2, seed=0, scenario=sc)
    _timed(out, "vector_reset", env.reset)
    actions = env.sample_actions(np.random.default_rng(0))
    _timed(out, "vector_step", lambda: env.step(actions))


def _warm_rollout(sc: Scenario, out: Timings, batch: bool) -> None:
    """``play_batch``'s kernels (``core/kernels.py``) for one game (one thread) or for a
    batch (parallel), called as ``play_batch`` calls them."""
    from hon_env.core import kernels as K
    from hon_env.spec import layout as L

    reset, step, n = ((K.reset_batch, K.step_batch, 2) if batch
                      else (K.reset_serial, K.step_serial, 1))
    state = np.zeros((n, L.STATE_LEN), np.int32)
    masks = np.zeros((n, L.N_ACTIONS), np.int8)
    status = np.zeros(n, np.int32)
    _timed(out, reset.__name__.lstrip("_"),
           lambda: reset(state, sc.engine_tables, np.arange(n, dtype=np.int64), masks))
    _timed(out, step.__name__.lstrip("_"),
           lambda: step(state, sc.engine_tables, masks.argmax(axis=1), masks, status))


def warm_rollout_serial(sc: Scenario, out: Timings) -> None:
    """``play_batch``'s kernels for one game (``reset_serial``, ``step_serial``)."""
    _warm_rollout(sc, out, batch=False)


def warm_rollout_batch(sc: Scenario, out: Timings) -> None:
    """``play_batch``'s parallel kernels for a batch (``reset_batch``, ``step_batch``)."""
    _warm_rollout(sc, out, batch=True)


def _warm_policy(sc: Scenario, out: Timings, name: str) -> None:
    """One scripted team's batched kernels, on a vector env's first observation (its
    ``reset`` kernel is loaded, or compiled untimed, first)."""
    from agents.scripted import CoordinatedPolicy, HeuristicPolicy

    policy = HeuristicPolicy() if name == "heuristic" else CoordinatedPolicy()
    env = vector_env(2, seed=0, scenario=sc, observations=False)
    obs, _ = env.reset()
    _timed(out, name, lambda: policy.act(obs["observation"], obs["action_mask"],
                                         obs["agent"], engine=env.engine))


def warm_shared(sc: Scenario, out: Timings) -> None:
    """The interpreter's op loop (``interp.step_op``) and the observation encoder
    (``observe.encode_obs``), compiled for the argument types every entry kernel calls them
    with, without running them: the first run's helper (``hon_env/shared_compile.py``)."""
    from numba import typeof, types

    from hon_env.core import interp, observe
    from hon_env.spec import layout as L
    from hon_env.spec.obs_features import OBS_DIM

    rows = typeof(np.zeros((1, L.STATE_LEN), np.int32))
    tables = typeof(sc.engine_tables[0])
    row = typeof(np.zeros(OBS_DIM, np.float32))
    _timed(out, "step_op", lambda: interp.step_op.compile((rows, types.int64, tables)))
    _timed(out, "encode_obs", lambda: observe.encode_obs.compile(
        (rows, types.int64, tables, types.int64, row)))


def warm_heuristic(sc: Scenario, out: Timings) -> None:
    """The per-hero scripted team's kernels (``agents/heuristic.py``); needs the
    ``agents`` package of a checkout or of the wheel."""
    _warm_policy(sc, out, "heuristic")


def warm_coordinated(sc: Scenario, out: Timings) -> None:
    """The coordinated scripted team's kernels (``agents/coordinated.py``)."""
    _warm_policy(sc, out, "coordinated")


# The units of work: each compiles its entry points in order in one process (the later
# ones need what the earlier ones made: a Game, a reset state).
UNITS: dict[str, Callable[[Scenario, Timings], None]] = {
    "game": warm_game, "vector": warm_vector, "rollout_serial": warm_rollout_serial,
    "rollout_batch": warm_rollout_batch, "heuristic": warm_heuristic,
    "coordinated": warm_coordinated,
}
# the units of each group a caller names
GROUPS = {"game": ("game",), "vector": ("vector",),
          "rollout": ("rollout_serial", "rollout_batch"),
          "agents": ("heuristic", "coordinated")}
# In a pool a unit starts once the unit it shares most compiled functions with is done
# (when both run), to load them from the cache rather than compile them a second time:
# the one-game rollout kernels share the interpreter with the game kernels, the batch ones
# their parallel versions with the vector env's, and the scripted teams' set-up calls the
# vector env's reset.
AFTER = {"rollout_serial": "game", "rollout_batch": "vector", "heuristic": "vector",
         "coordinated": "vector"}
# the order a pool starts units in, longest first (docs/benchmarks.md, "Cold start")
POOL_ORDER = ("vector", "game", "rollout_batch", "coordinated", "heuristic",
              "rollout_serial")


def _warm_units(units: tuple[str, ...], scenario: str, start: float,
                say: bool) -> dict[str, float]:
    """Run ``units`` one after the other in this process (a pool worker's task)."""
    sc = load_scenario(scenario)
    out = Timings(start, say)
    for unit in units:
        UNITS[unit](sc, out)
    return dict(out)


def _start_worker() -> None:
    """A pool worker locks numba's index updates and leaves the first-compile message to
    the parent."""
    numba_cache.lock_index_updates()
    numba_cache.skip_announcement()


def _warm_pool(units: tuple[str, ...], scenario: str, jobs: int, start: float,
               say: bool) -> dict[str, float]:
    """Run ``units`` in ``jobs`` worker processes, each unit a task, ``AFTER`` respected;
    the workers lock numba's index updates in the shared cache folder."""
    done: dict[str, dict[str, float]] = {}
    waiting = sorted(units, key=POOL_ORDER.index)
    running: dict[Future, str] = {}
    # once, not per worker; the workers share the work through the compile locks
    numba_cache.announce_compile("game", "kernels.game_run", helper=False)
    spawn = multiprocessing.get_context("spawn")  # no inherited numba or thread state
    with ProcessPoolExecutor(jobs, mp_context=spawn, initializer=_start_worker) as pool:
        while waiting or running:
            busy = set(waiting) | set(running.values())
            for unit in [u for u in waiting if AFTER.get(u) not in busy]:
                waiting.remove(unit)
                running[pool.submit(_warm_units, (unit,), scenario, start, say)] = unit
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                done[running.pop(future)] = future.result()
    return {name: s for unit in units for name, s in done[unit].items()}


def units_of(groups: tuple[str, ...]) -> tuple[str, ...]:
    """The units of ``groups`` (names of ``GROUPS``), in order."""
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        raise ValueError(f"unknown kernel groups {unknown}; known: {list(GROUPS)}")
    return tuple(u for g in groups for u in GROUPS[g])


def warm(groups: tuple[str, ...] = ("game", "vector", "rollout"),
         scenario: str = "origin_story", *, jobs: int = 1,
         say: bool = False) -> dict[str, float]:
    """First-call seconds of each kernel of ``groups`` (compile, or load from the cache).

    Args:
        groups: names of ``GROUPS``.
        scenario: the scenario whose tables the kernels are called with.
        jobs: worker processes; 1 compiles in this process.
        say: say each entry point on stderr as it finishes.
    """
    units = units_of(groups)
    if jobs > 1 and len(units) > 1:
        if numba_cache.lock_index_updates():
            return _warm_pool(units, scenario, min(jobs, len(units)), time.time(), say)
        if say:
            print("hon_env.warmup: no lock for numba's cache index here (fcntl); "
                  "compiling in one process", file=sys.stderr)
    return _warm_units(units, scenario, time.time(), say)


def prune(quiet: bool = False) -> None:
    """Delete the cache folders of other engine versions (kernels) and of other content
    generator versions (generated scenarios), and say what that freed."""
    from hon_env.content.procgen.store import prune_other_generator_versions

    removed = numba_cache.prune_other_versions()
    generated = prune_other_generator_versions()
    if quiet:
        return
    for folder, size in removed + generated:
        print(f"removed {folder} ({size / 1e6:.1f} MB)", file=sys.stderr)
    total = sum(size for _, size in removed + generated) / 1e6
    print(f"freed {total:.1f} MB in {len(removed)} folder(s) of other engine versions and "
          f"{len(generated)} of other content generator versions; kept "
          f"{numba_cache.cache_root()}/numba-{numba_cache.engine_fingerprint()}",
          file=sys.stderr)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m hon_env.warmup",
                                description=__doc__.split("\n")[0])
    p.add_argument("--game", action="store_true",
                   help="only the single-game kernels (Game, PettingZoo, Gymnasium)")
    p.add_argument("--agents", action="store_true",
                   help="also the scripted team's kernels (needs the agents package)")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="compile in N worker processes sharing the cache folder (default 1; "
                        "on 2 idle cores 2 take 155 s where one takes 184 s: "
                        "docs/benchmarks.md)")
    p.add_argument("--prune", action="store_true",
                   help="only delete the kernel cache folders of other engine versions "
                        "under the cache root, and say what that freed")
    p.add_argument("--quiet", action="store_true", help="print nothing")
    p.add_argument("--helper", action="store_true",
                   help="only the op loop and the observation encoder the entry kernels "
                        "share (what a first run's helper process compiles)")
    args = p.parse_args(argv)
    if args.jobs < 1:
        p.error(f"--jobs must be at least 1, got {args.jobs}")
    if args.prune:
        prune(args.quiet)
        return
    if args.helper:
        warm_shared(load_scenario("origin_story"), Timings(time.time(), not args.quiet))
        return
    groups: tuple[str, ...] = ("game",) if args.game else ("game", "vector", "rollout")
    if args.agents:
        groups += ("agents",)
    t0 = time.perf_counter()
    warm(groups, jobs=args.jobs, say=not args.quiet)
    if not args.quiet:
        workers = min(args.jobs, len(units_of(groups)))
        where = f"{workers} worker processes" if workers > 1 else "one process"
        print(f"first calls (compile or cache load) {time.perf_counter() - t0:.1f} s in all "
              f"({where}); cache {NUMBA_CACHE_DIR}", file=sys.stderr)


if __name__ == "__main__":
    main()
