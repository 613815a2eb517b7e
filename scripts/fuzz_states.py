"""Fuzz ``Game.from_bytes`` with corrupted states; count crashes and hangs.

Each trial takes a state reached by random play, corrupts it and loads it:

- ``random``: every word random;
- ``bitflip``: 1 to 8 random bits flipped;
- ``field_out``: one entry of one field set just outside, or far outside, its legal range
  (``layout.RANGES``);
- ``field_any``: one entry of one field set to a random value near its range;
- ``cross``: a state of another scenario (more heroes, other content) loaded into the
  first, once with its own header and once as a headerless row (``Game.from_array``).

Corrupted rows get a valid header, so the validator (not the header check) has to catch
them. A loaded game is then played with random legal actions for ``--steps`` decisions,
the invariants (``core/invariants.py``) checked after each one. A trial ends as

- ``refused``: ``StateError`` on loading (a clear error naming the field),
- ``playable``: loaded and played with every invariant holding,
- ``engine_error``: loaded, then the engine stopped it with ``EngineError`` (a clear error),
- ``bad_error`` / ``invariant``: any other exception, or an invariant broken while
  playing (both failures),
- ``crash`` / ``hang``: the worker process died or stopped answering (failures).

Trials run in a worker process that the parent restarts after a crash or a hang, so one
of those costs one trial, not the run. Exit status 1 when any trial failed.

    python scripts/fuzz_states.py --trials 1000
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter

KINDS = ("random", "bitflip", "field_out", "field_any", "cross")
FAILURES = ("bad_error", "invariant", "crash", "hang")
SOURCE_SCENARIOS = (
    {},  # origin_story: one hero
    {"heroes": ["majesty", "stride", "cipher"], "villain": "refuser", "issue": "blackout_gala"},
)
CROSS_SCENARIO = {"heroes": ["majesty", "stride", "cipher", "vigil", "microguy", "guerilla"]}


def _pool(scenario, seed: int, n: int):
    """``n`` states of ``scenario`` reached by random play (some mid-game, some over)."""
    import numpy as np

    from hon_env import Game

    rng = np.random.default_rng(seed)
    out = []
    for k in range(n):
        g = Game(scenario, seed=seed * 1000 + k)
        for _ in range(int(rng.integers(0, 400))):
            if g.is_over:
                break
            g.apply(int(rng.choice(g.legal_actions())))
        out.append(g.state[0].copy())
    return out


def _corrupt(kind: str, row, rng):
    """A corrupted copy of ``row`` and a short description."""
    import numpy as np

    from hon_env.spec import layout as L

    row = row.copy()
    if kind == "random":
        row[:] = rng.integers(-(1 << 31), 1 << 31, row.size, dtype=np.int64).astype(np.int32)
        return row, "all words random"
    if kind == "bitflip":
        bits = rng.integers(0, row.size * 32, int(rng.integers(1, 9)))
        view = row.view(np.uint32)
        for bit in bits:
            view[bit // 32] ^= np.uint32(1 << int(bit % 32))
        return row, f"bits {sorted(int(b) for b in bits)}"
    name = str(rng.choice(list(L.FIELDS)))
    start, shape = L.FIELDS[name]
    size = int(np.prod(shape)) if shape else 1
    k = int(rng.integers(0, size))
    lo, hi, _, _ = L.RANGES[name]
    lo = lo if isinstance(lo, int) else 0
    hi = hi if isinstance(hi, int) else 64  # per-scenario limit: around the largest one
    if kind == "field_out":
        far = (lo - 1, hi, hi + int(rng.integers(1, 1 << 20)), -(1 << 31), (1 << 31) - 1, 10**6)
        choices = [v for v in far if not lo <= v < hi and -(1 << 31) <= v < 1 << 31]
        value = int(rng.choice(choices)) if choices else lo
    else:
        value = int(rng.integers(max(lo - 2, -(1 << 31)), min(hi + 2, (1 << 31) - 1)))
    row[start + k] = value
    return row, f"{name}[{k}] = {value}"


def _play(game, rng, steps: int) -> str:
    """Random play with invariants checked; the trial's result."""
    from hon_env.core.invariants import violations

    for _ in range(steps):
        found = violations(game.state, game.scenario.tables, game._mask)
        if found:
            return "invariant: " + found[0]
        if game.is_over:
            break
        game.apply(int(rng.choice(game.legal_actions())))
    found = violations(game.state, game.scenario.tables, game._mask)
    return "invariant: " + found[0] if found else "playable"


def _unchecked(scenario, row):
    """A game on ``row`` with no validation at all (``--no-validate``: what the fuzz finds
    without the validator)."""
    import numpy as np

    from hon_env import Game
    from hon_env.core.kernels import GAME_REFRESH, game_run
    from hon_env.spec import layout as L

    g = Game.__new__(Game)
    g.scenario, g.seed = scenario, -1
    g._state = row.reshape(1, L.STATE_LEN).astype(np.int32)
    g._mask = np.zeros((1, L.N_ACTIONS), np.int8)
    game_run(g._state, g._tabs, GAME_REFRESH, 0, g._mask[0])
    g._check_engine()
    return g


def worker(args: argparse.Namespace) -> None:
    """Run trials ``start..trials-1``, one JSON line each (flushed before the next)."""
    import numpy as np

    from hon_env import Game, load_scenario
    from hon_env.errors import EngineError, StateError
    from hon_env.state_io import pack

    scenarios = [load_scenario("origin_story", **kw) for kw in SOURCE_SCENARIOS]
    cross = load_scenario("origin_story", **CROSS_SCENARIO)
    pools = [_pool(sc, args.seed + i, 6) for i, sc in enumerate(scenarios)]
    cross_pool = _pool(cross, args.seed + 99, 6)
    print(json.dumps({"ready": True}), flush=True)
    for t in range(args.start, args.trials):
        rng = np.random.default_rng([args.seed, t])
        kind = KINDS[t % len(KINDS)]
        which = int(rng.integers(0, len(scenarios)))
        sc = scenarios[which]
        base = pools[which][int(rng.integers(0, len(pools[which])))]
        if kind == "cross":
            row = cross_pool[int(rng.integers(0, len(cross_pool)))]
            headed = bool(rng.integers(0, 2))
            data = pack(row, cross) if headed else row.tobytes()
            what = "6-hero state, " + ("own header" if headed else "headerless")
        else:
            row, what = _corrupt(kind, base, rng)
            data = pack(row, sc)
        try:
            if args.no_validate:
                game = _unchecked(sc, row)
            elif kind == "cross" and not headed:
                game = Game.from_array(sc, data)
            else:
                game = Game.from_bytes(sc, data)
        except StateError as e:
            result, detail = "refused", str(e)
        except Exception as e:  # noqa: BLE001 (any other exception is a finding)
            result, detail = "bad_error", f"{type(e).__name__}: {e}"
        else:
            try:
                outcome = _play(game, rng, args.steps)
                result, detail = outcome.split(":")[0], outcome
            except EngineError as e:
                result, detail = "engine_error", str(e)
            except Exception as e:  # noqa: BLE001
                result, detail = "bad_error", f"{type(e).__name__}: {e}"
        print(json.dumps({"trial": t, "kind": kind, "what": what, "result": result,
                          "detail": detail[:300]}), flush=True)


def _run_workers(args: argparse.Namespace) -> list[dict]:
    """Drive worker processes over every trial, restarting them after a crash or hang."""
    import selectors

    rows: list[dict] = []
    start = 0
    while start < args.trials:
        cmd = [sys.executable, __file__, "--worker", "--start", str(start), "--trials",
               str(args.trials), "--seed", str(args.seed), "--steps", str(args.steps)]
        cmd += ["--no-validate"] if args.no_validate else []
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ)
        ready = False
        while True:
            limit = args.hang_s if ready else args.startup_s
            if not sel.select(timeout=limit):
                proc.kill()
                proc.wait()
                rows.append({"trial": start, "kind": KINDS[start % len(KINDS)],
                             "result": "hang" if ready else "crash",
                             "detail": f"no answer within {limit} s"})
                start += 1
                break
            line = proc.stdout.readline()
            if not line and not ready:
                raise SystemExit(f"the fuzz worker failed to start (exit status {proc.wait()})")
            if not line:
                code = proc.wait()
                if start < args.trials:
                    rows.append({"trial": start, "kind": KINDS[start % len(KINDS)],
                                 "result": "crash", "detail": f"worker exit status {code}"})
                    start += 1
                break
            msg = json.loads(line)
            if msg.get("ready"):
                ready = True
                continue
            rows.append(msg)
            start = msg["trial"] + 1
            if not args.quiet and start % 100 == 0:
                print(f"  {start} trials", file=sys.stderr, flush=True)
        sel.close()
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trials", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", type=int, default=100, help="random decisions after loading")
    ap.add_argument("--hang-s", type=float, default=60.0, help="seconds before a hang")
    ap.add_argument("--startup-s", type=float, default=1200.0,
                    help="seconds a worker may take to start (compiling the kernels)")
    ap.add_argument("--json", help="write every trial's result to this file")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--no-validate", action="store_true",
                    help="load without any validation (to see what the validator prevents)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args)
        return 0
    t0 = time.perf_counter()
    rows = _run_workers(args)
    seconds = time.perf_counter() - t0
    totals = Counter(r["result"] for r in rows)
    by_kind = {k: dict(Counter(r["result"] for r in rows if r["kind"] == k)) for k in KINDS}
    failed = [r for r in rows if r["result"] in FAILURES]
    print(f"{len(rows)} corrupted states in {seconds:.0f} s: " + ", ".join(
        f"{name} {totals.get(name, 0)}" for name in
        ("refused", "playable", "engine_error") + FAILURES))
    for kind, counts in by_kind.items():
        print(f"  {kind:10s} " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    for r in failed[:20]:
        print(f"FAIL trial {r['trial']} ({r['kind']}, {r.get('what', '')}): {r['result']}: "
              f"{r['detail']}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"totals": dict(totals), "by_kind": by_kind, "seconds": seconds,
                       "trials": rows}, fh, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
