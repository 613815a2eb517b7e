"""Command-line front ends, installed as console scripts (``pyproject.toml``):

- ``hon-train`` (``train``): MAPPO (``--algo mappo``, the default; ``train_mappo``) or
  sb3-contrib MaskablePPO (``--algo ppo``; ``train_ppo``).
- ``hon-eval`` (``evaluate``): win rates per villain x issue with 95% intervals.
- ``hon-bench`` (``benchmark``): decisions per second of every front end.

``scripts/*.py`` in a checkout are thin shims over these modules, so
``python scripts/train_mappo.py`` and ``hon-train`` take the same flags.
"""
