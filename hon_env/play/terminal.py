"""Playing in the terminal (``hon-play``), drawn with ``rich``.

Each time a human seat decides: the board (``hon_env.render.render_ansi``), the deciding
hero's hand and the legal actions numbered 1..n, then one line of input:

    a number   answer with that action
    u          undo your latest decision (and the teammates' answers after it)
    l          show the game's log          b   show the board again
    q          quit (the replay is saved)

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

from hon_env.core import layout as L
from hon_env.play.gamelog import format_entry
from hon_env.play.match import Match
from hon_env.render import render_ansi

HELP = "number = play it, u = undo, l = log, b = board, q = quit"


def board_text(match: Match) -> str:
    """The text board without its list of legal actions (shown as a table instead)."""
    return render_ansi(match.game).split("\nDecision: ")[0].rstrip()


def _show_board(console: Console, match: Match) -> None:
    console.print(Panel(Text(board_text(match)), title="board", expand=False))


def _show_decision(console: Console, match: Match) -> None:
    g = match.game
    seat = g.current_seat
    if match.last_action:
        console.print(f"[dim]last action:[/dim] {match.last_action}")
    if seat == L.VILLAIN_SEAT:
        console.print("[bold]Your hand[/bold] (the villain, hidden from the heroes): "
                      + (", ".join(g.villain_hand()) or "-"))
    else:
        hero = g.snapshot()["heroes"][seat]
        console.print(f"[bold]Your hand[/bold] ({hero['name']}, seat {seat + 1}): "
                      + (", ".join(hero["hand"]) or "-"))
    table = Table(title=f"{g.current_agent} decides: {g.decision}", show_lines=False)
    table.add_column("#", justify="right", style="bold cyan")
    table.add_column("action")
    for k, (_, words) in enumerate(match.legal_moves(), start=1):
        table.add_row(str(k), words)
    console.print(table)


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
        show_board = True
        _show_decision(console, match)
        moves = match.legal_moves()
        console.print(f"choice [1-{len(moves)}, u, l, b, q]: ", end="")
        line = stdin.readline()
        if not line:
            console.print("\nend of input")
            return "eof"
        choice = line.strip().lower()
        console.print(choice, highlight=False)
        if choice == "q":
            return "quit"
        if choice == "u":
            if match.undo():
                console.print("[yellow]undone: back to your previous decision[/yellow]")
            else:
                console.print("[yellow]nothing to undo[/yellow]")
                show_board = False
            continue
        if choice == "l":
            for entry in match.log or []:
                console.print(format_entry(entry), highlight=False)
            if not match.log:
                console.print("(no decisions yet)")
            show_board = False
            continue
        if choice == "b":
            continue
        if not choice.isdigit() or not 1 <= int(choice) <= len(moves):
            console.print(f"[red]{choice!r} is not a choice: {HELP} (1-{len(moves)})[/red]")
            show_board = False
            continue
        entry = match.act(moves[int(choice) - 1][0])
        console.print(f"[green]{format_entry(entry)}[/green]", highlight=False)
