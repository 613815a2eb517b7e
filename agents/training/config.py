"""Training configs: dataclass defaults < YAML file < command-line flags.

Every field of the script's config dataclass becomes a flag (``num_envs`` ->
``--num-envs``); ``--config FILE`` names the YAML file (keys are field names; an unknown
key is an error, so a typo never passes silently). As in CleanRL's ``Args``, a docstring
under each field says what it means; ``--help`` shows it with the field's default (the
default YAML file's value where it sets one).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
import textwrap
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml

from hon_env.rewards import shaping_weights
from hon_env.tasks import list_tasks

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


def field_docs(cls: type) -> dict[str, str]:
    """The docstring written under each field of dataclass ``cls`` (and its bases)."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if not dataclasses.is_dataclass(klass):
            continue
        body = ast.parse(textwrap.dedent(inspect.getsource(klass))).body[0].body
        for stmt, nxt in zip(body, body[1:], strict=False):
            if (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
                    and isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant)
                    and isinstance(nxt.value.value, str)):
                docs[stmt.target.id] = " ".join(nxt.value.value.split())
    return docs


def _default_of(f: dataclasses.Field) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return None


def _read_file(cls: type, hints: dict[str, Any], path: str | Path) -> dict[str, Any]:
    """The config values of YAML file ``path``, checked against the fields of ``cls``."""
    data = yaml.safe_load(Path(path).read_text()) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping of config keys")
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"{path}: unknown config keys {unknown}; known: {sorted(known)}")
    return {k: _check_type(k, hints[k], v) for k, v in data.items()}


def config_parser(cls: type, default_file: str | Path | None, description: str = "",
                  prog: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of ``cls``: ``--config`` and one flag per field, each with its
    docstring and default (the default file's value where it sets the field)."""
    hints = typing.get_type_hints(cls)
    docs = field_docs(cls)
    shown = _read_file(cls, hints, default_file) if default_file else {}
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--config", default=str(default_file) if default_file else None,
                        help="YAML file with config values; flags override it "
                             f"(default: {default_file})")
    for f in dataclasses.fields(cls):
        default = shown.get(f.name, _default_of(f))
        text = f.metadata.get("help") or docs.get(f.name, "")
        parser.add_argument("--" + f.name.replace("_", "-"), dest=f.name, default=None,
                            help=f"{text} (default: {default})".replace("%", "%%"),
                            **_flag_kwargs(hints[f.name]))
    return parser


def parse_config(cls: type[C], argv: list[str] | None, default_file: str | Path | None,
                 description: str = "", prog: str | None = None) -> C:
    """Build ``cls`` from its defaults, the YAML file (``--config``) and flags in ``argv``,
    and run its ``check()`` where it has one.

    A bad file or a value out of range is a usage error, as a bad flag is: the parser
    prints it and exits with status 2, before any game or network is built."""
    hints = typing.get_type_hints(cls)
    parser = config_parser(cls, default_file, description, prog)
    ns = vars(parser.parse_args(argv))
    values: dict[str, Any] = {}
    path = ns.pop("config")
    try:
        if path:
            values.update(_read_file(cls, hints, path))
        values.update({k: v for k, v in ns.items() if v is not None})
        cfg = cls(**values)
        check = getattr(cfg, "check", None)
        if check is not None:
            check()
    except (OSError, yaml.YAMLError, ValueError, TypeError) as e:
        parser.error(str(e))
    return cfg


def config_dict(cfg: Any) -> dict[str, Any]:
    """The config as plain YAML-able values (saved next to every run)."""
    return dataclasses.asdict(cfg)


def check_device(name: str) -> None:
    """Raise ``ValueError`` unless ``name`` is ``auto`` or a torch device this machine has
    (``cuda`` without a GPU, or a torch built without CUDA, is refused here rather than
    after the engine has compiled)."""
    if name in ("auto", "cpu"):
        return
    import torch  # only the trainers, which load torch anyway, check a device

    try:
        device = torch.device(name)
    except (RuntimeError, TypeError) as err:
        raise ValueError(f"device must be auto, cpu, cuda, cuda:N or another torch device, "
                         f"got {name!r}") from err
    if device.type == "cuda":
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if count == 0 or (device.index is not None and device.index >= count):
            raise ValueError(f"device {name!r}: this machine's torch sees {count} CUDA "
                             "device(s); use cpu or auto")
    elif device.type == "mps" and not torch.backends.mps.is_available():
        raise ValueError(f"device {name!r}: MPS is not available here; use cpu or auto")


@dataclass
class RunConfig:
    """Fields every training script shares (the scripts subclass it with their own)."""

    run_dir: str = "runs/run"
    """folder for the run's config, logs, TensorBoard events and checkpoints"""
    scenario: str = "origin_story"
    """scenario id (shipped in configs/scenarios) or path to a scenario YAML file"""
    heroes: list[str] | None = None
    """hero ids replacing the scenario's team (None: the scenario's)"""
    villain: str | None = None
    """villain id replacing the scenario's (None: the scenario's)"""
    issue: str | None = None
    """issue id replacing the scenario's (None: the scenario's)"""
    task: str | None = None
    """a benchmark task (hon_env.tasks, configs/tasks): train on its training split (heroes,
    villain, issue, rules, caps; scenario is ignored) and evaluate on its evaluation games;
    training seeds must stay below its evaluation seeds"""
    seed: int = 0
    """seed of the training games and the network initialisation"""
    total_steps: int = 1_000_000
    """environment steps (decisions, summed over games) to train for"""
    reward_shaping: dict | None = None
    """YAML mapping event name -> reward added per event, on top of +1 win / -1 loss"""
    eval_every: int = 250_000
    """evaluate the greedy policy against the baselines every this many steps"""
    eval_games: int = 200
    """games per evaluation (the same seeds every time)"""
    checkpoint_every: int = 500_000
    """save a checkpoint every this many steps"""
    resume: str | None = None
    """checkpoint to continue from (its step count carries on)"""
    device: str = "auto"
    """torch device: auto (cuda when available), cpu, cuda, cuda:1, ..."""
    tensorboard: bool = True
    """write TensorBoard events under run_dir/tb"""
    progress: bool = True
    """show a progress bar"""

    def check_positive(self, *names: str) -> None:
        """Raise naming the first of ``names`` (and the shared counts) that is not > 0."""
        for name in ("total_steps", "eval_every", "eval_games", "checkpoint_every", *names):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")

    def check_mastermind_scenario(self) -> None:
        """Raise when ``task`` is set for a trainer of the villain agent: it plays the
        Mastermind variant's scenario, and every benchmark task is heroes-only."""
        if self.task:
            raise ValueError("task names a heroes-only benchmark task; this trainer plays "
                             "the Mastermind variant's scenario (use --scenario)")

    def check_run(self, *positive: str) -> None:
        """Raise naming the first shared field out of range: the counts
        (``check_positive`` over ``positive``), the seed and the task, all without loading
        any content."""
        self.check_positive(*positive)
        if self.seed < 0:
            raise ValueError(f"seed must be >= 0, got {self.seed}")
        for name in ("reward_shaping", "villain_reward_shaping"):  # event names and weights
            shaping_weights(getattr(self, name, None), name)
        check_device(self.device)
        if self.task is None:
            return
        if self.task not in list_tasks():
            raise ValueError(f"task: unknown task {self.task!r}; tasks: "
                             f"{', '.join(list_tasks())}")
        clashes = [k for k in ("heroes", "villain", "issue") if getattr(self, k) is not None]
        if clashes:
            raise ValueError(f"task {self.task!r} sets the heroes, villain and issue; do not "
                             f"also set {', '.join(clashes)}")


@dataclass
class PpoFields(RunConfig):
    """Fields every PPO trainer shares (MAPPO and IPPO, MaskablePPO, RLlib's PPO); each
    sets its own defaults where they differ."""

    lr: float = 3e-4
    """Adam learning rate"""
    gamma: float = 0.995
    """discount factor"""
    gae_lambda: float = 0.95
    """lambda of generalized advantage estimation"""
    ent_coef: float = 0.01
    """weight of the entropy bonus (over legal actions)"""
    vf_coef: float = 0.5
    """weight of the value loss"""
    hidden: list[int] = field(default_factory=lambda: [256, 256])
    """hidden layer sizes of the policy and value networks"""

    def check_ppo(self, *positive: str) -> None:
        """Raise naming the first shared field out of range (and ``check_run`` over
        ``positive``)."""
        self.check_run(*positive)
        if not self.lr > 0:
            raise ValueError(f"lr must be positive, got {self.lr}")
        if not 0 < self.gamma <= 1:
            raise ValueError(f"gamma must be in (0, 1], got {self.gamma}")
        if not 0 <= self.gae_lambda <= 1:
            raise ValueError(f"gae_lambda must be in [0, 1], got {self.gae_lambda}")
        if self.ent_coef < 0 or self.vf_coef < 0:
            raise ValueError(f"ent_coef and vf_coef must be >= 0, got {self.ent_coef} and "
                             f"{self.vf_coef}")
        if not self.hidden or min(self.hidden) < 1:
            raise ValueError(f"hidden must list positive layer sizes, got {self.hidden}")
