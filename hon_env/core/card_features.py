"""The ``own_cards`` observation section: what each card of the observing hero's deck is.

The ``self`` section's hand, play area and discard multi-hots index deck slots, which mean
other cards for every hero; this section describes each slot's card by its attributes
(Constant, action icon, unique, feats, passive numbers, ability kind) and by what its
effect and its ability's effect do, per hero op (``content/ops.HERO_OPS``), so that one
policy can play heroes it has not met. It depends only on the scenario's tables.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hon_env.spec import obs_features as F
from hon_env.spec import ops
from hon_env.spec import tables as TB
from hon_env.spec.obs_features import OFF_OWN_CARDS, OWN_CARD_FEATS

# op code -> its column among the hero ops (-1: not a hero op), and how its size is read
_OP_COLUMN = np.full(max(op.code for op in ops.OPS) + 1, -1, np.int64)
for _k, _name in enumerate(ops.HERO_OPS):
    _OP_COLUMN[ops.OP_BY_NAME[_name].code] = _k
_OP_AMOUNT = np.array(ops.HERO_OP_AMOUNT, np.int64)
_N_FEATS = len(TB.FEAT_NAMES)


@njit(cache=True, inline="always")
def _effect(T, pid, out, o):
    """Add program ``pid``'s hero ops, by column, to ``out[o:]`` (``own_cards`` scale).
    Inlined into the card loop, which calls it twice a card."""
    if pid < 0:
        return
    for i in range(TB.PROG_LEN):
        code = T.prog[pid, i, 0]
        if code == 0:
            return
        if 0 < code < _OP_COLUMN.shape[0] and _OP_COLUMN[code] >= 0:
            k = _OP_COLUMN[code]
            a = T.prog[pid, i, 1]
            amount = a if _OP_AMOUNT[k] == ops.AMOUNT_N else (
                1 + a if _OP_AMOUNT[k] == ops.AMOUNT_DICE else 1)
            out[o + k] += amount / 3.0


@njit(cache=True)
def encode_own_cards(T, seat, out):
    """Write the ``own_cards`` rows of hero ``seat``'s deck into ``out``; reads the tables
    (``hcard``, ``prog``) only."""
    for c in range(TB.HERO_DECK):
        o = OFF_OWN_CARDS + c * OWN_CARD_FEATS
        row = T.hcard[seat, c]
        out[o + F.OC_CONSTANT] = row[TB.HC_CONSTANT]
        out[o + F.OC_ACTION] = row[TB.HC_ACTION]
        out[o + F.OC_UNIQUE] = row[TB.HC_UNIQUE]
        for k in range(_N_FEATS):
            if row[TB.HC_FEATS] & (1 << k):
                out[o + F.OC_FEATS + k] = 1.0
        out[o + F.OC_PASSIVE] = row[TB.HC_ATTACK_DICE] / 3.0
        out[o + F.OC_PASSIVE + 1] = row[TB.HC_SOLVE_DICE] / 3.0
        out[o + F.OC_PASSIVE + 2] = row[TB.HC_MOVE] / 3.0
        out[o + F.OC_PASSIVE + 3] = row[TB.HC_ARMOR] / 3.0
        out[o + F.OC_PASSIVE + 4] = row[TB.HC_PIERCE] / 3.0
        kind = row[TB.HC_ABILITY]
        if TB.ABIL_ACTION <= kind <= TB.ABIL_PASSIVE:
            out[o + F.OC_ABILITY + kind - TB.ABIL_ACTION] = 1.0
        _effect(T, row[TB.HC_PLAY_PROG], out, o + F.OC_PLAY_FX)
        _effect(T, row[TB.HC_ABILITY_PROG], out, o + F.OC_ABILITY_FX)
