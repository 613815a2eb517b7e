"""Front ends over the engine.

- ``vector``: the batched vector API (``hon_env.vector_env``).
- ``pettingzoo_env``: PettingZoo AEC and Parallel envs of one game (``hour_of_need_v8``).
- ``gym_env``: a single-agent Gymnasium env (``hon_env/HourOfNeed-v8``).
- ``gym_vector``: the batched engine as a Gymnasium ``VectorEnv`` (``gymnasium.make_vec``).
- ``sb3``: a stable-baselines3 ``VecEnv`` over the batched engine.
- ``torchrl_env``: the batched engine as a TorchRL ``EnvBase`` (optional extra ``torchrl``).
- ``rllib_env``: one game as a turn-based RLlib ``MultiAgentEnv`` (optional extra ``rllib``).
- ``session``: the episode logic the single-game front ends share.
"""
