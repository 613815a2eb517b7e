"""Train the heroes of a benchmark task with BenchMARL's MAPPO or IPPO.

BenchMARL 1.5.2 needs torchrl 0.11, so this runs in its own virtual environment
(``make test-benchmarl`` sets it up; docs/scaling.md):

    .venv-benchmarl/bin/python scripts/train_benchmarl.py --task duo --frames 4096

The env is ``hon_env.benchmarl_tasks.HourOfNeedTask`` (the batched TorchRL env, one group
``"heroes"``); a frame is one decision of one game. BenchMARL writes its CSV logs under
``--out`` (one folder per experiment, ``<algo>_<task>_mlp_<date>``), and the script prints
the mean team return of the last collected batch's finished games.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# the checkout's packages, not whichever copy is installed
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hon_env.threads import configure_openmp_wait  # noqa: E402

configure_openmp_wait()  # before torch loads: idle engine workers sleep (hon_env/threads.py)

import torch  # noqa: E402
from benchmarl.algorithms import IppoConfig, MappoConfig  # noqa: E402
from benchmarl.experiment import Experiment, ExperimentConfig  # noqa: E402
from benchmarl.models import MlpConfig  # noqa: E402

from hon_env.benchmarl_tasks import HourOfNeedTask  # noqa: E402
from hon_env.tasks import list_tasks  # noqa: E402

ALGORITHMS = {"mappo": MappoConfig, "ippo": IppoConfig}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (``--help`` lists every flag)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--task", default="duo", choices=list_tasks(),
                   help="benchmark task (configs/tasks); its training games are played")
    p.add_argument("--algo", default="mappo", choices=sorted(ALGORITHMS),
                   help="MAPPO (centralized critic on the global state) or IPPO")
    p.add_argument("--frames", type=int, default=4096,
                   help="decisions to collect in all (a multiple of --frames-per-batch)")
    p.add_argument("--frames-per-batch", type=int, default=1024,
                   help="decisions collected per iteration, over every game")
    p.add_argument("--num-envs", type=int, default=8,
                   help="games stepped as one batch (each plays frames-per-batch / num-envs "
                        "decisions per iteration)")
    p.add_argument("--minibatch-size", type=int, default=256, help="decisions per update")
    p.add_argument("--epochs", type=int, default=4,
                   help="passes over each collected batch (on_policy_n_minibatch_iters)")
    p.add_argument("--hidden", type=int, nargs="+", default=[128, 128],
                   help="hidden layer sizes of the policy and critic MLPs")
    p.add_argument("--lr", type=float, default=3e-4, help="Adam learning rate")
    p.add_argument("--seed", type=int, default=0,
                   help="BenchMARL's seed and the first game seed (game i: seed + i)")
    p.add_argument("--eval-every", type=int, default=0,
                   help="BenchMARL evaluation every this many frames (16 training games, "
                        "greedy); 0: none")
    p.add_argument("--eval-max-steps", type=int, default=None,
                   help="decisions per evaluation game (BenchMARL steps every game this "
                        "long); default the task's max_decisions cap, which no game outlasts")
    p.add_argument("--out", default="runs/benchmarl", help="folder for BenchMARL's logs")
    args = p.parse_args(argv)
    if args.frames % args.frames_per_batch or args.eval_every % args.frames_per_batch:
        p.error("--frames and --eval-every must be multiples of --frames-per-batch")
    return args


def experiment_config(args: argparse.Namespace) -> ExperimentConfig:
    """BenchMARL's defaults (its ``base_experiment.yaml``) with the flags, on the CPU,
    CSV logs only, no checkpoints."""
    config = ExperimentConfig.get_from_yaml()
    config.sampling_device = config.train_device = config.buffer_device = "cpu"
    config.max_n_frames, config.max_n_iters = args.frames, None
    config.on_policy_collected_frames_per_batch = args.frames_per_batch
    config.on_policy_n_envs_per_worker = args.num_envs
    config.on_policy_minibatch_size = args.minibatch_size
    config.on_policy_n_minibatch_iters = args.epochs
    config.lr = args.lr
    config.evaluation = args.eval_every > 0
    config.evaluation_interval = args.eval_every or args.frames_per_batch
    config.evaluation_episodes = 16
    config.render = False
    config.loggers, config.create_json = ["csv"], False
    config.checkpoint_interval, config.checkpoint_at_end = 0, False
    Path(args.out).mkdir(parents=True, exist_ok=True)
    config.save_folder = str(Path(args.out).resolve())
    return config


def main(argv: list[str] | None = None) -> float:
    """Train as the command line says; returns (and prints) the last mean return."""
    args = parse_args(argv)
    torch.manual_seed(args.seed)
    model = MlpConfig(num_cells=list(args.hidden), activation_class=torch.nn.Tanh,
                      layer_class=torch.nn.Linear)
    task = HourOfNeedTask[args.task.upper()].get_task({"max_steps": args.eval_max_steps})
    experiment = Experiment(task=task,
                            algorithm_config=ALGORITHMS[args.algo].get_from_yaml(),
                            model_config=model, critic_model_config=model, seed=args.seed,
                            config=experiment_config(args))
    experiment.run()
    print(f"{args.algo} on {args.task}: {experiment.total_frames} frames, mean return of "
          f"the last batch's finished games {experiment.mean_return:.3f}; logs in "
          f"{experiment.folder_name}")
    return float(experiment.mean_return)


if __name__ == "__main__":
    main()
