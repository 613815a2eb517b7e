"""The project's exceptions for broken states and stopped games.

- ``StateError``: a state handed in from outside (``Game.from_bytes``/``from_array``, an
  edited state before ``refresh``) is not one the engine can run: a field out of its legal
  range, a header from another engine or scenario, or inconsistent contents. Raised
  before any kernel reads the state.
- ``EngineError``: the engine stopped a game it could not continue (engine.md, "Engine
  errors"): its error code, the game's index in its batch, its episode seed and the
  decision being answered are attributes and in the message (``rollout.engine_error``
  reads them from the state row).

Vocabulary of the lowest layer: this module imports nothing of the project, so the engine
(``core/validate.py``) and every front end can raise these.
"""

from __future__ import annotations


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
