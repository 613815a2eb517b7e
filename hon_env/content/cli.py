"""``hon-content``: generate content, and check a content folder.

    hon-content generate --seed 7 --out gen7              # one generated issue + villain
    hon-content generate --seed 0 --count 20 --difficulty 0.8 --size large --out gen
    hon-content check gen7/content                        # load every file, report errors
    hon-play --content-dir gen7/content --villain gen_7 --issue gen_7

``generate`` writes a self-contained content folder (the shipped heroes, clues and other
cards copied next to the generated ``issues/gen_<seed>.yaml`` and
``villains/gen_<seed>.yaml``, and the shipped scenarios beside it): read it, edit it,
load it with ``load_scenario(..., content_dir=DIR/content)``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from hon_env.content.compile import load_scenario
from hon_env.content.errors import ContentError
from hon_env.content.loader import (
    KIND_DIRS,
    list_content,
    load_villain,
)
from hon_env.content.procgen import Knobs, content_id, write_content
from hon_env.content.procgen.board import SIZES


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hon-content", description=__doc__.split("\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n".join(__doc__.split("\n")[2:]))
    sub = p.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="write generated issues and villains")
    gen.add_argument("--seed", type=int, required=True, help="first generator seed (>= 0)")
    gen.add_argument("--count", type=int, default=1, help="how many seeds from --seed")
    gen.add_argument("--difficulty", type=float, default=Knobs.difficulty,
                     help="0 (easy) .. 1 (hard)")
    gen.add_argument("--size", default=Knobs.size, choices=sorted(SIZES), help="board size")
    gen.add_argument("--team", type=int, default=Knobs.team,
                     help="heroes the content is balanced for, 1-6 (1 and 2 give the same)")
    gen.add_argument("--out", type=Path, required=True, help="folder to write")
    check = sub.add_parser("check", help="validate every file of a content folder")
    check.add_argument("content_dir", type=Path)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "generate":
            return _generate(args)
        return _check(args.content_dir)
    except (ValueError, ContentError) as e:
        print(f"hon-content: {e}", file=sys.stderr)
        return 2


def _generate(args: argparse.Namespace) -> int:
    if args.count < 1:
        raise ValueError(f"--count must be at least 1, got {args.count}")
    knobs = Knobs(args.difficulty, args.size, args.team)
    seeds = range(args.seed, args.seed + args.count)
    ids = [content_id(s) for s in seeds]  # refuses a negative seed before writing
    content = write_content(args.out, seeds, knobs)
    for ident in ids:
        # every generated pair is loaded once: what was written is valid content
        load_scenario("origin_story", villain=ident, issue=ident, content_dir=content)
    first = ids[0]
    print(f"wrote {len(ids)} generated issue(s) and villain(s) ({', '.join(ids[:5])}"
          f"{', ...' if len(ids) > 5 else ''}) to {content}\n"
          f"play one:  hon-play --content-dir {content} --villain {first} --issue {first}")
    return 0


def _check(content_dir: Path) -> int:
    """Load every villain with every issue of ``content_dir`` (and every hero once)."""
    if not content_dir.is_dir():
        raise ValueError(f"{content_dir} is not a folder")
    found = list_content(content_dir)
    if not found[KIND_DIRS["issue"]] or not found[KIND_DIRS["villain"]]:
        raise ValueError(f"{content_dir} has no issues/ or no villains/ files")
    for villain in found["villains"]:
        load_villain(villain, content_dir)
    heroes = found["heroes"][:1] or None
    for issue in found["issues"]:
        load_scenario("origin_story", heroes=heroes, villain=found["villains"][0], issue=issue,
                      content_dir=content_dir)
    print(f"{content_dir}: {len(found['issues'])} issues, {len(found['villains'])} villains, "
          f"{len(found['heroes'])} heroes: all valid")
    return 0


if __name__ == "__main__":
    sys.exit(main())
