"""`companion kaliko ...`: the tile list, the scorer and the play finder on the command line.

* `companion kaliko tiles [--json]` - the 85 tiles in number order (RULES §7).
* `companion kaliko score POSITION.json [--json]` - judge the file's `play` on its `pattern`.
* `companion kaliko best POSITION.json --hand "TILE;TILE;..." [--json]` - the best play.

POSITION.json is `{"pattern": [{"cell": [q, r], "tile": "01R 23W 45B"}, ...], "play": [...]}`
with every tile written as it lies on the board.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.games.kaliko.tiles import (
    NUMBER,
    ORIENTED,
    TILES,
    TileSyntaxError,
    cell_id,
    cell_qr,
    identity,
    oriented,
)
from companion.saves.files import InputFileError, ascii_digits, load_json_input, strict_int

OPTION_FLAGS = ("crossings_new_tiles_only", "double_main_only")


class PositionError(ValueError):
    """A position file that cannot be read: said with what is wrong, exit status 2."""


MAX_HAND = 7  # RULES K-5: a hand holds 7 tiles; beyond, the search is unbounded (issue #16)
MAX_TILES = 85  # tiles in the box
MAX_COORD = 200  # far beyond any board made of 85 tiles


def _placements(items: Any, what: str) -> list[tuple[int, int]]:
    if not isinstance(items, list):
        raise PositionError(f"{what} must be a list")
    if len(items) > MAX_TILES:
        raise PositionError(f"{what} has {len(items)} tiles; the box holds {MAX_TILES}")
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or set(item) - {"cell", "tile", "number"}:
            raise PositionError(f'{what}[{i}] must be an object {{"cell": [q, r], "tile": "..."}}')
        cell, tile = item.get("cell"), item.get("tile")
        if not isinstance(cell, list) or len(cell) != 2:
            raise PositionError(f"{what}[{i}]: cell must be [q, r]")
        try:
            q, r = (strict_int(v, f"{what}[{i}] cell", -MAX_COORD, MAX_COORD) for v in cell)
        except InputFileError as exc:
            raise PositionError(str(exc)) from None
        if not isinstance(tile, str) or len(tile) > 40:
            raise PositionError(f"{what}[{i}]: tile must be a string such as \"01R 23W 45B\"")
        try:
            out.append((cell_id(q, r), oriented(tile)))
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"{what}[{i}]: {exc}") from exc
    return out


def load_position(path: str, need_play: bool = True) -> tuple[dict[int, int], list[tuple[int, int]]]:
    try:
        data = load_json_input(path)
    except InputFileError as exc:
        raise PositionError(str(exc)) from exc
    if not isinstance(data, dict):
        raise PositionError("the position must be a JSON object")
    unknown = set(data) - {"pattern", "play"}
    if unknown:
        raise PositionError(f"unknown key {sorted(unknown)[0]!r}: a position has \"pattern\" and \"play\"")
    if "pattern" not in data:
        raise PositionError('the position needs a "pattern" (the tiles on the table)')
    pattern = _placements(data["pattern"], "pattern")
    if need_play and not data.get("play"):
        raise PositionError('the position needs a "play": the tiles to judge')
    board: dict[int, int] = {}
    for c, ot in pattern:
        if c in board:
            raise PositionError(f"pattern: two tiles at {list(cell_qr(c))}")
        board[c] = ot
    play = _placements(data.get("play", []), "play")
    if len({c for c, _ in play}) != len(play):
        raise PositionError("play: two tiles on one cell")
    return board, play


def parse_hand(text: str) -> list[int]:
    """"01R 23W 45B;12" -> tile numbers (a tile in any rotation, or its number)."""
    out = []
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        if ascii_digits(part) and len(part) <= 3:
            n = int(part)
            if not 1 <= n <= len(TILES):
                raise PositionError(f"no tile number {n}")
        else:
            try:
                n = NUMBER[identity(part)]
            except (TileSyntaxError, KeyError, ValueError) as exc:
                raise PositionError(f"bad tile {part[:40]!r}") from exc
        out.append(n)
        if len(out) > MAX_HAND:
            raise PositionError(f"a hand holds at most {MAX_HAND} tiles")
    if len(set(out)) != len(out):
        raise PositionError("the same tile twice in the hand")
    return out


def _placement_json(c: int, ot: int) -> dict[str, Any]:
    q, r = cell_qr(c)
    return {"cell": [q, r], "tile": ORIENTED[ot], "number": NUMBER[identity(ORIENTED[ot])]}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion kaliko", description="Kaliko tiles, scorer and play finder.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_tiles = sub.add_parser("tiles", help="the 85 tiles in number order")
    p_tiles.add_argument("--json", action="store_true")
    for name, helptext in (("score", "score the play of a position file"), ("best", "the best play of a hand")):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("position")
        p.add_argument("--json", action="store_true")
        p.add_argument("--crossings-new-tiles-only", action="store_true", help="variant: only crossings on new tiles score")
        p.add_argument("--double-main-only", action="store_true", help="variant: only the main path doubles when closed")
        if name == "best":
            p.add_argument("--hand", required=True, help='tiles separated by ";" (tile strings or numbers)')
            p.add_argument("--all", action="store_true", help="also list every legal play, best first")
    args = parser.parse_args(argv)

    if args.command == "tiles":
        rows = [{"number": i + 1, "tile": t} for i, t in enumerate(TILES)]
        if args.json:
            print(json.dumps(rows))
        else:
            for row in rows:
                print(f"{row['number']:2d}  {row['tile']}")
        return 0

    try:
        board, play = load_position(args.position, need_play=args.command == "score")
        hand = parse_hand(args.hand) if args.command == "best" else []
    except PositionError as exc:
        print(f"companion kaliko: {exc}", file=sys.stderr)
        return 2
    variants = (args.crossings_new_tiles_only, args.double_main_only)

    if args.command == "score":
        from companion.games.kaliko.scoring import evaluate

        verdict = evaluate(board, play, *variants)
        if args.json:
            print(json.dumps(verdict.to_json()))
        else:
            print(_verdict_text(verdict))
        return 0

    from companion.games.kaliko.finder import all_plays, best_play

    listing = bool(getattr(args, "all", False))
    # the best play alone comes from the faster best-play search (same result, RULES-exact)
    found = all_plays(board, hand, *variants) if listing else []
    best = (found[0] if found else None) if listing else best_play(board, hand, *variants)
    if args.json:
        out: dict[str, Any] = {
            "legal": best is not None,
            "score": best.score if best else 0,
            "play": [_placement_json(c, ot) for c, ot in best.placements] if best else [],
            "paths": [p.to_json() for p in best.verdict.paths] if best else [],
        }
        if listing:
            out["count"] = len(found)
            out["plays"] = [
                {"score": f.score, "play": [_placement_json(c, ot) for c, ot in f.placements]} for f in found
            ]
        print(json.dumps(out))
    else:
        if best is None:
            print("no legal play")
        else:
            cells = "; ".join(
                f"({p['cell'][0]},{p['cell'][1]}) {p['tile']}"
                for p in (_placement_json(c, ot) for c, ot in best.placements)
            )
            print(f"best: {cells}")
            print(_verdict_text(best.verdict))
            if listing:
                print(f"{len(found)} legal plays")
                for f in found[1:]:
                    print(f"  {f.score:3d}: " + "; ".join(
                        f"({p['cell'][0]},{p['cell'][1]}) {p['tile']}"
                        for p in (_placement_json(c, ot) for c, ot in f.placements)
                    ))
    return 0


def _verdict_text(verdict: Any) -> str:
    if not verdict.legal:
        return f"illegal: {verdict.reason}"
    lines = [f"legal, {verdict.score} points"]
    for p in verdict.paths:
        lines.append(
            f"  {p.colour}{' main' if p.main else ''}: {p.segments} segments, {p.crossings} crossings"
            f"{', closed' if p.closed else ''} = {p.score}"
        )
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))
