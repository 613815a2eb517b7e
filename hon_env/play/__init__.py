"""The applications for people: playing and watching games in the terminal and the browser.

- ``hon_env.play.gamelog``: the game's log in words, one entry per decision.
- ``hon_env.play.match``: a game between human seats and policies, with undo.
- ``hon_env.play.cards``: the cards a person can see, with their rules text
  (``hon_env.content.card_text``); ``hon_env.play.cardhtml``: their chips and panel in the
  browser pages.
- ``hon_env.play.terminal`` (``hon-play``), ``hon_env.play.web`` (``hon-play --web``) and
  ``hon_env.play.viewer`` (``hon-replay``): the front ends; ``hon_env.play.cli``: their
  command line.

They show the pure views of ``hon_env.views`` (text, SVG) and save ``hon_env.replay``
records (``hon_env.play.replay`` re-exports it for older imports). This is the top layer:
it may import the agents (the policies a match seats), and nothing below imports it.
The front ends import ``rich`` (terminal) or nothing beyond the standard library (web,
viewer).
"""
