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


def physical_game(seed: int, names: list[str], hand_size: int = 4, max_steps: int = 2000) -> Match:
    """A whole game at a physical table, as two careful players would tell it: the tiles drawn
    are taken from the bag at random (one at a time or several in a line), each turn the best
    play of up to 3 tiles, else the whole hand exchanged while the bag allows, else a pass."""
    from companion.games.kaliko.bot import fallback
    from companion.games.kaliko.finder import best_play
    from companion.games.kaliko.rules import PLAY, Drew, Play
    from companion.games.kaliko.tiles import ORIENTED, cell_qr

    game = Kaliko(physical=True, hand_size=hand_size)
    match = Match(game, names, seed)
    rng = Rng(seed + 11)
    stuck = [0] * len(names)
    for _ in range(max_steps):
        if match.over:
            break
        seat = match.current
        state = match.state
        if state.phase != PLAY:
            bag = sorted(state.bag)
            k = 1 + rng.randrange(state.owed)
            tiles = []
            for _i in range(k):
                tiles.append(bag.pop(rng.randrange(len(bag))))
            match.play(seat, Drew(tuple(tiles)))
            continue
        best = best_play(packed_board(state.board), list(state.hands[seat]), False, False, max_tiles=3)
        if best is not None:
            stuck[seat] = 0
            match.play(seat, Play(tuple(sorted((*cell_qr(c), ORIENTED[ot]) for c, ot in best.placements))))
        else:
            stuck[seat] += 1
            match.play(seat, fallback(state, seat, stuck[seat] - 1))
    return match
