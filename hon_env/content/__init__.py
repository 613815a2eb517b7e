"""Game content: YAML heroes, villains, issues, clues and scenarios, compiled to tables.

``load_scenario(id)`` is the entry point; ``list_content()`` lists what is available.
"""

from hon_env.content.compile import Scenario, load_scenario
from hon_env.content.errors import ContentError
from hon_env.content.loader import list_content

__all__ = ["ContentError", "Scenario", "list_content", "load_scenario"]
