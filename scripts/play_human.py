"""Play Hour of Need yourself: the same as the ``hon-play`` console script.

    python scripts/play_human.py                       # terminal, you play seat 1
    python scripts/play_human.py --heroes majesty stride --seat 2 --team heuristic
    python scripts/play_human.py --web                 # in the browser on 127.0.0.1

See ``hon-play --help`` (``hon_env/play/cli.py``) for every option.
"""

from __future__ import annotations

import sys

from hon_env.play.cli import main

if __name__ == "__main__":
    sys.exit(main())
