"""The vocabulary floor: the names every other layer reads, importing nothing of the
project.

- ``layout``: the state row (``FIELDS``, ``STATE_LEN``), the action space (``A_*``,
  ``N_ACTIONS``), decision kinds and names, target codes;
- ``tables``: the schema of the compiled scenario tables (columns, sizes, ``pack_tables``);
- ``ops``: the card ops (``OpSpec``: code, parameters, phrase) and their groups;
- ``obs_features``: the named features of the observation vector;
- ``compact``: the observation and state cut where a scenario's live sections end.

``hon_env.content`` compiles YAML *into* these tables; ``hon_env.core`` runs *on* them.
"""
