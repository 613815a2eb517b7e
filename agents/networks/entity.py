"""The entity actor: reads the observation as sets of entities (``entities.GROUPS``) and
scores each action from the entity it points at.

    obs ──gather──> rows of each entity kind [B, R_g, F_g] ── shared encoder per kind ──> e_g
                   context floats [B, C] ───────────────────────────────────────┐
    masked mean and max of each kind's present rows ───────────────────────────┴─ MLP ──> ctx
    logits: action of kind k pointing at row r of kind g = e_g[r] . q_gk(ctx) + b_gk
            every other action                 = linear(ctx)

A row is present when any of its floats is not 0 (an empty board cell, a card still in the
deck, an absent seat are all-zero rows). The encoders share their weights over the rows of
a kind and the pools are symmetric, so permuting the rows of a set-like kind (board
spaces, cards...) permutes the logits of the actions that point at them and changes
nothing else (DeepSets, Zaheer et al. 2017; tested). Seats are ordered: their rows add a
learned embedding per seat. On another issue's board the same role (a peril space, the
villain's space) reaches the policy through the same weights wherever its cell lies.

With ``blocks`` > 0 (``entity_blocks`` in the trainers' configs), transformer blocks run
over the encoded rows of every kind and a token of the context floats before the pools
and the pointer logits read them (``EntityActor.mix``), so a row's embedding can reflect
the other rows of its game; 0 (the default) is the network above, unchanged.

``features`` returns ``ctx`` and the logits side by side ([B, ctx_dim + N_ACTIONS]); the
value head (``TrunkCritic``) reads the ``ctx`` part (``value_features``), so MAPPO's
shared-trunk critic reads the same encoders. A kind whose rows are all 0 in the whole
batch (cells off the board, cards in the deck, a variant that is off) is encoded once, as
the zero row, and scored from that embedding: the same numbers for less work.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from agents.networks import entities as E
from agents.networks.mlp import LegalLogProbs, layer_init, masked_log_softmax
from hon_env.core.observe import OBS_DIM
from hon_env.spec.layout import N_ACTIONS


class _Kind(nn.Module):
    """Encoder and pointer head of one entity kind."""

    def __init__(self, group: E.Group, dim: int, ctx_dim: int) -> None:
        super().__init__()
        cols = E.row_columns(group)
        self.register_buffer("cols", torch.from_numpy(np.maximum(cols, 0).reshape(-1)),
                             persistent=False)
        # a float a row lacks (-1: row 0 of a shifted section) reads as 0
        self.register_buffer("valid", torch.from_numpy((cols >= 0).astype(np.float32))
                             if (cols < 0).any() else None, persistent=False)
        self.rows, self.width = cols.shape
        self.kinds, self.dim = len(group.actions), dim
        self.encode = nn.Sequential(layer_init(nn.Linear(self.width, dim)), nn.ReLU(),
                                    layer_init(nn.Linear(dim, dim)), nn.ReLU())
        self.pos = nn.Parameter(torch.zeros(self.rows, self.width)) if not group.set_like \
            else None
        if self.kinds:
            # one query per action kind from the context; bias: the kind's own row scorer
            self.query = layer_init(nn.Linear(ctx_dim, self.kinds * dim), std=0.01)
            self.bias = nn.Parameter(torch.zeros(self.kinds))

    def rows_of(self, obs: torch.Tensor) -> torch.Tensor:
        """[B, rows, width] floats of this kind's rows."""
        x = obs.index_select(1, self.cols).reshape(obs.shape[0], self.rows, self.width)
        return x if self.valid is None else x * self.valid.to(x.dtype)

    def embed(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]:
        """Embeddings (>= 0) of the rows present somewhere in the batch [B, r, dim], their
        presence [B, r] (bool) and their row numbers [r] (None: every row, in order).

        A row whose floats are all 0 has one embedding, that of the zero row: rows absent
        from the whole batch (cells off the board, cards in the deck) are encoded once, in
        ``logits``. Ordered kinds add a learned per-row input (``pos``) to every row."""
        present = (x != 0).any(-1)
        if self.pos is not None:
            return self.encode(x + self.pos.to(x.dtype)), present, None
        live = present.any(0)
        if bool(live.all()):
            return self.encode(x), present, None
        idx = live.nonzero().squeeze(1)
        return self.encode(x.index_select(1, idx)), present.index_select(1, idx), idx

    def logits(self, e: torch.Tensor, idx: torch.Tensor | None, ctx: torch.Tensor
               ) -> torch.Tensor:
        """[B, rows * kinds] logits of the actions pointing at the rows (float32): each
        row's embedding dotted with the kind's query; rows outside ``idx`` (all-zero in
        the whole batch) score with the zero row's embedding."""
        with torch.autocast(device_type=e.device.type, enabled=False):
            q = self.query(ctx.float()).reshape(-1, self.kinds, self.dim)
            out = torch.einsum("brd,bkd->brk", e.float(), q) + self.bias
            if idx is not None:
                zero = self.encode(e.new_zeros(1, self.width, dtype=torch.float32))
                full = (torch.einsum("d,bkd->bk", zero[0], q) + self.bias)[:, None, :]
                out = full.expand(-1, self.rows, -1).index_copy(1, idx, out)
        return out.reshape(e.shape[0], -1)


class _Block(nn.Module):
    """One pre-norm transformer block over the entity rows of every kind and a context
    token: each row attends to the rows present in its game (and to the context), so a
    space's or a card's embedding can reflect the seats, threat cards and other rows of
    its game before it is pooled or scored.
    Attention and the row-wise MLP treat the rows alike, so the block keeps the set-like
    kinds' permutation symmetry. One head: on CPU, attention over 512 games x 109 rows of
    32 floats (forward and backward, one thread) took 0.08 s with one head and 0.19 s with
    four heads of 8."""

    def __init__(self, dim: int) -> None:
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.qkv = layer_init(nn.Linear(dim, 3 * dim))
        self.out = layer_init(nn.Linear(dim, dim), std=0.1)
        self.mlp = nn.Sequential(layer_init(nn.Linear(dim, 2 * dim)), nn.ReLU(),
                                 layer_init(nn.Linear(2 * dim, dim), std=0.1))

    def forward(self, x: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        """``x`` [B, N, dim] rows; ``keys`` [B, N] bool: the rows others may attend to."""
        q, k, v = self.qkv(self.norm1(x)).chunk(3, -1)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=keys[:, None, :])
        x = x + self.out(y)
        return x + self.mlp(self.norm2(x))


def masked_pools(e: torch.Tensor, present: torch.Tensor, signed: bool = False
                 ) -> torch.Tensor:
    """Mean and max over the present rows of ``e`` [B, R, D] -> [B, 2D] (0 where no row
    is present): symmetric in the rows. Unsigned rows (e >= 0, the encoders' ReLU output)
    take the max with the absent rows zeroed, which leaves the max over the present ones
    (or 0); ``signed`` rows (after the transformer blocks) mask the absent ones out."""
    if e.shape[1] == 0:
        return e.new_zeros(e.shape[0], 2 * e.shape[2])
    m = present.to(e.dtype)[..., None]
    em = e * m
    mean = em.sum(1) / m.sum(1).clamp(min=1.0)
    if not signed:
        return torch.cat([mean, em.amax(1)], -1)
    top = e.masked_fill(~present[..., None], float("-inf")).amax(1)
    return torch.cat([mean, torch.where(present.any(1)[:, None], top, 0.0)], -1)


class EntityActor(nn.Module):
    """Shared policy of every hero over entities (module docstring). ``hidden``: the
    context MLP's layer sizes (its last is ``feat_dim``, what the value head reads);
    ``dim``: each entity row's embedding size; ``blocks``: transformer blocks over the rows
    of every kind before pooling and scoring (0: each row is scored from its own encoding,
    DeepSets)."""

    sparse_input = False  # reads the whole observation (``Actor.features``' cols unused)

    def __init__(self, obs_dim: int, n_actions: int, hidden: list[int], dim: int = 32,
                 blocks: int = 0) -> None:
        super().__init__()
        if (obs_dim, n_actions) != (OBS_DIM, N_ACTIONS):
            raise ValueError(f"the entity network reads this env version's spaces "
                             f"({OBS_DIM} floats, {N_ACTIONS} actions), not "
                             f"({obs_dim}, {n_actions})")
        if not hidden or min(hidden) < 1 or dim < 1 or blocks < 0:
            raise ValueError(f"hidden must list positive sizes, dim be positive and blocks "
                             f">= 0, got {hidden}, {dim}, {blocks}")
        self.kinds = nn.ModuleList(_Kind(g, dim, hidden[-1]) for g in E.GROUPS)
        self.register_buffer("ctx_cols", torch.from_numpy(E.context_columns()),
                             persistent=False)
        self.blocks = nn.ModuleList(_Block(dim) for _ in range(blocks))
        if blocks:
            # which kind a row is, and the context as one more row every row can read
            self.kind_embed = nn.Parameter(torch.zeros(len(self.kinds), dim))
            self.ctx_token = layer_init(nn.Linear(len(self.ctx_cols), dim))
        self.register_buffer("order", torch.from_numpy(E.action_order()), persistent=False)
        layers: list[nn.Module] = []
        d = len(self.ctx_cols) + 2 * dim * len(self.kinds)
        for h in hidden:
            layers += [layer_init(nn.Linear(d, h)), nn.ReLU()]
            d = h
        self.trunk = nn.Sequential(*layers)
        self.ctx_head = layer_init(nn.Linear(d, len(E.context_actions())), std=0.01)
        self.feat_dim = d

    def context(self, obs: torch.Tensor) -> tuple[torch.Tensor, list]:
        """The game-wide context [B, feat_dim] of observations ``obs`` [B, OBS_DIM] and
        each kind's ``_Kind.embed`` result (the SB3 features extractor reads the context
        alone)."""
        embedded = [k.embed(k.rows_of(obs)) for k in self.kinds]
        ctx_floats = obs.index_select(1, self.ctx_cols)
        if self.blocks:
            embedded = self.mix(embedded, ctx_floats)
        pools = [masked_pools(e, p, signed=bool(self.blocks)) for e, p, _ in embedded]
        return self.trunk(torch.cat([ctx_floats, *pools], -1)), embedded

    def mix(self, embedded: list, ctx_floats: torch.Tensor) -> list:
        """``embedded`` after the transformer blocks: every kind's rows (present in the
        batch) and a context token in one sequence, each row present in a game attending
        to the rows present in that game and to the token."""
        rows = [e + self.kind_embed[i].to(e.dtype) for i, (e, _, _) in enumerate(embedded)]
        token = self.ctx_token(ctx_floats)[:, None, :]
        x = torch.cat([token.to(rows[0].dtype), *rows], 1)
        token_key = torch.ones(x.shape[0], 1, dtype=torch.bool, device=x.device)
        keys = torch.cat([token_key, *(p for _, p, _ in embedded)], 1)
        for block in self.blocks:
            x = block(x, keys)
        out, start = [], 1
        for e, p, idx in embedded:
            # a row absent from its game keeps its own encoding, as a row absent from the
            # whole batch does (``_Kind.logits``): no game reads another game's rows
            mixed = x[:, start:start + e.shape[1]]
            out.append((torch.where(p[..., None], mixed, e.to(mixed.dtype)), p, idx))
            start += e.shape[1]
        return out

    def features(self, obs: torch.Tensor, cols: torch.Tensor | None = None,
                 first: torch.Tensor | None = None) -> torch.Tensor:
        """``[ctx, logits]`` [B, feat_dim + N_ACTIONS] of observations ``obs`` [B, OBS_DIM]
        (unmasked logits in float32 precision). ``first`` (the MLP's first-layer columns,
        ``Actor.features``) is never given to this network: it has no such layer."""
        if cols is not None:  # a column subset: put it back in place
            obs = obs.new_zeros(obs.shape[0], OBS_DIM).index_copy_(1, cols, obs)
        ctx, embedded = self.context(obs)
        parts = [k.logits(e, idx, ctx)
                 for k, (e, _, idx) in zip(self.kinds, embedded, strict=True) if k.kinds]
        with torch.autocast(device_type=ctx.device.type, enabled=False):
            parts.append(self.ctx_head(ctx.float()))
            logits = torch.cat([p.float() for p in parts], -1).index_select(1, self.order)
        return torch.cat([ctx.float(), logits], -1)

    def value_features(self, h: torch.Tensor) -> torch.Tensor:
        """The part of ``features`` the value head reads: the context [B, feat_dim]."""
        return h[:, :self.feat_dim]

    def log_probs_of(self, h: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Log-probabilities over the legal actions from ``features`` ``h``."""
        return masked_log_softmax(h[:, self.feat_dim:].float(), mask)

    def log_probs_on(self, h: torch.Tensor, mask: torch.Tensor) -> LegalLogProbs:
        """``log_probs_of`` as the trainers read it (every action's column)."""
        return LegalLogProbs(self.log_probs_of(h, mask), None)

    def log_probs(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Log-probabilities [B, N_ACTIONS] over the legal actions only (``mask`` bool)."""
        return self.log_probs_of(self.features(obs), mask)
