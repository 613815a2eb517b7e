"""Baseline policies and their evaluation, all behind one ``Policy`` interface."""

from agents.policy import Policy
from agents.random_agent import RandomPolicy

__all__ = ["Policy", "RandomPolicy"]
