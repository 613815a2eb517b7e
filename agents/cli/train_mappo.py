"""MAPPO and IPPO on the batched engine: one shared masked actor; the critic values the
global state (MAPPO) or the deciding hero's own observation (IPPO, ``--algo ippo``).

    hon-train                                       # configs/train/mappo.yaml
    hon-train --algo ippo                           # the same with the IPPO critic
    hon-train --task duo                            # a benchmark task (hon_env.tasks)
    hon-train --total-steps 200000 --run-dir runs/try
    hon-train --resume runs/mappo/checkpoints/step_1000000.pt
    python scripts/train_mappo.py --help            # the same, from a checkout

CleanRL-style and in one file: the rollout, GAE and the clipped PPO update are below.
The heroes of every game act in turn (whoever holds the decision), so a rollout step is
one decision per game: the actor sees the deciding hero's observation (its seat is one-hot
in it) and samples from the legal actions only; the critic values the global state
(``algo: mappo``) or, for IPPO (``algo: ippo``), the same observation the actor sees.
With ``shared_trunk`` (the default) actor and critic share one trunk: the critic is a
small value head on the actor's last hidden layer plus, for MAPPO, the global state's
sections the deciding hero cannot see (every seat's hand, the villain agent's hand). The
first layer multiplies only the observation columns that are not 0 somewhere in the
batch (``agents.networks.live_columns``; about a quarter of them), which gives the full
layer's result for a fraction of the work.
Rewards are the team's (+1 win, -1 loss, plus the config's event shaping), the same for
every hero. The vector env resets finished games itself; a truncated episode is treated
as ended (no bootstrap), as in CleanRL.

Kickstarting (Schmitt et al., 2018), off unless ``kickstart_coef > 0``: for the first
``kickstart_steps`` steps the loss adds ``coef * cross-entropy`` between the actor and the
coordinated scripted team's action in each visited state (``load_policy("heuristic")``;
the coefficient decays linearly to 0), so PPO starts from the scripted team's behaviour
instead of from random play, which never wins.

``task: NAME`` (``--task NAME``) trains on the task's training split and evaluates on its
evaluation games (``agents.training.games``); the run refuses seeds that would reach them.

Writes to ``run_dir`` what ``hon-train --algo ppo`` writes, under the same names:
``config.yaml``, ``train.csv`` (one row per update: the columns of
``agents.training.logger.TRAIN_METRICS`` -- episode return, win and loss rates, losses,
entropy, KL, clip fraction, learning rate, steps/s -- plus ``kickstart_coef``,
``kickstart_loss``, ``rollout_s``, ``learn_s``), ``eval.csv`` (greedy win rate with 95%
interval next to the random and scripted baselines, every ``eval_every`` steps),
TensorBoard events in ``tb/``, ``checkpoints/step_<N>.pt`` and ``final.pt`` (load with
``agents.load_policy``). Each phase (training, evaluation) prints a line.
"""

# ruff: noqa: E402  (the environment variable below must be set before torch loads)
from __future__ import annotations

import os

# torch's OpenMP workers must not spin between calls: the engine's threads need the cores
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import copy
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from torch import nn

from agents.checkpoints import CheckpointError, load_checkpoint, load_weights
from agents.coordinated import CoordinatedPolicy
from agents.networks import (
    Actor,
    Critic,
    TrunkCritic,
    ValueNorm,
    bf16_is_fast,
    entropy,
    live_columns,
    sample,
)
from agents.trained import MappoPolicy
from agents.training.baselines import BaselineEvaluator, eval_summary, print_result
from agents.training.config import RunConfig, config_dict, parse_config
from agents.training.games import run_games
from agents.training.logger import RunLogger, checkpoint_path
from hon_env.content.loader import TRAIN_CONFIGS_DIR
from hon_env.core import layout as L
from hon_env.core.observe import OBS_DIM, STATE_DIM
from hon_env.envs.vector import VectorEnv

DEFAULT_CONFIG = TRAIN_CONFIGS_DIR / "mappo.yaml"
ALGOS = ("mappo", "ippo")


@dataclass
class Config(RunConfig):
    run_dir: str = "runs/mappo"
    algo: str = "mappo"
    """mappo: the critic values the global state(); ippo: the critic values the deciding
    hero's own observation (independent PPO with one shared actor and critic)"""
    total_steps: int = 2_000_000
    eval_every: int = 500_000
    checkpoint_every: int = 1_000_000
    num_envs: int = 1024
    """games stepped together (one decision each per rollout step)"""
    num_steps: int = 32
    """rollout steps per update (batch = num_envs * num_steps decisions)"""
    lr: float = 5e-4
    """Adam learning rate"""
    anneal_lr: bool = True
    """decay the learning rate linearly to 5% of lr over total_steps"""
    gamma: float = 0.995
    """discount factor"""
    gae_lambda: float = 0.95
    """lambda of generalized advantage estimation"""
    num_minibatches: int = 16
    """minibatches per update epoch"""
    update_epochs: int = 2
    """passes over each rollout batch"""
    clip_coef: float = 0.2
    """PPO ratio clipping range"""
    ent_coef: float = 0.01
    """weight of the entropy bonus (over legal actions)"""
    vf_coef: float = 0.5
    """weight of the value loss"""
    max_grad_norm: float = 0.5
    """gradient norm clip"""
    hidden: list[int] = field(default_factory=lambda: [512, 512])
    """hidden layer sizes of the actor (and of the critic, without shared_trunk)"""
    shared_trunk: bool = True
    """one trunk for actor and critic: the critic is a value head on the actor's last
    hidden layer plus, for MAPPO, the state's sections the deciding hero cannot see (the
    hands); false: a separate critic MLP over the whole global state (or observation)"""
    critic_hidden: list[int] = field(default_factory=lambda: [256])
    """hidden layer sizes of the value head on the shared trunk (shared_trunk only)"""
    value_norm: bool = True
    """normalise value targets with running statistics"""
    kickstart_coef: float = 0.0
    """initial weight of the cross-entropy to the scripted team's action (0: off)"""
    kickstart_steps: int = 0
    """steps over which the kickstart weight decays linearly to 0"""
    amp: str = "auto"
    """bf16 autocast of the hidden layers: auto (where fast), true or false"""
    threads: int = 0
    """torch CPU threads (0: torch's default)"""

    def check(self) -> None:
        self.check_positive("num_envs", "num_steps", "num_minibatches", "update_epochs")
        if (self.num_envs * self.num_steps) % self.num_minibatches:
            raise ValueError("num_envs * num_steps must divide into num_minibatches")
        if self.algo not in ALGOS:
            raise ValueError(f"algo must be one of {', '.join(ALGOS)}, got {self.algo!r}")
        if self.amp not in ("auto", "true", "false"):
            raise ValueError(f"amp must be auto, true or false, got {self.amp!r}")
        if not self.hidden or min(self.hidden) < 1:
            raise ValueError(f"hidden must list positive layer sizes, got {self.hidden}")
        if self.critic_hidden and min(self.critic_hidden) < 1:
            raise ValueError("critic_hidden must list positive layer sizes (or none), got "
                             f"{self.critic_hidden}")


def pick_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def kick_coef(cfg: Config, step: int) -> float:
    """Weight of the imitation term at ``step``: linear decay to 0 at kickstart_steps."""
    if cfg.kickstart_coef <= 0 or step >= cfg.kickstart_steps:
        return 0.0
    return cfg.kickstart_coef * (1.0 - step / cfg.kickstart_steps)


def save_checkpoint(path: Path, cfg: Config, actor: Actor, critic: Critic | TrunkCritic,
                    vnorm: ValueNorm,
                    opt: torch.optim.Optimizer, global_step: int, env: VectorEnv) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({
        "algo": "mappo", "config": config_dict(cfg), "global_step": global_step,
        "obs_dim": env.observation_dim, "state_dim": env.state_dim,
        "n_actions": env.n_actions, "actor": actor.state_dict(),
        "critic": critic.state_dict(), "value_norm": vnorm.state_dict(),
        "optimizer": opt.state_dict(),
    }, path)


def train(cfg: Config) -> dict[str, float]:
    """Run the training loop; returns the last evaluation row."""
    cfg.check()
    if cfg.threads > 0:
        torch.set_num_threads(cfg.threads)
    device = pick_device(cfg.device)
    torch.manual_seed(cfg.seed)
    B, S = cfg.num_envs, cfg.num_steps
    batch = B * S
    mb = batch // cfg.num_minibatches
    ippo = cfg.algo == "ippo"
    shared = cfg.shared_trunk

    global_step = 0
    ckpt = None
    if cfg.resume:
        ckpt = load_checkpoint(cfg.resume, device)  # tensors and plain data only
        for key in ("critic", "value_norm", "optimizer", "global_step"):
            if key not in ckpt:
                raise CheckpointError(f"{cfg.resume}: cannot resume: missing key {key!r}")
        saved = ckpt["config"].get("algo", "mappo")
        if saved != cfg.algo:
            raise CheckpointError(f"{cfg.resume}: trained with algo {saved}; resume it with "
                                  f"--algo {saved}, not {cfg.algo}")
        saved_shared = bool(ckpt["config"].get("shared_trunk", False))
        if saved_shared != shared:
            flag = str(saved_shared).lower()
            raise CheckpointError(f"{cfg.resume}: trained with shared_trunk {flag}; resume it "
                                  f"with --shared-trunk {flag}")
        global_step = int(ckpt["global_step"])
    # resumed runs continue with fresh episodes: seeds move on with the step count; game i's
    # k-th episode plays seed + i + k * B, so the run's seeds span B + the steps left + B
    seed = cfg.seed * 1_000_003 + global_step
    games = run_games(cfg, [(seed, cfg.total_steps - global_step + 2 * B)])
    scenario = games.scenario

    actor = Actor(OBS_DIM, L.N_ACTIONS, cfg.hidden).to(device)
    # what the critic reads besides the trunk (shared), or instead of it (separate): the
    # state's sections past seat 0's observation, the whole state, or (IPPO) the observation
    extra_dim = 0 if ippo else STATE_DIM - OBS_DIM
    if shared:
        critic = TrunkCritic(cfg.hidden[-1], extra_dim, cfg.critic_hidden).to(device)
    else:
        critic = Critic(OBS_DIM if ippo else STATE_DIM, cfg.hidden).to(device)
    vnorm = ValueNorm().to(device)
    params = list(actor.parameters()) + list(critic.parameters())
    # the fused kernel does Adam's per-parameter arithmetic in one pass (CPU and CUDA)
    opt = torch.optim.Adam(params, lr=cfg.lr, eps=1e-5, fused=True)
    if ckpt is not None:
        load_weights(cfg.resume, actor, ckpt["actor"], "actor")
        load_weights(cfg.resume, critic, ckpt["critic"], "critic")
        load_weights(cfg.resume, vnorm, ckpt["value_norm"], "value_norm")
        load_weights(cfg.resume, opt, ckpt["optimizer"], "optimizer")
    env = VectorEnv(B, seed, scenario, reward_shaping=cfg.reward_shaping)
    evaluator = BaselineEvaluator(games.eval_scenario, games.eval_games, games.eval_seed)
    log = RunLogger(cfg.run_dir, cfg, cfg.total_steps, tensorboard=cfg.tensorboard,
                    progress=cfg.progress, start_step=global_step)

    # bf16 autocast for the hidden layers (heads stay float32; see agents/networks.py)
    amp = bf16_is_fast(device) if cfg.amp == "auto" else cfg.amp == "true"
    autocast = torch.autocast(device.type, dtype=torch.bfloat16, enabled=amp)
    # under autocast the first layer reads bf16 anyway: storing observations in bf16 halves
    # the rollout buffer and saves a cast per minibatch without changing a result
    obs_b = torch.zeros((S, B, OBS_DIM), device=device,
                        dtype=torch.bfloat16 if amp else torch.float32)
    # the critic's own input (see extra_dim); IPPO's separate critic reads obs_b
    critic_cols = slice(OBS_DIM, STATE_DIM) if shared else slice(0, STATE_DIM)
    state_b = None
    if not ippo:
        state_b = torch.zeros((S, B, critic_cols.stop - critic_cols.start), device=device)
    elif not shared:
        state_b = obs_b
    mask_b = torch.zeros((S, B, env.n_actions), dtype=torch.bool, device=device)
    act_b = torch.zeros((S, B), dtype=torch.long, device=device)
    logp_b = torch.zeros((S, B), device=device)
    rew_b = torch.zeros((S, B), device=device)
    done_b = torch.zeros((S, B), device=device)
    val_b = torch.zeros((S, B), device=device)
    teacher_b = torch.zeros((S, B), dtype=torch.long, device=device)
    teacher = CoordinatedPolicy()
    returns_now = np.zeros(B, np.float64)  # team return of each game's running episode

    def policy_and_value(ob: torch.Tensor, mask: torch.Tensor, critic_in: torch.Tensor | None,
                         cols: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked log-probabilities and normalised values of a batch (the shared trunk
        runs once for both); ``cols``: ``ob`` holds only these observation columns, the
        others being 0 (``Actor.features``)."""
        h = actor.features(ob, cols)
        logp = actor.log_probs_of(h, mask)
        return logp, critic(h, critic_in) if shared else critic(critic_in)

    def critic_input(o: dict[str, np.ndarray]) -> torch.Tensor | None:
        if ippo:
            return None if shared else torch.from_numpy(o["observation"]).to(device)
        return torch.from_numpy(o["state"][:, critic_cols]).to(device)

    obs, _ = env.reset()
    next_done = torch.zeros(B, device=device)
    n_updates = max(1, (cfg.total_steps - global_step + batch - 1) // batch)
    next_eval = (global_step // cfg.eval_every + 1) * cfg.eval_every
    next_ckpt = (global_step // cfg.checkpoint_every + 1) * cfg.checkpoint_every
    last_eval: dict[str, float] = {}
    start = time.perf_counter()
    eval_s = 0.0  # evaluation time, left out of the steps/s figures
    start_step = global_step
    log.phase("train", f"{cfg.algo.upper()} from step {global_step:,} to "
                       f"{cfg.total_steps:,}: {B} games x {S} steps per update, device {device}")
    for update in range(n_updates):
        if cfg.anneal_lr:
            frac = 1.0 - min(1.0, global_step / cfg.total_steps)
            opt.param_groups[0]["lr"] = max(frac, 0.05) * cfg.lr
        t_roll = time.perf_counter()
        wins = losses = ended = 0
        seen = np.zeros(OBS_DIM, bool)  # observation columns not 0 in this rollout
        ended_returns = []
        for step in range(S):
            obs_b[step].copy_(torch.from_numpy(obs["observation"]))
            if not ippo:
                state_b[step].copy_(torch.from_numpy(obs["state"][:, critic_cols]))
            mask_b[step].copy_(torch.from_numpy(obs["action_mask"]).bool())
            done_b[step] = next_done
            kick = kick_coef(cfg, global_step)
            if kick > 0:
                teacher_b[step].copy_(torch.from_numpy(teacher.act(
                    obs["observation"], obs["action_mask"], obs["agent"], engine=env.engine)))
            with torch.no_grad(), autocast:
                cols = torch.from_numpy(live_columns(obs["observation"], seen)).to(device)
                logp_all, value = policy_and_value(
                    obs_b[step][:, cols], mask_b[step],
                    None if state_b is None else state_b[step], cols)
                action = sample(logp_all)
                logp_b[step] = logp_all.gather(1, action[:, None]).squeeze(1)
                val_b[step] = vnorm.denormalize(value)
            act_b[step] = action
            obs, rewards, term, trunc, info = env.step(action.cpu().numpy())
            rew_b[step].copy_(torch.from_numpy(rewards[:, 0]))
            returns_now += rewards[:, 0]
            done = term | trunc
            next_done = torch.from_numpy(done.astype(np.float32)).to(device)
            if done.any():
                ended_returns.extend(returns_now[done].tolist())
                returns_now[done] = 0.0
                out = info["final_outcome"][info["_final"]]
                ended += len(out)
                wins += int((out == L.OUT_WIN).sum())
                losses += int((out == L.OUT_LOSS).sum())
        global_step += batch
        t_roll = time.perf_counter() - t_roll

        t_learn = time.perf_counter()
        with torch.no_grad(), autocast:
            ob = torch.from_numpy(obs["observation"]).to(device)
            if shared:
                next_value = critic(actor.features(ob), critic_input(obs))
            else:
                next_value = critic(critic_input(obs))
            next_value = vnorm.denormalize(next_value)
            adv = torch.zeros_like(rew_b)
            last = torch.zeros(B, device=device)
            for t in reversed(range(S)):
                if t == S - 1:
                    nonterminal, nv = 1.0 - next_done, next_value
                else:
                    nonterminal, nv = 1.0 - done_b[t + 1], val_b[t + 1]
                delta = rew_b[t] + cfg.gamma * nv * nonterminal - val_b[t]
                last = delta + cfg.gamma * cfg.gae_lambda * nonterminal * last
                adv[t] = last
            returns = adv + val_b

        # the first layer reads only the observation columns that are not 0 somewhere in
        # the batch (a quarter of them at 4 heroes): the same result for less work
        cols = torch.from_numpy(np.flatnonzero(seen)).to(device)
        f_obs = obs_b.reshape(batch, -1)[:, cols]
        f_state = None if state_b is None else state_b.reshape(batch, -1)
        f_mask = mask_b.reshape(batch, -1)
        f_act, f_logp = act_b.reshape(-1), logp_b.reshape(-1)
        f_adv, f_ret = adv.reshape(-1), returns.reshape(-1)
        f_teacher = teacher_b.reshape(-1)
        kick_loss = torch.zeros(())
        if cfg.value_norm:
            vnorm.update(f_ret)
        target = vnorm.normalize(f_ret) if cfg.value_norm else f_ret
        clipfracs, kls = [], []  # tensors, read once per update (no device sync per batch)
        for _ in range(cfg.update_epochs):
            perm = torch.randperm(batch, device=device)
            for i in range(0, batch, mb):
                idx = perm[i:i + mb]
                with autocast:
                    logp_all, v = policy_and_value(
                        f_obs[idx], f_mask[idx], None if f_state is None else f_state[idx], cols)
                logp = logp_all.gather(1, f_act[idx, None]).squeeze(1)
                ratio = (logp - f_logp[idx]).exp()
                a = f_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg_loss = torch.max(-a * ratio,
                                    -a * ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef)).mean()
                ent = entropy(logp_all).mean()
                v_loss = 0.5 * ((v - target[idx]) ** 2).mean()
                loss = pg_loss - cfg.ent_coef * ent + cfg.vf_coef * v_loss
                if kick > 0:
                    kick_loss = -logp_all.gather(1, f_teacher[idx, None]).mean()
                    loss = loss + kick * kick_loss
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(params, cfg.max_grad_norm)
                opt.step()
                with torch.no_grad():
                    clipfracs.append(((ratio - 1).abs() > cfg.clip_coef).float().mean())
                    # CleanRL's estimator of KL(old || new): mean of (ratio - 1) - log ratio
                    kls.append(((ratio - 1) - (logp - f_logp[idx])).mean())
        approx_kl = torch.stack(kls).mean().item()  # waits for the device's queued work
        clip_fraction = torch.stack(clipfracs).mean().item()
        t_learn = time.perf_counter() - t_learn

        sps = (global_step - start_step) / (time.perf_counter() - start - eval_s)
        row = {"episode_return": float(np.mean(ended_returns)) if ended else float("nan"),
               "episode_win_rate": wins / ended if ended else float("nan"),
               "episode_loss_rate": losses / ended if ended else float("nan"),
               "episodes": ended, "policy_loss": pg_loss.item(), "value_loss": v_loss.item(),
               "entropy": ent.item(), "approx_kl": approx_kl,
               "clip_fraction": clip_fraction, "lr": opt.param_groups[0]["lr"],
               "steps_per_s": sps, "kickstart_coef": kick, "kickstart_loss": kick_loss.item(),
               "rollout_s": t_roll, "learn_s": t_learn}
        log.log("train", global_step, row)
        log.progress(global_step, sps=sps, win=row["episode_win_rate"])
        final = update == n_updates - 1
        if global_step >= next_ckpt or final:
            save_checkpoint(checkpoint_path(cfg.run_dir, global_step, ".pt"), cfg,
                            actor, critic, vnorm, opt, global_step, env)
            next_ckpt += cfg.checkpoint_every
        if global_step >= next_eval or final:
            t_eval = time.perf_counter()
            policy = MappoPolicy(copy.deepcopy(actor).cpu(), "cpu", greedy=True)
            last_eval = evaluator.row(policy)
            log.log("eval", global_step, last_eval)
            log.phase("eval", f"step {global_step:,}: " + eval_summary(last_eval))
            next_eval += cfg.eval_every
            eval_s += time.perf_counter() - t_eval
        if update == 0 and not final:
            # the first update also compiles the engine and the scripted team (numba: minutes
            # on a new machine), so steps/s is timed from the end of it
            start, start_step, eval_s = time.perf_counter(), global_step, 0.0
    save_checkpoint(Path(cfg.run_dir) / "final.pt", cfg, actor, critic, vnorm, opt,
                    global_step, env)
    log.close()
    last_eval["steps_per_s"] = sps
    return last_eval


def main(argv: list[str] | None = None, prog: str | None = None) -> None:
    cfg = parse_config(Config, argv, DEFAULT_CONFIG, description=__doc__.split("\n")[0],
                       prog=prog)
    print_result(train(cfg), cfg.eval_games, cfg.run_dir)


if __name__ == "__main__":
    main()
