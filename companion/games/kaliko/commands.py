"""What Kaliko players say or type (French and English, folded with `fold`).

The board by ear: every cell has a short, stable name from the start tile ("centre",
"3h2" = two steps toward 3 o'clock, "1h1 3h1"); edges and directions are clock positions
(1, 3, 5, 7, 9, 11). A cursor moves by direction.

Readings: "main"/"hand", "tuile 2"/"tile 2" (the 2nd tile of the hand), "numéro 42"/
"number 42", "case"/"cell" [cell] (a cell and its six neighbours), "va 3"/"go 3" (the cursor
one step toward 3 o'clock), "va 3h2"/"go 3h2", "bouts [rouge]"/"ends [red]" (open ends),
"chemin 3"/"path 3" (the path leaving the cursor's tile at 3 o'clock), "où 2"/"where 2"
(every cell and rotation where hand tile 2 fits), "plateau"/"board", "score", "sac"/"bag",
"indice"/"hint", "meilleur"/"best", "coups"/"moves".

Building a play step by step: "prends 2"/"take 2", "ici"/"here" or "en 3h1"/"at 3h1",
"tourne"/"turn" (next rotation that fits), "rouge 3"/"red 3" (a red line toward 3 o'clock),
"retire"/"remove" (the last tile), "brouillon"/"draft", "efface"/"clear", then
"joue"/"play". After each step the companion says whether the play is legal so far and what
it would score, path by path. Also "échange 1 3"/"exchange 1 3", "échange tout"/"exchange
all", "passe"/"pass".

At a physical table (option `physical`) the tiles drawn from the real bag are told: « tire 12
40 », « 12 », « rouge 3 5 blanc 7 9 bleu 11 1 » (colours and hours as the tile lies), « 01B 23R
45W »; a line led by another command word stays a reading (« main », « tuile 2 »).

Every word list is data: `companion/language/<lang>/kaliko.json` (`words`, `colours`,
`shapes`, `filler`...), read in every language at once; numbers go through the shared reader.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.core import IllegalAction, Match, fold
from companion.games.base import Act, Answer, GameUI, Intent, Refuse, Seq, named
from companion.language import groups, number_at
from companion.narration import Msg, Priority, Raw, Utterance, say, secret

from . import narration
from .finder import all_plays, constraints_key, open_ends
from .narration import crossings_msg, path_msg, tile_msg
from .notation import (
    cell_msg,
    cell_steps,
    cell_text,
    clock,
    colour_msg,
    colour_of_word,
    edge_of_clock,
    parse_cell,
)
from .phrases import Ambiguous, read_steps, read_tiles, shape_gaps, vocab
from .reader import KalikoTokens
from .rules import DEAL, DRAW, PLAY, START, Drew, Exchange, Kaliko, Pass, Play, State, packed_board
from .scoring import evaluate, self_crossings, trace
from .search import best_within, count_within, plays_within
from .tiles import (
    COLOUR,
    COLOURS,
    FITS,
    ORIENTED,
    OT_NUMBER,
    ROTATIONS,
    STEP,
    TILES,
    cell_id,
    cell_qr,
    hex_distance,
    parse_segments,
)


class _Words(Mapping[str, tuple[str, ...]]):
    """The command words (`words` of `companion/language/<lang>/kaliko.json`, every language
    merged and folded), read live: a language added as data is understood at once."""

    def __getitem__(self, key: str) -> tuple[str, ...]:
        return groups("kaliko", "words")[key]

    def __iter__(self) -> Iterator[str]:
        return iter(groups("kaliko", "words"))

    def __len__(self) -> int:
        return len(groups("kaliko", "words"))


WORDS = _Words()
# refusals of a told draw (physical table), each followed by what to tell now
TOLD_CODES = frozenset({"not_in_bag", "told_on_board", "too_many_told", "no_such_tile", "nothing_told", "draw_first",
                        "nothing_to_draw", "told_twice"})
# Refusals of a play that tell nothing of the hand: the table may hear them.
PUBLIC_REFUSALS = frozenset({"bag_too_small", "bag_empty", "nothing_to_exchange", "game_over", "not_your_turn"})
# the words that build or make a move: refused while drawn tiles are still to be told
BUILDING = frozenset({"take", "here", "turn", "remove", "play", "exchange", "pass"})
_IDENTITY = re.compile(r"^[0-5]{2}[rwb]$")


def _lead(tokens: list[str], phrases: tuple[str, ...]) -> int:
    """How many leading words are one of `phrases` (the longest), 0 when none."""
    best = 0
    for p in phrases:
        n = len(p.split())
        if n > best and tokens[:n] == p.split():
            best = n
    return best


@dataclass
class Draft:
    """A play being built by one seat: the tiles put down so far and the chosen tile."""

    board_size: int
    placed: list[tuple[int, int, int]] = field(default_factory=list)  # (q, r, ot)
    selected: int | None = None  # a tile number from the hand


def _number(word: str) -> int | None:
    """A number said as one word, digits or words of any language (the shared reader)."""
    value, used = number_at([word], 0)
    return value if used else None


def _answer(msg_id: str, seat: int | None, **params: Any) -> Utterance:
    """An answer for `seat` alone: what it says comes from their hand or their draft."""
    return say(msg_id, priority=Priority.TEXT, to=seat, **params)


def _keep_secret(intent: Intent | None, seat: int) -> None:
    """A play is built from the hand: whether a tile fits, turns or is placed, and what the
    draft holds, tells what the tiles are. Every refusal said to `seat` while building or
    reading it is theirs alone (the table hears why it cannot be said, as for an answer)."""
    if isinstance(intent, Refuse):
        intent.utterances = [secret(u) if u.to == seat else u for u in intent.utterances]
    elif isinstance(intent, Seq):
        for item in intent.items:
            _keep_secret(item, seat)


def _public(msg_id: str, seat: int | None, **params: Any) -> Utterance:
    """An answer about public facts (the board, the open ends, the scores, the bag, a tile of
    the catalogue): said to the table (`to=None`), so that a table of several humans without
    private channels still hears it (an answer addressed to the asker is held back there: the
    session treats it as their secret). `seat` (who asked) is kept in the signature only."""
    return say(msg_id, priority=Priority.TEXT, to=None, **params)


class KalikoUI(GameUI):
    game: Kaliko
    tokens = KalikoTokens()  # laid on the token reader (issue #23)

    def __init__(self, game: Kaliko) -> None:
        super().__init__(game)
        self.cursor: dict[int, tuple[int, int]] = {}
        self.drafts: dict[int, Draft] = {}

    # --- helpers --------------------------------------------------------------------------
    def _draft(self, match: Match[Any, Any], seat: int) -> Draft:
        d = self.drafts.get(seat)
        size = len(match.state.board)
        if d is None or d.board_size != size:  # a play was made since: start afresh
            d = Draft(size)
            self.drafts[seat] = d
        return d

    def _board(self, match: Match[Any, Any], seat: int | None, with_draft: bool = True) -> dict[int, int]:
        b = dict(packed_board(match.state.board))
        if with_draft and seat is not None:
            for q, r, ot in self._draft(match, seat).placed:
                b[cell_id(q, r)] = ot
        return b

    def _hand(self, match: Match[Any, Any], seat: int) -> tuple[int, ...]:
        return tuple(match.state.hands[seat])

    def _position(self, match: Match[Any, Any], seat: int, pos: int | None) -> int | None:
        """A hand position; a tile's catalogue number (above the hand's size, as "numéro 29"
        reads it) is taken as the position of that tile when it is in the hand."""
        hand = self._hand(match, seat)
        if pos is not None and pos > len(hand) and pos in hand:
            return hand.index(pos) + 1
        return pos

    def _hand_tile(self, match: Match[Any, Any], seat: int, pos: int | None) -> int | None:
        hand = self._hand(match, seat)
        if pos is None or not 1 <= pos <= len(hand):
            return None
        return hand[pos - 1]

    # --- parsing --------------------------------------------------------------------------------
    def parse(self, text: str, match: Match[Any, Any], seat: int) -> Intent | None:
        intent = self._parse(text, match, seat)
        if match.state.phase == PLAY:
            _keep_secret(intent, seat)
        return intent

    def _parse(self, text: str, match: Match[Any, Any], seat: int) -> Intent | None:
        raw = text.strip()
        if match.state.phase != PLAY and match.current == seat:
            told = self._told_line(raw, match, seat)
            if told is not None:
                return told
        if (steps := read_steps(self, raw, match, seat)) is not None:
            return steps
        folded = fold(raw)
        if not folded:
            return None
        words = folded.split()
        head = None
        rest: list[str] = []
        for key, names in WORDS.items():
            if not hasattr(self, f"_cmd_{key}"):
                continue  # a word group of a table that no command reads (a newer table)
            for name in sorted(names, key=len, reverse=True):
                nw = name.split()
                if words[: len(nw)] == nw and (head is None or len(nw) > len(head[1].split())):
                    head = (key, name)
        if head is not None:
            rest = words[len(head[1].split()) :]
            key = head[0]
            parts = raw.split(None, len(head[1].split()))
            raw = parts[-1] if len(parts) > len(head[1].split()) else ""
        else:
            # "rouge 3" / "red 3": orient the tile being placed
            if colour_of_word(words[0]) and len(words) >= 2:
                return named(self._orient(match, seat, colour_of_word(words[0]), words[1:]), "orient")
            cell = parse_cell(raw)
            if cell is not None:
                return named(self._go(match, seat, cell), "go")
            return None
        if key in BUILDING and match.state.phase != PLAY and match.current == seat:
            # physical table: the tiles drawn come first (RULES K-5, K-7, K-19)
            return Refuse([Utterance((Msg("kaliko.refused.draw_first", n=match.state.owed),), Priority.IMPORTANT, "error", seat),
                           _answer("kaliko.told_usage", seat, n=match.state.owed)], command=key)
        handler = getattr(self, f"_cmd_{key}")
        return named(handler(match, seat, rest, raw), key)

    # --- a physical table: the tiles drawn, told ---------------------------------------------------
    def chance(self, match: Match[Any, Any], seat: int) -> list[str]:
        """The tiles `seat` may say they drew now (physical table), by number (RULES §7)."""
        return [str(a.tiles[0]) for a in match.legal(seat) if isinstance(a, Drew)]

    def told(self, outcome: str, match: Match[Any, Any], seat: int) -> Intent | None:
        """A tile told (its number, its identity `01B 23R 45W`, or its colours said), or
        several; None when nothing is to be drawn now or the words name no tile."""
        if match.state.phase == PLAY or not any(isinstance(a, Drew) for a in match.legal(seat)):
            return None
        read = read_tiles(fold(outcome).split(), outcome)
        if isinstance(read, list) and read:
            return Act(Drew(tuple(read)))
        return None

    def _told_line(self, raw: str, match: Match[Any, Any], seat: int) -> Intent | None:
        """A line telling drawn tiles: « tire 12 40 », « 12, 40 », « rouge 3 5 blanc 7 9 bleu 11
        1 », « 01B 23R 45W ». Lines led by another command word (« main », « tuile 2 ») are
        readings, not draws. The whole line is one action: nothing is half-applied."""
        tokens = fold(raw).split()
        if not tokens:
            return None
        draw = _lead(tokens, WORDS["draw"])
        rest = tokens[draw:]
        if not draw and not (_IDENTITY.match(rest[0]) or colour_of_word(rest[0]) or number_at(rest, 0)[1]):
            return None
        read = read_tiles(rest, raw)
        if isinstance(read, list) and read:
            return named(Act(Drew(tuple(read))), "draw")
        owed = match.state.owed
        if isinstance(read, Ambiguous):
            return Refuse([_answer("kaliko.told_ambiguous", seat, n=len(read.numbers), numbers=list(read.numbers)),
                           _answer("kaliko.told_usage", seat, n=owed)], command="draw")
        return Refuse([_answer("kaliko.told_unread", seat), _answer("kaliko.told_usage", seat, n=owed)], command="draw")

    def turn_prompt(self, match: Match[Any, Any], seat: int) -> list[Utterance]:
        s: State = match.state
        if s.phase == START:  # RULES K-4: the start tile, at a real table
            return [say("kaliko.prompt_start", player=Raw(match.players[seat]), earcon="turn")]
        if s.phase in (DEAL, DRAW):  # RULES K-5, K-7, K-19: the tiles drawn from the real bag
            return [say("kaliko.prompt_draw", player=Raw(match.players[seat]), n=s.owed, earcon="draw")]
        return super().turn_prompt(match, seat)

    def bots_refused(self) -> str | None:
        """Why bots cannot sit at this table, or None. At a physical table a bot has no hands:
        someone would draw its real tiles, tell them (learning its whole hand) and lay its plays
        for it, every turn. A family table expects each seat to be a person who holds real
        tiles, so the companion refuses bots there and says to play without -o physical=true
        (the companion then holds the bag) to play against bots."""
        return "kaliko.error.physical_bots" if self.game.config["physical"] else None

    # --- readings ---------------------------------------------------------------------------------
    def _cmd_hand(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        hand = self._hand(match, seat)
        if not hand:
            return Answer([_answer("kaliko.hand_empty", seat)])
        out = [_answer("kaliko.hand", seat, n=len(hand))]
        out += [_answer("kaliko.hand_item", seat, pos=i + 1, tile=tile_msg(TILES[n - 1])) for i, n in enumerate(hand)]
        return Answer(out)

    def _cmd_tile(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        pos = self._position(match, seat, _first_number(rest))
        n = self._hand_tile(match, seat, pos)
        if n is None:
            return Refuse([_answer("kaliko.no_such_hand_tile", seat, n=len(self._hand(match, seat)))])
        return Answer([_answer("kaliko.hand_item", seat, pos=pos, tile=tile_msg(TILES[n - 1]))])

    def _cmd_number(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        n = _first_number(rest)
        if n is None or not 1 <= n <= 85:
            return Refuse([_answer("kaliko.no_such_tile", seat)])
        return Answer([_public("kaliko.numbered_tile", seat, number=n, tile=tile_msg(TILES[n - 1]))])

    def _cmd_cell(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        cell = _cell_from(rest, raw) if rest else None
        if rest and cell is None:
            return Refuse([_answer("kaliko.bad_cell", seat)])
        if cell is not None:  # "case 1h1 3h1" reads that cell and moves the cursor there
            return self._go(match, seat, cell)
        return Answer(self.describe_cell(match, seat, self.cursor.get(seat, (0, 0))))

    def _cmd_go(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        words = [w for w in rest if w not in vocab("filler")]
        if len(words) == 1 and words[0].isdigit() and edge_of_clock(int(words[0])) is not None:
            q, r = self.cursor.get(seat, (0, 0))
            e = edge_of_clock(int(words[0]))
            assert e is not None
            dq, dr = cell_qr(cell_id(q, r) + STEP[e])
            return self._go(match, seat, (dq, dr))
        cell = _cell_from(words, raw)
        if cell is None:
            return Refuse([_answer("kaliko.bad_cell", seat)])
        return self._go(match, seat, cell)

    def _go(self, match: Match[Any, Any], seat: int, cell: tuple[int, int]) -> Intent:
        self.cursor[seat] = cell
        return Answer(self.describe_cell(match, seat, cell))

    def describe_cell(self, match: Match[Any, Any], seat: int, cell: tuple[int, int]) -> list[Utterance]:
        board = self._board(match, seat)
        c = cell_id(*cell)
        ot = board.get(c)
        out = []
        if ot is not None:
            out.append(_public("kaliko.cell_tile", seat, cell=cell_msg(*cell), tile=tile_msg(ORIENTED[ot])))
        else:
            out.append(_public("kaliko.cell_empty", seat, cell=cell_msg(*cell)))
        sides = []
        for e in range(6):
            t = board.get(c + STEP[e])
            if t is None:
                sides.append(Msg("kaliko.side_empty", clock=clock(e)))
            else:
                sides.append(Msg("kaliko.side_tile", clock=clock(e), colour=colour_msg(COLOUR[t][(e + 3) % 6])))
        out.append(_public("kaliko.neighbours", seat, sides=sides))
        if ot is None and any(board.get(c + STEP[e]) is not None for e in range(6)):
            hand = set(self._hand(match, seat)) - {OT_NUMBER[o] for _, _, o in self._draft(match, seat).placed}
            fits = sorted({OT_NUMBER[o] for o in FITS[constraints_key(board, c)] if OT_NUMBER[o] in hand})
            positions = sorted(self._hand(match, seat).index(n) + 1 for n in fits)
            if positions:
                out.append(_answer("kaliko.fits_here", seat, n=len(positions), tiles=positions))
            else:
                out.append(_answer("kaliko.fits_none", seat))
        return out

    def _cmd_ends(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        board = self._board(match, seat)
        want = next((colour_of_word(w) for w in rest if colour_of_word(w)), None)
        groups: dict[str, list[Msg]] = {c: [] for c in COLOURS}
        for empty, edge, colour in sorted(open_ends(board), key=lambda x: (cell_qr(x[0] + STEP[x[1]]), (x[1] + 3) % 6)):
            tile_cell = cell_qr(empty + STEP[edge])
            groups[COLOURS[colour - 1]].append(
                Msg("kaliko.end_at", cell=cell_msg(*tile_cell), clock=clock((edge + 3) % 6))
            )
        out = []
        for code in ("R", "W", "B"):
            if want and code != want:
                continue
            if not groups[code]:
                out.append(_public("kaliko.ends_none", seat, colour=colour_msg(code)))
                continue
            out.append(_public("kaliko.ends", seat, colour=colour_msg(code), n=len(groups[code]), ends=groups[code]))
        return Answer(out)

    def _cmd_path(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        board = self._board(match, seat)
        hour = _first_number([w for w in rest if w not in vocab("filler")])
        cell = self.cursor.get(seat, (0, 0))
        c = cell_id(*cell)
        e = edge_of_clock(hour) if hour is not None else None
        if e is None:
            return Refuse([_answer("kaliko.path_usage", seat)])
        if c not in board:  # an empty cell: read the neighbour's path that ends here
            n = c + STEP[e]
            if n not in board:
                return Refuse([_answer("kaliko.no_path_there", seat)])
            c, e = n, (e + 3) % 6
        seq, closed = trace(board, c, e)
        colour = COLOURS[COLOUR[board[c]][e] - 1]
        cells: list[Msg] = []
        for sc, _a, _b in seq:
            m = cell_msg(*cell_qr(sc))
            if not cells or cells[-1] != m:
                cells.append(m)
        return Answer(
            [
                _public(
                    "kaliko.path_read",
                    seat,
                    colour=Msg(f"kaliko.colour_f.{colour}"),
                    segments=Msg("kaliko.n_segments", n=len(seq)),
                    crossings=crossings_msg(self_crossings(board, seq)),
                    closed=Msg("kaliko.closed") if closed else Msg("kaliko.open"),
                    cells=cells,
                )
            ]
        )

    def _cmd_where(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        pos = self._position(match, seat, _first_number(rest))
        n = self._hand_tile(match, seat, pos)
        if n is None:
            d = self._draft(match, seat)
            n = d.selected
            pos = self._hand(match, seat).index(n) + 1 if n in self._hand(match, seat) else None
        if n is None:
            return Refuse([_answer("kaliko.no_such_hand_tile", seat, n=len(self._hand(match, seat)))])
        board = self._board(match, seat)
        spots = []
        for c in sorted({x[0] for x in open_ends(board)}, key=cell_qr):
            key = constraints_key(board, c)
            rots = [o for o in ROTATIONS[n] if o in FITS[key]]
            if rots:
                spots.append(Msg("kaliko.spot", cell=cell_msg(*cell_qr(c)), n=len(rots)))
        return Answer([_answer("kaliko.where", seat, pos=pos, n=len(spots), spots=spots)])

    def _cmd_board(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        """A summary first; "plateau près de 3h1 [anneau 2]" ring by ring; "plateau tout" all."""
        words = [w for w in rest if w not in vocab("near")]
        if any(w in vocab("all") for w in words):
            out = [_public("kaliko.board", seat, n=len(match.state.board))]
            out += [_public("kaliko.board_item", seat, cell=cell_msg(q, r), tile=tile_msg(t)) for q, r, t in match.state.board]
            return Answer(out)
        ring: int | None = None
        for i, w in enumerate(words[:-1]):
            if w in vocab("ring") and _number(words[i + 1]) is not None:
                ring = _number(words[i + 1])
                words = words[:i] + words[i + 2 :]
                break
        if not words and ring is None:
            return Answer(self._board_summary(match, seat))
        centre = _cell_from(words, " ".join(words)) if words else self.cursor.get(seat, (0, 0))
        if centre is None:
            return Refuse([_answer("kaliko.bad_cell", seat)])
        return Answer(self._rings(match, seat, centre, [ring] if ring is not None else [0, 1]))

    def _board_summary(self, match: Match[Any, Any], seat: int) -> list[Utterance]:
        board = packed_board(match.state.board)
        cells = [cell_qr(c) for c in board]
        far = max((hex_distance((0, 0), c) for c in cells), default=0)
        out = [_public("kaliko.board_summary", seat, n=len(board), rings=far)]
        sectors: dict[int, int] = {}
        for q, r in cells:
            steps = cell_steps(q, r)
            if steps:
                sectors[steps[0][1]] = sectors.get(steps[0][1], 0) + 1
        regions = [Msg("kaliko.region", clock=clock(e), n=sectors[e]) for e in sorted(sectors, key=clock)]
        if regions:
            out.append(_public("kaliko.board_regions", seat, regions=regions))
        counts = {c: 0 for c in COLOURS}
        for _empty, _edge, colour in open_ends(board):
            counts[COLOURS[colour - 1]] += 1
        ends = [Msg("kaliko.end_count", colour=colour_msg(c), n=counts[c]) for c in COLOURS]
        out.append(_public("kaliko.board_ends", seat, n=sum(counts.values()), ends=ends))
        from .events import TilesPlayed  # here, not with the imports: a local edit (issue #23)

        plays: list[Msg] = []
        for step in reversed(match.history):
            for ev in step.events:
                if isinstance(ev, TilesPlayed):
                    cells_msg = [cell_msg(*p["cell"]) for p in ev.placements]
                    plays.append(Msg("kaliko.last_play", player=Raw(match.players[ev.seat]), cells=cells_msg))
            if len(plays) >= len(match.players):
                break
        if plays:
            out.append(_public("kaliko.board_last", seat, plays=plays))
        out.append(_public("kaliko.board_more", seat))
        return out

    def _rings(self, match: Match[Any, Any], seat: int, centre: tuple[int, int], rings: list[int]) -> list[Utterance]:
        board = packed_board(match.state.board)
        out: list[Utterance] = []
        for k in rings:
            ring = hex_ring(centre, k)
            tiles = [c for c in ring if cell_id(*c) in board]
            out.append(
                _public("kaliko.ring", seat, cell=cell_msg(*centre), ring=k, n=len(tiles), empty=len(ring) - len(tiles))
            )
            out += [
                _public("kaliko.board_item", seat, cell=cell_msg(*c), tile=tile_msg(ORIENTED[board[cell_id(*c)]]))
                for c in tiles
            ]
        nxt = max(rings) + 1
        if any(cell_id(*c) in board for c in hex_ring(centre, nxt)):
            out.append(_public("kaliko.ring_more", seat, cell=Raw(cell_text(*centre)), ring=nxt))
        return out

    def _cmd_score(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        return Answer(self._scores(match, seat))

    def _scores(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        scores = [Msg("kaliko.player_score", player=Raw(p), n=s) for p, s in zip(match.players, match.state.scores, strict=True)]
        return [_public("kaliko.scores", seat, scores=scores)]

    def _cmd_bag(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        return Answer([_public("kaliko.bag", seat, n=len(match.state.bag))])

    def _plays(self, match: Match[Any, Any], seat: int, max_tiles: int = 7) -> list[Any]:
        return all_plays(
            packed_board(match.state.board),
            list(self._hand(match, seat)),
            self.game.config["crossings_new_tiles_only"],
            self.game.config["double_main_only"],
            max_tiles=max_tiles,
        )

    def _cmd_hint(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        found, proven = plays_within(*self._search_args(match, seat), max_tiles=3)  # issue 26: a deadline
        if not found:
            return Answer([_answer("kaliko.hint_none" if proven else "kaliko.none_found", seat)])
        seen: dict[str, Any] = {}
        for f in found:  # best first: the best play of each main colour
            main = next(p for p in f.verdict.paths if p.main)
            seen.setdefault(main.colour, f)
        hints = []
        for colour, f in seen.items():
            first = cell_qr(f.placements[0][0])
            hints.append(Msg("kaliko.hint", colour=Msg(f"kaliko.colour_f.{colour}"), cell=cell_msg(*first), n=len(f.placements)))
        return Answer([_answer("kaliko.hints" if proven else "kaliko.hints_found", seat, hints=hints)])

    def _cmd_best(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        best, proven = best_within(*self._search_args(match, seat))  # issue 26: a deadline
        if best is None:
            return Answer([_answer("kaliko.hint_none" if proven else "kaliko.none_found", seat)])
        hand = self._hand(match, seat)
        steps = [
            Msg("kaliko.best_step", pos=hand.index(OT_NUMBER[ot]) + 1, cell=cell_msg(*cell_qr(c)), tile=tile_msg(ORIENTED[ot]))
            for c, ot in best.placements
        ]
        out = [_answer("kaliko.best" if proven else "kaliko.best_found", seat, n=best.score)]
        out += [_answer("kaliko.best_item", seat, step=step) for step in steps]
        out += [Utterance((path_msg(p.to_json()),), Priority.TEXT, None, seat) for p in best.verdict.paths]
        return Answer(out)

    def _cmd_moves(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        n, top, proven = count_within(*self._search_args(match, seat))  # issue 26: a deadline
        return Answer([_answer("kaliko.moves" if proven else "kaliko.moves_found", seat, n=n, best=top)])

    def _search_args(self, match: Match[Any, Any], seat: int) -> tuple[dict[int, int], list[int], bool, bool]:
        config = self.game.config
        return (packed_board(match.state.board), list(self._hand(match, seat)),
                config["crossings_new_tiles_only"], config["double_main_only"])

    # --- building a play ---------------------------------------------------------------------------------
    def _cmd_take(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        pos = self._position(match, seat, _first_number(rest))
        if pos is None and rest:  # by description: "prends bleu droite" / "take red short arc"
            pos = self._by_description(match, seat, rest)
        n = self._hand_tile(match, seat, pos)
        if n is None:
            return Refuse([_answer("kaliko.no_such_hand_tile", seat, n=len(self._hand(match, seat)))])
        d = self._draft(match, seat)
        if any(OT_NUMBER[o] == n for _, _, o in d.placed):
            return Refuse([_answer("kaliko.already_placed", seat, pos=pos)])
        d.selected = n
        return Answer([_answer("kaliko.taken", seat, pos=pos, tile=tile_msg(TILES[n - 1]))])

    def _by_description(self, match: Match[Any, Any], seat: int, words: list[str]) -> int | None:
        """The first free hand tile (1-based) having every (colour, shape) line described."""
        wanted: list[tuple[str | None, int | None]] = []
        for w in words:
            colour = colour_of_word(w)
            if colour:
                wanted.append((colour, None))
            elif w in shape_gaps() and wanted and wanted[-1][1] is None:
                wanted[-1] = (wanted[-1][0], shape_gaps()[w])
            elif w in shape_gaps():
                wanted.append((None, shape_gaps()[w]))
        if not wanted:
            return None
        placed = {OT_NUMBER[o] for _, _, o in self._draft(match, seat).placed}
        for i, n in enumerate(self._hand(match, seat)):
            if n in placed:
                continue
            lines = [(c, min((b - a) % 6, (a - b) % 6)) for a, b, c in parse_segments(TILES[n - 1])]
            if all(any((wc is None or wc == c) and (ws is None or ws == g) for c, g in lines) for wc, ws in wanted):
                return i + 1
        return None

    def _cmd_here(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        words = [w for w in rest if w not in vocab("filler")]
        d = self._draft(match, seat)
        selected = d.selected
        # The whole of what follows is read as a cell first ("en 1 h 1 puis 3 h 1", as the
        # companion says it); only if that fails, "pose 2 en 3h1": a tile position, then the cell.
        cell = _cell_from(words, raw) if words else self.cursor.get(seat, (0, 0))
        if cell is None and len(rest) >= 3 and rest[0].isdigit() and rest[1] in vocab("at"):
            tile = self._hand_tile(match, seat, int(words[0]))
            after = raw.split(None, 1)[1] if len(raw.split(None, 1)) > 1 else ""
            cell = _cell_from(words[1:], after) if tile else None
            if cell is not None:
                selected = tile
        if cell is None:  # refused: nothing changes, not even the tile in hand
            return Refuse([_answer("kaliko.bad_cell", seat)])
        if selected is None:
            return Refuse([_answer("kaliko.take_first", seat)])
        board = self._board(match, seat)
        c = cell_id(*cell)
        if c in board:
            return Refuse([_answer("kaliko.cell_taken", seat, cell=cell_msg(*cell))])
        if len(d.placed) >= 7:
            return Refuse([Utterance((Msg("kaliko.refused.too_many_tiles"),), Priority.IMPORTANT, "error", seat)])
        if any(OT_NUMBER[o] == selected for _, _, o in d.placed):
            pos = self._hand(match, seat).index(selected) + 1
            return Refuse([_answer("kaliko.already_placed", seat, pos=pos)])
        fitting = [o for o in ROTATIONS[selected] if o in FITS[constraints_key(board, c)]]
        if not fitting:
            return Refuse([_answer("kaliko.no_rotation_fits", seat, cell=cell_msg(*cell))])
        d.placed.append((cell[0], cell[1], fitting[0]))
        d.selected = None
        self.cursor[seat] = cell
        return Answer(self._draft_report(match, seat))

    def _cmd_turn(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        d = self._draft(match, seat)
        if not d.placed:
            return Refuse([_answer("kaliko.nothing_placed", seat)])
        q, r, ot = d.placed[-1]
        board = self._board(match, seat)
        del board[cell_id(q, r)]
        fitting = [o for o in ROTATIONS[OT_NUMBER[ot]] if o in FITS[constraints_key(board, cell_id(q, r))]]
        nxt = fitting[(fitting.index(ot) + 1) % len(fitting)] if ot in fitting else fitting[0]
        d.placed[-1] = (q, r, nxt)
        return Answer(self._draft_report(match, seat))

    def _orient(self, match: Match[Any, Any], seat: int, colour: str | None, rest: list[str]) -> Intent | None:
        hour = _first_number([w for w in rest if w not in vocab("filler")])
        e = edge_of_clock(hour) if hour is not None else None
        d = self._draft(match, seat)
        if colour is None or e is None:
            return None
        if not d.placed:
            return Refuse([_answer("kaliko.nothing_placed", seat)])
        q, r, ot = d.placed[-1]
        board = self._board(match, seat)
        del board[cell_id(q, r)]
        code = COLOURS.index(colour) + 1
        fits = FITS[constraints_key(board, cell_id(q, r))]
        options = [o for o in ROTATIONS[OT_NUMBER[ot]] if COLOUR[o][e] == code]
        good = [o for o in options if o in fits]
        if not good:
            return Refuse([_answer("kaliko.orient_impossible", seat, colour=colour_msg(colour), clock=hour)])
        if ot not in good:  # already pointing that way: keep it ("tourne" cycles)
            d.placed[-1] = (q, r, good[0])
        return Answer(self._draft_report(match, seat))

    def _cmd_remove(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        d = self._draft(match, seat)
        if not d.placed:
            return Refuse([_answer("kaliko.nothing_placed", seat)])
        q, r, ot = d.placed.pop()
        pos = self._hand(match, seat).index(OT_NUMBER[ot]) + 1
        out = [_answer("kaliko.removed", seat, pos=pos, cell=cell_msg(q, r))]
        if d.placed:
            out += self._verdict_report(match, seat)
        return Answer(out)

    def _cmd_draft(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        d = self._draft(match, seat)
        if not d.placed:
            return Answer([_answer("kaliko.draft_empty", seat)])
        hand = self._hand(match, seat)
        out = [_answer("kaliko.draft", seat, n=len(d.placed))]
        out += [
            _answer("kaliko.draft_item", seat, pos=hand.index(OT_NUMBER[ot]) + 1, cell=cell_msg(q, r), tile=tile_msg(ORIENTED[ot]))
            for q, r, ot in d.placed
        ]
        if d.selected is not None and d.selected in hand:
            out.append(_answer("kaliko.draft_selected", seat, pos=hand.index(d.selected) + 1))
        return Answer(out + self._verdict_report(match, seat))

    def _cmd_clear(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        self.drafts[seat] = Draft(len(match.state.board))
        return Answer([_answer("kaliko.cleared", seat)])

    def _cmd_play(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        d = self._draft(match, seat)
        if not d.placed:
            return Refuse([_answer("kaliko.draft_empty", seat)])
        return Act(Play.of([(q, r, ORIENTED[ot]) for q, r, ot in d.placed]))

    def _cmd_exchange(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        hand = self._hand(match, seat)
        if any(w in vocab("all") for w in rest):
            return Act(Exchange(tuple(sorted(hand))))
        picks = []
        for w in rest:
            n = _number(w)
            if n is None:
                continue
            if not 1 <= n <= len(hand):
                return Refuse([_answer("kaliko.no_such_hand_tile", seat, n=len(hand))])
            picks.append(hand[n - 1])
        if not picks:
            return Refuse([_answer("kaliko.exchange_usage", seat)])
        return Act(Exchange(tuple(sorted(set(picks)))))

    def _cmd_draw(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        """« tire 12 » when no draw is awaited from this player (a draw awaited is read first,
        in `_told_line`): the rules say why (not their turn, nothing to draw)."""
        read = read_tiles(rest, raw)
        if isinstance(read, list) and read:
            return Act(Drew(tuple(read)))
        return Refuse([_answer("kaliko.told_unread", seat)])

    def _cmd_pass(self, match: Match[Any, Any], seat: int, rest: list[str], raw: str) -> Intent:
        return Act(Pass())

    def _rotations_here(self, match: Match[Any, Any], seat: int) -> int:
        """How many rotations of the last tile put down fit its cell (one count for every report)."""
        q, r, ot = self._draft(match, seat).placed[-1]
        board = self._board(match, seat)
        del board[cell_id(q, r)]
        return sum(1 for o in ROTATIONS[OT_NUMBER[ot]] if o in FITS[constraints_key(board, cell_id(q, r))])

    def _draft_report(self, match: Match[Any, Any], seat: int) -> list[Utterance]:
        d = self._draft(match, seat)
        out = []
        if d.placed:
            q, r, ot = d.placed[-1]
            pos = self._hand(match, seat).index(OT_NUMBER[ot]) + 1
            out.append(
                _answer(
                    "kaliko.placed",
                    seat,
                    pos=pos,
                    cell=cell_msg(q, r),
                    tile=tile_msg(ORIENTED[ot]),
                    n=self._rotations_here(match, seat),
                )
            )
        return out + self._verdict_report(match, seat)

    def _verdict_report(self, match: Match[Any, Any], seat: int) -> list[Utterance]:
        d = self._draft(match, seat)
        v = evaluate(
            packed_board(match.state.board),
            [(cell_id(q, r), ot) for q, r, ot in d.placed],
            self.game.config["crossings_new_tiles_only"],
            self.game.config["double_main_only"],
        )
        if v.legal:
            out = [_answer("kaliko.draft_legal", seat, n=v.score, tiles=len(d.placed))]
            out += [Utterance((path_msg(p.to_json()),), Priority.TEXT, None, seat) for p in v.paths]
            return out
        return [_answer("kaliko.draft_not_yet", seat, reason=self._reason_msg(str(v.reason), v.detail))]

    def _reason_msg(self, code: str, detail: dict[str, Any]) -> Msg:
        if code == "colour_mismatch":
            cell = tuple(detail["cell"])
            return Msg(
                "kaliko.refused.colour_mismatch",
                cell=cell_msg(*cell),
                clock=clock(int(detail["edge"])),
                colour=colour_msg(detail["colour"]),
                other=colour_msg(detail["other"]),
            )
        if code == "no_main_path" and "cell" in detail:
            return Msg(
                "kaliko.refused.off_main_path",
                cell=cell_msg(*tuple(detail["cell"])),
                colour=Msg(f"kaliko.colour_f.{detail['colour']}"),
            )
        if code == "occupied" and "cell" in detail:
            return Msg("kaliko.refused.occupied", cell=cell_msg(*tuple(detail["cell"])))
        if code in ("not_in_hand", "tile_twice") and "number" in detail:
            return Msg(f"kaliko.refused.{code}", number=detail["number"])
        if code == "bag_too_small":
            return Msg("kaliko.refused.bag_too_small", n=detail.get("bag", 0))
        known = {
            "too_many_tiles", "no_scoring_path", "no_main_path", "bad_tile", "nothing_to_exchange",
            "bag_empty", "game_over", "not_your_turn", "not_legal", "occupied",
        }
        return Msg(f"kaliko.refused.{code if code in known else 'not_legal'}")

    # --- the session's hooks ----------------------------------------------------------------------------
    def refusal(self, exc: IllegalAction, match: Match[Any, Any], seat: int) -> list[Utterance]:
        if exc.code in TOLD_CODES:
            # A told tile refused: said without naming a tile that might be in a hand (the
            # refusal is heard by the table), then what may be told now.
            d = exc.detail
            several = d.get("told", 1) > 1 and exc.code in ("not_in_bag", "told_on_board")
            code = exc.code + ("_of" if several else "")
            params = {k: cell_msg(*v) if k == "cell" else v for k, v in d.items() if k in ("index", "cell", "n", "told")}
            if exc.code == "no_such_tile":
                params["number"] = d["number"]  # no tile has it: it reveals nothing
            out = [Utterance((Msg(f"kaliko.refused.{code}", **params),), Priority.IMPORTANT, "error", seat)]
            if match.state.owed and exc.code != "draw_first":
                out.append(_answer("kaliko.told_usage", seat, n=match.state.owed))
            return out
        msg = self._reason_msg(exc.code, exc.detail)
        out = [Utterance((msg,), Priority.IMPORTANT, "error", seat)]
        if exc.code in ("no_scoring_path", "no_main_path", "colour_mismatch"):
            out.append(_answer("kaliko.refused_hint", seat))
        if exc.code not in PUBLIC_REFUSALS:  # why a play of hers fails tells what her tiles are
            out = [secret(u) for u in out]
        return out

    def narrate(self, event: Any, match: Match[Any, Any]) -> list[Utterance]:
        return narration.narrate(event, match)

    def help(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        if match.over:
            return [_answer("kaliko.help_over", seat)]
        if seat is None or match.current != seat:
            return [_answer("kaliko.help_waiting", seat)]
        if match.state.phase != PLAY:
            return [_answer("kaliko.told_usage", seat, n=match.state.owed), _answer("kaliko.help_told", seat)]
        d = self._draft(match, seat)
        if d.placed or d.selected is not None:
            return [_answer("kaliko.help_building", seat)]
        return [_answer("kaliko.help_turn", seat), _answer("kaliko.help_readings", seat)]

    def status(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        s: State = match.state
        out = self._scores(match, seat)
        if match.over:
            return out
        out.append(
            _answer(
                "kaliko.status",
                seat,
                player=Raw(match.players[s.turn]),
                n=len(s.board),
                bag=len(s.bag),
            )
        )
        if s.phase != PLAY:  # physical table: what is awaited now
            out += [Utterance(u.parts, Priority.TEXT, None, seat) for u in self.turn_prompt(match, s.turn)]
        return out

    def rule_chapter(self, match: Match[Any, Any]) -> str | None:
        if match.state.phase != PLAY:  # telling the tiles drawn: chapter 8 says how
            return "companion"
        return "scoring" if match.history else "turn"


def hex_ring(centre: tuple[int, int], k: int) -> list[tuple[int, int]]:
    """The cells k steps from `centre`, clockwise from 3 o'clock (east)."""
    if k == 0:
        return [centre]
    q0, r0 = centre
    cells = [
        (q0 + dq, r0 + dr)
        for dq in range(-k, k + 1)
        for dr in range(-k, k + 1)
        if hex_distance((0, 0), (dq, dr)) == k
    ]

    def angle(c: tuple[int, int]) -> float:
        dq, dr = c[0] - q0, c[1] - r0
        return math.atan2(1.5 * dr, math.sqrt(3) * (dq + dr / 2)) % (2 * math.pi)

    return sorted(cells, key=angle)


def _first_number(tokens: list[str]) -> int | None:
    """The first number said, in digits or in words (« vingt et un »), of any language."""
    for i in range(len(tokens)):
        value, used = number_at(tokens, i)
        if used:
            return value
    return None


def _cell_from(words: list[str], raw: str) -> tuple[int, int] | None:
    """A cell from the words after a command: axial "(2,-1)" as typed, or a spoken name."""
    m = _AXIAL_IN.search(raw)
    if m:
        a, b = (m.group(1), m.group(2)) if m.group(1) is not None else (m.group(3), m.group(4))
        return int(a), int(b)
    return parse_cell(" ".join(_rejoin_hours([w for w in words if w not in vocab("filler")])))


_HOURS = re.compile(r"^\d{1,2}$")
_AXIAL_IN = re.compile(r"\(\s*(-?\d+)\s*[,;]\s*(-?\d+)\s*\)|(?<![\dh])(-?\d+)\s*,\s*(-?\d+)")


def _rejoin_hours(words: list[str]) -> list[str]:
    """Folded speech "3 h 2" or "3 2" (hour, steps) -> "3h2"; "3h2" kept."""
    out: list[str] = []
    skip = vocab("hour") | vocab("then")
    nums = [w for w in words if w not in skip]
    i = 0
    while i < len(nums):
        w = nums[i]
        if _HOURS.match(w) and i + 1 < len(nums) and _HOURS.match(nums[i + 1]):
            out.append(f"{w}h{nums[i + 1]}")
            i += 2
        else:
            out.append(w)
            i += 1
    return out


UI = KalikoUI
