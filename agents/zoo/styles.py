"""Two scripted play styles of the partner zoo: ``cautious`` and ``rusher``.

A style is a preference order laid over the coordinated scripted team
(``agents.coordinated``): in each decision the style looks among the legal actions for one
it prefers and otherwise plays the coordinated team's choice. It overrides the team's
rolls, steps, draws and yields in the main menu (never a free thing, a card the team
chose to play or a feat, except where the style names a card kind below), where a Move
goes, which target a success or an effect picks, and, for the cautious style, how damage
is taken.

- **cautious** protects the wounded and the bystanders first. A hero is wounded at half
  health or at ``WOUNDED_LEFT`` health left. With a wounded hero at the table it plays a
  card that heals; with a bystander on the map or captive it plays a card that rescues.
  Its rolls go first to a panel holding captives (solving there frees them), then, while
  a hero is wounded, to the space with the most lackeys and nemeses (the enemies that
  activate against heroes). With nothing of that in reach it walks to the nearest
  bystander token within ``BYSTANDER_REACH`` spaces (walking through one rescues it).
  Successes and effects go to the captives first, then, while a hero is wounded, to enemy
  cards in the threat areas. It lets the villain scheme rather than inflict (Cunning),
  and spends a toughness feat or a discard on any damage of 2 or more, or when wounded.
- **rusher** goes for the Scheme cards and the villain: its rolls go to the revealed
  villain, the Scheming villain once its hidden tokens are gone, Scheme cards and nemeses
  (the villain cannot fall while one stands), and it walks to the nearest of them when
  none is in reach, past lackeys, minions and bystanders. Successes and effects go to the
  villain first, then to Scheme cards on their Scheme side, then to nemeses.

What a style reads: the acting hero's observation (the named features of
``hon_env.spec.obs_features``), the legal mask and the scenario's printed tables (board
distances, what each card's program does, which issue cards are Scheme cards); nothing
else. Hidden information (deck orders, other heroes' hands, the random generator) never
reaches it; the coordinated team it falls back on reads the public game state only. Both
styles are deterministic, and every action they return is legal under the mask (a style
choice that is not legal is a bug and raises).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agents.policy import Engine, check_engine
from agents.scripted import CoordinatedPolicy
from hon_env.describe import segment_of
from hon_env.spec import layout as L
from hon_env.spec import obs_features as F
from hon_env.spec import ops
from hon_env.spec import tables as TB

WOUNDED_LEFT = 2  # health left at or below which a hero counts as wounded (as the team's)
BYSTANDER_REACH = 6  # the cautious style walks to a bystander token at most this far
# main-menu answers of the coordinated team that a style may replace: a roll, a Move, a
# draw, a yield or the end of the actions (free things, cards and feats stay the team's)
OVERRIDABLE = ("attack", "solve", "space", "draw", "pass")

# --- where the style's inputs sit in the observation (absolute indices) --------------------
_DEC_KIND = F.feature_index("global.decision_kind")
_N_KINDS = F.feature("global.decision_kind").size
_DEC_A = F.feature_index("global.decision_a")
_OWN_ACTIONS = F.feature_index("global.own_actions")
_VIL_SIDE = F.feature_index("global.villain_side")
_VIL_HIDDEN = F.feature_index("global.villain_hidden")
_VIL_IN_PANEL = F.feature_index("global.villain_in_panel")
_SELF_DAMAGE = F.feature_index("self.damage")
_SELF_HEALTH = F.feature_index("self.health")
_OTHER_PRESENT = [F.feature_index("others.present", r) for r in range(L.MAX_HEROES - 1)]
_OTHER_ON_BOARD = [F.feature_index("others.on_board", r) for r in range(L.MAX_HEROES - 1)]
_OTHER_DAMAGE = [F.feature_index("others.damage", r) for r in range(L.MAX_HEROES - 1)]
_VCARD_OWN = [F.feature_index("villain_cards.own_threat_area", i) for i in range(L.VDECK)]
_VCARD_OTHER = [F.feature_index("villain_cards.other_threat_area", i) for i in range(L.VDECK)]
_ICARD_OWN = [F.feature_index("issue_cards.own_threat_area", i) for i in range(L.IDECK)]
_ICARD_OTHER = [F.feature_index("issue_cards.other_threat_area", i) for i in range(L.IDECK)]
_ICARD_FLIPPED = [F.feature_index("issue_cards.flipped", i) for i in range(L.IDECK)]
_NEM_OWN = [F.feature_index("nemeses.own_threat_area", k) for k in range(TB.NEMESES)]
_NEM_OTHER = [F.feature_index("nemeses.other_threat_area", k) for k in range(TB.NEMESES)]
_SPACES = slice(F.OFF_SPACES, F.OFF_SPACES + TB.MAX_SPACES * F.SPACE_FEATS)


@dataclass
class View:
    """What a style sees of one decision: the acting hero's observation [OBS_DIM], the
    legal mask [N_ACTIONS], the seat and the scenario's tables record."""

    obs: np.ndarray
    mask: np.ndarray
    seat: int
    T: np.record

    def __post_init__(self) -> None:
        # [MAX_SPACES, SPACE_FEATS]: the ``spaces`` section, one row per board space
        self.spaces = self.obs[_SPACES].reshape(TB.MAX_SPACES, F.SPACE_FEATS)

    @property
    def kind(self) -> int:
        """The pending decision's kind (``layout.D_*``), -1 for one the view does not show."""
        hot = self.obs[_DEC_KIND:_DEC_KIND + _N_KINDS]
        return int(np.argmax(hot)) if hot.max() > 0 else -1

    @property
    def number(self) -> int:
        """The pending decision's first context number (``DEC_A``: damage, steps...)."""
        return int(round(float(self.obs[_DEC_A]) * 10))

    @property
    def actions_left(self) -> int:
        return int(round(float(self.obs[_OWN_ACTIONS]) * 2))

    @property
    def here(self) -> int:
        """The acting hero's space, -1 off the map."""
        on = np.flatnonzero(self.spaces[:, F.SPACE_SELF_HERO] > 0)
        return int(on[0]) if on.size else -1

    def legal(self, base: int, n: int) -> np.ndarray:
        """Indices ``k`` (not actions) of the legal actions ``base + k``, k < n."""
        return np.flatnonzero(self.mask[base:base + n])

    def self_wounded(self) -> bool:
        health = float(self.obs[_SELF_HEALTH]) * 20
        damage = float(self.obs[_SELF_DAMAGE])
        return damage >= 0.5 or health * (1 - damage) <= WOUNDED_LEFT + 1e-6

    def others_wounded(self) -> bool:
        return any(self.obs[p] > 0 and self.obs[o] > 0 and self.obs[d] >= 0.5
                   for p, o, d in zip(_OTHER_PRESENT, _OTHER_ON_BOARD, _OTHER_DAMAGE, strict=True))

    def card_does(self, c: int, op: int) -> bool:
        """Does the play program of the acting hero's card ``c`` hold op ``op``?"""
        pid = int(self.T.hcard[self.seat, c, TB.HC_PLAY_PROG])
        if pid < 0:
            return False
        for code in self.T.prog[pid, :, 0]:
            if code == 0:  # the program's end
                return False
            if code == op:
                return True
        return False

    def is_scheme(self, i: int) -> bool:
        """Is issue card ``i`` a Scheme card on its Scheme side?"""
        return (int(self.T.icard[i, TB.IC_TYPE]) == TB.IT_SCHEME
                and self.obs[_ICARD_FLIPPED[i]] == 0)

    def step_toward(self, goal: int, inside: bool, base: int = L.A_SPACE) -> int:
        """The legal ``base + sp`` that brings the hero strictly nearer ``goal`` (inside: onto
        it; else next to it), nearest first; -1 when no legal step gets nearer."""
        dist = self.T.dist
        want = 0 if inside else 1
        here = self.here
        best_a = -1
        best_d = max(0, int(dist[here, goal]) - want) if here >= 0 else 1 << 30
        for sp in self.legal(base, TB.MAX_SPACES):
            d = max(0, int(dist[sp, goal]) - want)
            if inside and sp != goal:
                d = max(d, 1)
            if d < best_d:
                best_a, best_d = base + int(sp), d
        return best_a


class StylePolicy:
    """A style over the coordinated team (see the module docstring): subclasses give the
    style's preferences through the hooks below; -1 from a hook means "no preference"."""

    name = "style"
    needs_engine = True  # the coordinated team it falls back on reads the public state

    def __init__(self) -> None:
        self.base = CoordinatedPolicy()

    def act(self, observations: np.ndarray, masks: np.ndarray, seats: np.ndarray,
            engine: Engine | None = None) -> np.ndarray:
        """Actions [B] for observations [B, OBS_DIM], masks [B, N_ACTIONS] and deciding
        seats [B] (the ``Policy`` protocol); ``engine`` feeds the coordinated team and
        names each game's tables row."""
        state, tabs = check_engine(engine, masks.shape[0], type(self).__name__)
        out = self.base.act(observations, masks, seats, engine=(state, tabs))
        tabs = np.atleast_1d(tabs)
        for b in range(out.shape[0]):
            if seats[b] < 0 or seats[b] >= L.MAX_HEROES:
                continue  # the villain agent's rows (Mastermind variant): the team's answer
            view = View(observations[b], masks[b], int(seats[b]), tabs[state[b, L.TEAM]])
            a = self.prefer(view, int(out[b]))
            if a >= 0:
                if not masks[b, a]:
                    raise AssertionError(f"{self.name} chose illegal action {a} in decision "
                                         f"kind {view.kind}; legal: "
                                         f"{np.flatnonzero(masks[b]).tolist()}")
                out[b] = a
        return out

    def prefer(self, v: View, team: int) -> int:
        """The style's answer to the decision of ``v``, or -1 to play ``team`` (the
        coordinated team's answer)."""
        kind = v.kind
        if kind == L.D_MAIN:
            return self.main(v, team)
        if kind == L.D_MOVE:
            goal = self.goal(v) if v.here >= 0 else None
            if goal is None:
                return -1
            a = v.step_toward(*goal)
            return a if a >= 0 else (L.A_PASS if v.mask[L.A_PASS] else -1)
        if kind in (L.D_ATTACK_SPACE, L.D_SOLVE_SPACE):
            base = L.A_ATTACK if kind == L.D_ATTACK_SPACE else L.A_SOLVE
            return self.best_roll(v, (base,))
        if kind == L.D_ASSIGN or (kind == L.D_PICK_TARGET and v.number in (0, 1)):
            return self.best_target(v)
        return self.other(v, kind)

    def main(self, v: View, team: int) -> int:
        """Main menu: a card of the style's kind, else a roll on the style's targets, else
        a step toward the style's goal (only in place of a team roll, Move, draw or yield)."""
        seg = segment_of(team)[0]
        if seg not in OVERRIDABLE + ("play",):
            return -1
        a = self.card(v)
        if a >= 0 or seg not in OVERRIDABLE or v.actions_left == 0:
            return a
        a = self.best_roll(v, (L.A_ATTACK, L.A_SOLVE))
        if a >= 0:
            return a
        goal = self.goal(v) if v.here >= 0 else None
        return v.step_toward(*goal) if goal is not None else -1

    def best_roll(self, v: View, bases: tuple[int, ...]) -> int:
        """The legal Attack/Solve action whose space the style values most (> 0), or -1."""
        best_a, best_w = -1, 0.0
        for base in bases:
            for sp in v.legal(base, TB.MAX_SPACES):
                w = self.roll_value(v, int(sp), base == L.A_ATTACK)
                if w > best_w:
                    best_a, best_w = base + int(sp), w
        return best_a

    def best_target(self, v: View) -> int:
        """The legal target the style values most (> 0), or -1."""
        best_a, best_w = -1, 0.0
        for a in np.flatnonzero(v.mask):
            if L.is_target_action(a):
                w = self.target_value(v, int(L.action_target(a)))
                if w > best_w:
                    best_a, best_w = int(a), w
        return best_a

    # --- the hooks ---------------------------------------------------------------------
    def card(self, v: View) -> int:
        """A card to play in the main menu before anything else, or -1."""
        return -1

    def roll_value(self, v: View, sp: int, attack: bool) -> float:
        """How much the style wants to attack (``attack``) or solve at space ``sp``."""
        return 0.0

    def goal(self, v: View) -> tuple[int, bool] | None:
        """(space, inside) the style walks to when nothing it values is in reach."""
        return None

    def target_value(self, v: View, t: int) -> float:
        """How much the style wants a success or effect to land on target ``t``."""
        return 0.0

    def other(self, v: View, kind: int) -> int:
        """The style's answer to any other decision kind, or -1."""
        return -1


class RusherPolicy(StylePolicy):
    """The rusher: Scheme cards and the villain before anything else (module docstring)."""

    name = "rusher"

    def roll_value(self, v: View, sp: int, attack: bool) -> float:
        row = v.spaces[sp]
        revealed = v.obs[_VIL_SIDE] > 0
        w = 6.0 * row[F.SPACE_NEMESES]
        if row[F.SPACE_VILLAIN] > 0:
            if attack and revealed:
                w += 10
            elif (not attack and not revealed and v.obs[_VIL_IN_PANEL] > 0
                  and v.obs[_VIL_HIDDEN] == 0):
                w += 10
        if not attack and row[F.SPACE_SCHEME_SPACE] > 0:
            w += 6.0 * row[F.SPACE_ISSUE_CARDS]  # Scheme cards lie in their panel
        return w

    def goal(self, v: View) -> tuple[int, bool] | None:
        """The villain (revealed: next to it; Scheming without hidden tokens: inside its
        panel), else the nearest panel holding issue cards, else a nemesis."""
        sp = v.spaces
        dist = sp[:, F.SPACE_DISTANCE]
        villain = np.flatnonzero(sp[:, F.SPACE_VILLAIN] > 0)
        if villain.size:
            if v.obs[_VIL_SIDE] > 0:
                return int(villain[0]), False
            if v.obs[_VIL_IN_PANEL] > 0 and v.obs[_VIL_HIDDEN] == 0:
                return int(villain[0]), True
        for cand, inside in ((np.flatnonzero((sp[:, F.SPACE_SCHEME_SPACE] > 0)
                                             & (sp[:, F.SPACE_ISSUE_CARDS] > 0)), True),
                             (np.flatnonzero(sp[:, F.SPACE_NEMESES] > 0), False)):
            if cand.size:
                return int(cand[np.argmin(dist[cand])]), inside
        return None

    def target_value(self, v: View, t: int) -> float:
        if L.is_villain_target(t):
            return 10.0
        if L.T_I0 <= t < L.T_VILLAIN and v.is_scheme(t - L.T_I0):
            return 6.0
        if L.T_NEM0 <= t < L.T_MINION:
            return 5.0
        return 0.0


class CautiousPolicy(StylePolicy):
    """The cautious hero: the wounded and the bystanders first (module docstring)."""

    name = "cautious"

    @staticmethod
    def anyone_wounded(v: View) -> bool:
        return v.self_wounded() or v.others_wounded()

    @staticmethod
    def bystanders_in_danger(v: View) -> bool:
        return bool((v.spaces[:, F.SPACE_BYSTANDER] > 0).any()
                    or (v.spaces[:, F.SPACE_CAPTIVES] > 0).any())

    def card(self, v: View) -> int:
        wanted = []
        if self.anyone_wounded(v):
            wanted.append(ops.OP_HEAL)
        if self.bystanders_in_danger(v):
            wanted.append(ops.OP_RESCUE)
        for op in wanted:
            for c in v.legal(L.A_PLAY, TB.HERO_DECK):
                if v.card_does(int(c), op):
                    return L.A_PLAY + int(c)
        return -1

    def roll_value(self, v: View, sp: int, attack: bool) -> float:
        row = v.spaces[sp]
        if not attack:
            return 4.0 * (row[F.SPACE_CAPTIVES] * 4)  # the feature is captives / 4
        if self.anyone_wounded(v):
            return 1.0 * (row[F.SPACE_LACKEYS] + row[F.SPACE_NEMESES])
        return 0.0

    def goal(self, v: View) -> tuple[int, bool] | None:
        """The nearest bystander token within ``BYSTANDER_REACH`` spaces (onto it)."""
        sp = v.spaces
        dist = sp[:, F.SPACE_DISTANCE] * 10
        cand = np.flatnonzero((sp[:, F.SPACE_BYSTANDER] > 0) & (sp[:, F.SPACE_SCHEME_SPACE] == 0)
                              & (dist <= BYSTANDER_REACH + 1e-6))
        if cand.size == 0:
            return None
        return int(cand[np.argmin(dist[cand])]), True

    def target_value(self, v: View, t: int) -> float:
        if t == L.T_CAPTURED:
            return 10.0
        if not self.anyone_wounded(v):
            return 0.0
        own, other = v.self_wounded(), v.others_wounded()
        if L.is_vcard_target(t) and t < L.T_I0:
            pair = _VCARD_OWN[t], _VCARD_OTHER[t]
        elif L.T_I0 <= t < L.T_VILLAIN:
            pair = _ICARD_OWN[t - L.T_I0], _ICARD_OTHER[t - L.T_I0]
        elif L.T_NEM0 <= t < L.T_MINION:
            pair = _NEM_OWN[t - L.T_NEM0], _NEM_OTHER[t - L.T_NEM0]
        else:
            return 0.0
        return 5.0 if (own and v.obs[pair[0]] > 0) or (other and v.obs[pair[1]] > 0) else 0.0

    def other(self, v: View, kind: int) -> int:
        if kind == L.D_CUNNING and v.mask[L.A_OPTION]:
            return L.A_OPTION  # option 0: the villain schemes instead of inflicting
        if kind in (L.D_DAMAGE, L.D_DISCARD_OR_DAMAGE):
            if v.mask[L.A_FOCUS] or v.legal(L.A_USE, L.N_USE).size:
                return -1  # the team flips or prevents first
            if v.number >= 2 or v.self_wounded():
                cards = v.legal(L.A_CARD, TB.HERO_DECK)
                return L.A_CARD + int(cards[0]) if cards.size else -1
        if kind == L.D_RESCUE:
            sp = v.spaces
            for k in v.legal(L.A_SPACE, TB.MAX_SPACES):
                if sp[k, F.SPACE_BYSTANDER] > 0 or sp[k, F.SPACE_CAPTIVES] > 0:
                    return L.A_SPACE + int(k)
        return -1


STYLES = {"cautious": CautiousPolicy, "rusher": RusherPolicy}
