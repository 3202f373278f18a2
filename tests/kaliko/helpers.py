"""Shared builders for the Kaliko tests: tiles from RULES §1.4's shape notation, positions."""

from __future__ import annotations

from companion.core import Match, Rng
from companion.games.kaliko.rules import Exchange, Kaliko, Pass, packed_board
from companion.games.kaliko.tiles import SHAPES, cell_id, oriented, segments_string


def shape(letter: str, colours: str) -> int:
    """`A[R,W,B]` of RULES §1.4 at rotation 0 -> an oriented-tile index."""
    segs = [(a, b, c) for (a, b), c in zip(SHAPES[letter], colours, strict=True)]
    return oriented(segments_string(segs))


def board(*items: tuple[tuple[int, int], int]) -> dict[int, int]:
    return {cell_id(q, r): ot for (q, r), ot in items}


def play(*items: tuple[tuple[int, int], int]) -> list[tuple[int, int]]:
    return [(cell_id(q, r), ot) for (q, r), ot in items]


def random_position(seed: int, turns: int, hand_size: int = 7) -> tuple[Kaliko, Match]:
    """A position after `turns` turns of random legal play (plays preferred to exchanges)."""
    game = Kaliko(hand_size=hand_size)
    match = Match(game, ["A", "B"], seed)
    rng = Rng(seed + 7)
    for _ in range(turns):
        if match.over:
            break
        seat = match.current
        plays = game.plays(match.state, seat)
        if plays:
            match.play(seat, rng.choice(plays))
        elif match.state.bag:
            match.play(seat, Exchange(tuple(sorted(match.state.hands[seat]))[: len(match.state.bag)]))
        else:
            match.play(seat, Pass())
    return game, match


def packed(match: Match) -> dict[int, int]:
    return packed_board(match.state.board)
