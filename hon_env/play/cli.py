"""``hon-play``: play Hour of Need yourself, in the terminal or (``--web``) in the browser.

    hon-play                                   # you play Majesty in Origin Story
    hon-play --heroes majesty stride --seat 2  # you play seat 2; the scripted team seat 1
    hon-play --heroes majesty stride --seat 1 2  # both seats are yours
    hon-play --team runs/mappo/model.pt        # teammates from a checkpoint
    hon-play --web                             # the board in your browser (127.0.0.1)
    hon-content generate --seed 7 --out gen7   # then a generated board and villain:
    hon-play --content-dir gen7/content --villain gen_7 --issue gen_7
    hon-play --rules '{"special_minions": ["hired_muscle"]}' --seed 7
    hon-play --scenario mastermind --seat villain  # you are the villain agent
    hon-play --scenario mastermind --villain-player random  # you play Majesty

In the terminal, ``?`` lists the commands: ``c N`` reads card N of your hand, ``t`` the
cards in play. In the browser, hover over a card or click it to read what it does.

The replay is saved at the end (``--save``; default ``replays/<scenario>-seed<N>-<time>.json``),
and ``hon-replay FILE -o game.html`` turns it into a page to step through.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from hon_env.content import load_scenario
from hon_env.play.match import DEFAULT_VILLAIN, Match, parse_players


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hon-play", description=__doc__.split("\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n".join(__doc__.split("\n")[2:]))
    p.add_argument("--scenario", default="origin_story", help="scenario id or YAML path")
    p.add_argument("--heroes", nargs="+", default=None, help="hero ids, one per seat")
    p.add_argument("--villain", default=None, help="villain id")
    p.add_argument("--issue", default=None, help="issue id")
    p.add_argument("--content-dir", type=Path, default=None,
                   help="content folder to load the ids from (default: the shipped "
                        "content), e.g. one written by `hon-content generate`")
    p.add_argument("--rules", default=None, help="optional rules as JSON, e.g. "
                   "'{\"special_minions\": [\"hired_muscle\"]}'")
    p.add_argument("--seed", type=int, default=None, help="game seed (default: from the clock)")
    p.add_argument("--seat", nargs="*", default=["1"],
                   help="your seats, 1-based, or 'villain' for the villain agent of the "
                        "Mastermind variant (default 1; none: watch the game)")
    p.add_argument("--team", nargs="+", default=["heuristic"],
                   help="who plays the other seats: heuristic, random or a checkpoint path "
                        "(one for all, or one per seat in order)")
    p.add_argument("--villain-player", default=None,
                   help="who plays the villain agent (Mastermind variant) when you do not: "
                        "scripted (default), random or a checkpoint path")
    p.add_argument("--web", action="store_true", help="play in the browser instead")
    p.add_argument("--port", type=int, default=8765, help="--web: port on 127.0.0.1 (0: any)")
    p.add_argument("--no-browser", action="store_true", help="--web: do not open a browser")
    p.add_argument("--save", type=Path, default=None, help="replay file to write at the end")
    p.add_argument("--no-save", action="store_true", help="write no replay")
    return p


def make_match(args: argparse.Namespace) -> Match:
    """The scenario and players the arguments name (``ValueError`` on bad values)."""
    rules = None
    if args.rules:
        try:
            rules = json.loads(args.rules)
        except json.JSONDecodeError as e:
            raise ValueError(f"--rules must be a JSON object: {e}") from None
        if not isinstance(rules, dict):
            raise ValueError(f"--rules must be a JSON object, got {args.rules!r}")
    sc = load_scenario(args.scenario, heroes=args.heroes, villain=args.villain,
                       issue=args.issue, rules=rules, content_dir=args.content_dir)
    seed = args.seed if args.seed is not None else int(datetime.now().timestamp()) % 100_000
    team = args.team[0] if len(args.team) == 1 else args.team
    if args.villain_player is not None and not sc.villain_agent:
        raise ValueError("--villain-player needs a game with a villain agent (rules "
                         "villain_agent, e.g. --scenario mastermind)")
    villain = (args.villain_player or DEFAULT_VILLAIN) if sc.villain_agent else None
    return Match(sc, seed, parse_players(sc.n_heroes, args.seat, team, villain))


def default_replay_path(match: Match) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path("replays") / f"{match.scenario.id}-seed{match.seed}-{stamp}.json"


def main(argv: Sequence[str] | None = None, stdin=None, console=None) -> int:
    """Entry point of ``hon-play``; ``stdin``/``console`` let tests script a game."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        match = make_match(args)
    except ValueError as e:
        parser.error(str(e))
    if args.web:
        from hon_env.play.web import serve

        try:
            serve(match, port=args.port, open_browser=not args.no_browser)
        except OSError as e:  # the port is taken, most likely
            parser.error(f"cannot serve on 127.0.0.1:{args.port} ({e}); try --port 0")
    else:
        try:
            from hon_env.play.terminal import play_terminal
        except ImportError as e:
            parser.error(f"terminal play needs rich ({e}): pip install -e '.[play]'")
        play_terminal(match, console=console, stdin=stdin)
    if not args.no_save and match.actions:
        path = match.replay().save(args.save or default_replay_path(match))
        print(f"replay saved to {path} (view it: hon-replay {path} -o game.html)",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
