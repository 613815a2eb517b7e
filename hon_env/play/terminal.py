"""Playing in the terminal (``hon-play``), drawn with ``rich``.

Each time a human seat decides: the board (``hon_env.views.text.render_ansi``), the deciding
hero's hand numbered 1..k with each card's rules text (cut short), and the legal actions
numbered 1..n with the text of the card each one names, then one line of input:

    a number   answer with that action
    c N        read card N of your hand in full (c alone: every card of your hand)
    t          read every card in play: Hero cards, threat areas, play areas, clues, ...
    u          undo your latest decision (and the teammates' answers after it)
    l          show the game's log          b   show the board again
    q          quit (the replay is saved)   ?   list these commands

Card text comes from ``hon_env.content.card_text`` through ``hon_env.play.cards``.

The input is any text stream (``sys.stdin`` by default), so a test can play a whole game
with scripted lines.
"""

from __future__ import annotations

import sys
from typing import TextIO

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from hon_env.play import cards
from hon_env.play.gamelog import format_entry
from hon_env.play.match import Match
from hon_env.views.text import render_ansi

HELP = ("number = play it, c N = read card N of your hand, t = cards in play, u = undo, "
        "l = log, b = board, q = quit, ? = help")
COMMANDS = (  # what ``?`` prints
    ("1..n", "answer with that action (the numbered list of legal actions)"),
    ("c N", "read card N of your hand in full (c alone: every card of your hand)"),
    ("t", "read every card in play: Hero cards, threat areas, play areas, clues, allies, "
          "the Villain card, crisis and special cards"),
    ("u", "undo your latest decision (and the teammates' answers after it)"),
    ("l", "show the game's log"),
    ("b", "show the board again"),
    ("q", "quit (the replay is saved)"),
    ("?", "list these commands"),
)
MIN_TEXT = 24  # narrowest card-text column worth showing beside a table's other columns


def board_text(match: Match) -> str:
    """The text board without its list of legal actions (shown as a table instead)."""
    return render_ansi(match.game).split("\nDecision: ")[0].rstrip()


def _show_board(console: Console, match: Match) -> None:
    console.print(Panel(Text(board_text(match)), title="board", expand=False))


def _show_decision(console: Console, match: Match) -> None:
    g = match.game
    if match.last_action:
        console.print(f"[dim]last action:[/dim] {match.last_action}")
    hand = cards.hand(g, g.current_seat)
    if hand:
        table = Table(title=cards.hand_title(g, g.current_seat), title_justify="left")
        table.add_column("c", justify="right", style="bold magenta")
        table.add_column("card", style="bold")
        table.add_column("what it does (c N: in full)")
        room = _room(console, str(len(hand)), [c.name for c in hand])
        for k, c in enumerate(hand, start=1):
            table.add_row(str(k), c.name, cards.short(c.text, room))
        console.print(table)
    else:
        console.print(f"[bold]{cards.hand_title(g, g.current_seat)}[/bold]: -")
    table = Table(title=f"{g.current_agent} decides: {g.decision}", title_justify="left")
    table.add_column("#", justify="right", style="bold cyan")
    table.add_column("action")
    table.add_column("card text", style="dim")
    moves = match.legal_moves()
    room = _room(console, str(len(moves)), [words for _, words in moves])
    for k, (a, words) in enumerate(moves, start=1):
        c = cards.action_card(g, a)
        table.add_row(str(k), words, cards.short(c.text, room) if c else "")
    console.print(table)


def _room(console: Console, number: str, names: list[str]) -> int:
    """Characters left for a card's text in a table of (number, ``names``, text) columns
    on one line of ``console`` (each column takes 3 more for its padding and border), so
    the text is cut with "…" rather than wrapped; at least ``MIN_TEXT``."""
    used = len(number) + max((len(n) for n in names), default=0) + 3 * 3 + 1
    return max(MIN_TEXT, console.width - used)


def _show_card(console: Console, c: cards.Card, number: int | None = None) -> None:
    """One card in full: its number in the hand, name and rules text."""
    label = f"{number} " if number is not None else ""
    console.print(Text.assemble((f"{label}{c.name}", "bold"), ": ", c.text))


def read_hand_card(console: Console, match: Match, arg: str) -> bool:
    """``c N`` (``arg`` is ``N``, or "" for the whole hand): print the card(s) in full;
    False when ``N`` names no card of the hand."""
    hand = cards.hand(match.game, match.game.current_seat)
    if not arg:
        for k, c in enumerate(hand, start=1):
            _show_card(console, c, k)
        if not hand:
            console.print("(your hand is empty)")
        return True
    if not arg.isdigit() or not 1 <= int(arg) <= len(hand):
        span = f"1-{len(hand)}" if hand else "your hand is empty"
        console.print(Text(f"no card {arg!r} in your hand ({span})", style="red"))
        return False
    _show_card(console, hand[int(arg) - 1], int(arg))
    return True


def show_in_play(console: Console, match: Match) -> None:
    """``t``: every public card in play with its rules text, area by area."""
    areas = cards.in_play(match.game)
    for title, area in areas:
        console.print(Text(title, style="bold underline"))
        for c in area:
            _show_card(console, c)
    if not areas:
        console.print("(no cards in play yet)")


def show_commands(console: Console, n_moves: int) -> None:
    """``?``: the commands, one a line."""
    table = Table(title="commands", title_justify="left", show_header=False)
    table.add_column(style="bold cyan")
    table.add_column()
    for key, what in COMMANDS:
        table.add_row(key.replace("n", str(n_moves)) if key == "1..n" else key, what)
    console.print(table)


def _command(console: Console, match: Match, choice: str, n_moves: int
             ) -> tuple[bool, bool] | None:
    """Carry out ``choice`` when it is a command (u, l, b, ?, t, c N): whether the board and
    the decision are shown again before the next prompt; None for any other input."""
    if choice == "u":
        if match.undo():
            console.print("[yellow]undone: back to your previous decision[/yellow]")
            return True, True
        console.print("[yellow]nothing to undo[/yellow]")
        return False, True
    if choice == "l":
        for entry in match.log or []:
            console.print(format_entry(entry), highlight=False)
        if not match.log:
            console.print("(no decisions yet)")
        return False, True
    if choice == "b":
        return True, True
    if choice == "?":
        show_commands(console, n_moves)
        return False, False
    if choice == "t":
        show_in_play(console, match)
        return False, False
    if choice[:1] == "c" and (choice[1:2] in ("", " ") or choice[1:].isdigit()):  # c, c N
        read_hand_card(console, match, choice[1:].strip())
        return False, False
    return None


def play_terminal(match: Match, console: Console | None = None, stdin: TextIO | None = None,
                  show_bots: bool = True) -> str:
    """Play ``match`` to its end (or until ``q`` / end of input).

    Returns how it stopped: ``"over"``, ``"quit"`` or ``"eof"``.
    """
    console = console or Console()
    stdin = stdin or sys.stdin
    names = ", ".join(match.seat_labels())
    console.print(Panel(f"{match.scenario.issue_name} vs {match.scenario.villain_name}, "
                        f"seed {match.seed}\nseats: {names}\n{HELP}", title="Hour of Need"))
    show_board = True
    show_decision = True  # False after c, t and ?: their text stays just above the prompt
    while True:
        for entry in match.advance():
            if show_bots:
                console.print(f"[dim]{format_entry(entry)}[/dim]")
        if match.over:
            _show_board(console, match)
            reason = f" ({match.game.loss_reason})" if match.game.loss_reason else ""
            console.print(f"[bold]Game over: {match.game.outcome}{reason}[/bold] after "
                          f"{len(match.actions)} decisions")
            return "over"
        if show_board:
            _show_board(console, match)
        if show_decision:
            _show_decision(console, match)
        show_board = show_decision = True
        moves = match.legal_moves()
        console.print(f"choice [1-{len(moves)}, c N, t, u, l, b, q, ?]: ", end="")
        line = stdin.readline()
        if not line:
            console.print("\nend of input")
            return "eof"
        choice = line.strip().lower()
        console.print(choice, highlight=False)
        if choice == "q":
            return "quit"
        shown = _command(console, match, choice, len(moves))
        if shown is not None:
            show_board, show_decision = shown
            continue
        if not choice.isdigit() or not 1 <= int(choice) <= len(moves):
            console.print(f"[red]{choice!r} is not a choice: {HELP} (1-{len(moves)})[/red]")
            show_board = False
            continue
        entry = match.act(moves[int(choice) - 1][0])
        console.print(f"[green]{format_entry(entry)}[/green]", highlight=False)
