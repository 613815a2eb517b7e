"""The generator's knobs: what a user may ask of a generated scenario."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from hon_env.content.procgen.board import SIZES

GENERATOR_VERSION = 1  # bump when the same seed and knobs would yield other content


@dataclass(frozen=True)
class Knobs:
    """How generated content is drawn.

    Attributes:
        difficulty: 0 (easy) .. 1 (hard): scales every card's threat budget, the loss
            threshold, the villain's health and the Scheme cards' danger.
        size: board size, ``"small"``, ``"medium"`` or ``"large"`` (6x8, 7x9, 8x10 map
            cells before walls).
    """

    difficulty: float = 0.5
    size: str = "medium"

    def __post_init__(self) -> None:
        if isinstance(self.difficulty, bool) or not isinstance(self.difficulty, (int, float)):
            raise TypeError(f"difficulty must be a number in [0, 1], got {self.difficulty!r}")
        if not 0.0 <= float(self.difficulty) <= 1.0:
            raise ValueError(f"difficulty must lie in [0, 1], got {self.difficulty}")
        if self.size not in SIZES:
            raise ValueError(f"size must be one of {sorted(SIZES)}, got {self.size!r}")

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Knobs:
        """Knobs from a mapping (a task file's ``procgen`` block); unknown keys refused."""
        data = dict(data or {})
        unknown = sorted(set(data) - {"difficulty", "size"})
        if unknown:
            raise ValueError(f"unknown procgen knobs {unknown} (known: difficulty, size)")
        return cls(**data)

    @property
    def tag(self) -> str:
        """A folder-safe name of exactly these knobs, e.g. ``v1_d0p5_medium`` (the float's
        shortest exact spelling, so two difficulties never share a cache folder)."""
        return (f"v{GENERATOR_VERSION}_d{repr(float(self.difficulty)).replace('.', 'p')}_"
                f"{self.size}")

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)
