"""`companion kissa ...` (alias `companion 2kissa10 ...`): tools on a board file.

    companion kissa moves BOARD_FILE [--expert] [--kids] [--no-lone-zero]
                                     [--count] [--best N] [--json]

BOARD_FILE is 10 lines of 10 characters, a digit or `.` for an empty cell (docs/rules.md §7);
`-` reads it from standard input. Moves are listed best score first; `--json` prints a JSON
array of ``{"op", "operands", "result", "values", "score"}`` (see docs/2kissa10.md), `--count`
prints the number of legal moves alone, `--best N` keeps the N best.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import TextIO

from companion.games.kissa.finder import TIMES, MoveFinder, cell_name
from companion.games.kissa.notation import BoardError, parse_board
from companion.saves.files import InputFileError, read_input

MAX_BOARD_BYTES = 64 * 1024  # a board is 110 bytes; comments allowed, but not a novel


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion kissa", description="2kissa10 tools on a board file.")
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser(
        "moves",
        help="list, count or rank the legal moves of a board",
        description="List the legal moves of a board, best score first.",
    )
    m.add_argument("board", metavar="BOARD_FILE", help="10 lines of 10 digits or '.'; '-' for stdin")
    m.add_argument("--expert", action="store_true", help="numbers read in all eight directions")
    m.add_argument("--kids", action="store_true", help="single-digit numbers to add or multiply")
    m.add_argument("--no-lone-zero", action="store_true", help="a lone 0 is not a number (TA-3 variant)")
    m.add_argument("--count", action="store_true", help="print only the number of legal moves")
    m.add_argument("--best", type=int, metavar="N", help="only the N best moves by score")
    m.add_argument("--json", action="store_true", help="a JSON array of moves")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    err = sys.stderr
    name = "standard input" if args.board == "-" else args.board
    try:
        text = read_input(args.board, limit=MAX_BOARD_BYTES)
    except InputFileError as exc:
        print(f"companion kissa: {exc}", file=err)
        return 2
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith("#"):
            continue
        odd = next((c for c in line if c.isdigit() and not ("0" <= c <= "9")), None)
        if odd is not None:  # Arabic-Indic, full-width, superscript... are not board digits
            print(f"companion kissa: {name}, line {number}: {odd!r} is not a digit 0-9", file=err)
            return 2
    try:
        board = parse_board(text)
    except BoardError as exc:
        print(f"companion kissa: {name}, line {exc.line}: {exc.reason}"
              + (f" ({exc.text!r})" if exc.text else ""), file=err)
        print("A board is 10 lines of 10 characters: a digit 0-9, or '.' for an empty cell.", file=err)
        return 2
    if args.best is not None and not 0 <= args.best <= 1_000_000:
        print("companion kissa: --best needs a number of moves, 0 or more", file=err)
        return 2
    finder = MoveFinder(board, expert=args.expert, kids=args.kids, zero_is_number=not args.no_lone_zero)
    out = sys.stdout
    try:
        if args.count:
            out.write(f"{finder.count()}\n")
        else:
            moves: Iterator[tuple[str, int, int, int, int]]
            moves = iter(finder.best(args.best)) if args.best is not None else finder.moves()
            (_write_json if args.json else _write_text)(finder, moves, out)
        out.flush()
    except BrokenPipeError:  # `| head` closed the pipe: not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
    return 0


def _write_json(finder: MoveFinder, moves: Iterator[tuple[str, int, int, int, int]], out: TextIO) -> None:
    cells = [json.dumps([cell_name(x) for x in n.cells]) for n in finder.numbers]
    values = [str(n.value) for n in finder.numbers]
    first = True
    out.write("[")
    for op, a, b, c, score in moves:
        out.write(
            ("\n" if first else ",\n")
            + f'{{"op": "{op}", "operands": [{cells[a]}, {cells[b]}], "result": {cells[c]}, '
            f'"values": [{values[a]}, {values[b]}, {values[c]}], "score": {score}}}'
        )
        first = False
    out.write("\n]\n" if not first else "]\n")


def _write_text(finder: MoveFinder, moves: Iterator[tuple[str, int, int, int, int]], out: TextIO) -> None:
    nums = finder.numbers

    def num(i: int) -> str:
        return f"{nums[i].value} ({' '.join(cell_name(x) for x in nums[i].cells)})"

    n = 0
    for op, a, b, c, score in moves:
        sign = "×" if op == TIMES else "+"
        out.write(f"{num(a)} {sign} {num(b)} = {num(c)}   score {score}\n")
        n += 1
    out.write(f"{n} move{'s' if n != 1 else ''}\n")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
