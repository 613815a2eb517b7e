"""The board as an image: ``render_rgb`` (the environments' ``render_mode="rgb_array"``),
the scene primitives of ``hon_env.views.scene`` drawn with Pillow (imported on first use).

The empty map (``scene.static_layer``) is drawn once per scenario and scale and copied
for every frame; only the dynamic layer is drawn per frame.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from hon_env.views.scene import HEIGHT, WIDTH, Prim, dynamic_layer, static_layer

if TYPE_CHECKING:
    from PIL import Image, ImageFont

    from hon_env.game import Game

_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
_base_cache: dict[tuple[int, float], tuple[object, Image.Image]] = {}


@lru_cache(maxsize=64)
def _font(size: int, bold: bool) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans from the system or matplotlib's copy, else Pillow's built-in font."""
    from PIL import ImageFont

    name = _FONT_FILES[bold]
    candidates = [name, f"/usr/share/fonts/truetype/dejavu/{name}"]
    try:
        import matplotlib

        candidates.append(str(Path(matplotlib.__file__).parent / "mpl-data/fonts/ttf" / name))
    except ImportError:
        pass
    for path in candidates:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return ImageFont.load_default(size)


def _draw(image: Image.Image, prims: list[Prim], scale: float) -> None:
    from PIL import ImageDraw

    d = ImageDraw.Draw(image)
    s = scale
    for p in prims:
        kind = p[0]
        if kind == "poly":
            pts = [v * s for v in p[1]]
            d.polygon(pts, fill=p[2], outline=p[3] if p[4] else None,
                      width=max(1, round(p[4] * s)) if p[3] else 0)
        elif kind == "circle":
            x, y, r = p[1] * s, p[2] * s, p[3] * s
            d.ellipse((x - r, y - r, x + r, y + r), fill=p[4], outline=p[5] if p[6] else None,
                      width=max(1, round(p[6] * s)) if p[5] else 0)
        elif kind == "rect":
            x, y = p[1] * s, p[2] * s
            d.rectangle((x, y, x + p[3] * s, y + p[4] * s), fill=p[5],
                        outline=p[6] if p[7] else None,
                        width=max(1, round(p[7] * s)) if p[6] else 0)
        elif kind == "text":
            _, x, y, text, size, fill, bold, anchor = p
            d.text((x * s, y * s), text, fill=fill, font=_font(max(4, round(size * s)), bold),
                   anchor="mm" if anchor == "middle" else "lm")
        else:
            raise ValueError(f"unknown scene primitive {kind!r}")


def _base(game: Game, scale: float) -> Image.Image:
    """The empty map of the game's scenario at ``scale`` (cached)."""
    from PIL import Image

    key = (id(game.scenario), scale)
    hit = _base_cache.get(key)
    if hit is not None and hit[0] is game.scenario:
        return hit[1]
    image = Image.new("RGB", (round(WIDTH * scale), round(HEIGHT * scale)), "white")
    _draw(image, static_layer(game.scenario), scale)
    if len(_base_cache) > 16:
        _base_cache.clear()
    _base_cache[key] = (game.scenario, image)
    return image


def rasterize(game: Game, last_action: str | None = None, scale: float = 1.0) -> np.ndarray:
    """uint8 ``[H, W, 3]`` image of ``game`` (1300 x 750 pixels times ``scale``)."""
    if not scale > 0:
        raise ValueError(f"scale must be positive, got {scale}")
    image = _base(game, scale).copy()
    _draw(image, dynamic_layer(game, last_action), scale)
    return np.asarray(image)


def render_rgb(game: Game, dpi: int = 100, last_action: str | None = None) -> np.ndarray:
    """An image of ``game``: the hex map, the scheme panels, a side panel of the villain,
    issue and heroes, the pending decision with its legal actions and ``last_action``.

    Drawn with Pillow from the same primitives as the SVG board (``hon_env.views.scene``);
    the empty map is drawn once per scenario and reused.

    Args:
        game: the game to draw (not modified).
        dpi: resolution; 100 gives 1300 x 750 pixels, other values scale the image.
        last_action: the latest answer in words, shown under the title.

    Returns:
        uint8 ``[H, W, 3]`` RGB image.
    """
    return rasterize(game, last_action=last_action, scale=dpi / 100.0)
