"""Win rates of a policy against each villain and issue, with 95% confidence intervals.

Every game is played once to its end on the vector env (game i from seed ``seed + i``);
the win rate's interval is Wilson's score interval, which stays inside [0, 1] and behaves
at 0 and 100% wins, where the normal approximation does not.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from agents.policy import Policy
from agents.villains import TOP_CARD, VersusPolicy
from hon_env.checks import check_actions, check_int, check_seed
from hon_env.content import Scenario
from hon_env.envs.pool import build_pool, is_pool
from hon_env.envs.vector import VectorEnv
from hon_env.game import resolve_scenario
from hon_env.spec import layout as L


def wilson_interval(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval for ``wins`` successes in ``n`` trials (95% by default)."""
    if n <= 0:
        raise ValueError("n must be positive")
    if not 0 <= wins <= n:
        raise ValueError(f"wins must be in [0, {n}], got {wins}")
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class EvalResult:
    """Outcome counts of ``games`` games and the win rate with its 95% interval."""

    villain: str
    issue: str
    heroes: tuple[str, ...]
    games: int
    wins: int
    losses: int
    truncated: int
    win_rate: float
    ci_low: float
    ci_high: float
    mean_rounds: float
    loss_reasons: dict[str, int]  # losses and truncations by ``layout.LOSS_REASON_NAMES``
    # each seat's mean fame at the end of a game (kept in every game; the Fame variant)
    mean_fame: tuple[float, ...] = ()
    # each seat's mean of fame x [win]: the fame prize when a lost game cancels it
    mean_fame_won: tuple[float, ...] = ()
    # a pool's games by entry (``entry_label``): {"games", "wins"}; empty for one scenario
    per_entry: dict[str, dict[str, int]] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return asdict(self)


def villain_label(sc: Scenario) -> str:
    """The scenario's villain id, or ``"a+b"`` for two villains (Two Fronts)."""
    return "+".join(sc.villain_ids) or sc.villain_id


def entry_label(sc: Scenario, pool: list[Scenario]) -> str:
    """How a pool entry is named in ``EvalResult.per_entry``: what varies over ``pool``,
    its team (``"a+b"``) and/or its board (``"villain x issue"``)."""
    parts = []
    if len({s.hero_ids for s in pool}) > 1:
        parts.append("+".join(sc.hero_ids))
    if len({(villain_label(s), s.issue_id) for s in pool}) > 1 or not parts:
        parts.append(f"{villain_label(sc)} x {sc.issue_id}")
    return " vs ".join(parts)


def villain_option(label: str) -> str | list[str]:
    """The ``villain`` option of a label: an id, or ``"a+b"`` as the list of both."""
    return label.split("+") if "+" in label else label


def _play(policy: Policy, games: int, seed: int, batch: int, scenario: Any
          ) -> tuple[list[int], list[int], list[int], list[np.ndarray], list[int]]:
    """Play games ``seed`` .. ``seed + games - 1`` to their end, ``batch`` at a time: each
    game's outcome, loss reason, rounds, fame per seat and pool entry (``scenarios``
    index; 0 without a pool), in the order they end."""
    outcomes: list[int] = []
    reasons: list[int] = []
    rounds: list[int] = []
    fames: list[np.ndarray] = []
    entries: list[int] = []
    for start in range(0, games, batch):
        n = min(batch, games - start)
        env = VectorEnv(n, seed + start, scenario, global_state=False)
        obs, _ = env.reset()
        first = env.teams  # each game plays one episode: the entry its seed drew
        done = np.zeros(n, bool)
        while not done.all():
            actions = policy.act(obs["observation"], obs["action_mask"], obs["agent"],
                                 engine=env.engine)
            obs, _, _, _, info = env.step(check_actions(actions, n))  # never cast floats
            for i in np.flatnonzero(info["_final"] & ~done):
                done[i] = True
                outcomes.append(int(info["final_outcome"][i]))
                reasons.append(int(info["final_loss_reason"][i]))
                rounds.append(int(info["final_rounds"][i]))
                fames.append(info["final_fame"][i].copy())
                entries.append(int(first[i]))
    return outcomes, reasons, rounds, fames, entries


def evaluate(policy: Policy, *, games: int, seed: int = 0, batch: int = 256,
             scenario: str | Path | Scenario = "origin_story",
             villain_policy: Policy | str | None = None, **options: Any) -> EvalResult:
    """Play ``games`` games (one episode each) with ``policy`` and count the outcomes.

    ``scenario`` is an id, a path or a compiled ``Scenario``; ``options`` are the game
    options of every front end (``hon_env.options.scenario_from``: ``villain``, ``issue``,
    ``heroes``, ``n_heroes``, ``rules`` such as ``{"allies": ["lox_lee"]}``...; only with
    an id or path). Game i starts from seed ``seed + i`` whatever the batch size. A pool
    (``scenario`` a list, or ``heroes`` a list of teams or ``"random"``;
    ``hon_env/envs/pool.py``) draws each game's entry from its seed; the result's
    ``heroes`` then names every team, ``"a+b"`` each.

    ``villain_policy`` plays the villain agent of the Mastermind variant (rules
    ``villain_agent``; ``agents.villains``): a ``Policy`` for the rows where the villain
    decides, or ``"top_card"`` for the rulebook's villain deck (the same scenario with the
    villain agent switched off). A scenario whose villain is an agent needs one.
    """
    games, batch = check_int(games, "games"), check_int(batch, "batch")
    if games < 1 or batch < 1:
        raise ValueError(f"games and batch must be positive integers, got games={games}, "
                         f"batch={batch}")
    seed = check_seed(seed, games)
    if isinstance(villain_policy, str):
        if villain_policy != TOP_CARD:
            raise ValueError(f"villain_policy must be a Policy or {TOP_CARD!r}, got "
                             f"{villain_policy!r} (agents.villains.load_villain names them)")
        if isinstance(scenario, Scenario):
            raise ValueError("villain_policy='top_card' switches the villain agent off, "
                             "which needs a scenario id or path, not a compiled Scenario")
        options = {**options, "rules": {**(options.get("rules") or {}),
                                        "villain_agent": False}}
    if is_pool(scenario, options.get("heroes")):
        rest = {k: v for k, v in options.items() if k != "heroes"}
        pool = [o.scenario for o in build_pool(scenario, options.get("heroes"), rest)]
        scenario, options = pool, {}
        sc = pool[0]
        team_names = tuple("+".join(s.hero_ids) for s in pool)
    else:
        sc = resolve_scenario(scenario, **options)
        scenario, options = sc, {}
        team_names = tuple(sc.hero_ids)
        pool = [sc]
    if sc.villain_agent:
        if villain_policy is None:
            raise ValueError(f"the villain of scenario {sc.id!r} is an agent (rules "
                             "villain_agent): pass villain_policy (a Policy or 'top_card')")
        policy = VersusPolicy(policy, villain_policy)
    elif villain_policy is not None and villain_policy != TOP_CARD:
        raise ValueError(f"scenario {sc.id!r} has no villain agent (rules villain_agent), "
                         "so villain_policy would never act")
    outcomes, reasons, rounds, fames, entries = _play(policy, games, seed, batch, scenario)
    out = np.array(outcomes)
    per_entry: dict[str, dict[str, int]] = {}
    if len(pool) > 1:
        labels = [entry_label(s, pool) for s in pool]
        for e, o in zip(entries, outcomes, strict=True):
            row = per_entry.setdefault(labels[e], {"games": 0, "wins": 0})
            row["games"] += 1
            row["wins"] += int(o == L.OUT_WIN)
        per_entry = dict(sorted(per_entry.items()))
    wins = int((out == L.OUT_WIN).sum())
    low, high = wilson_interval(wins, games)
    by_reason = {L.LOSS_REASON_NAMES[r]: reasons.count(r) for r in sorted(set(reasons)) if r}
    won = (out == L.OUT_WIN)[:, None] * np.array(fames)
    return EvalResult(villain_label(sc), sc.issue_id, team_names, games, wins,
                      int((out == L.OUT_LOSS).sum()), int((out == L.OUT_TRUNCATED).sum()),
                      wins / games, low, high, float(np.mean(rounds)), by_reason,
                      tuple(float(x) for x in np.mean(fames, axis=0)),
                      tuple(float(x) for x in won.mean(axis=0)), per_entry)
