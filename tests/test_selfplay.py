"""Training either side of the Mastermind variant on the vector env: the MAPPO trainer with
an opponent, the league of snapshots, self-play and the self-play experiment.

The rules behind the sides: seed 004 §1 and §6 (two sides, the opposition wins what the
heroes lose) and §4 Troubleshooting steps 3-4 (the opposition's choices are its own);
docs/mastermind.md describes the variant and the trainers.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
import yaml

from agents.cli import train_mappo, train_selfplay
from agents.random_agent import RandomPolicy
from agents.registry import load_policy
from agents.training.config import parse_config
from agents.training.league import HEROES, VILLAIN, League, side_rows
from agents.training.mappo import MappoLearner, Rollout
from agents.villains import load_villain
from hon_env import vector_env
from hon_env.spec import layout as L

TINY = ["--num-envs", "16", "--num-steps", "16", "--num-minibatches", "2", "--hidden", "16",
        "--eval-games", "4", "--progress", "false", "--tensorboard", "false"]


class Recorder:
    """A policy that plays uniformly at random and keeps the seats it was asked about."""

    name = "recorder"

    def __init__(self) -> None:
        self.seats: list[int] = []
        self.inner = RandomPolicy(0)

    def act(self, observations, masks, seats, engine=None):
        self.seats.extend(int(s) for s in seats)
        return self.inner.act(observations, masks, seats, engine=engine)


def _config(**over) -> train_mappo.Config:
    return train_mappo.Config(num_envs=16, num_steps=24, num_minibatches=2, hidden=[16],
                              amp="false", **over)


@pytest.mark.parametrize("side", [HEROES, VILLAIN])
def test_rollout_gives_the_other_side_to_the_opponents(side):
    """004 §4 steps 3-4: each side makes its own choices. A rollout for ``side`` hands every
    row of the other side (and only those) to the league; those rows carry no policy loss
    (mine_b False) but stay in the sequence, and the reward is the learner's column."""
    cfg = _config(side=side)
    learner = MappoLearner(cfg, torch.device("cpu"), side)
    env = vector_env(16, seed=5, scenario="mastermind", global_state=learner.env_state)
    rec = Recorder()
    roll = Rollout(env, cfg, side, League([rec], 16, 0, names=["rec"]),
                   torch.device("cpu"), learner)
    seats = []
    for _ in range(6):
        before = len(rec.seats)
        roll.collect(learner, kick=0.0)
        seats.append(rec.seats[before:])
        other = ~roll.mine_b.numpy()
        assert other.sum() == len(seats[-1])
        assert all((s == L.VILLAIN_SEAT) == (side == HEROES) for s in seats[-1])
        learner.update(roll, kick=0.0)
    assert sum(map(len, seats)) > 0
    # the villain's reward column: +1 when the heroes lose, -1 when they win, 0 otherwise
    rewards = roll.rew_b.numpy()
    if side == VILLAIN:
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}


def test_side_rows_split_by_the_villain_seat():
    seats = np.array([0, 1, L.VILLAIN_SEAT, 0])
    assert side_rows(seats, HEROES).tolist() == [True, True, False, True]
    assert side_rows(seats, VILLAIN).tolist() == [False, False, True, False]


def test_league_draws_a_member_per_game_and_episode():
    """Each game plays its drawn member for a whole episode; redraw draws again; rows go to
    the member of their game; an empty league refuses to act."""
    a, b = Recorder(), Recorder()
    league = League([a], 64, seed=1, names=["a"])
    league.add(b, "b")
    assert (league.assigned == 0).all()  # drawn before b joined
    league.redraw(np.arange(64))
    assert 0 < (league.assigned == 1).sum() < 64
    env = vector_env(64, seed=0, scenario="mastermind")
    obs, _ = env.reset()
    games = np.arange(64)
    league.act(games, obs["observation"], obs["action_mask"], obs["agent"], env.engine)
    assert len(a.seats) == (league.assigned == 0).sum() and len(b.seats) == 64 - len(a.seats)
    with pytest.raises(ValueError, match="empty"):
        League([], 4, 0).act(games[:4], obs["observation"][:4], obs["action_mask"][:4],
                             obs["agent"][:4])


def test_trainer_refuses_sides_without_a_villain_agent():
    """Side villain needs the villain agent; heroes on a villain-agent scenario need an
    opponent; top_card is no hero team; tasks are heroes-only."""
    with pytest.raises(ValueError, match="no villain agent"):
        train_mappo.train(_config(side=VILLAIN, run_dir="/nonexistent/never"))
    with pytest.raises(ValueError, match="name the heroes' opponent"):
        train_mappo.train(_config(scenario="mastermind", run_dir="/nonexistent/never"))
    with pytest.raises(ValueError, match="top_card is a villain"):
        _config(side=VILLAIN, opponent="top_card").check()
    with pytest.raises(ValueError, match="heroes-only"):
        _config(side=VILLAIN, task="duo").check()
    with pytest.raises(ValueError, match="side must be"):
        _config(side="both").check()
    with pytest.raises(ValueError, match="needs side villain"):
        train_mappo.side_shaping(_config(villain_reward_shaping={"crises": 1.0}))
    assert train_mappo.side_shaping(_config(side=VILLAIN, villain_reward_shaping={
        "crises": 1.0})) == {"villain_reward_shaping": {"crises": 1.0}}


def test_top_card_opponent_switches_the_villain_agent_off():
    """opponent top_card: the heroes train on the rulebook's villain deck (no villain rows)."""
    games, league, _ = train_mappo.training_setup(
        _config(scenario="mastermind", opponent="top_card"), 0, "cpu")
    assert not games.scenario.villain_agent and league is None
    games, league, _ = train_mappo.training_setup(
        _config(scenario="mastermind", opponent="scripted"), 0, "cpu")
    assert games.scenario.villain_agent and league.names == ["scripted"]


def test_train_mappo_villain_side(tmp_path, capsys):
    """--side villain trains the villain agent against a hero team; its checkpoint loads as
    a villain and records the side; resuming it as the heroes is refused."""
    run = tmp_path / "v"
    train_mappo.main(["--run-dir", str(run), "--scenario", "mastermind", "--side", "villain",
                      "--opponent", "heuristic", "--total-steps", "200", "--kickstart-coef",
                      "1.0", "--kickstart-steps", "100", "--eval-every", "100000", *TINY])
    ckpt = torch.load(run / "final.pt", weights_only=True)
    assert ckpt["side"] == VILLAIN and ckpt["global_step"] >= 200
    assert "heroes_vs_trained_win_rate" in (run / "eval.csv").read_text().splitlines()[0]
    assert "vs top_card" in capsys.readouterr().out
    villain = load_villain(str(run / "final.pt"))
    env = vector_env(8, seed=0, scenario="mastermind")
    obs, _ = env.reset()
    for _ in range(200):  # the villain's actions are legal on its rows
        rows = obs["agent"] == L.VILLAIN_SEAT
        a = load_policy("random").act(obs["observation"], obs["action_mask"], obs["agent"])
        if rows.any():
            a[rows] = villain.act(obs["observation"][rows], obs["action_mask"][rows],
                                  obs["agent"][rows])
        obs, *_ = env.step(a)
    with pytest.raises(ValueError, match="--side villain"):
        train_mappo.main(["--run-dir", str(tmp_path / "r"), "--scenario", "mastermind",
                          "--opponent", "scripted", "--resume", str(run / "final.pt"),
                          "--total-steps", "400", *TINY])


def test_train_selfplay_smoke(tmp_path):
    """scripts/train_selfplay.py: each iteration adds a hero and a villain snapshot to the
    leagues, logs both learners and evaluates the heroes against the current, top-card
    and scripted villains; the final heroes load as a hero policy. ``pretrain_steps``
    clones the coordinated team into the heroes first, against the first villain."""
    run = tmp_path / "sp"
    train_selfplay.main(["--run-dir", str(run), "--iterations", "2", "--total-steps", "256",
                         "--villain-steps", "64", "--kickstart-steps", "128",
                         "--pretrain-steps", "256", "--pretrain-epochs", "1",
                         "--villain-league", "random", "scripted", *TINY])
    league = json.loads((run / "league.json").read_text())
    assert league["heroes"] == [str(run / "heroes" / f"iter_{k}.pt") for k in range(2)]
    assert league["villain"] == ["random", "scripted"] + [
        str(run / "villain" / f"iter_{k}.pt") for k in range(2)]
    assert len((run / "pretrain.csv").read_text().splitlines()) == 2  # header, one row
    header = (run / "eval.csv").read_text().splitlines()
    assert len(header) == 3 and "heroes_vs_top_card_win_rate" in header[0]
    assert len((run / "train_villain.csv").read_text().splitlines()) > 1
    assert torch.load(run / "villain_final.pt", weights_only=True)["side"] == VILLAIN
    load_policy(str(run / "final.pt"))
    with pytest.raises(SystemExit):  # a usage error, as hon-train prints it
        parse_config(train_selfplay.Config, ["--villain-league", "top_card"], None)
    with pytest.raises(ValueError, match="top_card"):
        train_selfplay.Config(villain_league=["top_card"]).check()


@pytest.mark.slow
def test_selfplay_experiment_smoke(tmp_path):
    """scripts/selfplay_experiment.py on a tiny budget: four trainings, the table in JSON
    and markdown, and the doc's marked section replaced (the rest of the doc kept)."""
    from agents.cli import selfplay_experiment as exp

    doc = tmp_path / "doc.md"
    doc.write_text(f"before\n{exp.MARK_START}\nold\n{exp.MARK_END}\nafter\n")
    run = tmp_path / "exp"
    result = exp.main(["--run-dir", str(run), "--hero-steps", "128", "--iterations", "1",
                       "--selfplay-villain-steps", "32", "--br-steps", "32",
                       "--pretrain-steps", "256", "--hero-reward-shaping", "{}",
                       "--num-envs", "16", "--num-steps", "16", "--hidden", "16", "--games", "4",
                       "--threads", "1", "--write-doc", str(doc)])
    cells = {(c["heroes"], c["villain"]) for c in result["cells"]}
    assert len(cells) == 3 * len(exp.VILLAINS)
    assert all(c["games"] == 4 for c in result["cells"])
    for stage in ("heroes_top_card", "heroes_selfplay", "br_top_card", "br_selfplay"):
        assert (run / stage / "final.pt").exists(), stage
    for team in ("heroes_top_card", "heroes_selfplay"):  # warm-started on win/loss only
        assert (run / team / "pretrain.csv").exists(), team
        assert yaml.safe_load((run / team / "config.yaml").read_text())["reward_shaping"] == {}
    text = doc.read_text()
    assert text.startswith("before\n") and text.endswith("after\n") and "old" not in text
    assert "BR to self-play heroes" in text and "--hero-steps 128" in text
    assert json.loads((run / "table.json").read_text())["settings"]["br_steps"] == 32


def test_selfplay_experiment_gives_heroes_and_villains_their_networks(tmp_path):
    """``--network`` reaches both hero trainings, ``--villain-network`` the self-play
    villain and both best responses; without it the villains take the heroes' network."""
    from agents.cli import selfplay_experiment as exp

    def networks(extra):
        args = exp.parser().parse_args(["--run-dir", str(tmp_path), *extra])
        out = {}
        for name, _, argv, _ in exp.stages(args, tmp_path):
            flags = {a: argv[i + 1] for i, a in enumerate(argv[:-1]) if a.startswith("--")}
            out[name] = (flags.get("--network"), flags.get("--villain-network"))
        return out

    assert networks(["--network", "entity", "--villain-network", "mlp"]) == {
        "heroes_top_card": ("entity", None), "heroes_selfplay": ("entity", "mlp"),
        "br_top_card": ("mlp", None), "br_selfplay": ("mlp", None)}
    assert networks(["--network", "entity"]) == {
        "heroes_top_card": ("entity", None), "heroes_selfplay": ("entity", None),
        "br_top_card": ("entity", None), "br_selfplay": ("entity", None)}
    assert set(networks([]).values()) == {(None, None)}  # the config decides
    with pytest.raises(SystemExit):
        exp.parser().parse_args(["--network", "transformer"])


def test_selfplay_experiment_refuses_bad_values_before_training(tmp_path, capsys):
    """Usage errors (status 2) before the first of its trainings, not inside it."""
    from agents.cli import selfplay_experiment as exp

    for argv, said in [(["--iterations", "0"], "--iterations must be positive"),
                       (["--pretrain-steps", "-1"], "--pretrain-steps must be >= 0"),
                       (["--device", "gpu0"], "device must be auto, cpu, cuda")]:
        with pytest.raises(SystemExit) as exit_:
            exp.main(["--run-dir", str(tmp_path / "run"), *argv])
        assert exit_.value.code == 2
        assert said in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_selfplay_experiment_passes_the_entity_settings_to_every_stage(tmp_path):
    """``--entity-dim`` and ``--entity-blocks`` reach all four trainings; without them
    the config decides (no flag passed)."""
    from agents.cli import selfplay_experiment as exp

    def flags(extra):
        args = exp.parser().parse_args(["--run-dir", str(tmp_path), "--network", "entity",
                                        *extra])
        return {name: (argv[argv.index("--entity-dim") + 1] if "--entity-dim" in argv
                       else None,
                       argv[argv.index("--entity-blocks") + 1] if "--entity-blocks" in argv
                       else None)
                for name, _, argv, _ in exp.stages(args, tmp_path)}

    got = flags(["--entity-dim", "16", "--entity-blocks", "1"])
    assert len(got) == 4 and set(got.values()) == {("16", "1")}
    assert set(flags([]).values()) == {(None, None)}
    # each trainer takes them: its config is built from the stage's arguments
    args = exp.parser().parse_args(["--run-dir", str(tmp_path), "--network", "entity",
                                    "--entity-dim", "16", "--entity-blocks", "1"])
    for name, trainer, argv, _ in exp.stages(args, tmp_path):
        cls = (train_selfplay if trainer is train_selfplay.main else train_mappo).Config
        cfg = parse_config(cls, argv, None)
        assert (cfg.entity_dim, cfg.entity_blocks, cfg.network) == (16, 1, "entity"), name


def test_selfplay_villain_network_defaults_to_the_heroes_and_is_checked():
    """The villain learner's actor is ``villain_network`` when set, else ``network``."""
    cfg = train_selfplay.Config(network="entity")
    assert cfg.villain_config().network == "entity"
    cfg = train_selfplay.Config(network="entity", villain_network="mlp")
    cfg.check()
    assert cfg.villain_config().network == "mlp" and cfg.network == "entity"
    with pytest.raises(ValueError, match="villain_network"):
        train_selfplay.Config(villain_network="cnn").check()
