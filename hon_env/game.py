"""``Game``: one game of Hour of Need, OpenSpiel style, on the batched engine (batch size 1).

    >>> from hon_env import Game
    >>> g = Game("origin_story", seed=3)
    >>> while not g.is_over:
    ...     g.apply(int(g.legal_actions()[0]))
    >>> g.outcome in ("win", "loss", "truncated")
    True

There is no second rules implementation: every call runs the same numba kernels as the
vector environment, on a ``[1, STATE_LEN]`` state.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

import numpy as np

from hon_env.checks import IllegalActionError, as_action, check_action, check_int, check_seed
from hon_env.content import Scenario
from hon_env.core.kernels import (
    GAME_APPLY,
    GAME_INIT,
    GAME_REFRESH,
    game_observe,
    game_run,
    game_state,
)
from hon_env.core.observe import OBS_DIM, STATE_DIM
from hon_env.core.validate import validate_state
from hon_env.describe import action_to_string, space_name, target_name
from hon_env.errors import EngineError, StateError
from hon_env.numba_cache import announce_compile, debug_mode
from hon_env.options import scenario_from
from hon_env.rollout import engine_error
from hon_env.spec import layout as L
from hon_env.spec.tables import (
    AL_ATTACK,
    AL_HEALTH,
    AL_PRESENT,
    AL_SOLVE,
    BACK_ENEMY,
    BACK_PROBLEM,
    CFG_N_PANELS,
    CFG_N_SPACES,
    CFG_TF_FLOOR,
    CR_DANGER,
    CR_DANGER_PH,
    DASH,
    FORM_NAMES,
    HERO_DECK,
    HS_FORM,
    IC_BACK,
    IC_BACK_DANGER,
    IC_BACK_DANGER_PH,
    IC_BACK_HEALTH,
    IC_BACK_HEALTH_PH,
    IC_DANGER,
    IC_DANGER_PH,
    IC_TYPE,
    IDECK,
    IT_SCHEME,
    NEMESES,
    NM_DANGER,
    NM_DANGER_PH,
    NM_HEALTH,
    NM_HEALTH_PH,
    SM_HEALTH,
    SM_INFLICT,
    VC_DANGER,
    VC_DANGER_PH,
    VC_HEALTH,
    VC_HEALTH_PH,
    VC_TYPE,
    VDECK,
    VT_LACKEY,
    VT_PERIL,
)
from hon_env.state_io import pack, unpack

_FORM_WORDS = {code: name for name, code in FORM_NAMES.items()}

__all__ = ["Game", "IllegalActionError", "resolve_scenario"]


def villain_hero_count(sc: Scenario, row: np.ndarray, v: int) -> int:
    """The hero count of villain ``v``'s per-hero values in state ``row`` (Two Fronts: the
    heroes facing it, at least the floor; every hero once the other is defeated), as
    ``core/facing.hero_count_for`` computes it."""
    nh = sc.n_heroes
    if not sc.two_fronts or row[L.VIL_OUT + 1 - v] == 1:
        return nh
    facing = int(np.count_nonzero(row[L.HFACE:L.HFACE + nh] == v))
    return max(int(sc.tables.cfg[CFG_TF_FLOOR]), facing)


def card_values(sc: Scenario, row: np.ndarray, t: int) -> dict[str, int | None]:
    """The printed health of an enemy card or danger of a problem card ``t`` (``T_*``) on
    the side it shows in state ``row``, scaled to the team: ``{"health": n}`` or
    ``{"danger": n}`` (``None`` for a "-" value: never defeated or solved), ``{}`` for a card
    with neither (a Ploy)."""
    T = sc.tables
    nh = sc.n_heroes
    if sc.two_fronts and L.is_vcard_target(t):
        nh = villain_hero_count(sc, row, L.vcard_of(t) // VDECK)

    def scaled(value: int, per_hero: int) -> int | None:
        return None if value == DASH else int(value) * (nh if per_hero else 1)

    if L.is_vcard_target(t):
        c = L.vcard_of(t)
        typ = int(T.vcard[c, VC_TYPE])
        if typ == VT_LACKEY:
            return {"health": scaled(T.vcard[c, VC_HEALTH], T.vcard[c, VC_HEALTH_PH])}
        if typ == VT_PERIL:
            return {"danger": scaled(T.vcard[c, VC_DANGER], T.vcard[c, VC_DANGER_PH])}
        return {}
    if L.is_villain_target(t):
        p = L.VIL_SIDE if t == L.T_VILLAIN else L.VIL2_SIDE
        if row[p] == 1:
            return {"health": int(row[p + L.VIL_HEALTH - L.VIL_SIDE])}
        return {"danger": int(row[p + L.VIL_DANGER - L.VIL_SIDE])}
    if t < L.T_VILLAIN:
        i = t - L.T_I0
        if int(T.icard[i, IC_TYPE]) == IT_SCHEME and row[L.ISIDE + i] == 1:
            back = int(T.icard[i, IC_BACK])
            if back == BACK_ENEMY:
                return {"health": scaled(T.icard[i, IC_BACK_HEALTH],
                                         T.icard[i, IC_BACK_HEALTH_PH])}
            if back == BACK_PROBLEM:
                return {"danger": scaled(T.icard[i, IC_BACK_DANGER],
                                         T.icard[i, IC_BACK_DANGER_PH])}
            return {}
        return {"danger": scaled(T.icard[i, IC_DANGER], T.icard[i, IC_DANGER_PH])}
    if L.T_NEM0 <= t < L.T_MINION:
        k = t - L.T_NEM0
        c = int(row[L.NEM_CARD + k])
        if c < 0:
            return {}
        if row[L.NEM_SIDE + k] == 1:
            return {"health": scaled(T.nemesis[c, NM_HEALTH], T.nemesis[c, NM_HEALTH_PH])}
        return {"danger": scaled(T.nemesis[c, NM_DANGER], T.nemesis[c, NM_DANGER_PH])}
    return {}



def resolve_scenario(scenario: str | Path | Scenario = "origin_story", **options: Any
                     ) -> Scenario:
    """A compiled ``Scenario`` from an id, a YAML path or an existing ``Scenario`` and the
    game options (``hon_env.options.scenario_from``)."""
    return scenario_from(scenario, **options)


class Game:
    """One game: ``Game(scenario, seed, **options)``, where ``options`` are the game options
    every front end takes (``hon_env.options.scenario_from``: ``heroes``, ``villain``,
    ``issue``, ``n_heroes``, ``nemeses``, ``rules``, ``caps``, ``max_cycles``).

    Attributes:
        scenario: the compiled ``Scenario``. With the draft rule (Draft variant) the scenario
            of the drafted team once the draft is over (``Scenario.draft_pool``), the draft
            scenario itself while the seats draft.
        state: the ``[1, STATE_LEN]`` int32 state (see ``hon_env.spec.layout``). Assigning
            a new array validates it like ``from_array`` and recomputes the legal mask.

    Engine errors (engine.md, "Engine errors") raise ``hon_env.EngineError``; in debug mode
    (``HON_ENV_DEBUG=1``) the invariants of ``core/invariants.py`` are checked after
    every ``apply`` and a violation raises ``EngineError`` too.
    """

    def __init__(self, scenario: str | Path | Scenario = "origin_story", seed: int = 0,
                 **options: Any) -> None:
        seed = check_seed(seed)
        self.scenario = scenario_from(scenario, **options)
        self.seed = seed
        self._state = np.zeros((1, L.STATE_LEN), np.int32)
        self._mask = np.zeros((1, L.N_ACTIONS), np.int8)
        announce_compile("game", "kernels.game_run")
        game_run(self._state, self._tabs, GAME_INIT, np.int64(self.seed), self._mask[0])
        self._check_engine()

    # bumped whenever the state changes through the API (apply, refresh, ``state =``): the
    # front ends key the views they keep for one decision (observations) on it
    _version: int = 0

    @property
    def state(self) -> np.ndarray:
        """The ``[1, STATE_LEN]`` int32 state (a live array: edit fields, then ``refresh``)."""
        return self._state

    @state.setter
    def state(self, value: np.ndarray) -> None:
        value = np.asarray(value)
        row = value.reshape(1, -1) if value.ndim == 1 else value
        if row.ndim != 2 or row.shape[0] != 1:
            raise StateError(f"a game's state is one row of {L.STATE_LEN} int32 values, got "
                             f"shape {value.shape}")
        validate_state(row, self._scenario_of(row).tables)
        self._state = row.astype(np.int32, copy=True)
        self.refresh()

    def _check_engine(self) -> None:
        """Raise ``EngineError`` if the engine stopped this game; in debug mode also check
        the invariants."""
        if self._state[0, L.ERROR]:
            raise engine_error(self._state[0], 0, self.seed)
        if debug_mode():
            from hon_env.core.invariants import violations

            found = violations(self._state, self.scenario.tables, self._mask)
            if found:
                raise EngineError(f"invariant violated in game 0 (seed {self.seed}) after "
                                  f"decision {int(self._state[0, L.DECISIONS])}: "
                                  + "; ".join(found[:5]), error="invariant", seed=self.seed)

    @property
    def scenario(self) -> Scenario:
        sc = self.__dict__["_scenario"]
        state = self.__dict__.get("_state")
        if sc.draft_pool and state is not None and not state[0, L.DRAFTING]:
            return sc.draft_pool[int(state[0, L.TEAM])]
        return sc

    @scenario.setter
    def scenario(self, value: Scenario) -> None:
        self.__dict__["_scenario"] = value
        self.__dict__.pop("_tabs_array", None)

    def _scenario_of(self, row: np.ndarray) -> Scenario:
        """The scenario whose tables state ``row`` ([1, STATE_LEN]) plays."""
        sc = self.draft_scenario
        if sc.draft_pool and not row[0, L.DRAFTING]:
            team = int(row[0, L.TEAM])
            if not 0 <= team < len(sc.draft_pool):
                raise StateError(f"invalid state: field team = {team} outside [0, "
                                 f"{len(sc.draft_pool) - 1}] (the draft's ordered teams)",
                                 field="team")
            return sc.draft_pool[team]
        return sc

    @property
    def draft_scenario(self) -> Scenario:
        """The scenario the game was created with (with the draft rule: before the draft)."""
        return self.__dict__["_scenario"]

    @property
    def _tabs(self) -> np.ndarray:
        """The scenario's tables array (``Scenario.engine_tables``: fast for numba calls)."""
        tabs = self.__dict__.get("_tabs_array")
        if tabs is None:
            tabs = self.__dict__["_tabs_array"] = self.draft_scenario.engine_tables
        return tabs

    @property
    def engine(self) -> tuple[np.ndarray, np.ndarray]:
        """``(state [1, STATE_LEN], tables)``: what scripted policies read (a live view)."""
        return self.state, self._tabs

    # --- the decision -------------------------------------------------------------------
    @property
    def agents(self) -> list[str]:
        """Agent names: hero ids by seat, suffixed ``_2``, ``_3``... for repeated heroes,
        then ``"villain"`` when the villain is an agent (Mastermind variant)."""
        return list(self.scenario.possible_agents)

    @property
    def current_seat(self) -> int:
        """Seat of the hero who decides now (``layout.VILLAIN_SEAT`` for the villain agent),
        or -1 once the game is over."""
        return -1 if self.is_over else int(self.state[0, L.DEC_HERO])

    @property
    def current_agent(self) -> str | None:
        """Agent name of the one who decides now (None once the game is over)."""
        seat = self.current_seat
        return None if seat < 0 else self.scenario.seat_agent(seat)

    @property
    def decision(self) -> str:
        """Kind of the pending decision (``layout.DECISION_NAMES``)."""
        return L.DECISION_NAMES[int(self.state[0, L.DEC_KIND])]

    def legal_mask(self) -> np.ndarray:
        """int8 ``[N_ACTIONS]`` mask of the pending decision (a copy)."""
        return self._mask[0].copy()

    def legal_actions(self) -> np.ndarray:
        """Legal action indices, ascending."""
        return np.flatnonzero(self._mask[0])

    def apply(self, action: int) -> None:
        """Answer the pending decision and run to the next one.

        Args:
            action: a Python or numpy integer (or a 0-d integer array) in
                ``[0, N_ACTIONS)``; nothing else is coerced.

        Raises:
            TypeError: ``action`` is not an integer (``bool``, floats, strings...).
            IllegalActionError: the action is out of range or not in the legal mask.
            RuntimeError: the game is already over.
            EngineError: the engine stopped the game (engine.md, "Engine errors").
            (Nothing changes when any of them is raised.)
        """
        a = as_action(action)
        if self._state[0, L.ERROR]:  # stopped by an engine error: say so, not "illegal"
            raise engine_error(self._state[0], 0, self.seed)
        if self.is_over:
            raise RuntimeError(f"the game is over ({self.outcome}); no action can be applied")
        if not (0 <= a < L.N_ACTIONS) or not self._mask[0, a]:
            legal = ", ".join(f"{x} ({self.action_to_string(x)})" for x in self.legal_actions())
            what = (self.action_to_string(a) if 0 <= a < L.N_ACTIONS
                    else f"out of range: actions are integers in [0, {L.N_ACTIONS})")
            raise IllegalActionError(
                f"action {a} ({what}) is not legal in decision '{self.decision}' of "
                f"{self.current_agent}; legal: {legal}")
        game_run(self._state, self._tabs, GAME_APPLY, a, self._mask[0])
        self._version += 1
        self._check_engine()

    def action_to_string(self, action: int) -> str:
        """Describe ``action`` as an answer to the pending decision."""
        return action_to_string(self.scenario, self.state[0], check_action(action))

    def observation(self, seat: int | None = None) -> np.ndarray:
        """float32 [OBS_DIM] observation of ``seat`` (default: the one deciding now;
        ``layout.VILLAIN_SEAT``: the villain agent's view).

        Egocentric and free of hidden information (``hon_env.core.observe``).
        """
        seat = max(self.current_seat, 0) if seat is None else check_int(seat, "seat")
        villain = seat == L.VILLAIN_SEAT and self.scenario.villain_agent
        if not (0 <= seat < self.scenario.n_heroes or villain):
            extra = f" or {L.VILLAIN_SEAT} (the villain)" if self.scenario.villain_agent else ""
            raise ValueError(f"seat must be in [0, {self.scenario.n_heroes}){extra}, got {seat}")
        out = np.zeros(OBS_DIM, np.float32)
        game_observe(self.state, self._tabs, int(seat), out)
        return out

    def global_state(self) -> np.ndarray:
        """float32 [STATE_DIM] global state for centralized critics."""
        out = np.zeros(STATE_DIM, np.float32)
        game_state(self.state, self._tabs, out)
        return out

    # --- outcome ------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return int(self.state[0, L.OUTCOME]) != L.OUT_ONGOING

    @property
    def outcome(self) -> str | None:
        """``"win"``, ``"loss"``, ``"truncated"``, or None while the game runs."""
        o = int(self.state[0, L.OUTCOME])
        return None if o == L.OUT_ONGOING else L.OUTCOME_NAMES[o]

    @property
    def loss_reason(self) -> str | None:
        """Why a lost or truncated game ended (``layout.LOSS_REASON_NAMES``), else None."""
        r = int(self.state[0, L.LOSS_REASON])
        return L.LOSS_REASON_NAMES[r] if r else None

    # --- copies -------------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        # the cached tables view is rebuilt from the scenario after unpickling
        return {k: v for k, v in self.__dict__.items() if k != "_tabs_array"}

    def clone(self) -> Game:
        """An independent copy (same scenario object, copied state)."""
        g = Game.__new__(Game)
        g.scenario = self.draft_scenario
        g.seed = self.seed
        g._state = self._state.copy()
        g._mask = self._mask.copy()
        return g

    def to_bytes(self) -> bytes:
        """The state with a header naming the engine and scenario (``hon_env/state_io.py``).

        The scenario itself is not included: load with ``from_bytes`` and the same
        scenario and overrides. ``self.state.tobytes()`` is the headerless row."""
        return pack(self._state[0], self.draft_scenario)

    @classmethod
    def from_bytes(cls, scenario: str | Path | Scenario, data: bytes, **overrides: Any) -> Game:
        """Rebuild a game of ``scenario`` from ``to_bytes`` output.

        Raises:
            StateError: the header is from another engine version or scenario, or the
                state fails validation (``core/validate.py``: a field out of range, an
                impossible interpreter stack, broken invariants); nothing ran on it.
        """
        sc = resolve_scenario(scenario, **overrides)
        return cls.from_array(sc, unpack(data, sc))

    @classmethod
    def from_array(cls, scenario: str | Path | Scenario, state: np.ndarray | bytes,
                   **overrides: Any) -> Game:
        """Rebuild a game from a headerless state row: an int32 array of ``STATE_LEN``
        values (``[STATE_LEN]`` or ``[1, STATE_LEN]``) or its bytes (``state.tobytes()``).

        Validated like ``from_bytes`` (``StateError``), without the engine and scenario
        checks of the header: the caller vouches that the row comes from this scenario.
        """
        g = cls.__new__(cls)
        g.scenario = resolve_scenario(scenario, **overrides)
        g.seed = -1
        if isinstance(state, (bytes, bytearray, memoryview)):
            if len(state) != L.STATE_LEN * 4:
                raise StateError(f"expected {L.STATE_LEN * 4} bytes of state, got {len(state)}")
            state = np.frombuffer(bytes(state), "<i4")
        state = np.asarray(state)
        if state.dtype != np.int32 or state.size != L.STATE_LEN or state.ndim > 2:
            raise StateError(f"a state row is {L.STATE_LEN} int32 values, got {state.dtype} "
                             f"{state.shape}")
        g._mask = np.zeros((1, L.N_ACTIONS), np.int8)
        g.state = state.reshape(1, L.STATE_LEN)
        return g

    def refresh(self) -> None:
        """Recompute the legal mask after the state was edited (see ``hon_env.positions``).

        The edited state is first checked for what would make a kernel read out of bounds
        (``core/validate.py``, ``StateError``); invariants are not, nor the arguments of
        content ops on the stack (a position built by hand may push its own effects)."""
        validate_state(self._state, self.scenario.tables, invariants=False)
        game_run(self._state, self._tabs, GAME_REFRESH, 0, self._mask[0])
        self._version += 1
        self._check_engine()

    def field(self, name: str) -> np.ndarray:
        """Writable view of state field ``name`` for this game (``layout.FIELDS``).

        Scalar fields come back as 0-d arrays: read with ``int(v)``, write with ``v[...] = x``.
        """
        if name not in L.FIELDS:
            near = difflib.get_close_matches(str(name), L.FIELDS, n=3)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            raise KeyError(f"no state field {name!r} ({len(L.FIELDS)} fields, listed in "
                           f"hon_env.spec.layout.FIELDS){hint}")
        view = L.field_view(self.state, name)
        return view[0] if view.ndim > 1 else view[0:1].reshape(())

    # --- the public state -----------------------------------------------------------------
    def _villain(self, v: int) -> dict[str, Any]:
        """Villain ``v``'s public state (Two Fronts: 0 or 1; the rulebook's game: 0)."""
        sc, f = self.scenario, self.field
        p = "vil_" if v == 0 else "vil2_"
        loc = int(f(p + "loc"))
        out = {
            "name": sc.villain_names[v] if sc.villain_names else sc.villain_name,
            "side": "showdown" if f(p + "side") else "scheming",
            "hidden_tokens": int(f(p + "hidden")), "justice": int(f(p + "justice")),
            "damage": int(f(p + "damage")), "health": int(f(p + "health")),
            "danger": int(f(p + "danger")),
            "location": space_name(sc, loc) if loc >= 0 else None,
            "in_panel": bool(f(p + "in_panel")),
            "deck_size": int(f("vdeck_n" if v == 0 else "vdeck2_n")),
        }
        if sc.two_fronts:
            out["defeated"] = bool(f("vil_out")[v])
        return out

    def snapshot(self) -> dict[str, Any]:
        """The named public state as plain JSON-serializable values."""
        sc = self.scenario
        T = sc.tables
        f = self.field
        heroes = [self._hero(h) for h in range(sc.n_heroes)]
        if sc.two_fronts:  # Two Fronts: the villain each hero faces
            for h, hero in enumerate(heroes):
                hero["facing"] = sc.villain_names[int(f("hface")[h])]
        n_panels = int(T.cfg[CFG_N_PANELS])
        board = {
            "bystanders": [space_name(sc, sp) for sp in range(int(T.cfg[CFG_N_SPACES]))
                           if f("bystander_on")[sp]],
            "minions": {sc.panel_names[k]: int(f("minions")[k]) for k in range(1, n_panels + 1)},
            "captured": {sc.panel_names[k]: int(f("captured")[k])
                         for k in range(1, n_panels + 1)},
            "card_locations": self._card_locations(),
        }
        out = {
            "round": int(f("round")), "turn": ("setup", "villain", "hero", "issue",
                                               "over")[int(f("turn"))],
            "outcome": self.outcome, "loss_reason": self.loss_reason,
            "decision": self.decision, "deciding": self.current_agent,
            "heroes": heroes,
            "villain": self._villain(0),
            "nemeses": self._nemeses(),
            "special_minions": self._special_minions(),
            "crisis_cards": self._crisis_cards(),
            "special_bystanders": self._special_bystanders(),
            "supplies": {"minions": int(f("minion_supply")),
                         "bystanders": int(f("bystander_supply")),
                         "bystanders_defeated": int(f("bystanders_defeated")),
                         "clue_deck": int(f("clue_n"))},
            "board": board,
            "issue": {"name": sc.issue_name, "deck_size": int(f("ideck_n")),
                      # deck cards with the Crisis trait in the issue play area, in order
                      "crisis_area": [target_name(sc, int(f("crisis_area")[k]))
                                      for k in range(int(f("crisis_area_n")))],
                      "counters": {name: int(f("counters")[k])
                                   for k, name in enumerate(sc.counter_names)}},
            "events": {name: int(f("events")[k]) for k, name in enumerate(L.EVENT_NAMES)},
        }
        if sc.two_fronts:
            out["villain2"] = self._villain(1)
        return out

    def _hero(self, h: int) -> dict[str, Any]:
        """Seat ``h``'s hero: where it stands, its health, focus, cards and threat area."""
        sc = self.scenario
        T = sc.tables
        f = self.field
        zones = f("hcloc")[h]
        cards = sc.hero_card_names[h]
        hand = [cards[c] for c in range(HERO_DECK) if zones[c] == L.L_HAND]
        play = [c for c in range(HERO_DECK) if zones[c] == L.L_PLAY]
        loc = int(f("hloc")[h])
        side = int(f("hside")[h])
        return {
            "id": sc.seat_names[h], "name": sc.hero_names[h],
            "location": space_name(sc, loc) if loc >= 0 else None,
            "damage": int(f("hdmg")[h]),
            "health": int(T.hero_stat[h, side, 0]),
            "focus": int(f("hfocus")[h]), "focused": bool(side),
            # what stands for the hero on the map: "figure", "pilot" (token) or "mech"
            "form": _FORM_WORDS[int(T.hero_stat[h, side, HS_FORM])],
            "pilot_damage": int(f("hpilot_dmg")[h]),  # set aside while in the mech
            "actions_left": int(f("hactions")[h]),
            # defeated this hero turn: off the map, returns at the end of the turn
            "defeated": bool(f("hdefeated")[h]),
            "hero_card_exhausted": bool(f("hexh")[h]),
            "hand": hand, "play_area": [cards[c] for c in play],
            "play_area_exhausted": [bool(f("hcexh")[h][c]) for c in play],
            "deck_size": int(f("hdeck_n")[h]),
            "discard_size": int(np.sum(zones[:HERO_DECK] == L.L_DISCARD)),
            "clues": [sc.clue_names[i] for i in range(len(sc.clue_names))
                      if f("clue_loc")[i] == h],
            "threat_area": self._threat_area(h),
            "ally": self._ally(h),
        }

    def _ally(self, h: int) -> dict[str, Any] | None:
        """Seat ``h``'s Ally card and figure (Allies rule), or None without one."""
        sc = self.scenario
        row = sc.tables.ally[h]
        if not row[AL_PRESENT]:
            return None
        loc = int(self.field("ally_loc")[h])
        return {"name": sc.ally_names[h],
                "location": space_name(sc, loc) if loc >= 0 else None,  # None: defeated
                "damage": int(self.field("ally_dmg")[h]), "health": int(row[AL_HEALTH]),
                "attack": int(row[AL_ATTACK]), "solve": int(row[AL_SOLVE]),
                "exhausted": bool(self.field("ally_exh")[h])}

    def _threat_area(self, h: int) -> list[dict[str, Any]]:
        sc = self.scenario
        f = self.field
        out = []
        attached = self._attached()
        for i in range(VDECK * sc.n_villains):
            if f("vloc")[i] == L.L_THREAT and f("vowner")[i] == h:
                t = L.vcard_target(i)
                out.append({"card": sc.villain_card_names[i], "damage": int(f("vdmg")[i]),
                            "justice": int(f("vjust")[i]), "exhausted": bool(f("vexh")[i]),
                            **card_values(sc, self.state[0], t),
                            "attached": attached.get(t, [])})
        for i in range(IDECK):
            if f("iloc")[i] == L.L_THREAT and f("iowner")[i] == h:
                out.append({"card": sc.issue_card_names[i], "flipped": bool(f("iside")[i]),
                            "damage": int(f("idmg")[i]), "justice": int(f("ijust")[i]),
                            "exhausted": bool(f("iexh")[i]),
                            **card_values(sc, self.state[0], L.T_I0 + i)})
        for k in range(NEMESES):
            if f("nem_card")[k] >= 0 and f("nem_owner")[k] == h:
                nem = self._nemesis(k)
                out.append({"card": nem["card"], "side": nem["side"],
                            "damage": nem["damage"], "justice": nem["justice"],
                            "exhausted": nem["exhausted"],
                            **card_values(sc, self.state[0], L.T_NEM0 + k)})
        if f("vil_owner") == h:
            out.append({"card": sc.villain_name, "damage": int(f("vil_damage")),
                        "exhausted": bool(f("vil_exh")),
                        **card_values(sc, self.state[0], L.T_VILLAIN),
                        "attached": attached.get(L.T_VILLAIN, [])})
        if sc.two_fronts and f("vil2_owner") == h:
            out.append({"card": sc.villain_names[1], "damage": int(f("vil2_damage")),
                        "exhausted": bool(f("vil2_exh")),
                        **card_values(sc, self.state[0], L.T_VILLAIN2),
                        "attached": attached.get(L.T_VILLAIN2, [])})
        return out

    def _special_bystanders(self) -> list[dict[str, Any]]:
        """Per special Bystander card of the game (Special Bystanders rule): where its four
        figures are. The board's ``bystanders``/``captured`` entries count them too."""
        sc = self.scenario
        f = self.field
        n_panels = int(sc.tables.cfg[CFG_N_PANELS])
        out = []
        for j, name in enumerate(sc.special_bystander_names):
            out.append({
                "name": name,
                "supply": int(f("sby_supply")[j]),
                "on_map": [space_name(sc, sp) for sp in range(int(sc.tables.cfg[CFG_N_SPACES]))
                           if f("sby_on")[sp] == j],
                "captured": {sc.panel_names[k]: int(f("sby_capt")[k, j])
                             for k in range(1, n_panels + 1) if f("sby_capt")[k, j]},
                "defeated": int(f("sby_defeated")[j]),
            })
        return out

    def _nemeses(self) -> list[dict[str, Any]]:
        """The nemeses dealt in this game, by slot (rulebook: Nemeses)."""
        return [self._nemesis(k) for k in range(NEMESES) if self.field("nem_card")[k] >= 0]

    def _nemesis(self, k: int) -> dict[str, Any]:
        """Nemesis slot ``k`` (a card is dealt to it)."""
        sc = self.scenario
        f = self.field
        c = int(f("nem_card")[k])
        owner = int(f("nem_owner")[k])
        pos = int(f("nem_pos")[k])
        enemy = bool(f("nem_side")[k])
        return {
            "name": sc.nemesis_names[c], "card": sc.nemesis_side_names[c][int(enemy)],
            "side": "enemy" if enemy else "scheme", "defeated": owner < 0,
            "owner": owner if owner >= 0 else None,
            "location": space_name(sc, pos) if pos >= 0 else None,
            "damage": int(f("nem_dmg")[k]), "justice": int(f("nem_just")[k]),
            "exhausted": bool(f("nem_exh")[k]),
        }

    def _special_minions(self) -> list[dict[str, Any]]:
        """The special Minion cards in the game (Special Minions rule), in rule order: each
        card's minion numbers, its figures in the supply and, per panel name, its figures
        there and the damage kept on the wounded one."""
        sc = self.scenario
        T = sc.tables
        f = self.field
        n_panels = int(T.cfg[CFG_N_PANELS])
        out = []
        for j, name in enumerate(sc.special_minion_names):
            out.append({
                "name": name,
                "health": int(T.smin[j, SM_HEALTH]), "inflict": int(T.smin[j, SM_INFLICT]),
                "supply": int(f("smin_supply")[j]),
                "panels": {sc.panel_names[k]: {"count": int(f("smin")[k, j]),
                                               "damage": int(f("smin_dmg")[k, j])}
                           for k in range(1, n_panels + 1)},
            })
        return out

    def _crisis_cards(self) -> list[dict[str, Any]]:
        """The crisis cards in the issue play area (Crisis Cards rule), in the order added.

        ``danger`` is None for a card without a danger value (it never leaves play); a card
        with one shows its justice and crisis token space until it is solved.
        """
        sc = self.scenario
        T = sc.tables
        f = self.field
        out = []
        for k, name in enumerate(sc.crisis_card_names):
            danger = int(T.crisis[k, CR_DANGER])
            if danger and T.crisis[k, CR_DANGER_PH]:
                danger *= sc.n_heroes
            pos = int(f("crisis_pos")[k])
            out.append({
                "name": name, "text": sc.crisis_card_texts[k],
                "danger": danger or None, "justice": int(f("crisis_just")[k]),
                "token": space_name(sc, pos) if pos >= 0 else None,
                "solved": bool(f("crisis_out")[k]),
            })
        return out

    def _attached(self) -> dict[int, list[str]]:
        """Names of attached villain cards by host target."""
        f = self.field
        out: dict[int, list[str]] = {}
        for i in np.flatnonzero(f("vloc") == L.L_ATTACHED):
            out.setdefault(int(f("vattach")[i]), []).append(self.scenario.villain_card_names[i])
        return out

    def villain_hand(self) -> list[str]:
        """Names of the villain cards in the villain agent's hidden hand (Mastermind
        variant; empty without it). Full information, as ``snapshot()``: not for a hero's
        policy."""
        zones = self.field("vloc")
        return [target_name(self.scenario, L.T_V0 + c) for c in range(VDECK)
                if zones[c] == L.L_HAND]

    def _card_locations(self) -> list[dict[str, Any]]:
        """Cards with a map position: lackey figures, peril tokens, Scheme panels (threat
        areas), nemesis figures and crisis tokens."""
        sc = self.scenario
        f = self.field
        out = []
        for i in range(VDECK * sc.n_villains):
            if f("vloc")[i] == L.L_THREAT and f("vpos")[i] >= 0:
                out.append({"name": target_name(sc, L.vcard_target(i)),
                            "space": space_name(sc, int(f("vpos")[i]))})
        for i in range(IDECK):
            if f("iloc")[i] == L.L_THREAT and f("ipos")[i] >= 0:
                out.append({"name": target_name(sc, L.T_I0 + i),
                            "space": space_name(sc, int(f("ipos")[i]))})
        for k in range(NEMESES):
            if f("nem_owner")[k] >= 0 and f("nem_pos")[k] >= 0:
                out.append({"name": target_name(sc, L.T_NEM0 + k, self.state[0]),
                            "space": space_name(sc, int(f("nem_pos")[k]))})
        for k in range(len(sc.crisis_card_names)):
            if f("crisis_pos")[k] >= 0:  # a crisis token (Crisis Cards rule)
                out.append({"name": target_name(sc, L.T_CRISIS0 + k),
                            "space": space_name(sc, int(f("crisis_pos")[k]))})
        return out

    def __repr__(self) -> str:
        return (f"Game({self.scenario.id!r}, seed={self.seed}, round={int(self.field('round'))},"
                f" decision={self.decision!r}, outcome={self.outcome!r})")
