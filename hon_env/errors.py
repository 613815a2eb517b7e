"""The project's exceptions for broken states and stopped games.

- ``StateError``: a state handed in from outside (``Game.from_bytes``/``from_array``, an
  edited state before ``refresh``) is not one the engine can run: a field out of its legal
  range, a header from another engine or scenario, or inconsistent contents. Raised
  before any kernel reads the state.
- ``EngineError``: the engine stopped a game it could not continue (engine.md, "Engine
  errors"): its error code, the game's index in its batch, its episode seed and the
  decision being answered are attributes and in the message.
"""

from __future__ import annotations

import numpy as np

from hon_env.core import layout as L


class StateError(ValueError):
    """A state from outside that the engine must not run (field, value and legal range or
    the reason are in the message; ``field`` names the first bad field when there is one)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class EngineError(RuntimeError):
    """The engine stopped a game (one of ``layout.ERROR_NAMES``, or ``"invariant"`` for a
    violated invariant in debug mode).

    Attributes: ``error`` (name), ``code`` (``ERR_*``, 0 for an invariant),
    ``game`` (index in the batch), ``seed`` (the episode's seed, None when unknown),
    ``decision`` (the decision kind being answered), ``seat``, ``action``.
    """

    def __init__(self, message: str, *, error: str, code: int = 0, game: int = 0,
                 seed: int | None = None, decision: str | None = None, seat: int | None = None,
                 action: int | None = None) -> None:
        super().__init__(message)
        self.error, self.code, self.game, self.seed = error, code, game, seed
        self.decision, self.seat, self.action = decision, seat, action


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
