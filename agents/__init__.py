"""Baseline policies and their evaluation, all behind one ``Policy`` interface."""

from agents.policy import Engine, Policy
from agents.random_agent import RandomPolicy
from agents.registry import load_policy
from agents.scripted import CoordinatedPolicy, HeuristicPolicy

__all__ = ["CoordinatedPolicy", "Engine", "HeuristicPolicy", "Policy", "RandomPolicy",
           "load_policy"]
