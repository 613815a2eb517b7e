"""Reference numbers of an ad-hoc teamwork task: per held-out partner, the random
policy's win rate and the best known response's, which normalise ``hon-eval --task``.

    python scripts/adhoc_reference.py --task adhoc_duo            # all 1,000 games
    python scripts/adhoc_reference.py --task adhoc_duo --games 100 --out /tmp/ref.json
    python scripts/adhoc_reference.py --task adhoc_duo --extend    # new candidates only

Every candidate (``agents.adhoc.reference_candidates``: the coordinated team, the shipped
MAPPO policies and the zoo's training members; ``--candidates`` to choose) and the random
policy play seat 0 of the task's first ``--games`` evaluation games with the held-out
partner each game draws; per partner the best candidate's win rate is the best response.
Writes ``docs/benchmark/<task>/reference/heldout.json`` (``--out`` to write elsewhere):
the games count, the seeds, the candidates, every candidate's wins per partner and the
command, so the normalisation is reproducible, and the sha256 of each shipped policy it
measured. ``--extend`` keeps the stored reference's measurements and plays only the
candidates it lacks (a newly shipped policy or zoo member) or whose shipped file has
changed since; the file is then what the full command gives. Writing the task's own
reference also scores its stored results (``docs/benchmark/<task>/*.json``) again against
it, so their normalised scores always follow the reference.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from agents.adhoc import (
    ROOT,
    compute_reference,
    reference_candidates,
    reference_path,
    rescore_stored,
)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else list(argv)
    p = argparse.ArgumentParser(prog="python scripts/adhoc_reference.py",
                                description=__doc__.split("\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--task", required=True, help="an adhoc task (configs/tasks)")
    p.add_argument("--games", type=int, default=None,
                   help="the task's first games (default: all its evaluation games)")
    p.add_argument("--candidates", nargs="+", default=None,
                   help=f"load_policy specs (default: {' '.join(reference_candidates())})")
    p.add_argument("--seed", type=int, default=0, help="the partners' and policies' seed")
    p.add_argument("--extend", action="store_true",
                   help="reuse the stored reference's measured candidates; play only the "
                        "new ones")
    p.add_argument("--out", default=None, help="output file (default: the task's "
                                               "reference/heldout.json)")
    args = p.parse_args(argv)
    from hon_env.tasks import get_task

    task = get_task(args.task)
    if not task.is_adhoc:
        p.error(f"--task {task.name!r} is not an adhoc task (family {task.family})")
    known = None
    if args.extend:
        from agents.adhoc import load_reference

        known = load_reference(task.name, task.partner_split("eval"))
        if known is None:
            p.error(f"--extend: no stored reference for {task.name!r} yet; run without it")
    try:
        ref = compute_reference(task, args.candidates, args.games, seed=args.seed,
                                known=known)
    except ValueError as exc:
        p.error(str(exc))
    # the command a full run gives the same file with (--extend only saves the time)
    ref["command"] = "python scripts/adhoc_reference.py " + " ".join(
        map(shlex.quote, [a for a in argv if a != "--extend"]))
    out = Path(args.out) if args.out else reference_path(task.name, ref["zoo_split"])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(ref, indent=1) + "\n")
    print(f"{'partner':24} {'games':>5} {'random':>7} {'best':>6}  best by")
    for name, r in ref["partners"].items():
        print(f"{name:24} {r['games']:5d} {r['random']:7.3f} {r['best']:6.3f}  "
              f"{r['best_policy']}")
    shown = out.resolve().relative_to(ROOT) if out.resolve().is_relative_to(ROOT) else out
    print(f"wrote {shown}")
    if args.out is None:
        # the stored results' normalised scores follow the reference they were scored on
        for path in rescore_stored(task.name, ref["zoo_split"]):
            print(f"scored again against it: {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
