"""Policies by name or checkpoint path: what ``--policy`` means in every script.

- ``random``: masked uniform (``RandomPolicy``),
- ``heuristic``: the coordinated scripted team (``CoordinatedPolicy``),
- ``heuristic_solo``: the per-hero scripted team, every hero on its own (``HeuristicPolicy``),
- ``glory_one`` / ``glory_all``: the coordinated team with seat 0 / every hero a glory
  seeker playing for its own fame (``agents.glory``, the Fame variant),
- ``path/to/model.zip``: a MaskablePPO checkpoint from ``scripts/train_ppo.py``,
- ``path/to/model.pt``: a MAPPO checkpoint from ``scripts/train_mappo.py`` (or a cloned
  actor from ``scripts/train_bc.py``),
- ``mappo:TASK``: the MAPPO policy shipped for benchmark task ``TASK`` (``list_pretrained()``;
  files in ``agents/pretrained/``, written by ``scripts/export_checkpoint.py``);
  ``bc:TASK``: a shipped behaviour-cloned actor,
- ``zoo:NAME``: member ``NAME`` of the partner zoo (``agents.zoo``, ``list_zoo()``): frozen
  co-op partners, split into training partners and held-out ones (evaluation only).
"""

from __future__ import annotations

import os
from pathlib import Path

from agents.policy import Policy
from agents.random_agent import RandomPolicy
from agents.scripted import CoordinatedPolicy, GloryTeamPolicy, HeuristicPolicy

BUILTIN = ("random", "heuristic", "heuristic_solo", "glory_one", "glory_all")
PRETRAINED = Path(__file__).resolve().parent / "pretrained"
PRETRAINED_ALGOS = ("mappo", "bc")


def list_pretrained() -> list[str]:
    """Names of the shipped policies, ``algo:task``, sorted."""
    names = (p.stem.split("_", 1) for p in PRETRAINED.glob("*_*.pt"))
    return sorted(f"{algo}:{task}" for algo, task in names if algo in PRETRAINED_ALGOS)


def pretrained_path(spec: str) -> Path:
    """The file of the shipped policy ``spec`` (``algo:task``); ``ValueError`` naming the
    shipped ones when there is none."""
    algo, _, task = spec.partition(":")
    path = PRETRAINED / f"{algo}_{task}.pt"
    if algo not in PRETRAINED_ALGOS or not task or not path.is_file():
        raise ValueError(f"no shipped policy {spec!r}: shipped ones are {list_pretrained()}")
    return path


def list_zoo() -> list[str]:
    """The partner zoo's policy names, ``zoo:NAME`` (``agents.zoo.list_members``)."""
    from agents.zoo import list_members

    return [f"zoo:{name}" for name in list_members()]


def load_policy(spec: str, seed: int = 0, device: str = "cpu", greedy: bool = True,
                purpose: str = "eval") -> Policy:
    """The policy named by ``spec`` (see the module docstring); ``greedy`` makes trained
    policies take their most likely legal action instead of sampling (a zoo member plays
    as its manifest says: learned members greedily). ``purpose="train"`` marks a training
    partner: a held-out zoo member is then refused (``agents.zoo.load_member``)."""
    if purpose not in ("eval", "train"):
        raise ValueError(f"purpose must be 'eval' or 'train', got {purpose!r}")
    if isinstance(spec, os.PathLike):
        spec = os.fspath(spec)  # a checkpoint's path
    if not isinstance(spec, str):
        raise TypeError(f"a policy is named by a string or a checkpoint path (see "
                        f"agents/registry.py), got {spec!r} ({type(spec).__name__})")
    if spec.startswith("zoo:"):
        from agents.zoo import load_member

        return load_member(spec[len("zoo:"):], seed=seed, purpose=purpose, device=device)
    if spec == "random":
        return RandomPolicy(seed)
    if spec == "heuristic":
        return CoordinatedPolicy()
    if spec == "heuristic_solo":
        return HeuristicPolicy()
    if spec == "glory_one":
        return GloryTeamPolicy([0], name=spec)
    if spec == "glory_all":
        return GloryTeamPolicy(None, name=spec)
    if spec.partition(":")[0] in PRETRAINED_ALGOS and not Path(spec).exists():
        spec = str(pretrained_path(spec))
    path = Path(spec)
    if not path.exists():
        raise ValueError(f"unknown policy {spec!r}: expected one of {BUILTIN}, a shipped "
                         f"policy {list_pretrained()}, a zoo member {list_zoo()} or a "
                         "checkpoint path (.zip from train_ppo.py, .pt from train_mappo.py)")
    from agents.trained import MappoPolicy, PpoPolicy  # torch only when needed

    if path.suffix == ".zip":
        return PpoPolicy.load(path, device=device, greedy=greedy, seed=seed)
    if path.suffix == ".pt":
        return MappoPolicy.load(path, device=device, greedy=greedy, seed=seed)
    raise ValueError(f"unknown checkpoint type {path.suffix!r} for {spec!r} (.zip or .pt)")
