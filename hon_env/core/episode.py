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
  (``villain_reward_shaping``, zero by default: with it the game is no longer zero-sum);
- with the Fame variant's ``fame`` or ``rank`` reward mode each hero gets its own reward
  (``step_rewards``, ``core/fame.py``); in the ``team`` mode every hero gets the team reward.

The reward parameters are one float64 array (``params``, built by
``hon_env.rewards.reward_params``): the heroes' shaping weight of each event counter,
then the villain agent's (from ``RP_VILLAIN``), then ``RP_MODE`` (0 team, 1 fame, 2 rank),
``RP_TEAM_WEIGHT``, ``RP_LOSS_KEEP``, ``RP_SCALE``.
The memory of the previous step (``prev``, int32 ``[N_PREV]``) holds the event counters,
then each seat's fame.
"""

from __future__ import annotations

from numba import njit

from hon_env.core.fame import MODE_TEAM, fame_rewards
from hon_env.spec import layout as L
from hon_env.spec.tables import CFG_MAX_DECISIONS, CFG_MAX_ROUNDS, CFG_N_HEROES, MAX_HEROES

WIN_REWARD = 1.0
LOSS_REWARD = -1.0
ILLEGAL_PENALTY = -1.0
RP_VILLAIN = L.N_EVENTS  # the villain agent's shaping weights (see the module doc)
RP_MODE = 2 * L.N_EVENTS  # reward parameters after the two sets of shaping weights
RP_TEAM_WEIGHT = RP_MODE + 1
RP_LOSS_KEEP = RP_MODE + 2
RP_SCALE = RP_MODE + 3
N_REWARD_PARAMS = RP_MODE + 4
N_PREV = L.N_EVENTS + MAX_HEROES  # event counters, then fame per seat


@njit(cache=True)
def remember(s, i, prev):
    """Write game ``i``'s event counters and fame into ``prev`` (the step memory)."""
    for k in range(L.N_EVENTS):
        prev[k] = s[i, L.EVENTS + k]
    for h in range(MAX_HEROES):
        prev[L.N_EVENTS + h] = s[i, L.FAME + h]


@njit(cache=True)
def step_rewards(s, i, T, params, prev, out):
    """Every hero's reward for the step that led to game ``i``'s current state.

    Reads ``s[i]`` and ``params`` (see the module doc); writes ``out[h]`` for each hero
    seat ``h`` and updates ``prev``. Returns the team reward (every hero's reward in the
    ``team`` mode) and the villain agent's reward (``step_reward``).
    """
    team, villain = step_reward(s, i, params, prev)
    mode = int(params[RP_MODE])
    if mode == MODE_TEAM:
        for h in range(T.cfg[CFG_N_HEROES]):
            out[h] = team
        for h in range(MAX_HEROES):
            prev[L.N_EVENTS + h] = s[i, L.FAME + h]
        return team, villain
    fame_rewards(s, i, T, mode, params[RP_TEAM_WEIGHT], params[RP_LOSS_KEEP],
                 params[RP_SCALE], team, outcome_reward(s[i, L.OUTCOME]),
                 prev[L.N_EVENTS:], out)
    return team, villain


@njit(cache=True)
def step_reward(s, i, weights, ev_prev):
    """The team reward and the villain agent's reward of the step that led to game ``i``'s
    current state.

    Reads ``s[i]`` (event counters and outcome) and ``weights`` (float64: the heroes'
    N_EVENTS shaping weights, then the villain agent's from ``RP_VILLAIN``); writes
    ``ev_prev`` (int32, the first N_EVENTS are the counters at the previous step) to the
    current counters.
    """
    r = 0.0
    rv = 0.0
    for k in range(L.N_EVENTS):
        now = s[i, L.EVENTS + k]
        r += weights[k] * (now - ev_prev[k])
        rv += weights[RP_VILLAIN + k] * (now - ev_prev[k])
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


@njit(cache=True)
def past_round_cap(s, b, T):
    """Does the round game ``b`` starts lie past the ``max_rounds`` cap? (The interpreter
    then truncates the episode instead of playing it.) Reads the state row and tables."""
    return s[b, L.ROUND] > T.cfg[CFG_MAX_ROUNDS]


@njit(cache=True)
def at_decision_cap(s, b, T):
    """Has ongoing game ``b`` answered its ``max_decisions`` decisions? (The interpreter
    then truncates the episode after the answer.) Reads the state row and tables."""
    return s[b, L.OUTCOME] == L.OUT_ONGOING and s[b, L.DECISIONS] >= T.cfg[CFG_MAX_DECISIONS]
