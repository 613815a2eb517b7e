"""``hon-train``: train a team on the batched engine.

    hon-train                         # MAPPO, configs/train/mappo.yaml
    hon-train --algo ippo             # the MAPPO trainer with IPPO's critic (own observation)
    hon-train --algo ppo              # sb3-contrib MaskablePPO, configs/train/ppo.yaml
    hon-train --algo rllib            # RLlib multi-agent PPO on Ray (extra hon_env[rllib])
    hon-train --task duo              # a benchmark task's training games (hon_env.tasks)
    hon-train --algo mappo --help     # every flag of that trainer, with its default
    torchrun --nproc_per_node 2 -m agents.cli.train --task duo   # MAPPO/IPPO data-parallel

``--algo`` picks the trainer (mappo and ippo share one, whose ``algo`` field it sets;
without ``--algo`` the config file's ``algo`` holds, default mappo); every other flag goes
to it (the module docstrings of ``agents/cli/train_mappo.py``, ``agents/cli/train_ppo.py``
and ``agents/cli/train_rllib.py`` describe the trainers).
"""

from __future__ import annotations

import argparse
import os
import sys

ALGOS = ("mappo", "ippo", "ppo", "rllib")


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else list(argv)
    p = argparse.ArgumentParser(
        prog="hon-train", add_help=False,
        description="Train a team; --algo picks the trainer, the other flags go to it.")
    p.add_argument("--algo", choices=ALGOS, default=None,
                   help="mappo: one-file MAPPO with a centralized critic on the state; ippo: "
                        "the same trainer with the critic on the hero's own observation; "
                        "ppo: sb3-contrib MaskablePPO; rllib: RLlib multi-agent PPO on a Ray "
                        "cluster (default: mappo)")
    args, rest = p.parse_known_args(argv)
    algo = args.algo or "mappo"
    from agents.training.distributed import under_torchrun
    if under_torchrun() and algo in ("ppo", "rllib"):
        # each process would train a run of its own into the same folder
        p.error(f"--algo {algo} does not run under torchrun (data-parallel training is "
                "MAPPO and IPPO's; RLlib scales with Ray: docs/scaling.md)")
    if algo == "ppo":
        from agents.cli import train_ppo as trainer
    elif algo == "rllib":
        from agents.cli import train_rllib as trainer
    else:
        from agents.cli import train_mappo as trainer
        if args.algo is not None:
            rest = ["--algo", algo, *rest]
    from agents.checkpoints import CheckpointError
    from hon_env.content.errors import ContentError

    prog = f"hon-train --algo {algo}"
    try:
        trainer.main(rest, prog=prog)
    except (ContentError, CheckpointError) as e:
        # content or a checkpoint named on the command line that does not load: a usage
        # error, as a bad flag is (the trainers check their flags before any game)
        print(f"{prog}: error: {e}", file=sys.stderr)
        sys.exit(2)
    if under_torchrun():
        # A torchrun rank leaves without the interpreter's teardown: worker threads of the
        # OpenMP and gloo runtimes torn down at exit can abort a rank ("terminate called
        # without an active exception") after its run is complete and saved, and torchrun
        # then reports the finished run as failed. Files are closed by now.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


if __name__ == "__main__":
    main()
