"""The side a trainer learns and the opponents that play the other side (Mastermind variant).

With the villain agent (rules ``villain_agent``) a batch of games holds two kinds of rows:
the heroes' decisions and the villain's (``obs["agent"] == layout.VILLAIN_SEAT``). A
trainer learns one side (``HEROES`` or ``VILLAIN``); a ``League`` plays the other side's
rows. Each game plays one league member for a whole episode, drawn uniformly at random
when the episode starts: fictitious self-play with uniform sampling over past snapshots
(Heinrich et al., 2015; a league of one member is a fixed opponent).

The same mechanism seats partners (ad-hoc teamwork, ``agents.adhoc``): there the learner
is hero seat 0 and the league answers the other hero seats, and each game's member is a
function of its episode seed (``draw``) instead of a draw from the league's generator, so
the same game always has the same partner.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from agents.policy import Engine, Policy
from hon_env.content import Scenario
from hon_env.spec import layout as L

HEROES, VILLAIN = "heroes", "villain"
SIDES = (HEROES, VILLAIN)


def check_side(side: str) -> str:
    if side not in SIDES:
        raise ValueError(f"side must be one of {', '.join(SIDES)}, got {side!r}")
    return side


def side_rows(seats: np.ndarray, side: str) -> np.ndarray:
    """Which rows of a batch (by deciding seat) belong to ``side``."""
    villain = np.asarray(seats) == L.VILLAIN_SEAT
    return villain if side == VILLAIN else ~villain


def reward_column(scenario: Scenario, side: str) -> int:
    """The column of ``VectorEnv`` rewards that is ``side``'s: a hero's (all are the team's),
    or the villain agent's (the last)."""
    return scenario.n_heroes if side == VILLAIN else 0


def side_won(outcomes: np.ndarray, side: str) -> np.ndarray:
    """Episodes (``layout.OUT_*``) that ``side`` won: the villain wins when the heroes lose."""
    return np.asarray(outcomes) == (L.OUT_LOSS if side == VILLAIN else L.OUT_WIN)


def load_opponent(side: str, spec: str, seed: int = 0, device: str = "cpu",
                  greedy: bool = False) -> Policy | str:
    """The policy that plays against a learner of ``side``: for the heroes a villain
    (``agents.villains.load_villain``: ``top_card``, ``random``, ``scripted`` or a
    checkpoint), for the villain a hero team (``agents.load_policy``). Trained opponents
    sample their actions unless ``greedy``."""
    from agents.registry import load_policy
    from agents.villains import load_villain

    if check_side(side) == HEROES:
        return load_villain(spec, seed=seed, device=device, greedy=greedy)
    # purpose="train": a held-out zoo member is never a training opponent
    return load_policy(spec, seed=seed, device=device, greedy=greedy, purpose="train")


class League:
    """The opponents of a batch of ``num_envs`` games (see the module documentation).

    ``members`` are ``Policy`` objects; ``names`` label them (logs, ``league.json``).
    ``new_episodes(games, seeds)`` draws a member for each game that starts a new episode
    (``redraw(games)`` from the league's generator; with ``draw``, a function of episode
    seeds to member indices, from the seeds); ``act`` answers the other side's rows, each
    with its game's member. A league may start empty; it must have a member before it
    acts. A ``draw`` league has no member per game until ``new_episodes`` first runs.
    """

    def __init__(self, members: list[Policy], num_envs: int, seed: int,
                 names: list[str] | None = None,
                 draw: Callable[[np.ndarray], np.ndarray] | None = None) -> None:
        self.members = list(members)
        self.names = list(names) if names is not None else [m.name for m in members]
        if len(self.names) != len(self.members):
            raise ValueError(f"{len(self.members)} members but {len(self.names)} names")
        self.rng = np.random.default_rng(seed)
        self.draw = draw
        self.assigned = np.zeros(num_envs, np.int64)
        if draw is not None:
            self.assigned[:] = -1  # drawn from the episode seeds: new_episodes first
        elif self.members:
            self.redraw(np.arange(num_envs))

    def add(self, member: Policy, name: str) -> None:
        """A new snapshot: games draw it from their next episode on (every game plays the
        first member of a league that was empty)."""
        self.members.append(member)
        self.names.append(name)

    def new_episodes(self, games: np.ndarray, seeds: np.ndarray | list[int]) -> None:
        """``games`` start episodes with episode seeds ``seeds``: draw their members."""
        games = np.asarray(games, np.int64)
        if self.draw is None:
            self.redraw(games)
            return
        if not self.members:
            raise ValueError("the league is empty: add a member first")
        who = np.asarray(self.draw(np.asarray(seeds, np.int64)), np.int64)
        if who.shape != games.shape or who.size and not (
                0 <= who.min() and who.max() < len(self.members)):
            raise ValueError(f"draw returned {who} for {games.size} games and "
                             f"{len(self.members)} members")
        self.assigned[games] = who

    def redraw(self, games: np.ndarray) -> None:
        games = np.asarray(games)
        if not self.members:
            raise ValueError("the league is empty: add a member first")
        self.assigned[games] = self.rng.integers(len(self.members), size=games.size)

    def act(self, games: np.ndarray, observations: np.ndarray, masks: np.ndarray,
            seats: np.ndarray, engine: Engine | None = None) -> np.ndarray:
        """Actions for the rows of ``games`` (indices into the batch; the other arrays hold
        those rows only; ``engine`` is the whole batch's ``(state, tables)``)."""
        games = np.asarray(games)
        if not self.members:
            raise ValueError("the league is empty: add a member first")
        out = np.empty(games.size, np.int64)
        who = self.assigned[games]
        if who.size and who.min() < 0:
            raise ValueError("this league draws members from episode seeds: call "
                             "new_episodes for the games first")
        for m in np.unique(who):
            sel = np.flatnonzero(who == m)
            sub = None if engine is None else (engine[0][games[sel]], engine[1])
            out[sel] = self.members[m].act(observations[sel], masks[sel], seats[sel],
                                           engine=sub)
        return out

    def describe(self) -> dict[str, Any]:
        return {"members": list(self.names)}
