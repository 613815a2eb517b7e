"""A team of different policies: one policy per hero seat (mixed teams, cross-play).

``SeatPolicies([p0, p1, ...])`` is itself a ``Policy``: each row of a batch goes to the
policy of the seat that decides in it, with that row's observation, mask and engine state
only. A learned policy reads the egocentric observation and plays any seat; a scripted
team plays the seat it is given with the plan it would make for the whole team (it sees
the public state only, so it cannot tell what its partners will do: that is what
cross-play measures).
"""

from __future__ import annotations

import numpy as np

from agents.policy import Engine, Policy


class SeatPolicies:
    """Seat ``k``'s decisions answered by ``policies[k]`` (hero seats 0 .. n-1)."""

    def __init__(self, policies: list[Policy], names: list[str] | None = None) -> None:
        if not policies:
            raise ValueError("a mixed team needs one policy per hero seat, got none")
        for k, p in enumerate(policies):
            if not isinstance(p, Policy):
                raise TypeError(f"seat {k}: expected a Policy (an act method), got "
                                f"{type(p).__name__}")
        self.policies = list(policies)
        self.names = names or [getattr(p, "name", type(p).__name__) for p in policies]
        if len(self.names) != len(self.policies):
            raise ValueError(f"{len(self.names)} names for {len(self.policies)} policies")
        self.name = "+".join(self.names)
        self.needs_engine = any(getattr(p, "needs_engine", False) for p in policies)

    def act(self, observations: np.ndarray, masks: np.ndarray, seats: np.ndarray,
            engine: Engine | None = None) -> np.ndarray:
        seats = np.asarray(seats)
        out = np.empty(len(seats), np.int64)
        for seat in np.unique(seats):
            if not 0 <= seat < len(self.policies):
                raise ValueError(f"seat {int(seat)} decides but the mixed team has "
                                 f"{len(self.policies)} seats ({self.name})")
            rows = np.flatnonzero(seats == seat)
            sub = None if engine is None else (engine[0][rows], engine[1])
            out[rows] = self.policies[seat].act(observations[rows], masks[rows], seats[rows],
                                                engine=sub)
        return out
