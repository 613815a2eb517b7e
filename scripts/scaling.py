"""The scaling measurement from a checkout: the body lives in ``agents/cli/scaling.py``."""

import sys
from pathlib import Path

# the checkout's packages, not whichever copy is installed
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.cli.scaling import main  # noqa: E402

if __name__ == "__main__":
    main()
