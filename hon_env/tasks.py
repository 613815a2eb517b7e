"""Named benchmark tasks: a fixed scenario, fixed evaluation games, a budget and a metric.

A task is one YAML file under ``configs/tasks/`` (``docs/tasks.md`` lists them)::

    format_version: 1
    id: duo                       # the task's name: the file is configs/tasks/<id>.yaml
    description: Two heroes ...
    family: team_size             # team_size | nemeses | modules | transfer | generalist
                                  # | adhoc
    heroes: [majesty, stride]     # one per seat
    villain: refuser              # evaluation villain and issue
    issue: blackout_gala
    rules: {}                     # optional rules (load_scenario's ``rules``); default none
    caps: {max_rounds: 30}        # optional truncation caps; default the engine's
    train: {villain: .., issue: ..}   # optional: train on another pair (transfer tasks)
    teams: {train: all, eval: [[cipher, vigil], ...]}   # optional (generalist tasks): a team
                                  # per game; train "all" is every team of len(heroes)
                                  # heroes of the roster but the evaluation teams
    boards: {train: [century_heist, ...], eval: [rooftop_relay]}   # optional (generalist
                                  # tasks): a board per game, every villain of the content
                                  # on each issue of the split; the evaluation issues are
                                  # held out of training
    procgen: {difficulty: 0.5, size: medium, team: 2, train_seeds: [0, 256],
              eval_seeds: [1000000, 1000256]}   # optional (generalist tasks): train on
                                  # generated content (hon_env.content.procgen; the knobs
                                  # of procgen.Knobs, team: the team size the content is
                                  # balanced for, default 2), a generated
                                  # scenario per game; generator seeds [first, end). The
                                  # "eval_procgen" split plays the held-out eval_seeds; the
                                  # "eval" split plays the hand-made ``boards: {eval: ...}``
    partners: {train: train, eval: heldout}   # adhoc tasks (and only they): seat 0
                                  # learns; every other seat is played by a partner drawn
                                  # per game from a split of the partner zoo
                                  # (agents/zoo/members.yaml), named here as data: the
                                  # training split's for training games, the evaluation
                                  # split's (a different one) for evaluation games
    step_budget: 5000000          # environment steps (decisions) a training run may use
    eval_games: 1000              # optional, default 1000
    metric: win_rate              # optional, the only metric for now

Seeds: training runs use game seeds below ``TRAIN_SEED_LIMIT`` (10**9); evaluation game
``i`` of every task uses seed ``EVAL_SEED_BASE + i`` (10**9 + i), so no evaluation game is
ever a training game, and adding a task never moves another task's games.

Errors name the file and the field, as content errors do (``ContentError``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from hon_env.content import ContentError, Scenario, list_content, load_scenario
from hon_env.content.errors import (
    Where,
    as_list,
    as_mapping,
    check_int,
    check_keys,
    check_str,
    read_int,
    read_str,
)
from hon_env.content.procgen import KNOB_NAMES, Knobs, generated_scenario, generated_scenarios
from hon_env.roster import random_teams

TASKS_DIR = Path(__file__).resolve().parents[1] / "configs" / "tasks"
FAMILIES = ("team_size", "nemeses", "modules", "transfer", "generalist", "adhoc")
ALL_TEAMS = "all"  # teams.train: every team of the roster but the evaluation teams
METRICS = ("win_rate",)
TRAIN_SEED_LIMIT = 10**9  # training game seeds are in [0, TRAIN_SEED_LIMIT)
EVAL_SEED_BASE = 10**9
DEFAULT_EVAL_GAMES = 1000
MAX_EVAL_GAMES = 10**6
_REQUIRED = ("format_version", "id", "description", "family", "heroes", "villain", "issue",
             "step_budget")
_OPTIONAL = ("rules", "caps", "train", "teams", "boards", "procgen", "partners",
             "eval_games", "metric")
# the partner zoo's splits (agents.zoo.SPLITS; hon_env names them as data, the agents side
# resolves them, tests/test_adhoc.py checks the two lists agree); "heldout" members never
# play a training game
ZOO_SPLITS = ("train", "heldout")
HELDOUT_SPLIT = "heldout"
LEARNER_SEAT = 0  # the seat an adhoc task's policy plays; its partners play the others
SPLITS = ("train", "eval", "eval_procgen")
MAX_GENERATED = 1024  # generated scenarios per split: one vector env pool (envs/pool.MAX_POOL)


@dataclass(frozen=True)
class Task:
    """One benchmark task (see the module docstring for the fields' meaning)."""

    name: str
    description: str
    family: str
    heroes: tuple[str, ...]
    villain: str
    issue: str
    train_villain: str
    train_issue: str
    rules: dict[str, Any] = field(hash=False, compare=False)
    caps: dict[str, Any] = field(hash=False, compare=False)
    step_budget: int
    eval_games: int
    eval_seed: int  # first evaluation seed; game i of the evaluation uses eval_seed + i
    metric: str
    file: str
    # generalist tasks: the teams of each split (a team drawn per game); () for one team
    train_teams: tuple[tuple[str, ...], ...] = ()
    eval_teams: tuple[tuple[str, ...], ...] = ()
    # generalist board tasks: the (villain, issue) pairs of each split; () for one pair
    train_boards: tuple[tuple[str, str], ...] = ()
    eval_boards: tuple[tuple[str, str], ...] = ()
    # generated-content tasks: the generator's knobs and the seeds of each split
    procgen: Knobs | None = None
    train_procgen_seeds: range = range(0)
    eval_procgen_seeds: range = range(0)
    # adhoc tasks: the partner zoo split drawn from per game, by split (None: no partners)
    train_partners: str | None = None
    eval_partners: str | None = None

    @property
    def eval_seeds(self) -> range:
        """The seeds of the task's evaluation games."""
        return range(self.eval_seed, self.eval_seed + self.eval_games)

    @property
    def is_adhoc(self) -> bool:
        """Does seat 0 play with partners drawn from the zoo (family ``adhoc``)?"""
        return self.eval_partners is not None

    def partner_split(self, split: str = "eval") -> str:
        """The zoo split (``ZOO_SPLITS``) an adhoc task's ``split`` games draw partners from."""
        _check_split(split)
        if not self.is_adhoc:
            raise ValueError(f"task {self.name!r} (family {self.family}) has no partners")
        return self.train_partners if split == "train" else self.eval_partners  # type: ignore

    @property
    def is_transfer(self) -> bool:
        """Does training use another villain x issue pair than evaluation?"""
        return (self.train_villain, self.train_issue) != (self.villain, self.issue)

    def scenario(self, split: str = "eval") -> Scenario:
        """The compiled scenario of a split (``SPLITS``); of a generated split, its first."""
        _check_split(split)
        if self.procgen is not None and split != "eval":
            return generated_scenario(self._generated_seeds(split)[0], self.heroes,
                                      self.procgen, rules=dict(self.rules),
                                      caps=dict(self.caps))
        if split == "eval_procgen":
            raise ValueError(f"task {self.name!r} has no generated split 'eval_procgen'")
        villain, issue = ((self.villain, self.issue) if split == "eval"
                          else (self.train_villain, self.train_issue))
        return load_scenario("origin_story", heroes=list(self.heroes), villain=villain,
                             issue=issue, rules=dict(self.rules), caps=dict(self.caps))

    def pool(self, split: str = "eval") -> list[Scenario]:
        """The scenarios a split's games draw from (``vector_env``'s ``scenario`` list, see
        ``hon_env/envs/pool.py``): one per team of a generalist task, one per generated
        scenario of a procgen task's ``"train"`` and ``"eval_procgen"`` splits, else
        ``[scenario]``."""
        _check_split(split)
        if self.procgen is not None and split != "eval":
            return generated_scenarios(self._generated_seeds(split), self.heroes,
                                       self.procgen, rules=dict(self.rules),
                                       caps=dict(self.caps))
        if split == "eval_procgen":
            raise ValueError(f"task {self.name!r} has no generated split 'eval_procgen'")
        boards = self.train_boards if split == "train" else self.eval_boards
        if boards:
            return [load_scenario("origin_story", heroes=list(self.heroes), villain=v,
                                  issue=i, rules=dict(self.rules), caps=dict(self.caps))
                    for v, i in boards]
        teams = self.train_teams if split == "train" else self.eval_teams
        if not teams:
            return [self.scenario(split)]
        kw = self.scenario_kwargs(split)
        return [load_scenario("origin_story", **{**kw, "heroes": list(team)},
                              caps=dict(self.caps)) for team in teams]

    def _generated_seeds(self, split: str) -> list[int]:
        return list(self.train_procgen_seeds if split == "train" else self.eval_procgen_seeds)

    def scenario_kwargs(self, split: str = "eval") -> dict[str, Any]:
        """``load_scenario`` / ``evaluate`` overrides of a split (heroes, villain, ...)."""
        villain, issue = ((self.villain, self.issue) if split == "eval"
                          else (self.train_villain, self.train_issue))
        return {"heroes": list(self.heroes), "villain": villain, "issue": issue,
                "rules": dict(self.rules)}


def _check_split(split: str) -> None:
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")


def check_train_seed(seed: int, games: int = 1) -> None:
    """Raise ``ValueError`` unless seeds ``seed .. seed + games - 1`` are training seeds."""
    if seed < 0 or seed + games > TRAIN_SEED_LIMIT:
        raise ValueError(f"training seeds must lie in [0, {TRAIN_SEED_LIMIT}); got "
                         f"{seed}..{seed + games - 1}, which reaches the evaluation seeds")


def _tasks_root(tasks_dir: str | Path | None) -> Path:
    """``tasks_dir`` (default the shipped ``configs/tasks``); a ``ValueError`` when it is not
    a folder, so a mistyped path is not read as a folder without tasks."""
    if tasks_dir is None:
        return TASKS_DIR
    root = Path(tasks_dir)
    if not root.is_dir():
        raise ValueError(f"tasks_dir {str(root)!r} is not a folder")
    return root


def list_tasks(tasks_dir: str | Path | None = None) -> list[str]:
    """The task names, sorted (one per ``configs/tasks/*.yaml``)."""
    return sorted(p.stem for p in _tasks_root(tasks_dir).glob("*.yaml"))


def get_task(name: str, tasks_dir: str | Path | None = None) -> Task:
    """The task ``name``, loaded and validated (``ContentError`` naming file and field)."""
    names = list_tasks(tasks_dir)
    if not isinstance(name, str):
        raise TypeError(f"a task is named by a string (one of {', '.join(names)}), got "
                        f"{name!r} ({type(name).__name__})")
    if name not in names:
        raise ValueError(f"unknown task {name!r}; tasks: {', '.join(names)}")
    return _parse(_tasks_root(tasks_dir) / f"{name}.yaml")


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(TASKS_DIR.parents[1]))
    except ValueError:
        return str(path)


def _check_draws(where: Where, family: str, board: tuple[str, str], eval_teams: Any,
                 eval_boards: Any, procgen: Any) -> None:
    """A task draws its teams, its boards or generated content per game as its family
    says, and evaluates on hand-made boards that include its own ``board``."""
    if procgen is not None and not eval_boards:
        raise where.key("boards").error("a procgen task evaluates on hand-made boards: it "
                                        "needs boards: {eval: [issues]}")
    if eval_boards and eval_teams:
        raise where.key("boards").error("a task draws either its teams or its boards per "
                                        "game, not both")
    if eval_boards and board not in eval_boards:
        raise where.key("issue").error(f"villain x issue {board[0]} x {board[1]} must be one "
                                       "of the evaluation boards")
    if (family == "generalist") != bool(eval_teams or eval_boards):
        raise where.key("teams").error("a generalist task, and only one, draws its teams or "
                                       "boards per game: it needs teams or boards (train and "
                                       "eval)")


def _check_adhoc(where: Where, heroes: list, eval_teams: Any, eval_boards: Any,
                 procgen: Any) -> None:
    """An ad-hoc task plays one team of two or more on one board."""
    if eval_teams or eval_boards or procgen is not None:
        raise where.key("partners").error("an adhoc task plays one team on one board: no "
                                          "teams, boards or procgen")
    if len(heroes) < 2:
        raise where.key("heroes").error("an adhoc task needs at least two heroes: seat 0 "
                                        "and a partner")


def _parse(path: Path) -> Task:
    where = Where(_display(path))
    try:
        raw = yaml.safe_load(path.read_text())
    except yaml.YAMLError as e:
        raise where.error(f"not valid YAML: {e}") from None
    data = as_mapping(raw, where)
    check_keys(data, where, _REQUIRED, _OPTIONAL)
    read_int(data, "format_version", where, 1, 1)
    name = read_str(data, "id", where)
    if name != path.stem:
        raise where.key("id").error(f"{name!r} differs from the file name {path.stem!r}")
    content = list_content()
    heroes = as_list(data["heroes"], where.key("heroes"))
    if not 1 <= len(heroes) <= 6:
        raise where.key("heroes").error(f"{len(heroes)} heroes; a task has 1 to 6")
    for i, h in enumerate(heroes):
        check_str(h, where.key("heroes").index(i), content["heroes"])
    villain = read_str(data, "villain", where, choices=content["villains"])
    issue = read_str(data, "issue", where, choices=content["issues"])
    train_villain, train_issue = villain, issue
    if "train" in data:
        tw = where.key("train")
        train = as_mapping(data["train"], tw)
        check_keys(train, tw, (), ("villain", "issue"))
        train_villain = read_str(train, "villain", tw, villain, content["villains"])
        train_issue = read_str(train, "issue", tw, issue, content["issues"])
    family = read_str(data, "family", where, choices=FAMILIES)
    if family == "transfer" and (train_villain, train_issue) == (villain, issue):
        raise where.key("train").error("a transfer task trains on another villain x issue "
                                       "pair than it evaluates on")
    train_teams, eval_teams = _teams(data, where, heroes, content["heroes"])
    procgen, train_gen, eval_gen = _procgen(data, where)
    train_boards, eval_boards = _boards(data, where, content, procgen is not None)
    _check_draws(where, family, (villain, issue), eval_teams, eval_boards, procgen)
    rules = as_mapping(data.get("rules") or {}, where.key("rules"))
    caps = as_mapping(data.get("caps") or {}, where.key("caps"))
    train_partners, eval_partners = _partners(data, where)
    if (family == "adhoc") != (eval_partners is not None):
        raise where.key("partners").error("an adhoc task, and only one, draws its partners "
                                          "per game: it needs partners: {train: SPLIT, "
                                          "eval: SPLIT}")
    if eval_partners is not None:
        _check_adhoc(where, heroes, eval_teams, eval_boards, procgen)
    games = read_int(data, "eval_games", where, 1, MAX_EVAL_GAMES, DEFAULT_EVAL_GAMES)
    task = Task(name=name, description=read_str(data, "description", where), family=family,
                heroes=tuple(heroes), villain=villain, issue=issue,
                train_villain=train_villain, train_issue=train_issue, rules=dict(rules),
                caps=dict(caps), step_budget=read_int(data, "step_budget", where, 1, 10**12),
                eval_games=games, eval_seed=EVAL_SEED_BASE,
                metric=read_str(data, "metric", where, "win_rate", METRICS), file=where.file,
                train_teams=train_teams, eval_teams=eval_teams,
                train_boards=train_boards, eval_boards=eval_boards, procgen=procgen,
                train_procgen_seeds=train_gen, eval_procgen_seeds=eval_gen,
                train_partners=train_partners, eval_partners=eval_partners)
    for split in ("eval", "train"):
        try:
            task.scenario(split)
        except (ContentError, ValueError) as e:
            raise where.error(f"the {split} scenario (heroes, villain, issue, rules, caps) "
                              f"does not load: {e}") from None
    return task


def _teams(data: dict, where: Where, heroes: list, known: list[str]
           ) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]:
    """``teams``: (training teams, evaluation teams); both empty without the key. The
    evaluation teams are held out: no training team has the same heroes, and the fixed
    ``heroes`` team is a training team (the fixed-team baseline trains on it)."""
    if "teams" not in data:
        return (), ()
    tw = where.key("teams")
    teams = as_mapping(data["teams"], tw)
    check_keys(teams, tw, ("train", "eval"), ())
    n = len(heroes)

    def read(key: str) -> list[tuple[str, ...]]:
        at = tw.key(key)
        out = []
        for i, team in enumerate(as_list(teams[key], at)):
            members = as_list(team, at.index(i))
            if len(members) != n or len(set(members)) != n:
                raise at.index(i).error(f"a team of {n} different heroes, as heroes has; got "
                                        f"{members}")
            for j, h in enumerate(members):
                check_str(h, at.index(i).index(j), known)
            out.append(tuple(members))
        if not out:
            raise at.error("needs at least one team")
        return out

    eval_teams = read("eval")
    held_out = {frozenset(t) for t in eval_teams}
    if teams["train"] == ALL_TEAMS:
        train_teams = [tuple(t) for t in random_teams(known, n) if frozenset(t) not in held_out]
    else:
        train_teams = read("train")
    seen = [t for t in train_teams if frozenset(t) in held_out]
    if seen:
        raise tw.key("train").error(f"team {list(seen[0])} is also an evaluation team: "
                                    "evaluation teams are held out of training")
    if frozenset(heroes) not in {frozenset(t) for t in train_teams}:
        raise where.key("heroes").error("the fixed team must be one of the training teams")
    return tuple(train_teams), tuple(eval_teams)


def _partners(data: dict, where: Where) -> tuple[str | None, str | None]:
    """``partners``: the zoo splits (``ZOO_SPLITS``) of the training and evaluation games'
    partners; (None, None) without the key. The evaluation split differs from the training
    one, and training never draws from the held-out split."""
    if "partners" not in data:
        return None, None
    pw = where.key("partners")
    block = as_mapping(data["partners"], pw)
    check_keys(block, pw, ("train", "eval"), ())
    train = read_str(block, "train", pw, choices=ZOO_SPLITS)
    evals = read_str(block, "eval", pw, choices=ZOO_SPLITS)
    if train == HELDOUT_SPLIT:
        raise pw.key("train").error(f"the {HELDOUT_SPLIT!r} split is for evaluation only: "
                                    "training partners come from another split")
    if evals == train:
        raise pw.key("eval").error(f"evaluation partners come from another split than the "
                                   f"training ones ({train!r}): they are held out")
    return train, evals


def _procgen(data: dict, where: Where) -> tuple[Knobs | None, range, range]:
    """``procgen``: the generator's knobs and the (disjoint) seeds of the training and
    held-out generated splits; (None, empty, empty) without the key."""
    if "procgen" not in data:
        return None, range(0), range(0)
    pw = where.key("procgen")
    block = as_mapping(data["procgen"], pw)
    check_keys(block, pw, ("train_seeds", "eval_seeds"), KNOB_NAMES)
    try:
        knobs = Knobs.from_dict({k: block[k] for k in KNOB_NAMES if k in block})
    except (TypeError, ValueError) as e:
        raise pw.error(str(e)) from None
    seeds = []
    for key in ("train_seeds", "eval_seeds"):
        at = pw.key(key)
        pair = as_list(block[key], at)
        if len(pair) != 2:
            raise at.error(f"[first, end) generator seeds, got {pair}")
        first, end = (check_int(v, at.index(i), 0, 10**12) for i, v in enumerate(pair))
        if not 1 <= end - first <= MAX_GENERATED:
            raise at.error(f"1 to {MAX_GENERATED} seeds (one vector env pool), got "
                           f"{end - first}")
        seeds.append(range(first, end))
    if seeds[0].start < seeds[1].stop and seeds[1].start < seeds[0].stop:
        raise pw.key("eval_seeds").error("the held-out generated seeds overlap the training "
                                         "seeds")
    return knobs, seeds[0], seeds[1]


def _boards(data: dict, where: Where, content: dict[str, list[str]], procgen: bool = False
            ) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """``boards``: the (villain, issue) pairs of the training and evaluation splits (every
    villain of the content on each issue listed); both empty without the key. The
    evaluation issues are held out: no training board is on one of them. A procgen task
    trains on generated boards: it lists evaluation boards only."""
    if "boards" not in data:
        return (), ()
    bw = where.key("boards")
    boards = as_mapping(data["boards"], bw)
    check_keys(boards, bw, ("eval",) if procgen else ("train", "eval"), ())
    split: dict[str, list[str]] = {"train": []}
    for key in ("eval",) if procgen else ("train", "eval"):
        at = bw.key(key)
        issues = as_list(boards[key], at)
        if not issues:
            raise at.error("needs at least one issue")
        for i, issue in enumerate(issues):
            check_str(issue, at.index(i), content["issues"])
        if len(set(issues)) != len(issues):
            raise at.error(f"lists an issue twice: {issues}")
        split[key] = list(issues)
    shared = sorted(set(split["train"]) & set(split["eval"]))
    if shared:
        raise bw.key("train").error(f"issue {shared[0]!r} is also an evaluation board: "
                                    "evaluation boards are held out of training")
    return tuple(tuple((v, i) for i in split[key] for v in content["villains"])
                 for key in ("train", "eval"))  # type: ignore[return-value]
