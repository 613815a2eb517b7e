"""States from outside are validated before any kernel reads them, and an engine error
stops only its own game (engine.md, "Saved states" and "Engine errors")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hon_env import EngineError, Game, StateError, load_scenario, vector_env
from hon_env.core.validate import first_problem, scenario_limits
from hon_env.rollout import play_batch
from hon_env.spec import layout as L
from hon_env.state_io import HEADER_LEN, pack

ROOT = Path(__file__).resolve().parents[1]
SIX = ["majesty", "stride", "cipher", "vigil", "microguy", "guerilla"]


def _played(scenario, seed: int = 0, steps: int = 40) -> Game:
    g = Game(scenario, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(int(rng.choice(g.legal_actions())))
    return g


def test_deciding_hero_out_of_range_is_refused(origin):
    """The reported crash: dec_hero set to 10**6 is refused, naming field, value, range."""
    state = Game(origin, seed=0).state.copy()
    state[0, L.DEC_HERO] = 10**6
    with pytest.raises(StateError, match=r"dec_hero = 1000000 .*\[0, 0\]") as err:
        Game.from_bytes(origin, pack(state[0], origin))
    assert err.value.field == "dec_hero"


def test_saved_state_round_trip_and_raw_rows(origin):
    g = _played(origin, seed=4)
    data = g.to_bytes()
    assert data[:4] == b"HONS" and len(data) == HEADER_LEN + 4 * L.STATE_LEN
    h = Game.from_bytes(origin, data)
    np.testing.assert_array_equal(h.state, g.state)
    np.testing.assert_array_equal(h.legal_mask(), g.legal_mask())
    raw = Game.from_array(origin, g.state.tobytes())  # the documented headerless path
    np.testing.assert_array_equal(raw.state, g.state)
    with pytest.raises(StateError, match="from_array"):
        Game.from_bytes(origin, g.state.tobytes())


def test_header_from_another_scenario_or_engine_is_refused(origin):
    six = load_scenario("origin_story", heroes=SIX)
    data = _played(six, seed=1).to_bytes()
    with pytest.raises(StateError, match="another scenario"):
        Game.from_bytes(origin, data)
    engine = bytearray(_played(origin).to_bytes())
    engine[8] ^= 0xFF  # first byte of the engine fingerprint
    with pytest.raises(StateError, match="another engine version"):
        Game.from_bytes(origin, bytes(engine))


def test_headerless_state_of_a_six_hero_game_is_refused_in_a_one_hero_scenario(origin):
    six = load_scenario("origin_story", heroes=SIX)
    row = _played(six, seed=2).state[0]
    with pytest.raises(StateError, match=r"seat|heroes|\[0, 0\]"):
        Game.from_array(origin, row)


def test_every_field_out_of_range_is_refused_by_name(origin):
    """Each field set just past its declared range is refused, the message naming it."""
    base = _played(origin, seed=5, steps=25).state[0]
    limits = scenario_limits(origin.tables)
    checked = 0
    for name, (_, hi, live, _) in L.RANGES.items():
        hi = limits[hi] if isinstance(hi, str) else hi
        if hi >= 1 << 31 or live is not None:
            continue  # any int32 is legal, or the entry may be unused
        start, _ = L.FIELDS[name]
        row = base.copy()
        row[start] = hi
        problem = first_problem(row, origin.tables)
        assert problem is not None and name in problem, (name, problem)
        checked += 1
    assert checked > 90


def test_draft_decision_outside_the_draft_is_refused(origin):
    """A running game whose pending decision says "draft" (only the draft asks it) is
    refused with the field named, not a lookup error."""
    row = _played(origin, seed=6, steps=10).state[0].copy()
    row[L.DEC_KIND] = L.D_DRAFT
    with pytest.raises(StateError, match="dec_kind = 20 .draft.") as err:
        Game.from_array(origin, row)
    assert err.value.field == "dec_kind"


def test_impossible_stack_is_refused(origin):
    g = _played(origin, seed=6, steps=10)
    top = L.STACK + (int(g.field("sp")) - 1) * L.STACK_W
    for col, value, words in ((top, 63, "not an op code"), (top + 4, 3, "hero 3"),
                              (L.SP, 0, "sp = 0"), (L.SP, L.STACK_DEPTH + 1, "sp = 97")):
        row = g.state[0].copy()
        row[col] = value
        with pytest.raises(StateError, match=words):
            Game.from_array(origin, row)


def test_short_fuzz_of_corrupted_states_has_no_crash_or_hang():
    """Corrupted states (random words, bit flips, fields out of range, other scenarios) in
    a worker process: each is refused clearly or plays on with its invariants holding."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "fuzz_states.py"), "--trials", "60",
         "--steps", "30", "--quiet"], capture_output=True, text=True, timeout=1200, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "60 corrupted states" in out.stdout and "crash 0, hang 0" in out.stdout


# --- engine errors ---------------------------------------------------------------------

def _break(state: np.ndarray, i: int, how: str) -> None:
    """Make game ``i``'s next apply meet an engine error, skipping validation."""
    if how == "stack_empty":
        state[i, L.SP] = 0
    else:  # unknown_op: the op that asked the pending decision becomes an unknown code
        state[i, L.STACK + (state[i, L.SP] - 1) * L.STACK_W] = 63


@pytest.mark.parametrize("how", ["stack_empty", "unknown_op"])
def test_engine_error_in_one_game_raises_one_clear_error(how):
    env, clean = vector_env(4, seed=10), vector_env(4, seed=10)
    env.reset()
    clean.reset()
    rng = np.random.default_rng(0)
    for _ in range(5):
        a = clean.sample_actions(rng)
        env.step(a)
        clean.step(a)
    _break(env.state, 2, how)
    a = clean.sample_actions(rng)
    with pytest.raises(EngineError) as err:
        env.step(a)
    e = err.value
    assert (e.game, e.error, e.seed) == (2, how, env.episode_seed(2))
    assert e.decision in L.DECISION_NAMES and how in str(e) and "game 2" in str(e)
    clean.step(a)
    others = [0, 1, 3]
    np.testing.assert_array_equal(env.state[others], clean.state[others])
    with pytest.raises(EngineError, match="game 2"):  # until reset, the game stays stopped
        env.step(a)
    env.reset()
    env.step(env.sample_actions(rng))


def test_engine_error_with_on_error_reset_restarts_only_that_game(origin):
    env = vector_env(4, seed=10, on_error="reset")
    clean = vector_env(4, seed=10)
    env.reset()
    clean.reset()
    rng = np.random.default_rng(1)
    a = clean.sample_actions(rng)
    _break(env.state, 1, "stack_empty")
    _, rew, term, trunc, info = env.step(a)
    clean.step(a)
    assert info["error"].tolist() == [False, True, False, False]
    assert info["error_code"][1] == L.ERR_STACK_EMPTY
    assert trunc[1] and not term[1] and rew[1].sum() == 0 and info["_final"][1]
    assert info["final_loss_reason"][1] == L.LOSS_ENGINE_ERROR
    np.testing.assert_array_equal(env.state[1], Game(origin, seed=10 + 1 + 4).state[0])
    np.testing.assert_array_equal(env.state[[0, 2, 3]], clean.state[[0, 2, 3]])
    _, _, _, _, info = env.step(env.sample_actions(rng))  # and it plays on
    assert not info["error"].any()


def test_engine_error_in_game_and_rollout(origin):
    g = _played(origin, seed=3, steps=5)
    _break(g.state, 0, "stack_empty")
    with pytest.raises(EngineError, match="stack_empty"):
        g.apply(int(g.legal_actions()[0]))
    with pytest.raises(EngineError, match="stack_empty"):  # stays stopped
        g.apply(0)
    broken = []

    def policy(state, masks):
        if not broken:
            _break(state, 1, "stack_empty")
            broken.append(1)
        return np.argmax(masks, axis=1)

    with pytest.raises(EngineError, match=r"game 1 \(episode seed 8\)"):
        play_batch(origin, np.arange(7, 10), policy)


def test_content_op_codes_match_the_interpreter():
    """validate.py and interp.step_op agree on which codes are content ops."""
    from hon_env.spec.ops import N_CONTENT_OPS, OPS

    assert sorted(op.code for op in OPS) == list(range(1, N_CONTENT_OPS))


# --- debug mode ------------------------------------------------------------------------

def test_debug_mode_turns_on_bounds_checking_in_its_own_cache(tmp_path):
    """HON_ENV_DEBUG=1 sets numba's bounds checking before any kernel compiles and keys
    the kernel cache folder on it."""
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "HON_ENV_DEBUG")}
    code = ("import hon_env, numba.core.config as c; "
            "print(c.BOUNDSCHECK, hon_env.NUMBA_CACHE_DIR.endswith('-debug'))")
    out = {}
    for flag in ("0", "1"):
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env={**env, "HON_ENV_DEBUG": flag,
                                  "HON_ENV_CACHE_DIR": str(tmp_path)}, cwd=ROOT, timeout=300)
        assert run.returncode == 0, run.stderr
        out[flag] = run.stdout.split()
    assert out["1"] == ["1", "True"]
    assert out["0"][1] == "False" and out["0"][0] != "1"


def test_debug_mode_checks_invariants_after_every_step(origin, monkeypatch):
    g = _played(origin, seed=2, steps=5)
    g.field("minion_supply")[...] = int(g.field("minion_supply")) + 1  # a minion from nowhere
    g.apply(int(g.legal_actions()[0]))  # normal mode: not checked
    monkeypatch.setenv("HON_ENV_DEBUG", "1")
    with pytest.raises(EngineError, match="invariant") as err:
        g.apply(int(g.legal_actions()[0]))
    assert err.value.error == "invariant"
    env = vector_env(2, seed=0)
    env.reset()
    env.state[1, L.MINION_SUPPLY] += 1
    with pytest.raises(EngineError, match="invariant"):
        env.step(env.sample_actions(np.random.default_rng(0)))


def test_every_flow_op_has_declared_argument_ranges():
    """A flow op without an entry in ``validate.FLOW_ARGS`` would make every saved state
    that holds it unloadable: each ``F_*`` code of the interpreter (``core/stack.py``) has
    one."""
    from hon_env.core import stack
    from hon_env.core.validate import FLOW_ARGS

    flow = {v for k, v in vars(stack).items() if k.startswith("F_") and isinstance(v, int)}
    assert flow == set(FLOW_ARGS), sorted(flow ^ set(FLOW_ARGS))
