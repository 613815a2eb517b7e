"""The episode rules, written once: the team reward of a step and how an episode ends.

``VectorEnv`` (through ``core/vector.py``) and the single-game ``Session`` behind the
PettingZoo and Gymnasium envs both score steps here, so every front end reports the same
numbers:

- reward: ``sum(weights[e] * increase of event counter e)`` (the shaping weights, zero by
  default), plus ``+1`` on a win and ``-1`` on a loss; the same team reward goes to every
  hero;
- a win or a loss *terminates* the episode, the caps (``max_rounds``, ``max_decisions``)
  *truncate* it;
- an illegal action in ``"penalize"`` mode ends the episode, terminated, with
  ``ILLEGAL_PENALTY`` as the step's reward;
- with the villain agent (Mastermind variant) the villain gets ``villain_reward``: minus
  the heroes' win/loss reward, at the end of the episode only, plus its own shaping
  (``villain_reward_shaping``, zero by default: with it the game is no longer zero-sum).
"""

from __future__ import annotations

from numba import njit

from hon_env.core import layout as L

WIN_REWARD = 1.0
LOSS_REWARD = -1.0
ILLEGAL_PENALTY = -1.0


@njit(cache=True)
def step_reward(s, i, weights, ev_prev):
    """The rewards of the step that led to game ``i``'s current state.

    Reads ``s[i]`` (event counters and outcome) and ``weights`` (float64 [2, N_EVENTS]:
    row 0 the heroes' shaping, row 1 the villain agent's); writes ``ev_prev`` (int32
    [N_EVENTS], the counters at the previous step) to the current counters. Returns the
    team reward and the villain agent's reward.
    """
    r = 0.0
    rv = 0.0
    for k in range(L.N_EVENTS):
        now = s[i, L.EVENTS + k]
        r += weights[0, k] * (now - ev_prev[k])
        rv += weights[1, k] * (now - ev_prev[k])
        ev_prev[k] = now
    o = s[i, L.OUTCOME]
    return r + outcome_reward(o), rv + villain_reward(o)


@njit(cache=True)
def outcome_reward(outcome):
    """The heroes' reward for an episode's result: +1 win, -1 loss, 0 otherwise."""
    if outcome == L.OUT_WIN:
        return WIN_REWARD
    if outcome == L.OUT_LOSS:
        return LOSS_REWARD
    return 0.0


@njit(cache=True)
def villain_reward(outcome):
    """The villain agent's result reward (Mastermind variant): minus the heroes' result, so
    the two teams play a zero-sum game without shaping (hero shaping is not mirrored)."""
    return -outcome_reward(outcome)


@njit(cache=True)
def is_terminated(outcome):
    """A win or a loss ends the episode for good."""
    return outcome == L.OUT_WIN or outcome == L.OUT_LOSS


@njit(cache=True)
def is_truncated(outcome):
    """A cap cut the episode short."""
    return outcome == L.OUT_TRUNCATED
