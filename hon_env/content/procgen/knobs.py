"""The generator's knobs: what a user may ask of a generated scenario."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from numbers import Integral
from typing import Any

from hon_env.content.procgen.board import SIZES
from hon_env.spec.tables import MAX_HEROES

GENERATOR_VERSION = 1  # bump when the same seed and knobs would yield other content
PER_HERO_CAP = 2  # the team size generated content was first calibrated for


@dataclass(frozen=True)
class Knobs:
    """How generated content is drawn.

    Attributes:
        difficulty: 0 (easy) .. 1 (hard): scales every card's threat budget, the loss
            threshold, the villain's health and the Scheme cards' danger.
        size: board size, ``"small"``, ``"medium"`` or ``"large"`` (6x8, 7x9, 8x10 map
            cells before walls).
        team: the number of heroes the content is balanced for (1 to 6). Up to two heroes
            the content is the same; for a larger team what the rulebook scales per hero
            (a Scheme's danger, the villain's danger and health) stops growing past two
            heroes' worth, and every card's threat budget is multiplied by
            ``(2 / team) ** 2``: with per-hero scaling alone the scripted trio won an eighth
            as often as the duo on the same generated boards (docs/procgen.md, "Team
            size"; calibrated for three heroes only).
    """

    difficulty: float = 0.5
    size: str = "medium"
    team: int = 2

    def __post_init__(self) -> None:
        if isinstance(self.difficulty, bool) or not isinstance(self.difficulty, (int, float)):
            raise TypeError(f"difficulty must be a number in [0, 1], got {self.difficulty!r}")
        if not 0.0 <= float(self.difficulty) <= 1.0:
            raise ValueError(f"difficulty must lie in [0, 1], got {self.difficulty}")
        if self.size not in SIZES:
            raise ValueError(f"size must be one of {sorted(SIZES)}, got {self.size!r}")
        if isinstance(self.team, bool) or not isinstance(self.team, Integral):
            raise TypeError(f"team must be a whole number of heroes, got {self.team!r}")
        object.__setattr__(self, "team", int(self.team))  # numpy integers too, one tag
        if not 1 <= self.team <= MAX_HEROES:
            raise ValueError(f"team must lie in [1, {MAX_HEROES}], got {self.team}")

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Knobs:
        """Knobs from a mapping (a task file's ``procgen`` block); unknown keys refused."""
        data = dict(data or {})
        unknown = sorted(set(data) - set(KNOB_NAMES))
        if unknown:
            raise ValueError(f"unknown procgen knobs {unknown} (known: {', '.join(KNOB_NAMES)})")
        return cls(**data)

    @property
    def budget_scale(self) -> float:
        """The factor on every card's threat budget for this team size (1 up to two
        heroes; measured against the coordinated trio, docs/procgen.md)."""
        return min(1.0, PER_HERO_CAP / self.team) ** 2

    def per_hero(self, value: int) -> tuple[int, bool]:
        """A per-hero amount as printed for this team: ``(value, True)`` (scales with the
        heroes) up to two heroes, else ``(value * 2, False)`` (flat)."""
        if self.team <= PER_HERO_CAP:
            return value, True
        return value * PER_HERO_CAP, False

    @property
    def tag(self) -> str:
        """A folder-safe name of exactly these knobs, e.g. ``v1_d0p5_medium`` (the float's
        shortest exact spelling, so two difficulties never share a cache folder)."""
        tag = (f"v{GENERATOR_VERSION}_d{repr(float(self.difficulty)).replace('.', 'p')}_"
               f"{self.size}")
        # teams of one and two share content, and the tag of the knobs before ``team``
        return tag if self.team <= PER_HERO_CAP else f"{tag}_t{self.team}"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


KNOB_NAMES = tuple(f.name for f in fields(Knobs))  # what a task's procgen block may set
