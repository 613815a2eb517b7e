"""Play whole batches of games with a policy over masks: random play, statistics, checks.

``play_batch`` drives the batched kernels directly (no environment wrapper) and returns
per-game outcomes; it is what ``scripts/play.py`` and the conformance tests use.
``engine_error`` turns the state row of a game the engine stopped into the ``EngineError``
that ``play_batch``, ``Game`` and ``VectorEnv`` raise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hon_env.checks import IllegalActionError, check_actions, check_seed_array, legal_in_masks
from hon_env.content import Scenario
from hon_env.core.kernels import reset_batch, reset_serial, step_batch, step_serial
from hon_env.errors import EngineError
from hon_env.numba_cache import announce_compile
from hon_env.spec import layout as L

PolicyFn = Callable[[np.ndarray, np.ndarray], np.ndarray]  # (state, masks) -> actions [B]


def random_policy(rng: np.random.Generator) -> PolicyFn:
    """Uniform choice among legal actions, drawn from ``rng`` (not from the games' RNG)."""
    def act(state: np.ndarray, masks: np.ndarray) -> np.ndarray:
        u = rng.random(masks.shape)
        u[masks == 0] = -1.0
        return u.argmax(axis=1)
    return act


@dataclass
class BatchResult:
    """Per-game results of ``play_batch`` (arrays of length B)."""

    outcome: np.ndarray  # OUT_* codes
    loss_reason: np.ndarray  # LOSS_* codes
    rounds: np.ndarray
    decisions: np.ndarray
    events: np.ndarray  # [B, N_EVENTS]
    steps: int  # batched steps taken


def play_batch(sc: Scenario, seeds: np.ndarray, policy: PolicyFn, *,
               on_step: Callable[[np.ndarray, np.ndarray], None] | None = None,
               max_steps: int = 100_000) -> BatchResult:
    """Play one game per seed to the end, all in one batch.

    Args:
        sc: the compiled scenario.
        seeds: int64 [B] seeds; game i is exactly ``Game(sc, seed=seeds[i])``.
        policy: picks one legal action per game from (state, masks).
        on_step: called with (state, masks) after reset and after every step.
        max_steps: safety bound on batched steps.

    Raises:
        TypeError: ``seeds`` or the policy's actions are not integer arrays.
        ValueError: ``seeds`` is not one-dimensional or holds a seed outside ``[0, 2**63)``;
            the policy's actions are not one per game.
        IllegalActionError: the policy chose an action outside the legal mask of a game
            that is still playing (``RuntimeError`` too, for callers that catch that).
        EngineError: the engine stopped a game (engine.md, "Engine errors"); the message
            names the game's index and seed.
    """
    seeds = check_seed_array(seeds)
    B = len(seeds)
    state = np.zeros((B, L.STATE_LEN), np.int32)
    masks = np.zeros((B, L.N_ACTIONS), np.int8)
    status = np.zeros(B, np.int32)
    reset, step = (reset_serial, step_serial) if B == 1 else (reset_batch, step_batch)
    announce_compile("rollout", "kernels.step_serial" if B == 1 else "kernels._step_parallel")
    reset(state, sc.engine_tables, seeds, masks)
    _raise_stopped(state, seeds)
    if on_step:
        on_step(state, masks)
    outcome = L.field_view(state, "outcome")
    steps = 0
    while (outcome == L.OUT_ONGOING).any():
        if steps >= max_steps:
            raise RuntimeError(f"games still running after {max_steps} steps")
        actions = check_actions(policy(state, masks), B).copy()
        actions[outcome != L.OUT_ONGOING] = 0
        _check_legal(actions, masks, outcome == L.OUT_ONGOING)
        step(state, sc.engine_tables, actions, masks, status)
        _raise_stopped(state, seeds)
        steps += 1
        if on_step:
            on_step(state, masks)
    return BatchResult(
        outcome=outcome.copy(), loss_reason=L.field_view(state, "loss_reason").copy(),
        rounds=L.field_view(state, "round").copy(),
        decisions=L.field_view(state, "decisions").copy(),
        events=L.field_view(state, "events").copy(), steps=steps)


class IllegalPolicyAction(IllegalActionError, RuntimeError):
    """A policy handed ``play_batch`` an action outside a playing game's legal mask."""


def _check_legal(actions: np.ndarray, masks: np.ndarray, playing: np.ndarray) -> None:
    """Refuse, before the step, an action that is out of range or not in its game's mask,
    so that no game of the batch has moved when the error is raised."""
    legal = ~playing | legal_in_masks(actions, masks)
    if not legal.all():
        bad = np.flatnonzero(~legal)[:10]
        raise IllegalPolicyAction(f"policy chose illegal actions in games {bad.tolist()}: "
                                  f"{actions[bad].tolist()} (actions are integers in [0, "
                                  f"{L.N_ACTIONS}) allowed by the game's mask)")


def _raise_stopped(state: np.ndarray, seeds: np.ndarray) -> None:
    stopped = np.flatnonzero(state[:, L.ERROR])
    if stopped.size:
        i = int(stopped[0])
        raise engine_error(state[i], i, int(seeds[i]))


def summarize(results: list[BatchResult]) -> dict:
    """Outcome counts, loss reasons and average rounds/decisions over batches."""
    outcome = np.concatenate([r.outcome for r in results])
    reason = np.concatenate([r.loss_reason for r in results])
    rounds = np.concatenate([r.rounds for r in results])
    decisions = np.concatenate([r.decisions for r in results])
    n = len(outcome)
    out = {"games": n}
    for code, name in enumerate(L.OUTCOME_NAMES[1:], start=1):
        out[name] = int((outcome == code).sum())
    for code, name in enumerate(L.LOSS_REASON_NAMES):
        if code:
            out[f"ended_by_{name}"] = int((reason == code).sum())
    out["mean_rounds"] = float(rounds.mean()) if n else 0.0
    out["mean_decisions"] = float(decisions.mean()) if n else 0.0
    return out


def engine_error(row: np.ndarray, game: int = 0, seed: int | None = None) -> EngineError:
    """The ``EngineError`` for a state row whose ``error`` field is set."""
    code = int(row[L.ERROR])
    name = L.ERROR_NAMES[code] if 0 <= code < len(L.ERROR_NAMES) else f"code {code}"
    dec = int(row[L.ERROR_DEC])
    decision = L.DECISION_NAMES[dec] if 0 <= dec < len(L.DECISION_NAMES) else str(dec)
    op = int(row[L.ERROR_OP])
    seat, action = int(row[L.ERROR_SEAT]), int(row[L.ERROR_ACTION])
    where = (f"answering decision '{decision}' of seat {seat} with action {action}"
             if dec else "while running to the first decision")
    return EngineError(
        f"engine error '{name}' in game {game} (episode seed {seed}) {where}"
        f" (op {op} on top of the interpreter stack); the game was stopped",
        error=name, code=code, game=game, seed=seed, decision=decision if dec else None,
        seat=seat if dec else None, action=action if dec else None)
