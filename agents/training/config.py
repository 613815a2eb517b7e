"""Training configs: dataclass defaults < YAML file < command-line flags.

Every field of the script's config dataclass becomes a flag (``num_envs`` ->
``--num-envs``); ``--config FILE`` names the YAML file (keys are field names; an unknown
key is an error, so a typo never passes silently).
"""

from __future__ import annotations

import argparse
import dataclasses
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml

C = TypeVar("C")


def _parse_bool(text: str) -> bool:
    low = text.lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected a boolean, got {text!r}")


def _flag_kwargs(tp: Any) -> dict[str, Any]:
    """argparse keyword arguments for a field annotated ``tp``."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        inner = [a for a in args if a is not type(None)][0]
        return _flag_kwargs(inner)
    if origin in (list, tuple):
        return {"nargs": "+", "type": args[0] if args else str}
    if origin is dict or tp is dict:
        return {"type": yaml.safe_load, "metavar": "YAML"}
    if tp is bool:
        return {"type": _parse_bool, "metavar": "BOOL"}
    return {"type": tp}


def _check_type(name: str, tp: Any, value: Any) -> Any:
    """Coerce ``value`` from YAML to the field type, or raise naming the field."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        if value is None:
            return None
        tp = [a for a in args if a is not type(None)][0]
        origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (list, tuple):
        if not isinstance(value, (list, tuple)):
            raise ValueError(f"config {name!r} must be a list, got {value!r}")
        return [_check_type(name, args[0] if args else str, v) for v in value]
    if origin is dict or tp is dict:
        if not isinstance(value, dict):
            raise ValueError(f"config {name!r} must be a mapping, got {value!r}")
        return value
    if tp is bool:
        if not isinstance(value, bool):
            raise ValueError(f"config {name!r} must be true or false, got {value!r}")
        return value
    if tp is float and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if tp is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if tp is str and isinstance(value, str):
        return value
    raise ValueError(f"config {name!r} must be {getattr(tp, '__name__', tp)}, got {value!r}")


def parse_config(cls: type[C], argv: list[str] | None, default_file: str | Path | None,
                 description: str = "") -> C:
    """Build ``cls`` from its defaults, the YAML file (``--config``) and flags in ``argv``."""
    hints = typing.get_type_hints(cls)
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--config", default=str(default_file) if default_file else None,
                        help="YAML file with config values (flags override it)")
    for f in dataclasses.fields(cls):
        parser.add_argument("--" + f.name.replace("_", "-"), dest=f.name, default=None,
                            help=f.metadata.get("help", ""), **_flag_kwargs(hints[f.name]))
    ns = vars(parser.parse_args(argv))
    values: dict[str, Any] = {}
    path = ns.pop("config")
    if path:
        data = yaml.safe_load(Path(path).read_text()) or {}
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected a mapping of config keys")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"{path}: unknown config keys {unknown}; known: {sorted(known)}")
        values.update({k: _check_type(k, hints[k], v) for k, v in data.items()})
    values.update({k: v for k, v in ns.items() if v is not None})
    return cls(**values)


def config_dict(cfg: Any) -> dict[str, Any]:
    """The config as plain YAML-able values (saved next to every run)."""
    return dataclasses.asdict(cfg)


@dataclass
class RunConfig:
    """Fields every training script shares (the scripts subclass it with their own)."""

    run_dir: str = "runs/run"
    scenario: str = "origin_story"
    heroes: list[str] | None = None
    villain: str | None = None
    issue: str | None = None
    seed: int = 0
    total_steps: int = 1_000_000
    reward_shaping: dict | None = None
    eval_every: int = 250_000
    eval_games: int = 200
    checkpoint_every: int = 500_000
    resume: str | None = None
    device: str = "auto"
    tensorboard: bool = True
    progress: bool = True

    def check_positive(self, *names: str) -> None:
        """Raise naming the first of ``names`` (and the shared counts) that is not > 0."""
        for name in ("total_steps", "eval_every", "eval_games", "checkpoint_every", *names):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
