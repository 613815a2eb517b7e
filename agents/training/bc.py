"""Behaviour cloning: an actor that predicts recorded actions from recorded observations.

The recorded games come from either source the project writes:

- **datasets** (``hon_env.datasets``: ``scripts/record_dataset.py``'s ``.npz`` or a Minari
  dataset), one decision per step with its observation and legal mask;
- **replays** (``hon_env.replay``: what ``hon-play`` saves, what every env's ``replay()``
  returns), which hold only the seed, the scenario and the actions: ``replay_episodes``
  plays them again on the engine to recover each decision's observation and mask. A
  replay's ``players`` names who sat in each seat, so ``players=("human",)`` keeps only the
  decisions people made: the route from human games to a human-proxy partner, as
  Overcooked-AI builds its proxies.

``behaviour_cloning`` trains the actor of a trainer config (``network``: ``mlp`` or
``entity``, ``agents.networks.build_actor``) by cross-entropy over the legal actions and
scores it on held-out episodes; ``save_checkpoint`` writes it in the checkpoint format every
policy loader reads (``algo: bc``), so ``load_policy(path)`` plays it and a shipped copy is
``load_policy("bc:TASK")``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from agents.networks import build_actor
from agents.training.league import HEROES, side_rows
from hon_env.core.observe import OBS_DIM
from hon_env.spec.layout import N_ACTIONS

EVAL_CHUNK = 4096  # decisions per forward pass when scoring (bounds memory)
PRETRAIN_ENVS = 256  # games a trainer's warm start records at once
PRETRAIN_SEED = 7_000_003  # added to the run's seed: the cloned games are not the trained ones
PRETRAIN_CHUNK = 64  # steps of those games recorded, then cloned, at a time (bounds memory)


@dataclass
class Transitions:
    """Decisions to clone: ``obs`` float32 [T, OBS_DIM], ``masks`` bool [T, N_ACTIONS],
    ``actions`` int64 [T], and the episode each came from (``episode`` [T])."""

    obs: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    episode: np.ndarray

    def __len__(self) -> int:
        return len(self.actions)

    def subset(self, rows: np.ndarray) -> Transitions:
        return Transitions(self.obs[rows], self.masks[rows], self.actions[rows],
                           self.episode[rows])


def transitions(episodes: Sequence[dict]) -> Transitions:
    """The decisions of ``episodes`` (``hon_env.datasets`` episode dicts): each action with
    the observation and mask it answered; the final observation of each episode is
    dropped, and so are the steps an episode's optional ``keep`` [N] marks False."""
    if not episodes:
        raise ValueError("no episodes to clone")
    parts = []
    for k, e in enumerate(episodes):
        n = len(e["actions"])
        keep = np.asarray(e.get("keep", np.ones(n, bool)), bool)
        obs = e["observations"]["observation"][:-1][keep]
        masks = e["observations"]["action_mask"][:-1][keep].astype(bool)
        actions = np.asarray(e["actions"], np.int64)[keep]
        if obs.shape[1:] != (OBS_DIM,) or masks.shape[1:] != (N_ACTIONS,):
            raise ValueError(f"episode {k}: observations {obs.shape[1:]} and masks "
                             f"{masks.shape[1:]}, this env version has ({OBS_DIM},) and "
                             f"({N_ACTIONS},)")
        if len(actions) and not masks[np.arange(len(actions)), actions].all():
            raise ValueError(f"episode {k}: a recorded action is not legal under its mask")
        parts.append((obs, masks, actions, np.full(len(actions), k, np.int64)))
    obs, masks, actions, episode = (np.concatenate(p) for p in zip(*parts, strict=True))
    if not len(actions):
        raise ValueError("the episodes hold no decision to clone (every step filtered out)")
    return Transitions(obs.astype(np.float32, copy=False), masks, actions, episode)


def replay_files(paths: Iterable[str | Path]) -> list[Path]:
    """The replay files named by ``paths``: files as given, folders searched for
    ``*.json`` (sorted); ``ValueError`` for a path that does not exist or finds none."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found = sorted(p.rglob("*.json"))
            if not found:
                raise ValueError(f"{p}: no *.json replay in this folder")
            out += found
        elif p.is_file():
            out.append(p)
        else:
            raise ValueError(f"{p}: no such replay file or folder")
    return out


def replay_episodes(paths: Iterable[str | Path], players: Sequence[str] | None = None
                    ) -> list[dict[str, Any]]:
    """Replays played again into episode dicts (``transitions`` reads them): every
    decision's observation and legal mask from the engine, the action and seat from the
    replay. With ``players``, only the decisions of seats whose recorded player is one of
    them are kept (``keep``), e.g. ``("human",)``. A replay whose action the engine
    refuses (another engine version, an edited file) is a ``ValueError`` naming the file
    and the action's index."""
    from hon_env.replay import Replay

    episodes = []
    for path in replay_files(paths):
        replay = Replay.load(path)
        obs, masks, seats, actions = [], [], [], []
        try:
            for game, action in replay.positions():
                obs.append(np.array(game.observation(), np.float32))  # moves on in place
                masks.append(np.array(game.legal_mask(), np.int8))
                if action is not None:
                    seats.append(game.current_seat)
                    actions.append(action)
        except (ValueError, TypeError, RuntimeError) as exc:
            # the generator applies an action after yielding it: the last one listed
            raise ValueError(f"{path}: the engine refuses action {max(len(actions) - 1, 0)} "
                             f"of the replay: {exc}") from exc
        seats_arr = np.asarray(seats, np.int8)
        keep = np.ones(len(actions), bool)
        if players is not None:
            who = [replay.players[s] if s < len(replay.players) else "unknown"
                   for s in seats_arr]
            keep = np.isin(np.asarray(who, dtype=object), list(players))
        episodes.append({"source": str(path),
                         "observations": {"observation": np.asarray(obs, np.float32),
                                          "action_mask": np.asarray(masks, np.int8)},
                         "actions": np.asarray(actions, np.int64), "seats": seats_arr,
                         "keep": keep})
    return episodes


@dataclass
class CloneResult:
    """What ``behaviour_cloning`` returns: the actor, its config, the training loss per
    step and the share of decisions its greedy choice matches (train and held out)."""

    actor: nn.Module
    config: dict[str, Any]
    losses: list[float] = field(default_factory=list)
    train_accuracy: float = float("nan")
    heldout_accuracy: float = float("nan")
    heldout_loss: float = float("nan")


@torch.no_grad()
def score(actor: nn.Module, data: Transitions) -> tuple[float, float]:
    """(accuracy of the greedy legal action, mean cross-entropy) of ``actor`` on ``data``."""
    hits, nll = 0.0, 0.0
    for start in range(0, len(data), EVAL_CHUNK):
        sl = slice(start, start + EVAL_CHUNK)
        logp = actor.log_probs(torch.from_numpy(data.obs[sl]), torch.from_numpy(data.masks[sl]))
        a = torch.from_numpy(data.actions[sl])
        hits += float((logp.argmax(-1) == a).sum())
        nll -= float(logp.gather(1, a[:, None]).sum())
    return hits / len(data), nll / len(data)


def split_episodes(data: Transitions, heldout: float, seed: int
                   ) -> tuple[Transitions, Transitions | None]:
    """Whole episodes apart for scoring (a share ``heldout`` of them, at least one when
    there are two or more): decisions of one game are too alike to score each other."""
    if not 0.0 <= heldout < 1.0:
        raise ValueError(f"heldout must lie in [0, 1), got {heldout}")
    ids = np.unique(data.episode)
    n_out = int(round(heldout * len(ids)))
    if heldout > 0 and len(ids) > 1:
        n_out = max(n_out, 1)
    if n_out == 0:
        return data, None
    out_ids = np.random.default_rng(seed).choice(ids, n_out, replace=False)
    held = np.isin(data.episode, out_ids)
    return data.subset(np.flatnonzero(~held)), data.subset(np.flatnonzero(held))


def behaviour_cloning(data: Transitions | Sequence[dict], steps: int = 200, batch: int = 256,
                      hidden: Sequence[int] = (256, 256), lr: float = 1e-3, seed: int = 0,
                      network: str = "mlp", heldout: float = 0.0) -> CloneResult:
    """Train an actor (``network``, ``hidden``) to predict the recorded actions: Adam on
    the cross-entropy over the legal actions, ``steps`` minibatches of ``batch`` decisions
    drawn uniformly. ``heldout``: the share of episodes kept out of training and scored."""
    if not isinstance(data, Transitions):
        data = transitions(data)
    if steps < 1 or batch < 1:
        raise ValueError(f"steps and batch must be positive, got {steps} and {batch}")
    train, held = split_episodes(data, heldout, seed)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    config = {"algo": "bc", "network": network, "hidden": [int(h) for h in hidden],
              "lr": lr, "steps": steps, "batch": batch, "seed": seed,
              "decisions": len(train), "episodes": int(len(np.unique(train.episode)))}
    actor = build_actor(config, OBS_DIM, N_ACTIONS)
    opt = torch.optim.Adam(actor.parameters(), lr=lr)
    o, m, a = (torch.from_numpy(x) for x in (train.obs, train.masks, train.actions))
    losses = []
    for _ in range(steps):
        idx = torch.from_numpy(rng.integers(0, len(a), min(batch, len(a))))
        logp = actor.log_probs(o[idx], m[idx])
        loss = -logp.gather(1, a[idx, None]).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(float(loss.detach()))
    actor.eval()
    result = CloneResult(actor, config, losses)
    result.train_accuracy, _ = score(actor, train)
    if held is not None:
        result.heldout_accuracy, result.heldout_loss = score(actor, held)
    return result


def save_checkpoint(result: CloneResult, path: str | Path, half: bool = False,
                    source: dict[str, Any] | None = None) -> Path:
    """Write the cloned actor where ``load_policy(path)`` reads it (``algo: bc``, the
    MAPPO checkpoint's playing entries; float16 weights when ``half``). ``source`` (what
    was cloned: dataset, policy, games) is stored in the config."""
    config = dict(result.config, heldout_accuracy=result.heldout_accuracy,
                  train_accuracy=result.train_accuracy, source=dict(source or {}))
    state = {k: (v.half() if half and v.is_floating_point() else v)
             for k, v in result.actor.state_dict().items()}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"algo": "bc", "config": config, "global_step": 0, "obs_dim": OBS_DIM,
                "n_actions": N_ACTIONS, "actor": state}, path)
    return path


def teacher_chunks(scenario: Any, decisions: int, seed: int, teacher: Any = None,
                   chunk_steps: int = PRETRAIN_CHUNK, villain: Any = None
                   ) -> Iterator[Transitions]:
    """About ``decisions`` hero decisions (whole steps of ``PRETRAIN_ENVS`` games) of
    ``teacher`` (default: the coordinated scripted team) in every hero seat of games of
    ``scenario`` (a scenario or a pool, ``VectorEnv``'s argument) from game seed ``seed``,
    in chunks of ``chunk_steps`` steps: the data a trainer's warm start clones, streamed so
    that a million decisions never sit in memory at once (4,450 floats each). Where the
    villain is an agent (Mastermind), ``villain`` (a ``Policy``) plays its rows, which are
    not recorded. ``episode`` is the game's slot in the batch; ``chunk_steps`` at least
    the steps needed records everything as one chunk."""
    from agents.scripted import CoordinatedPolicy
    from agents.villains import VersusPolicy
    from hon_env.envs.vector import VectorEnv

    env = VectorEnv(PRETRAIN_ENVS, seed, scenario, global_state=False)
    player = teacher or CoordinatedPolicy()
    if env.villain_agent:
        if villain is None:
            raise ValueError("the villain of this scenario is an agent: name the villain "
                             "policy the teacher's heroes play against")
        player = VersusPolicy(player, villain)
    obs, _ = env.reset()
    left = decisions
    while left > 0:
        xs, ms, ys, slots = [], [], [], []
        recorded = 0
        for _ in range(chunk_steps):
            if recorded >= left:
                break
            a = player.act(obs["observation"], obs["action_mask"], obs["agent"],
                           engine=env.engine)
            heroes = np.flatnonzero(side_rows(obs["agent"], HEROES))
            xs.append(obs["observation"][heroes])
            ms.append(obs["action_mask"][heroes].astype(bool, copy=False))
            ys.append(np.asarray(a, np.int64)[heroes])
            slots.append(heroes)
            recorded += heroes.size
            obs, *_ = env.step(a)
        left -= recorded
        yield Transitions(np.concatenate(xs), np.concatenate(ms), np.concatenate(ys),
                          np.concatenate(slots))


def clone_into(actor: nn.Module, chunks: Iterable[Transitions], epochs: int, lr: float,
               batch: int = 2048, seed: int = 0,
               before_step: Callable[[], None] | None = None) -> float:
    """Warm-start ``actor`` (``log_probs(obs, mask)``, on its own device) by behaviour
    cloning: ``epochs`` passes of Adam at ``lr`` on the cross-entropy over the legal
    actions, in shuffled minibatches of ``batch``, over each chunk of ``chunks`` in turn
    (``teacher_chunks``). ``before_step`` runs after each backward pass (a data-parallel
    run averages its gradients there). Returns the mean cross-entropy of the last chunk's
    last pass."""
    device = next(actor.parameters()).device
    opt = torch.optim.Adam(actor.parameters(), lr=lr)
    gen = np.random.default_rng(seed)
    last: list[float] = []
    for data in chunks:
        o, m, a = (torch.from_numpy(x).to(device) for x in (data.obs, data.masks,
                                                           data.actions))
        for _ in range(epochs):
            last = []
            for idx in np.array_split(gen.permutation(len(a)), max(1, len(a) // batch)):
                i = torch.from_numpy(idx).to(device)
                loss = -actor.log_probs(o[i], m[i]).gather(1, a[i, None]).mean()
                opt.zero_grad()
                loss.backward()
                if before_step is not None:
                    before_step()
                opt.step()
                last.append(float(loss.detach()))
    return float(np.mean(last)) if last else float("nan")
