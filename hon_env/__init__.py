"""hon_env: Hour of Need as a batched, masked, cooperative multi-agent RL environment.

Entry points:

- ``Game``: one game, OpenSpiel style (``legal_actions``, ``apply``, ``snapshot``...).
- ``load_scenario`` / ``list_content``: the YAML content, compiled and validated.
- ``action_meanings``: a name for every index of the flat action space.
- ``vector_env``: thousands of games per step as batched arrays.
- ``hour_of_need_v8``: the PettingZoo module (``.env()``, ``.parallel_env()``, ``.raw_env()``).
- ``HourOfNeedEnv``: single-agent Gymnasium env, registered as ``hon_env/HourOfNeed-v8``;
  ``gymnasium.make_vec`` of that id gives the batched engine (``envs.gym_vector``).
- ``HourOfNeedVillainEnv`` (``hon_env.envs.villain_env``), registered as
  ``hon_env/HourOfNeedVillain-v8``: the Mastermind variant's villain agent as a
  single-agent env, the heroes played by a fixed policy passed in as an object
  (``hero_policy=agents.load_policy("heuristic")``; ``docs/mastermind.md``).
- ``hon_env.positions``: build positions by hand.
- ``observation_spec`` / ``state_spec`` / ``feature_index``: the observation as named
  features (``docs/observation.md``).
- ``hon_env.actions``: named action constructors (``move("D4", g)``, ``attack(...)``...).

Importing the package first points numba's kernel cache at a folder keyed by the engine
source (``hon_env/numba_cache.py``), so a changed engine never runs stale compiled code,
has processes that compile into that folder at once compile each function once
(``hon_env/shared_compile.py``), has a kernel compiled once per array layout rather than
once per call site's constants (``hon_env/numba_calls.py``), and makes idle OpenMP
workers spin only briefly before they sleep (``hon_env/threads.py``) unless
``OMP_WAIT_POLICY`` or ``GOMP_SPINCOUNT`` is set: import it before torch for that to take
effect.
"""

# ruff: noqa: E402  (the cache folder, the call rule and the OpenMP wait policy must be set
# before any kernel module, and torch, is imported)
from hon_env.threads import configure_openmp_wait

configure_openmp_wait()

from hon_env.numba_cache import configure_cache

NUMBA_CACHE_DIR = configure_cache()

from hon_env.shared_compile import lock_compiles

lock_compiles(NUMBA_CACHE_DIR)

from hon_env.numba_calls import widen_kernel_calls

widen_kernel_calls()

import gymnasium

from hon_env.content import ContentError, Scenario, list_content, load_scenario
from hon_env.describe import action_meanings
from hon_env.envs import pettingzoo_env as hour_of_need_v8
from hon_env.envs.gym_env import ENV_ID, HourOfNeedEnv
from hon_env.envs.vector import VectorEnv, vector_env
from hon_env.envs.villain_env import VILLAIN_ENV_ID
from hon_env.errors import EngineError, StateError
from hon_env.game import Game, IllegalActionError
from hon_env.spec.layout import N_ACTIONS
from hon_env.spec.obs_features import feature_index, observation_spec, state_spec

__version__ = "0.1.0"

__all__ = [
    "N_ACTIONS", "ContentError", "EngineError", "Game", "HourOfNeedEnv", "IllegalActionError",
    "Scenario", "StateError", "VectorEnv", "action_meanings", "feature_index",
    "hour_of_need_v8", "list_content", "load_scenario", "observation_spec", "state_spec",
    "vector_env",
]

# Registered once per process: the registry outlives reloads of this module.
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="hon_env.envs.gym_env:HourOfNeedEnv",
                       vector_entry_point="hon_env.envs.gym_vector:HourOfNeedVectorEnv")
if VILLAIN_ENV_ID not in gymnasium.registry:  # the Mastermind variant's villain agent
    # the entry point lives with the agents, which resolve a policy name (default: the
    # coordinated scripted team); the string is read by gymnasium, not imported here
    gymnasium.register(id=VILLAIN_ENV_ID, entry_point="agents.villain_gym:make_villain_env")
