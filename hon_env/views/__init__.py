"""Pure views of one game for people: text, SVG and image. They read a ``Game`` (through
``Game.field``/``Game.snapshot``) and return a string or an array; none changes the game,
and none imports an environment, an agent or an application.

- ``hon_env.views.board``: the board model every view shares (what stands on each space,
  each scheme panel) and the marker legend.
- ``hon_env.views.text``: ``render_ansi`` (the envs' ``render_mode="ansi"``).
- ``hon_env.views.scene``: the board as drawing primitives; ``hon_env.views.svg``
  (``render_svg``) and ``hon_env.views.raster`` (``render_rgb``, the envs'
  ``render_mode="rgb_array"``; Pillow, imported on first use) draw them.

The environments render through these; the applications (``hon_env.play``) show them.
"""

from hon_env.views.raster import render_rgb
from hon_env.views.svg import render_svg
from hon_env.views.text import render_ansi

__all__ = ["render_ansi", "render_rgb", "render_svg"]
