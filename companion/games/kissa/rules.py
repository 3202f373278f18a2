"""2kissa10, the complete game (docs/rules.md §4, T-1 to T-10, TA-1 to TA-11). Pure.

Options (docs/rules.md variant flags):

* ``expert`` (KISSA_EXPERT): numbers read in all eight directions;
* ``kids`` (KISSA_KIDS): the two numbers added or multiplied are single digits;
* ``zero_is_number`` (KISSA_ZERO_IS_NUMBER, TA-3): a lone 0 is a number (default True);
* ``penalty`` (KISSA_PENALTY, TA-7): ``"to_move"`` (R1, default) or ``"last_mover"`` (R2);
* ``physical``: the players' own board at a table. The board is entered row by row
  (``EnterRow``), or token by token as the tokens are drawn from the bag (``PlaceToken``: the
  chance told by the table, T-1), and confirmed (``StartPlay``); a player may declare that
  they find no solution (``Declare``, TA-7 R3): the game ends with their penalty even if a
  move exists.

When the companion holds the board it detects the end itself: the player to move with no
legal move (T-9, R1) gets the penalty. In the entry phase of the physical mode the list of
legal actions is a finite sample (the rows of a valid board): a row can be any ten digits.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple, overload

from companion.core import ActionDecodeError, Event, Game, IllegalAction, Option, Outcome, Rng

from .events import (
    BoardDealt,
    Declared,
    EntryStarted,
    GameEnded,
    MovePlayed,
    OrderDrawn,
    PlayStarted,
    RowEntered,
    Stuck,
    TokenPlaced,
)
from .finder import (
    CELLS,
    EMPTY,
    PLUS,
    SIZE,
    TIMES,
    MoveFinder,
    canonical_cells,
    is_number,
    move_score,
    token_value,
    value_of,
)
from .notation import board_rows, cell_name, parse_cell, row_text

_CELL_NAMES = tuple(cell_name(i) for i in range(CELLS))


# --- actions ------------------------------------------------------------------------------
class Move(NamedTuple):
    """a op b = c: three numbers given by their cells in reading order (T-2).

    A named tuple: the move lists of a full board are long, and this is the cheapest to make."""

    op: str
    a: tuple[int, ...]
    b: tuple[int, ...]
    c: tuple[int, ...]


@dataclass(frozen=True)
class EnterRow:
    """Physical mode: one row of the players' board, ten digits or '.' (re-entering corrects)."""

    row: int
    digits: str


@dataclass(frozen=True)
class PlaceToken:
    """Physical mode: one token drawn from the bag, told by the table (typed, said or laid on
    the reader), goes in the next cell: RULES T-1 fills the cells in draw order, row by row.
    The next cell is in the first row not entered yet, after the tokens already told there."""

    digit: int


@dataclass(frozen=True)
class StartPlay:
    """Physical mode: the board is read back and right; `first` plays first (T-1)."""

    first: int = 0


@dataclass(frozen=True)
class Declare:
    """Physical mode: "no solution" declared by the player to move (TA-7 R3)."""


Action = Move | EnterRow | PlaceToken | StartPlay | Declare

ENTRY, PLAY, OVER = "entry", "play", "over"


@dataclass(frozen=True)
class State:
    board: tuple[int, ...]
    scores: tuple[int, ...]
    turn: int
    phase: str
    rows: tuple[bool, ...]  # physical mode: rows entered so far
    last_mover: int | None = None
    moves: int = 0
    end: str | None = None  # "board_cleared", "stuck", "declared"
    order: tuple[int, ...] | None = None  # T-1: the playing order drawn; None: seat order
    cursor: int = 0  # physical entry: tokens told so far in the first row not entered (T-1)


def _first_missing(state: State) -> int | None:
    """The first row not entered yet: where the next token told goes (T-1, row by row)."""
    return state.rows.index(False) if False in state.rows else None


def next_player(state: State, player: int) -> int:
    """Who plays after `player`: the next in the drawn order (T-1), else the next seat."""
    if state.order is not None and player in state.order:
        return state.order[(state.order.index(player) + 1) % len(state.order)]
    return (player + 1) % len(state.scores)


def tokens_sum(board: Sequence[int]) -> int:
    return sum(token_value(d) for d in board if d != EMPTY)


def tokens_left(board: Sequence[int]) -> int:
    return sum(1 for d in board if d != EMPTY)


class MoveList(Sequence[Move]):
    """The legal moves of a position, best score first, made on demand (RULES T-2).

    Indexing builds the whole list once (arrays); iterating streams it chunk by chunk."""

    def __init__(
        self, finder: MoveFinder, extra: tuple[Action, ...] = (), is_legal: Any = None
    ) -> None:
        self.finder = finder
        self.extra = extra
        self.is_legal = is_legal  # Move -> bool, for `in` (the listed, canonical form only)
        self._arrays: Any = None
        self._len: int | None = None

    def _all(self) -> Any:
        if self._arrays is None:
            import numpy as np

            parts = [(first + t, ia, ib, ic) for first, (t, ia, ib, ic) in self.finder.chunks()]
            if parts:
                self._arrays = tuple(np.concatenate([p[k] for p in parts]) for k in range(4))
            else:
                empty = np.zeros(0, dtype=np.int64)
                self._arrays = (empty, empty, empty, empty)
            self._len = int(self._arrays[0].size)
        return self._arrays

    def _make(self, k: int, a: int, b: int, c: int) -> Move:
        nums = self.finder.numbers
        op = TIMES if self.finder.triples()[3][k] else PLUS
        return Move(op, nums[a].cells, nums[b].cells, nums[c].cells)

    def _rows(self, t: Any, ia: Any, ib: Any, ic: Any) -> Iterator[Move]:
        cells = [n.cells for n in self.finder.numbers]
        ops = [TIMES if p else PLUS for p in self.finder.triples()[3][t].tolist()]
        for op, a, b, c in zip(ops, ia.tolist(), ib.tolist(), ic.tolist(), strict=True):
            yield Move(op, cells[a], cells[b], cells[c])

    def __len__(self) -> int:
        if self._len is None:
            self._len = self.finder.count()
        return self._len + len(self.extra)

    @overload
    def __getitem__(self, i: int) -> Move: ...
    @overload
    def __getitem__(self, i: slice) -> list[Move]: ...
    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        t, ia, ib, ic = self._all()
        if i >= t.size:
            return self.extra[i - t.size]
        return self._make(int(t[i]), int(ia[i]), int(ib[i]), int(ic[i]))

    def __iter__(self) -> Iterator[Any]:
        if self._arrays is not None:
            yield from self._rows(*self._arrays)
        else:
            for first, (t, ia, ib, ic) in self.finder.chunks():
                yield from self._rows(t + first, ia, ib, ic)
        yield from self.extra

    def __contains__(self, item: object) -> bool:
        if item in self.extra:
            return True
        return isinstance(item, Move) and self.is_legal is not None and self.is_legal(item)

    def __bool__(self) -> bool:
        return bool(self.extra) or self.finder.any_move()


class Kissa(Game[State, Action]):
    """2kissa10: three numbers on a board of digits, one the sum or product of the others."""

    name = "kissa"
    min_players = 2
    max_players = 4
    options = {
        "expert": Option(False, (False, True), "kissa.option.expert"),
        "kids": Option(False, (False, True), "kissa.option.kids"),
        "zero_is_number": Option(True, (False, True), "kissa.option.zero_is_number"),
        "penalty": Option("to_move", ("to_move", "last_mover"), "kissa.option.penalty"),
        "physical": Option(False, (False, True), "kissa.option.physical"),
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._cache: OrderedDict[tuple[int, ...], MoveFinder] = OrderedDict()

    # --- the move finder, cached per board -----------------------------------------------
    def finder(self, board: Sequence[int]) -> MoveFinder:
        key = tuple(board)
        found = self._cache.get(key)
        if found is None:
            found = MoveFinder(
                key,
                expert=self.config["expert"],
                kids=self.config["kids"],
                zero_is_number=self.config["zero_is_number"],
            )
            self._cache[key] = found
            while len(self._cache) > 8:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        return found

    # --- set-up --------------------------------------------------------------------------------
    def setup(self, n_players: int, rng: Rng) -> tuple[State, list[Event]]:
        scores = (0,) * n_players
        if self.config["physical"]:
            state = State((EMPTY,) * CELLS, scores, 0, ENTRY, (False,) * SIZE)
            return state, [EntryStarted(players=n_players)]
        # T-1: ten tokens of each digit drawn from the bag one by one, filling row by row
        bag = [d for d in range(10) for _ in range(10)]
        rng.shuffle(bag)
        first = rng.randrange(n_players)  # T-1: the playing order is drawn at random...
        rest = [s for s in range(n_players) if s != first]
        if len(rest) > 1:  # ...all of it (drawn after the first, so saved games keep their start)
            rng.shuffle(rest)
        order = (first, *rest)
        state = State(tuple(bag), scores, first, PLAY, (True,) * SIZE, order=order if n_players > 2 else None)
        events: list[Event] = [
            BoardDealt(board=board_rows(state.board)),
            OrderDrawn(first=first, players=n_players, order=list(order)),
        ]
        return self._after_turn(state, events, first, None)

    def current_player(self, state: State) -> int | None:
        return None if state.phase == OVER else state.turn

    # --- legality ------------------------------------------------------------------------------
    def legal_actions(self, state: State, player: int) -> Sequence[Action]:  # type: ignore[override]
        if state.phase == OVER or player != state.turn:
            return []
        if state.phase == ENTRY:
            # a sample (a row may be any ten digits; entering a row again corrects it):
            # the ten rotations of 0-9 for every row, any of which makes a valid board
            rows: list[Action] = [
                EnterRow(r, "".join(str((s + k) % 10) for k in range(SIZE)))
                for r in range(SIZE)
                for s in range(SIZE)
            ]
            if all(state.rows):
                rows += [StartPlay(first) for first in range(len(state.scores))]
            else:  # T-1: the next token drawn, whatever its digit
                rows += [PlaceToken(digit) for digit in range(10)]
            return rows
        extra: tuple[Action, ...] = (Declare(),) if self.config["physical"] else ()
        board = state.board

        def listed(move: Move) -> bool:
            try:
                self._check_move(board, move)
            except IllegalAction:
                return False
            return self.normalize(board, move) == move

        return MoveList(self.finder(board), extra, listed)

    def check(self, state: State, player: int, action: Action) -> None:
        if state.phase == OVER:
            raise IllegalAction("game_over")
        if player != state.turn:
            raise IllegalAction("not_your_turn", current=state.turn)
        if isinstance(action, EnterRow):
            if state.phase != ENTRY:
                raise IllegalAction("board_already_set")
            if not 0 <= action.row < SIZE:
                raise IllegalAction("bad_row", row=action.row + 1)
            if len(action.digits) != SIZE or any(ch != "." and not ch.isdigit() for ch in action.digits):
                raise IllegalAction("bad_row_digits", row=action.row + 1, digits=action.digits)
            return
        if isinstance(action, PlaceToken):
            if state.phase != ENTRY:
                raise IllegalAction("board_already_set")
            if all(state.rows):
                raise IllegalAction("board_complete")
            if not isinstance(action.digit, int) or not 0 <= action.digit <= 9:
                raise IllegalAction("bad_token", digit=str(action.digit))
            return
        if isinstance(action, StartPlay):
            if state.phase != ENTRY:
                raise IllegalAction("board_already_set")
            missing = [r + 1 for r in range(SIZE) if not state.rows[r]]
            if missing:
                raise IllegalAction("board_incomplete", rows=missing, n=len(missing))
            if not 0 <= action.first < len(state.scores):
                raise IllegalAction("bad_first_player", first=action.first)
            return
        if state.phase == ENTRY:
            raise IllegalAction("board_not_ready")
        if isinstance(action, Declare):
            if not self.config["physical"]:
                raise IllegalAction("declare_physical_only")
            return
        if not isinstance(action, Move):
            raise IllegalAction("not_legal")
        self._check_move(state.board, action)

    def _check_move(self, board: Sequence[int], move: Move) -> None:
        cfg = self.config
        if move.op not in (PLUS, TIMES):
            raise IllegalAction("bad_operation", op=move.op)
        for role, cells in (("a", move.a), ("b", move.b), ("c", move.c)):
            if not cells or any(not 0 <= x < CELLS for x in cells):
                raise IllegalAction("not_a_number", role=role, cells=[])
            names = [cell_name(x) for x in cells]
            empty = [cell_name(x) for x in cells if board[x] == EMPTY]
            if empty:
                raise IllegalAction("empty_cell", role=role, cell=empty[0], cells=names)
            if len(cells) > 1 and board[cells[0]] == 0:
                raise IllegalAction("leading_zero", role=role, cells=names)  # T-3
            if len(cells) == 1 and board[cells[0]] == 0 and not cfg["zero_is_number"]:
                raise IllegalAction("lone_zero", role=role, cells=names)  # TA-3 variant
            if not is_number(board, cells, cfg["expert"], cfg["zero_is_number"]):
                raise IllegalAction("not_a_number", role=role, cells=names)  # T-3
        used: set[int] = set()
        for cells in (move.a, move.b, move.c):
            shared = used & set(cells)
            if shared or len(set(cells)) != len(cells):
                cell = min(shared) if shared else cells[0]
                raise IllegalAction("overlap", cell=cell_name(cell))  # T-4, TA-1
            used |= set(cells)
        if cfg["kids"] and (len(move.a) > 1 or len(move.b) > 1):
            raise IllegalAction("kids_single_digit")  # KISSA_KIDS
        va, vb, vc = (value_of(board, x) for x in (move.a, move.b, move.c))
        if move.op == TIMES:
            if va == 0 or vb == 0:
                raise IllegalAction("times_zero")  # T-5
            if va * vb != vc:
                raise IllegalAction("wrong_result", a=va, b=vb, c=vc, op=move.op, expected=va * vb)
        elif va + vb != vc:
            raise IllegalAction("wrong_result", a=va, b=vb, c=vc, op=move.op, expected=va + vb)

    def normalize(self, board: Sequence[int], move: Move) -> Move:
        """The canonical form of a move: palindromes forwards, operands in (value, cells) order."""
        a, b, c = (canonical_cells(board, x) for x in (move.a, move.b, move.c))
        if (value_of(board, b), b) < (value_of(board, a), a):
            a, b = b, a
        return Move(move.op, a, b, c)

    # --- applying ----------------------------------------------------------------------------
    def apply(self, state: State, player: int, action: Action, rng: Rng) -> tuple[State, list[Event]]:
        if isinstance(action, EnterRow):
            board = list(state.board)
            for k, ch in enumerate(action.digits):
                board[action.row * SIZE + k] = EMPTY if ch == "." else int(ch)
            rows = tuple(True if r == action.row else done for r, done in enumerate(state.rows))
            # the row the tokens were going into, entered whole: its tokens told so far are replaced
            cursor = 0 if action.row == _first_missing(state) else state.cursor
            new = replace(state, board=tuple(board), rows=rows, cursor=cursor)
            missing = [r + 1 for r in range(SIZE) if not rows[r]]
            return new, [RowEntered(row=action.row + 1, digits=action.digits, missing=missing)]
        if isinstance(action, PlaceToken):
            row = _first_missing(state)
            assert row is not None  # check: the board is not complete
            cell = row * SIZE + state.cursor
            board = list(state.board)
            board[cell] = action.digit
            if state.cursor + 1 < SIZE:
                new = replace(state, board=tuple(board), cursor=state.cursor + 1)
                return new, [TokenPlaced(cell=cell_name(cell), digit=action.digit, row=row + 1,
                                         left=SIZE - state.cursor - 1)]
            rows = tuple(True if r == row else done for r, done in enumerate(state.rows))
            new = replace(state, board=tuple(board), rows=rows, cursor=0)
            missing = [r + 1 for r in range(SIZE) if not rows[r]]
            # the tenth token completes the row: read back as a row entered whole
            return new, [RowEntered(row=row + 1, digits=row_text(new.board, row), missing=missing)]
        if isinstance(action, StartPlay):
            counts = [sum(1 for d in state.board if d == digit) for digit in range(10)]
            odd = [{"digit": d, "count": counts[d]} for d in range(10) if counts[d] != 10]
            new = replace(state, phase=PLAY, turn=action.first)
            ev = PlayStarted(first=action.first, tokens=tokens_left(state.board), unusual=odd)
            return self._after_turn(new, [ev], action.first, None)
        if isinstance(action, Declare):
            return self._finish_stuck(state, [], player, player, "declared")
        move = self.normalize(state.board, action)
        board = list(state.board)
        values = [value_of(board, x) for x in (move.a, move.b, move.c)]
        for cells in (move.a, move.b, move.c):
            for x in cells:
                board[x] = EMPTY  # T-6: the tokens leave the board
        left = tokens_left(board)
        score = move_score(values, move.op, left)  # T-7, T-8, TA-6
        scores = list(state.scores)
        scores[player] += score
        base = sum(token_value(int(ch)) for v in values for ch in str(v))
        event = MovePlayed(
            seat=player,
            op=move.op,
            operands=[[cell_name(x) for x in move.a], [cell_name(x) for x in move.b]],
            result=[cell_name(x) for x in move.c],
            values=values,
            base=base,
            product=move.op == TIMES,
            cleared=left == 0,
            score=score,
            total=scores[player],
            left=left,
        )
        new = replace(state, board=tuple(board), scores=tuple(scores), last_mover=player, moves=state.moves + 1)
        events: list[Event] = [event]
        if left == 0:  # T-8: the board is empty, the game ends
            new = replace(new, phase=OVER, end="board_cleared")
            return new, events + [self._ended(new)]
        nxt = next_player(new, player)
        return self._after_turn(replace(new, turn=nxt), events, nxt, player)

    def _after_turn(self, state: State, events: list[Event], seat: int, last: int | None) -> tuple[State, list[Event]]:
        """T-9 (R1/R2): the player to move has no legal move: the remaining tokens count
        twice against them (or the last mover), the board is cleared, the game ends."""
        if self.finder(state.board).any_move():
            return state, events
        penalised = seat if self.config["penalty"] == "to_move" or last is None else last
        return self._finish_stuck(state, events, seat, penalised, "stuck")

    def _finish_stuck(self, state: State, events: list[Event], seat: int, penalised: int, reason: str) -> tuple[State, list[Event]]:
        remaining = tokens_sum(state.board)
        penalty = 2 * remaining
        scores = list(state.scores)
        scores[penalised] -= penalty  # totals may go negative
        ev = (Declared if reason == "declared" else Stuck)(
            seat=seat,
            penalised=penalised,
            tokens=tokens_left(state.board),
            remaining=remaining,
            penalty=penalty,
            total=scores[penalised],
        )
        new = replace(state, board=(EMPTY,) * CELLS, scores=tuple(scores), phase=OVER, end=reason)
        return new, events + [ev, self._ended(new)]

    def _ended(self, state: State) -> Event:
        out = self.outcome(state)
        return GameEnded(scores=list(out.scores), winners=list(out.winners), reason=state.end)

    # --- end ------------------------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def outcome(self, state: State) -> Outcome:
        best = max(state.scores)
        winners = tuple(i for i, s in enumerate(state.scores) if s == best) if state.phase == OVER else ()
        return Outcome(tuple(state.scores), winners)  # T-10, TA-11: ties share the win

    # --- information and serialisation -------------------------------------------------------------
    def view(self, state: State, player: int | None) -> dict[str, Any]:
        return self.state_to_json(state)  # all information is public

    def state_to_json(self, state: State) -> Any:
        return {
            "board": [row_text(state.board, r) for r in range(SIZE)],
            "scores": list(state.scores),
            "turn": state.turn,
            "phase": state.phase,
            "rows": list(state.rows),
            "last_mover": state.last_mover,
            "moves": state.moves,
            "end": state.end,
            **({"order": list(state.order)} if state.order is not None else {}),
            **({"cursor": state.cursor} if state.cursor else {}),
        }

    def state_from_json(self, data: Any) -> State:
        board: list[int] = []
        for row in data["board"]:
            board.extend(EMPTY if ch == "." else int(ch) for ch in row)
        return State(
            tuple(board),
            tuple(int(s) for s in data["scores"]),
            int(data["turn"]),
            str(data["phase"]),
            tuple(bool(r) for r in data["rows"]),
            data.get("last_mover"),
            int(data.get("moves", 0)),
            data.get("end"),
            tuple(int(x) for x in data["order"]) if data.get("order") is not None else None,
            int(data.get("cursor", 0)),
        )

    def action_to_json(self, action: Action) -> Any:
        if isinstance(action, Move):
            name = _CELL_NAMES.__getitem__
            return {
                "type": "move",
                "op": action.op,
                "operands": [list(map(name, action.a)), list(map(name, action.b))],
                "result": list(map(name, action.c)),
            }
        if isinstance(action, EnterRow):
            return {"type": "row", "row": action.row + 1, "digits": action.digits}
        if isinstance(action, PlaceToken):
            return {"type": "token", "digit": action.digit}
        if isinstance(action, StartPlay):
            return {"type": "start", "first": action.first}
        return {"type": "declare"}

    def action_from_json(self, data: Any) -> Action:
        kind = data.get("type", "move")
        if kind == "move":
            a, b = ([parse_cell(x) for x in cells] for cells in data["operands"])
            c = [parse_cell(x) for x in data["result"]]
            return Move(str(data["op"]), tuple(a), tuple(b), tuple(c))
        if kind == "row":
            return EnterRow(int(data["row"]) - 1, str(data["digits"]))
        if kind == "token":
            return PlaceToken(int(data["digit"]))
        if kind == "start":
            return StartPlay(int(data.get("first", 0)))
        if kind == "declare":
            return Declare()
        raise ActionDecodeError(f"unknown action type {kind!r}"[:80])
