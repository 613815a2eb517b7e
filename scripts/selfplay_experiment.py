"""Self-play against top-card training, measured (Mastermind variant): the body lives in
``agents/cli/selfplay_experiment.py``."""

import sys
from pathlib import Path

# the checkout's packages, not whichever copy is installed
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.cli.selfplay_experiment import main  # noqa: E402

if __name__ == "__main__":
    main()
