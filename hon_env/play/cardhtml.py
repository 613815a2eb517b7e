"""The card chips, tooltips and card panel shared by the browser pages (``hon-play --web``
and ``hon-replay``): plain CSS and JavaScript, no libraries, pasted into each page.

A card is ``{"key", "name", "text"}`` (``hon_env.play.cards.Card.to_dict``). In the page,
``cardChip(card)`` makes a chip (``span.card``) that shows the card's rules text as a
tooltip on hover and in the panel (``#card-panel``) on click, tap or Enter;
``cardAreas(element, areas)`` fills ``element`` with titled rows of chips
(``[{"title", "cards"}]``); ``showCard(card)`` opens the panel, Esc or its x closes it.
"""

from __future__ import annotations

CSS = """
.card { display: inline-block; margin: 2px 3px 2px 0; padding: 1px 6px; font-size: 12px;
  border: 1px solid #8a6d3b; border-radius: 4px; background: #fff8e1; cursor: pointer; }
.card:focus { outline: 2px solid #1565c0; }
.area-title { font-size: 12px; color: #555; margin-top: 4px; }
#card-panel { position: fixed; right: 16px; bottom: 16px; width: 340px; z-index: 10;
  background: white; border: 2px solid #8a6d3b; border-radius: 6px; padding: 8px 10px;
  box-shadow: 0 2px 8px rgba(0, 0, 0, 0.3); font-size: 13px; }
#card-panel[hidden] { display: none; }
#card-name { font-weight: bold; margin-bottom: 4px; padding-right: 22px; }
#card-close { position: absolute; top: 4px; right: 4px; border: none; background: none;
  font-size: 16px; cursor: pointer; }
"""

PANEL = """<div id="card-panel" hidden role="dialog" aria-label="card text">
  <button id="card-close" title="close (Esc)">&times;</button>
  <div id="card-name"></div><div id="card-text"></div>
</div>"""

JS = """
function showCard(card) {
  document.getElementById("card-name").textContent = card.name;
  document.getElementById("card-text").textContent = card.text;
  const panel = document.getElementById("card-panel");
  panel.dataset.key = card.key;
  panel.hidden = false;
}
function hideCard() { document.getElementById("card-panel").hidden = true; }
function cardTitle(card) { return card.name + ": " + card.text; }
function cardChip(card) {
  const chip = document.createElement("span");
  chip.className = "card";
  chip.tabIndex = 0;
  chip.textContent = card.name;
  chip.title = cardTitle(card);
  chip.dataset.key = card.key;
  chip.addEventListener("click", () => showCard(card));
  chip.addEventListener("keydown", e => { if (e.key === "Enter") { showCard(card); } });
  return chip;
}
function cardAreas(element, areas) {
  element.replaceChildren();
  for (const area of areas) {
    const row = document.createElement("div");
    row.className = "area";
    const title = document.createElement("div");
    title.className = "area-title";
    title.textContent = area.title;
    row.appendChild(title);
    for (const card of area.cards) { row.appendChild(cardChip(card)); }
    element.appendChild(row);
  }
}
document.getElementById("card-close").addEventListener("click", hideCard);
document.addEventListener("keydown", e => { if (e.key === "Escape") { hideCard(); } });
"""
