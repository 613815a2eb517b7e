"""Compiled generated games: ``Scenario`` objects for the vector env's pool."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hon_env.content.compile import Scenario, load_scenario
from hon_env.content.procgen.knobs import Knobs
from hon_env.content.procgen.store import SCENARIO, content_id, ensure_generated


def generated_scenario(seed: int, heroes: Sequence[str], knobs: Knobs | None = None,
                       **overrides: Any) -> Scenario:
    """The compiled game of generated seed ``seed`` for ``heroes`` (``overrides``: the
    ``rules``/``caps`` of ``load_scenario``)."""
    return generated_scenarios([seed], heroes, knobs, **overrides)[0]


def generated_scenarios(seeds: Sequence[int], heroes: Sequence[str],
                        knobs: Knobs | None = None, cache_dir: str | Path | None = None,
                        **overrides: Any) -> list[Scenario]:
    """The compiled games of ``seeds`` (files written to the cache once per machine;
    ``cache_dir`` replaces the user cache folder)."""
    content = ensure_generated(list(seeds), knobs, cache_dir)
    return [load_scenario(SCENARIO, heroes=list(heroes), villain=content_id(s),
                          issue=content_id(s), content_dir=content, **overrides)
            for s in seeds]
