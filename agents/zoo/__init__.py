"""The partner zoo: frozen, versioned co-op partners for ad-hoc teamwork evaluation.

Each member is a hero-team policy (one ``Policy`` for every seat it is given) with a name,
a version and a split, declared once in ``members.yaml`` next to this file:

- **scripted**: the coordinated team (``heuristic``), the per-hero team
  (``heuristic_solo``), the glory seekers (``glory_one``, ``glory_all``) and the play
  styles of ``agents.zoo.styles`` (``cautious``, ``rusher``);
- **noisy**: a scripted member whose every action is, with probability ε, replaced by a
  uniformly random legal one (``agents.zoo.noisy``; its own Generator, seeded by ``seed``);
- **learned**: a shipped MAPPO checkpoint (``agents/pretrained``), played greedily; the
  manifest pins the file's sha256 and loading refuses a file that differs.

The ``train`` split may be used as training partners; the ``heldout`` split is for
evaluation only: ``load_member(name, purpose="train")`` (and ``load_policy("zoo:NAME",
purpose="train")``) refuses a held-out member, and ``tests/test_zoo.py`` checks that no
training source names one. Each member's ``fingerprint`` is a hash of the actions it plays
in one ``duo`` game (``fingerprint``): a member whose play changes must get a new version
(and a new row in ``docs/benchmark.md``), since results measured with the old one no
longer describe it. ``python -m agents.zoo`` prints every member's fingerprint and
recorded win rate.

    >>> from agents.zoo import list_members, load_member
    >>> "rusher" in list_members("heldout")
    True
    >>> policy = load_member("heuristic_eps0.1", seed=3)   # or load_policy("zoo:heuristic_eps0.1")
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from agents.policy import Policy

MANIFEST = Path(__file__).resolve().with_name("members.yaml")
FORMAT_VERSION = 1
SPLITS = ("train", "heldout")
PURPOSES = ("eval", "train")
KINDS = ("scripted", "noisy", "learned")
# the keys of a member's ``build`` by kind (all required)
BUILD_KEYS = {"scripted": ({"policy"}, {"style"}), "noisy": ({"base", "epsilon"},),
              "learned": ({"policy", "sha256"},)}
MEMBER_KEYS = {"name", "version", "split", "kind", "family", "plays", "made", "build",
               "fingerprint", "duo_self_play"}
FINGERPRINT_TASK = "duo"  # the game a fingerprint plays: this task's first evaluation game


@dataclass(frozen=True)
class Member:
    """One manifest entry (see ``members.yaml`` for the meaning of each field)."""

    name: str
    version: int
    split: str  # train | heldout
    kind: str  # scripted | noisy | learned
    family: str  # the play it shares with other members (noise and seat counts aside)
    plays: str  # how it plays
    made: str  # how it was made
    build: Mapping[str, Any]  # what load_member builds (BUILD_KEYS)
    fingerprint: str | None  # hash of its actions in one duo game (learned: None)
    duo_self_play: Mapping[str, int] = field(default_factory=dict)  # {games, wins}

    @property
    def duo_win_rate(self) -> float | None:
        """Self-play win rate on ``duo`` as recorded (every seat this member)."""
        if not self.duo_self_play:
            return None
        return self.duo_self_play["wins"] / self.duo_self_play["games"]

    @property
    def label(self) -> str:
        """``name@vN``."""
        return f"{self.name}@v{self.version}"


def _fail(where: str, msg: str) -> None:
    raise ValueError(f"{MANIFEST.name}: {where}: {msg}")


def parse_manifest(data: Any) -> dict[str, Member]:
    """The members of a parsed manifest, by name; ``ValueError`` naming the member and field
    for an unknown key, a missing one or a value out of range."""
    if not isinstance(data, dict) or data.get("format_version") != FORMAT_VERSION:
        _fail("top level", f"expected a mapping with format_version: {FORMAT_VERSION}")
    unknown = set(data) - {"format_version", "members"}
    if unknown:
        _fail("top level", f"unknown keys {sorted(unknown)}")
    members: dict[str, Member] = {}
    for k, entry in enumerate(data.get("members") or []):
        where = f"members[{k}]"
        if not isinstance(entry, dict):
            _fail(where, "expected a mapping")
        where = f"member {entry.get('name', k)!r}"
        if set(entry) != MEMBER_KEYS:
            _fail(where, f"unknown keys {sorted(set(entry) - MEMBER_KEYS)}, missing "
                         f"{sorted(MEMBER_KEYS - set(entry))}")
        m = Member(**entry)
        if not isinstance(m.name, str) or not m.name or ":" in m.name or m.name in members:
            _fail(where, "name must be a new non-empty string without ':'")
        if isinstance(m.version, bool) or not isinstance(m.version, int) or m.version < 1:
            _fail(where, f"version must be a positive integer, got {m.version!r}")
        if m.split not in SPLITS:
            _fail(where, f"split must be one of {SPLITS}, got {m.split!r}")
        if m.kind not in KINDS:
            _fail(where, f"kind must be one of {KINDS}, got {m.kind!r}")
        if not isinstance(m.build, dict) or set(m.build) not in BUILD_KEYS[m.kind]:
            _fail(where, f"build of a {m.kind} member takes the keys "
                         f"{' or '.join(str(sorted(s)) for s in BUILD_KEYS[m.kind])}")
        hex16 = isinstance(m.fingerprint, str) and re.fullmatch("[0-9a-f]{16}", m.fingerprint)
        if (m.fingerprint is not None) if m.kind == "learned" else not hex16:
            _fail(where, "fingerprint: 16 hex digits for scripted and noisy members, null "
                         "for learned ones (their checkpoint's sha256 pins them)")
        record = m.duo_self_play if isinstance(m.duo_self_play, dict) else {}
        games, wins = record.get("games"), record.get("wins")
        if (set(record) != {"games", "wins"} or not isinstance(games, int)
                or not isinstance(wins, int) or not 0 <= wins <= games or games < 1):
            _fail(where, "duo_self_play must be {games: N, wins: W} with 0 <= W <= N")
        members[m.name] = m
    for m in members.values():
        if m.kind == "noisy":
            base = members.get(m.build["base"])
            if base is None or base.kind != "scripted":
                _fail(f"member {m.name!r}", f"build.base {m.build['base']!r} must name a "
                                            "scripted member")
            if m.split == "train" and base.split != "train":
                _fail(f"member {m.name!r}", "a train member cannot be built on a held-out one")
            eps = m.build["epsilon"]
            if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not 0 < eps < 1:
                _fail(f"member {m.name!r}", f"build.epsilon must lie in (0, 1), got {eps!r}")
    return members


@functools.cache
def _members() -> dict[str, Member]:
    return parse_manifest(yaml.safe_load(MANIFEST.read_text()))


def list_members(split: str | None = None) -> list[str]:
    """Names of the members (of ``split``, ``train`` or ``heldout``), in manifest order."""
    if split is not None and split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS} or None, got {split!r}")
    return [n for n, m in _members().items() if split is None or m.split == split]


def member(name: str) -> Member:
    """The manifest entry of member ``name``; ``ValueError`` listing the members otherwise."""
    found = _members().get(name)
    if found is None:
        raise ValueError(f"unknown zoo member {name!r}: members are "
                         f"{', '.join(list_members())}")
    return found


def load_member(name: str, seed: int = 0, purpose: str = "eval",
                device: str = "cpu") -> Policy:
    """Member ``name`` as a ``Policy`` (named after the member).

    Args:
        name: a member (``list_members()``).
        seed: seeds the member's own randomness (the noise of a noisy member); scripted and
            learned members are deterministic.
        purpose: ``"eval"`` or ``"train"``; ``"train"`` refuses a held-out member.
        device: torch device of a learned member.

    Raises:
        ValueError: an unknown member or purpose, a held-out member for training, or a
            learned member whose checkpoint differs from the manifest's sha256.
    """
    if purpose not in PURPOSES:
        raise ValueError(f"purpose must be one of {PURPOSES}, got {purpose!r}")
    m = member(name)
    if purpose == "train" and m.split != "train":
        raise ValueError(f"zoo member {name!r} is held out of training (split {m.split!r}): "
                         f"evaluation only; training members are "
                         f"{', '.join(list_members('train'))}")
    policy = _build(m, seed, device)
    policy.name = m.name
    return policy


def _build(m: Member, seed: int, device: str) -> Policy:
    from agents.registry import load_policy, pretrained_path

    b = m.build
    if m.kind == "noisy":
        from agents.zoo.noisy import NoisyPolicy

        return NoisyPolicy(_build(member(b["base"]), seed, device), b["epsilon"], seed=seed,
                           name=m.name)
    if "style" in b:
        from agents.zoo.styles import STYLES

        if b["style"] not in STYLES:
            raise ValueError(f"zoo member {m.name!r}: unknown style {b['style']!r} "
                             f"(styles: {', '.join(STYLES)})")
        return STYLES[b["style"]]()
    if m.kind == "learned":
        check_sha256(pretrained_path(b["policy"]), b["sha256"], m.name)
        return load_policy(b["policy"], seed=seed, device=device, greedy=True)
    return load_policy(b["policy"], seed=seed)


def check_sha256(path: Path, expected: str, who: str) -> None:
    """Refuse a checkpoint whose contents are not the frozen ones."""
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    if digest != expected:
        raise ValueError(f"zoo member {who!r}: {path} has sha256 {digest}, the manifest "
                         f"pins {expected}; a new checkpoint is a new member version")


def fingerprint(name: str, seed: int = 0) -> str:
    """16 hex digits of the sha256 of the actions member ``name`` (policy seed ``seed``)
    plays in every seat of the first evaluation game of task ``duo``."""
    return trace_hash(play_game(load_member(name, seed=seed)))


def trace_hash(actions: list[int]) -> str:
    """16 hex digits of the sha256 of an action sequence (as int64)."""
    import numpy as np

    return hashlib.sha256(np.asarray(actions, np.int64).tobytes()).hexdigest()[:16]


def play_game(policy: Policy, task: str = FINGERPRINT_TASK, game: int = 0) -> list[int]:
    """The actions ``policy`` plays in every seat of evaluation game ``game`` of ``task``,
    to the end (``Game.apply`` refuses an illegal action)."""
    import numpy as np

    from hon_env import Game
    from hon_env.tasks import get_task

    t = get_task(task)
    pool = t.pool("eval")
    if len(pool) != 1:
        raise ValueError(f"play_game plays one-scenario tasks, {task!r} has {len(pool)}")
    g = Game(pool[0], seed=t.eval_seed + game)
    actions = []
    while not g.is_over:
        a = int(policy.act(g.observation()[None], g.legal_mask()[None],
                           np.array([g.current_seat]), engine=g.engine)[0])
        actions.append(a)
        g.apply(a)
    return actions
