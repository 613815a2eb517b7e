"""Ad-hoc teamwork: a policy in seat 0, partners from the zoo drawn per game.

An ``adhoc`` task (``hon_env.tasks``, ``configs/tasks/adhoc_*.yaml``) names two splits of
the partner zoo (``agents.zoo``): training games draw seat 0's partner from the training
split, evaluation games from the held-out split. One member plays every seat but seat 0
for a whole game; which one is a function of the game's episode seed (``partner_index``),
so evaluation game ``i`` always has the same partner, whatever the batch, the policy or
the process. Partners are a ``League`` (``agents.training.league``) whose members are
drawn from the episode seeds; the trainer and the evaluation share it.

Held-out members never reach a training process: ``partner_league(..., purpose="train")``
loads members with ``load_member(purpose="train")``, which refuses them, and an adhoc
task's file cannot name the held-out split for training (``hon_env.tasks``).

The metric (``docs/benchmark.md``, "Ad-hoc teamwork"): the raw win rate over the
evaluation games, and per held-out partner the normalised score

    (score - random) / (best - random)

where ``random`` is the random policy's win rate in seat 0 with that partner and
``best`` the best win rate any known policy (``REFERENCE_CANDIDATES``) reaches in seat 0
with it, both on the task's evaluation games; the task's score is their mean over the
partners whose ``best`` exceeds ``random``. ``compute_reference`` measures both
(``scripts/adhoc_reference.py`` stores them in ``reference_path(task)``).
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from agents.evaluation import wilson_interval
from agents.policy import Policy
from agents.training.league import League
from hon_env.checks import check_actions
from hon_env.envs.vector import VectorEnv
from hon_env.spec import layout as L
from hon_env.tasks import LEARNER_SEAT, Task, get_task

ROOT = Path(__file__).resolve().parents[1]
REFERENCE_DIR = ROOT / "docs" / "benchmark"
# the policies whose best win rate with a partner is that partner's best response: the
# coordinated team, the shipped MAPPO policies and the zoo's training members
REFERENCE_BUILTIN = ("heuristic",)
_SALT = np.uint64(0xAD0C_7EA3_5EA7_0001)  # keeps partner draws apart from other seed hashes


def partner_index(seeds: np.ndarray | list[int], n: int) -> np.ndarray:
    """The partner (0 .. n-1) of each episode seed: splitmix64 of the seed, modulo ``n``.

    Args:
        seeds: episode seeds (non-negative integers), any shape.
        n: the number of partners to draw from.

    Returns:
        int64 array of ``seeds``' shape.
    """
    if n < 1:
        raise ValueError(f"need at least one partner to draw from, got {n}")
    z = np.asarray(seeds, np.int64).astype(np.uint64) ^ _SALT
    with np.errstate(over="ignore"):
        z = z + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z % np.uint64(n)).astype(np.int64)


def partner_names(task: Task, split: str = "eval") -> list[str]:
    """The zoo members an adhoc task's ``split`` games draw from, in manifest order."""
    from agents.zoo import list_members

    return list_members(task.partner_split(split))


def partner_league(task: Task, split: str, num_envs: int, seed: int = 0,
                   purpose: str = "eval", device: str = "cpu") -> League:
    """The partners of ``split``'s games as a ``League`` drawing from the episode seeds.

    Args:
        task: an adhoc task.
        split: ``"train"`` or ``"eval"`` (the task names the zoo split of each).
        num_envs: games in the batch the league answers for.
        seed: each member's load seed (the noise of noisy members).
        purpose: ``"train"`` in a training process: a held-out member is then refused
            (``agents.zoo.load_member``).
    """
    from agents.zoo import load_member

    names = partner_names(task, split)
    members = [load_member(n, seed=seed, purpose=purpose, device=device) for n in names]
    return League(members, num_envs, seed, names=names,
                  draw=lambda seeds: partner_index(seeds, len(names)))


@dataclass
class AdhocResult:
    """Outcomes of an adhoc evaluation: game ``i`` (seed ``seed + i``) had partner
    ``partners[partner[i]]`` and ended with ``outcome[i]`` (``layout.OUT_*``)."""

    task: str
    split: str  # the task's split (train / eval) whose partners played
    zoo_split: str
    partners: list[str]
    seed: int
    outcome: np.ndarray  # [games] int, layout.OUT_*
    partner: np.ndarray  # [games] int, index into partners
    mean_rounds: float = 0.0

    @property
    def games(self) -> int:
        return int(self.outcome.size)

    @property
    def wins(self) -> int:
        return int((self.outcome == L.OUT_WIN).sum())

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    def per_partner(self) -> dict[str, dict[str, Any]]:
        """Per partner: games, wins, win rate and its Wilson 95% interval (a partner no
        game drew has 0 games and no rate)."""
        out = {}
        for k, name in enumerate(self.partners):
            mine = self.partner == k
            n, w = int(mine.sum()), int((self.outcome[mine] == L.OUT_WIN).sum())
            low, high = wilson_interval(w, n) if n else (float("nan"), float("nan"))
            out[name] = {"games": n, "wins": w, "win_rate": w / n if n else float("nan"),
                         "ci_low": low, "ci_high": high}
        return out


def play_adhoc(policy: Policy, partners: League, scenario: Any, games: int, seed: int,
               batch: int = 256) -> tuple[np.ndarray, np.ndarray, float]:
    """Play ``games`` games (game i from seed ``seed + i``), ``policy`` in seat 0 and the
    league's member of each game (drawn from its seed) in the other seats.

    Returns:
        (outcomes [games], partner indices [games], mean rounds).
    """
    outcomes = np.zeros(games, np.int64)
    drawn = np.zeros(games, np.int64)
    rounds = np.zeros(games, np.int64)
    for start in range(0, games, batch):
        n = min(batch, games - start)
        env = VectorEnv(n, seed + start, scenario, global_state=False)
        obs, _ = env.reset()
        rows = np.arange(n)
        partners.new_episodes(rows, [env.episode_seed(i) for i in rows])
        drawn[start:start + n] = partners.assigned[:n]
        done = np.zeros(n, bool)
        while not done.all():
            actions = np.empty(n, np.int64)
            seats = obs["agent"]
            mine = np.flatnonzero(seats == LEARNER_SEAT)
            others = np.flatnonzero(seats != LEARNER_SEAT)
            state, tables = env.engine
            if mine.size:
                actions[mine] = policy.act(obs["observation"][mine], obs["action_mask"][mine],
                                           seats[mine], engine=(state[mine], tables))
            if others.size:
                actions[others] = partners.act(others, obs["observation"][others],
                                               obs["action_mask"][others], seats[others],
                                               engine=env.engine)
            obs, _, term, trunc, info = env.step(check_actions(actions, n))
            ended = np.flatnonzero(term | trunc)
            for i in ended[~done[ended]]:
                done[i] = True
                outcomes[start + i] = int(info["final_outcome"][i])
                rounds[start + i] = int(info["final_rounds"][i])
            if ended.size:  # later episodes of a finished game are not counted
                partners.new_episodes(ended, [env.episode_seed(i) for i in ended])
    return outcomes, drawn, float(rounds.mean())


def evaluate_adhoc(policy: Policy, task: Task, games: int | None = None,
                   split: str = "eval", purpose: str = "eval", seed: int = 0,
                   batch: int = 256) -> AdhocResult:
    """``policy`` in seat 0 of ``task``'s first ``games`` evaluation games (all of them by
    default), with the partners of the task's ``split`` (``"eval"``: the held-out ones;
    ``"train"``: the training ones, what a training process may evaluate with).

    ``seed`` seeds the partners' own randomness (noisy members); the games and the draw
    of partners are the task's. ``purpose="train"`` refuses held-out partners.
    """
    games = task.eval_games if games is None else games
    if not 1 <= games <= task.eval_games:
        raise ValueError(f"games must be in [1, {task.eval_games}] for task {task.name!r}")
    partners = partner_league(task, split, min(batch, games), seed=seed, purpose=purpose)
    outcome, drawn, rounds = play_adhoc(policy, partners, task.pool("eval")[0], games,
                                        task.eval_seed, batch)
    return AdhocResult(task.name, split, task.partner_split(split), list(partners.names),
                       task.eval_seed, outcome, drawn, rounds)


# --- normalisation --------------------------------------------------------------------------

def normalised_score(score: float, random: float, best: float) -> float:
    """``(score - random) / (best - random)``: 0 at the random policy's score with the
    partner, 1 at the best known response; NaN when ``best <= random`` (no known policy
    does better than random with that partner, so the scale is undefined)."""
    if not best > random:
        return float("nan")
    return (score - random) / (best - random)


def reference_path(task: str, zoo_split: str = "heldout") -> Path:
    """Where the reference numbers of ``task``'s partners of ``zoo_split`` are stored (a
    sub-folder, so that ``scripts/benchmark_table.py`` does not read them as a row)."""
    return REFERENCE_DIR / task / "reference" / f"{zoo_split}.json"


def load_reference(task: str, zoo_split: str = "heldout") -> dict | None:
    """The stored reference numbers (``compute_reference``'s dict), or None."""
    path = reference_path(task, zoo_split)
    return json.loads(path.read_text()) if path.is_file() else None


def reference_candidates() -> list[str]:
    """``load_policy`` specs of the known policies a best response is taken over: the
    coordinated team, the shipped MAPPO policies and the zoo's training members (a member
    that wraps one of the others is left out)."""
    from agents.registry import list_pretrained
    from agents.zoo import list_members, member

    specs = [*REFERENCE_BUILTIN, *list_pretrained()]
    for name in list_members("train"):
        if member(name).build.get("policy") not in specs:
            specs.append(f"zoo:{name}")
    return specs


def candidate_checkpoint(spec: str) -> str | None:
    """16 hex digits of the sha256 of a shipped policy's file (``mappo:NAME``...), so a
    stored reference says which weights it measured; None for the other candidates (the
    scripted teams, and the zoo's members, whose manifest pins their own files)."""
    from agents.registry import list_pretrained, pretrained_path

    if spec not in list_pretrained():
        return None
    return hashlib.sha256(pretrained_path(spec).read_bytes()).hexdigest()[:16]


def compute_reference(task: Task, candidates: list[str] | None = None,
                      games: int | None = None, seed: int = 0,
                      known: dict | None = None) -> dict:
    """Per held-out partner: the random policy's and every candidate's win rate in seat 0
    on ``task``'s first ``games`` evaluation games, and the best candidate.

    ``known``: a stored reference of the same task, games and seed whose measured
    candidates are reused rather than played again (only the new candidates play, and a
    shipped policy whose file changed since: ``checkpoints``), so adding a policy to the
    known ones costs one evaluation; the result is the one a full run over
    ``candidates`` gives (the games and partners are the task's, the policies
    deterministic for their seed)."""
    from agents.registry import load_policy

    candidates = list(candidates or reference_candidates())
    games = task.eval_games if games is None else games
    if known is not None and (known.get("task"), known.get("games"),
                              known.get("partner_seed")) != (task.name, games, seed):
        raise ValueError(f"the known reference is of task {known.get('task')!r}, "
                         f"{known.get('games')} games, seed {known.get('partner_seed')}: "
                         f"not {task.name!r}, {games}, {seed}")
    old = known["candidates"] if known is not None else []
    digests = {spec: candidate_checkpoint(spec) for spec in {*candidates, *old}}
    recorded = known.get("checkpoints", {}) if known is not None else {}
    reused = [spec for spec in old if recorded.get(spec) == digests[spec]]
    runs = {spec: evaluate_adhoc(load_policy(spec, seed=seed), task, games, seed=seed)
            for spec in ([] if known is not None else ["random"])
            + [c for c in candidates if c not in reused]}
    # wins per partner of every policy, from this run or the known reference
    wins = {spec: {name: r["wins"] for name, r in res.per_partner().items()}
            for spec, res in runs.items()}
    if known is not None:
        for spec in ["random", *reused]:
            wins[spec] = {name: (part["random_wins"] if spec == "random"
                                 else part["wins_by_policy"][spec])
                          for name, part in known["partners"].items()}
        counts = {name: part["games"] for name, part in known["partners"].items()}
        overall = {spec: known["overall"][spec] for spec in ["random", *reused]}
        zoo_split = known["zoo_split"]
    else:
        first = runs["random"].per_partner()
        counts = {name: r["games"] for name, r in first.items()}
        overall, zoo_split = {}, runs["random"].zoo_split
    overall.update({spec: r.wins for spec, r in runs.items()})
    partners: dict[str, Any] = {}
    for name, n in counts.items():
        by = {spec: wins[spec][name] for spec in candidates}
        best = max(by, key=lambda s: (by[s], -candidates.index(s)))
        rnd = wins["random"][name]
        partners[name] = {"games": n, "random_wins": rnd,
                          "random": rnd / n if n else float("nan"),
                          "best_policy": best, "best_wins": by[best],
                          "best": by[best] / n if n else float("nan"),
                          "wins_by_policy": by}
    return {"task": task.name, "zoo_split": zoo_split, "games": games,
            "eval_seed": task.eval_seed, "partner_seed": seed, "candidates": candidates,
            "overall": {spec: overall[spec] for spec in ["random", *candidates]},
            "checkpoints": {spec: digests[spec] for spec in candidates
                            if digests[spec] is not None},
            "partners": partners}


def score_partners(rows: dict[str, dict[str, Any]], reference: dict | None
                   ) -> tuple[list[str], float]:
    """Add each partner's reference numbers (``random``, ``best``, ``best_policy``) and
    ``normalised`` score to ``rows`` (partner -> a dict with its ``win_rate``); returns
    the partners with a defined scale and the mean of their scores (NaN: none)."""
    scored = []
    for name, row in rows.items():
        ref = (reference or {}).get("partners", {}).get(name)
        row["normalised"] = float("nan")
        if ref is not None:
            row.update(random=ref["random"], best=ref["best"], best_policy=ref["best_policy"])
            row["normalised"] = normalised_score(row["win_rate"], ref["random"], ref["best"])
            if not math.isnan(row["normalised"]):
                scored.append(name)
    mean = (float(np.mean([rows[n]["normalised"] for n in scored])) if scored
            else float("nan"))
    return scored, mean


def rescore(result: dict, reference: dict) -> dict:
    """A stored result file (``AdhocScore.as_dict``) scored again against ``reference``
    (a reference of the same games that has changed since: a new or replaced shipped
    policy), its wins untouched."""
    if reference.get("games") != result["games"]:
        raise ValueError(f"the reference is of {reference.get('games')} games, the result "
                         f"of {result['games']}")
    rows = {name: {k: (float("nan") if v is None else v) for k, v in row.items()}
            for name, row in result["partners"].items()}
    scored, mean = score_partners(rows, reference)
    return {**result,
            "partners": {n: {k: _plain(v) for k, v in row.items()} for n, row in rows.items()},
            "normalised_mean": _plain(mean), "normalised_partners": scored}


def rescore_stored(task: str, zoo_split: str = "heldout") -> list[Path]:
    """Score the task's stored result files (``docs/benchmark/<task>/*.json`` scored
    against ``reference_path(task, zoo_split)``) again against that reference as it is
    now; returns the files whose numbers changed (rewritten)."""
    reference = load_reference(task, zoo_split)
    if reference is None:
        return []
    ref_name = str(reference_path(task, zoo_split).relative_to(ROOT))
    changed = []
    for path in sorted((REFERENCE_DIR / task).glob("*.json")):
        result = json.loads(path.read_text())
        if result.get("reference") != ref_name or result.get("games") != reference["games"]:
            continue
        new = rescore(result, reference)
        if new != result:
            path.write_text(json.dumps(new, indent=1) + "\n")
            changed.append(path)
    return changed


@dataclass
class AdhocScore:
    """An adhoc result scored against the reference numbers."""

    result: AdhocResult
    reference: dict | None
    per_partner: dict[str, dict[str, Any]] = field(default_factory=dict)
    mean_normalised: float = float("nan")
    scored: list[str] = field(default_factory=list)  # partners with a defined scale

    @classmethod
    def of(cls, result: AdhocResult, reference: dict | None) -> AdhocScore:
        if reference is not None and reference.get("games") != result.games:
            reference = None  # a reference of other games does not describe these
        rows = result.per_partner()
        scored, mean = score_partners(rows, reference)
        return cls(result, reference, rows, mean, scored)

    def as_dict(self, policy: str) -> dict:
        """The result file: ``hon-eval --task``'s fields (raw win rate) plus the partners."""
        r = self.result
        low, high = wilson_interval(r.wins, r.games)
        sc = get_task(r.task)  # the fields of the other tasks' result files
        return {"task": r.task, "split": r.split, "policy": policy, "villain": sc.villain,
                "issue": sc.issue, "heroes": list(sc.heroes), "games": r.games,
                "wins": r.wins, "losses": int((r.outcome == L.OUT_LOSS).sum()),
                "truncated": int((r.outcome == L.OUT_TRUNCATED).sum()),
                "win_rate": r.win_rate, "ci_low": low, "ci_high": high,
                "mean_rounds": r.mean_rounds, "zoo_split": r.zoo_split,
                "partners": {n: {k: _plain(v) for k, v in row.items()}
                             for n, row in self.per_partner.items()},
                "normalised_mean": None if math.isnan(self.mean_normalised)
                else self.mean_normalised,
                "normalised_partners": self.scored,
                "reference": None if self.reference is None
                else str(reference_path(r.task, r.zoo_split).relative_to(ROOT))}


def _plain(value: Any) -> Any:
    """JSON's value of a number: None for NaN (an undefined rate or score)."""
    return None if isinstance(value, float) and math.isnan(value) else value


class AdhocEvaluator:
    """In-training evaluation of an adhoc task (the ``BaselineEvaluator`` row): the
    learner, the coordinated team and random play in seat 0 of the first ``games``
    evaluation games, with the partners of the task's *training* split (a training
    process never loads a held-out member; ``hon-eval --task`` scores the held-out ones).
    """

    def __init__(self, task: Task, games: int, seed: int = 0) -> None:
        self.task, self.games, self.seed = task, games, seed
        self._baselines: dict[str, AdhocResult] = {}

    def run(self, policy: Policy) -> AdhocResult:
        return evaluate_adhoc(policy, self.task, self.games, split="train",
                              purpose="train", seed=self.seed)

    def row(self, policy: Policy) -> dict[str, float]:
        from agents.random_agent import RandomPolicy
        from agents.scripted import CoordinatedPolicy

        if not self._baselines:
            self._baselines = {"heuristic": self.run(CoordinatedPolicy()),
                               "random": self.run(RandomPolicy(self.seed))}
        out: dict[str, float] = {}
        for name, r in (("trained", self.run(policy)), *self._baselines.items()):
            low, high = wilson_interval(r.wins, r.games)
            out[f"{name}_win_rate"], out[f"{name}_ci_low"] = r.win_rate, low
            out[f"{name}_ci_high"] = high
            if name == "trained":
                out["trained_mean_rounds"] = r.mean_rounds
        return out
