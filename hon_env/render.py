"""Text and image rendering of one game: ``render_ansi`` and ``render_rgb``, kept under
this name for existing imports. They live in ``hon_env.views`` (``views.text``,
``views.raster``), with the SVG board and the board model they share.
"""

from hon_env.views.raster import render_rgb
from hon_env.views.text import render_ansi

__all__ = ["render_ansi", "render_rgb"]
