"""Generated content: issues and villains drawn from the rulebook's structures.

``generate(seed, knobs)`` returns the data of an issue file and a villain file; the
loader validates them like hand-made content. ``write_content`` writes a readable,
editable content folder (``hon-content generate``); ``generated_scenarios`` compiles
generated games for the vector env's pool, cached on disk. Heroes stay the hand-made
roster: generated content varies what the heroes face, not who they are.

Modules: ``board`` (the hex map), ``threats`` (villain-side effects to a power budget),
``issue``, ``villain``, ``names``, ``knobs``, ``store`` (files on disk), ``scenarios``
(compiled games).
"""

from hon_env.content.procgen.knobs import GENERATOR_VERSION, KNOB_NAMES, Knobs
from hon_env.content.procgen.scenarios import generated_scenario, generated_scenarios
from hon_env.content.procgen.store import (
    cache_content_dir,
    content_id,
    ensure_generated,
    generate,
    to_yaml,
    write_content,
)

__all__ = ["GENERATOR_VERSION", "KNOB_NAMES", "Knobs", "cache_content_dir", "content_id",
           "ensure_generated", "generate", "generated_scenario", "generated_scenarios",
           "to_yaml", "write_content"]
