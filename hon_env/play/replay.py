"""Replays: moved below the environments to ``hon_env.replay`` (every layer writes them);
this name re-exports it for existing imports."""

from hon_env.replay import (
    FORMAT,
    PLAYER_WORDS,
    VERSION,
    Recorder,
    Replay,
    ReplayMismatch,
    VectorRecorder,
    scenario_overrides,
)

__all__ = ["FORMAT", "PLAYER_WORDS", "VERSION", "Recorder", "Replay", "ReplayMismatch",
           "VectorRecorder", "scenario_overrides"]
