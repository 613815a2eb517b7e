"""Playing and watching games: replays, the game log, SVG boards, terminal and browser play.

- ``hon_env.play.replay``: record a game (seed, scenario, actions, who played each seat) to
  JSON and replay it on the engine, checking that it reproduces.
- ``hon_env.play.gamelog``: the game's log in words, one entry per decision.
- ``hon_env.play.scene`` / ``hon_env.play.svg``: the board as drawing primitives and as SVG.
- ``hon_env.play.match``: a game between human seats and policies, with undo.
- ``hon_env.play.cards``: the cards a person can see, with their rules text
  (``hon_env.content.card_text``); ``hon_env.play.cardhtml``: their chips and panel in the
  browser pages.
- ``hon_env.play.terminal`` (``hon-play``), ``hon_env.play.web`` (``hon-play --web``) and
  ``hon_env.play.viewer`` (``hon-replay``): the front ends.

Only ``replay`` and ``gamelog`` are imported by the environments; the front ends import
``rich`` (terminal) or nothing beyond the standard library (web, viewer).
"""
