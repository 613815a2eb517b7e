"""Record golden replays: seed + action log -> the decisions met and the final snapshot.

    python scripts/record_golden.py            # rewrite tests/golden/*.json

tests/test_golden.py replays every file and diffs the result, so any change in
behaviour shows up as a failing test. Re-record only when a change is intended, and say
why in the commit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from agents import load_policy  # noqa: E402
from hon_env import Game  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"

CASES = [
    {"name": "origin_seed0", "scenario": "origin_story", "heroes": None, "seed": 0, "policy": 0},
    {"name": "origin_seed11", "scenario": "origin_story", "heroes": None, "seed": 11,
     "policy": 1},
    {"name": "duo_seed5", "scenario": "origin_story", "heroes": ["majesty", "majesty"],
     "seed": 5, "policy": 2},
    {"name": "pilot_medic_seed16", "scenario": "origin_story", "heroes": ["microguy", "vigil"],
     "seed": 16, "policy": 16},
    # optional rules: special bystanders (both cards) with special minions
    {"name": "specials_seed3", "scenario": "origin_story", "heroes": ["majesty", "stride"],
     "seed": 3, "policy": 3,
     "rules": {"special_bystanders": ["foremans_crew", "panicked_tourists"],
               "special_minions": ["hired_muscle"]}},
    # Two Fronts: two villains (random play; and the scripted team, which defeats both)
    {"name": "two_fronts_seed7", "scenario": "two_fronts", "heroes": None, "seed": 7,
     "policy": 7},
    {"name": "two_fronts_scripted_seed0", "scenario": "origin_story",
     "heroes": ["majesty", "stride"], "villain": ["refuser", "dowager"], "seed": 0,
     "policy": "heuristic"},
]


def play(case: dict, actions: list[int] | None = None) -> dict:
    """Play a case with its policy (or replay ``actions``); return the record."""
    g = Game(case["scenario"], seed=case["seed"], heroes=case["heroes"],
             villain=case.get("villain"), rules=case.get("rules"))
    scripted = load_policy(case["policy"]) if isinstance(case["policy"], str) else None
    rng = np.random.default_rng(0 if scripted else case["policy"])
    log, decisions = [], []
    while not g.is_over:
        decisions.append(f"{g.current_agent}:{g.decision}")
        if actions is not None:
            a = actions[len(log)]
        elif scripted is not None:
            a = int(scripted.act(g.observation()[None], g.legal_mask()[None],
                                 np.array([g.current_seat]), engine=g.engine)[0])
        else:
            a = int(rng.choice(g.legal_actions()))
        log.append(a)
        g.apply(a)
    return {**case, "actions": log, "decisions": decisions, "final": g.snapshot()}


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        rec = play(case)
        path = GOLDEN / f"{case['name']}.json"
        path.write_text(json.dumps(rec, indent=1) + "\n")
        print(f"{path.name}: {len(rec['actions'])} actions, outcome {rec['final']['outcome']}")


if __name__ == "__main__":
    main()
