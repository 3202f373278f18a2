"""Kaliko rules (docs/rules.md §1, K-1 to K-22), pure: no I/O, clock, own randomness or text.

Actions: `Play` (1 to 7 tiles, each with its cell and the tile string as it lies),
`Exchange` (tile numbers back to the bag), `Pass`. `check` gives the precise reason of a
refusal; `legal_actions` lists pass, every exchange and every legal scoring play found by
the exhaustive play finder; both rest on `scoring.evaluate`, the one judge of a play.

Options (RULES variant flags):
* `start_tile` (KALIKO_START_TILE): None = drawn at random from the bag (DEFAULT), or the
  number 1-85 of a chosen tile.
* `max_players` (KALIKO_MAX_PLAYERS): 4 by DEFAULT, up to 6.
* `crossings_new_tiles_only` (KALIKO_CROSSINGS_NEW_TILES_ONLY): only crossings on tiles
  placed this turn score (DEFAULT: the whole path's).
* `double_main_only` (KALIKO_DOUBLE_MAIN_ONLY): only the main path doubles when closed.
* `exchange_counts_as_pass` (KALIKO_EXCHANGE_COUNTS_AS_PASS): an exchange does not reset
  the run of passes that ends the game (DEFAULT: it does).
* `hand_penalty` (KALIKO_HAND_PENALTY): points lost per tile left in hand at the end
  (DEFAULT 0, no penalty).
* `hand_size`: tiles in a full hand, 7 by the rules; smaller hands are a learning variant
  (and keep many-seed test runs fast). A play still holds at most 7 tiles.
* `physical`: a physical table. The players use the real box: they lay the start tile, draw
  their real tiles from the real bag and lay their plays on the real table. The tiles drawn are
  chance told by the table (`Drew`, an action, so the journal replays it): the start tile
  (phase `start`), each hand (phase `deal`, first player first), every refill (K-19) and every
  exchange's new tiles (K-7; the returned tiles wait aside until the new ones are told, then go
  back into the bag). The rules keep the bag as the set of tiles not seen yet, so a tile told
  that is on the board or in a hand is refused. Only the first player is drawn by the generator.
KALIKO_KADON_EXTRAS is reserved by RULES KA-8 and has no behaviour, so it is no option.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from companion.core import ActionDecodeError, Event, Game, IllegalAction, Option, Outcome, Rng

from . import scoring
from .events import (
    ExchangeDrawn,
    GameEnded,
    GameStarted,
    HandDealt,
    Passed,
    StartTold,
    TilesDrawn,
    TilesDrawnPrivate,
    TilesExchanged,
    TilesPlayed,
    TilesReturned,
    TilesTold,
)
from .finder import all_plays
from .tiles import (
    NUMBER,
    ORIENTED,
    OT_NUMBER,
    TILES,
    TileSyntaxError,
    cell_id,
    cell_qr,
    identity,
    oriented,
)

HAND = 7  # RULES K-5
CENTRE = (0, 0)  # RULES §7: the start tile lies at (0, 0)


# --- actions ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Play:
    """RULES K-6: tiles placed this turn, each `(q, r, tile as it lies)`, sorted by cell."""

    placements: tuple[tuple[int, int, str], ...]

    @staticmethod
    def of(placements: list[tuple[int, int, str]] | tuple[tuple[int, int, str], ...]) -> Play:
        norm = []
        for q, r, text in placements:
            norm.append((int(q), int(r), ORIENTED[oriented(text)]))
        return Play(tuple(sorted(norm)))


@dataclass(frozen=True)
class Exchange:
    """RULES K-7: tile numbers returned to the bag (as many are drawn first)."""

    tiles: tuple[int, ...]


@dataclass(frozen=True)
class Pass:
    """RULES K-7b."""


@dataclass(frozen=True)
class Drew:
    """Physical table: the tiles just taken from the real bag (numbers 1-85), told by the table.

    `legal_actions` lists one tile at a time (the canonical form); `check` also takes up to the
    number still owed at once, exactly as if told one by one (a line « 12 40 3 »)."""

    tiles: tuple[int, ...]


Action = Play | Exchange | Pass | Drew

# Physical-table phases (State.phase); the companion-held game is always in PLAY.
START = "start"  # the start tile laid at the centre is told (RULES K-4)
DEAL = "deal"  # each player tells the tiles they drew for their hand (RULES K-5)
DRAW = "draw"  # the player to move tells the tiles drawn after a play (K-19) or an exchange (K-7)
PLAY = "play"


# --- state ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class State:
    board: tuple[tuple[int, int, str], ...]  # (q, r, tile as it lies), in the order laid
    bag: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    turn: int
    passes: int = 0  # consecutive passes (RULES K-21)
    over: bool = False
    end_reason: str | None = None
    # Physical table only: the phase, the tiles the player to move must still tell, and an
    # exchange's returned tiles, aside until the new ones are drawn (RULES K-7: draw first).
    phase: str = PLAY
    owed: int = 0
    returning: tuple[int, ...] = ()

    @property
    def n_players(self) -> int:
        return len(self.hands)

    def cells(self) -> dict[tuple[int, int], str]:
        return {(q, r): t for q, r, t in self.board}


def packed_board(board: tuple[tuple[int, int, str], ...]) -> dict[int, int]:
    return _packed(board)


@lru_cache(maxsize=64)
def _packed(board: tuple[tuple[int, int, str], ...]) -> dict[int, int]:
    return {cell_id(q, r): oriented(t) for q, r, t in board}


class Kaliko(Game[State, Action]):
    name = "kaliko"
    min_players = 2
    max_players = 6
    options = {
        "start_tile": Option(None, (None, *range(1, 86)), "kaliko.option.start_tile"),
        "max_players": Option(4, (4, 5, 6), "kaliko.option.max_players"),
        "crossings_new_tiles_only": Option(False, None, "kaliko.option.crossings_new_tiles_only"),
        "double_main_only": Option(False, None, "kaliko.option.double_main_only"),
        "exchange_counts_as_pass": Option(False, None, "kaliko.option.exchange_counts_as_pass"),
        "hand_penalty": Option(0, None, "kaliko.option.hand_penalty"),
        "hand_size": Option(HAND, tuple(range(1, HAND + 1)), "kaliko.option.hand_size"),
        "physical": Option(False, (False, True), "kaliko.option.physical"),
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.max_players = int(self.config["max_players"])  # RULES §1.1: DEFAULT 2-4, up to 6
        self._plays_cache: dict[Any, list[Play]] = {}

    # --- set-up ----------------------------------------------------------------------------
    def setup(self, n_players: int, rng: Rng) -> tuple[State, list[Event]]:
        if self.config["physical"]:
            return self._setup_physical(n_players, rng)
        bag = list(range(1, 86))  # RULES K-4: all 85 tiles in the bag
        chosen = self.config["start_tile"]
        start = chosen if chosen is not None else bag[rng.randrange(len(bag))]
        bag.remove(start)
        hands = []
        for _ in range(n_players):  # RULES K-5: seven tiles each, hidden
            hands.append(tuple(_draw(bag, self.config["hand_size"], rng)))
        first = rng.randrange(n_players)  # RULES K-5: first player at random
        state = State(
            board=((0, 0, TILES[start - 1]),),
            bag=tuple(bag),
            hands=tuple(hands),
            scores=tuple(0 for _ in range(n_players)),
            turn=first,
        )
        events: list[Event] = [
            GameStarted(
                players=n_players,
                start={"cell": [0, 0], "tile": TILES[start - 1], "number": start},
                first=first,
                bag=len(bag),
            )
        ]
        for seat, hand in enumerate(hands):
            events.append(HandDealt(seat=seat, tiles=list(hand), to=(seat,)))
        return state, events

    def _setup_physical(self, n_players: int, rng: Rng) -> tuple[State, list[Event]]:
        """A physical table: nothing is drawn here but the first player (RULES K-5); the start
        tile (unless chosen: K-4 variant) and the hands are told by the table, in turn."""
        first = rng.randrange(n_players)  # RULES K-5: first player at random
        bag = list(range(1, 86))  # RULES K-4: all 85 tiles in the bag
        chosen = self.config["start_tile"]
        board: tuple[tuple[int, int, str], ...] = ()
        if chosen is not None:
            bag.remove(chosen)
            board = ((0, 0, TILES[chosen - 1]),)
        state = State(
            board=board,
            bag=tuple(bag),
            hands=tuple(() for _ in range(n_players)),
            scores=tuple(0 for _ in range(n_players)),
            turn=first,
            phase=START if chosen is None else DEAL,
            owed=1 if chosen is None else min(self.config["hand_size"], len(bag)),
        )
        start = None if chosen is None else {"cell": [0, 0], "tile": TILES[chosen - 1], "number": chosen}
        return state, [GameStarted(players=n_players, start=start, first=first, bag=len(bag), physical=True)]

    def current_player(self, state: State) -> int | None:
        return None if state.over else state.turn

    # --- legality ----------------------------------------------------------------------------
    def plays(self, state: State, player: int) -> list[Play]:
        """Every legal scoring play of `player`'s hand (the exhaustive finder), best first."""
        key = (state.board, state.hands[player])
        cached = self._plays_cache.get(key)
        if cached is None:
            found = all_plays(
                packed_board(state.board),
                list(state.hands[player]),
                self.config["crossings_new_tiles_only"],
                self.config["double_main_only"],
            )
            cached = [
                Play(tuple(sorted((*cell_qr(c), ORIENTED[ot]) for c, ot in f.placements)))
                for f in found
            ]
            if len(self._plays_cache) >= 4:  # the lists can be long: keep only the last few
                self._plays_cache.clear()
            self._plays_cache[key] = cached
        return list(cached)

    def legal_actions(self, state: State, player: int) -> list[Action]:
        if state.over or player != state.turn:
            return []
        if state.phase != PLAY:  # physical table: only the tiles drawn may be told now
            return [Drew((t,)) for t in state.bag]
        actions: list[Action] = [Pass()]
        hand = state.hands[player]
        limit = min(len(hand), len(state.bag))  # RULES K-7: no more than the bag holds
        for mask in range(1, 1 << len(hand)):
            chosen = tuple(t for i, t in enumerate(hand) if mask >> i & 1)
            if len(chosen) <= limit:
                actions.append(Exchange(tuple(sorted(chosen))))
        actions.extend(self.plays(state, player))
        return actions

    def check(self, state: State, player: int, action: Action) -> None:
        if state.over:
            raise IllegalAction("game_over")
        if player != state.turn:
            raise IllegalAction("not_your_turn", current=state.turn)
        hand = state.hands[player]
        if isinstance(action, Drew) or state.phase != PLAY:
            self._check_told(state, player, action)
            return
        if isinstance(action, Pass):
            return
        if isinstance(action, Exchange):
            if not action.tiles:
                raise IllegalAction("nothing_to_exchange")
            _in_hand(action.tiles, hand)
            if not state.bag:
                raise IllegalAction("bag_empty")
            if len(action.tiles) > len(state.bag):  # RULES K-7
                raise IllegalAction("bag_too_small", n=len(action.tiles), bag=len(state.bag))
            return
        if not isinstance(action, Play):
            raise IllegalAction("not_legal")
        try:
            placed = [(cell_id(q, r), oriented(t)) for q, r, t in action.placements]
        except (TileSyntaxError, KeyError) as exc:
            raise IllegalAction("bad_tile") from exc
        if len(placed) > scoring.MAX_TILES:
            raise IllegalAction(scoring.TOO_MANY, count=len(placed))
        _in_hand(tuple(OT_NUMBER[ot] for _, ot in placed), hand)
        verdict = scoring.evaluate(
            packed_board(state.board),
            placed,
            self.config["crossings_new_tiles_only"],
            self.config["double_main_only"],
        )
        if not verdict.legal:
            raise IllegalAction(str(verdict.reason), **_detail(verdict.detail))

    def _check_told(self, state: State, player: int, action: Action) -> None:
        """A told draw (physical table): only while tiles are owed, at most as many as owed,
        each once, each still in the bag (not on the board, in a hand or set aside)."""
        if state.phase == PLAY:
            raise IllegalAction("nothing_to_draw")
        if not isinstance(action, Drew):
            raise IllegalAction("draw_first", n=state.owed, phase=state.phase)
        if not action.tiles:
            raise IllegalAction("nothing_told", n=state.owed)
        if len(action.tiles) > state.owed:
            raise IllegalAction("too_many_told", n=state.owed, told=len(action.tiles))
        if len(set(action.tiles)) != len(action.tiles):
            raise IllegalAction("told_twice")
        for i, t in enumerate(action.tiles):
            if not 1 <= t <= 85:
                raise IllegalAction("no_such_tile", number=t, index=i + 1)
            if t not in state.bag:
                # `index`: which tile of the line. A tile on the board is said where it lies;
                # one in a hand (anyone's) or set aside is only "not in the bag": the refusal
                # is heard by the table and must reveal no hand.
                where = next(([q, r] for q, r, x in state.board if NUMBER[identity(x)] == t), None)
                if where is not None:
                    raise IllegalAction("told_on_board", number=t, index=i + 1, told=len(action.tiles), cell=where)
                raise IllegalAction("not_in_bag", number=t, index=i + 1, told=len(action.tiles))

    def verdict(self, state: State, action: Play) -> scoring.Verdict:
        """The judge's verdict on a play (its paths and score), legal or not."""
        placed = [(cell_id(q, r), oriented(t)) for q, r, t in action.placements]
        return scoring.evaluate(
            packed_board(state.board),
            placed,
            self.config["crossings_new_tiles_only"],
            self.config["double_main_only"],
        )

    # --- moves ---------------------------------------------------------------------------------
    def apply(self, state: State, player: int, action: Action, rng: Rng) -> tuple[State, list[Event]]:
        if isinstance(action, Drew):
            return self._told(state, player, action)
        n = state.n_players
        hands = [list(h) for h in state.hands]
        bag = list(state.bag)
        scores = list(state.scores)
        board = state.board
        passes = state.passes
        events: list[Event] = []
        if isinstance(action, Pass):
            passes += 1
            events.append(Passed(seat=player, passes=passes))
        elif isinstance(action, Exchange) and self.config["physical"]:
            # RULES K-7 at a real table: the returned tiles wait aside while the new ones are
            # drawn and told (draw first); they go back into the bag once all are told.
            for t in action.tiles:
                hands[player].remove(t)
            passes = passes + 1 if self.config["exchange_counts_as_pass"] else 0
            events.append(TilesExchanged(seat=player, n=len(action.tiles), bag=len(bag)))
            new = replace(state, hands=tuple(tuple(h) for h in hands), passes=passes, phase=DRAW,
                          owed=len(action.tiles), returning=tuple(sorted(action.tiles)))
            return new, events
        elif isinstance(action, Exchange):
            drawn = _draw(bag, len(action.tiles), rng)  # RULES K-7: draw first...
            for t in action.tiles:  # ...then return the old tiles
                hands[player].remove(t)
                bag.append(t)
            bag.sort()
            hands[player].extend(drawn)
            if self.config["exchange_counts_as_pass"]:
                passes += 1
            else:
                passes = 0  # RULES K-21 DEFAULT: an exchange resets the run of passes
            events.append(TilesExchanged(seat=player, n=len(action.tiles), bag=len(bag)))
            events.append(
                ExchangeDrawn(
                    # first: the hand position of the first tile drawn (they go at the end)
                    seat=player, returned=list(action.tiles), drawn=drawn,
                    first=len(hands[player]) - len(drawn) + 1,
                    to=(player,),
                )
            )
        else:
            assert isinstance(action, Play)
            verdict = self.verdict(state, action)
            for _q, _r, tile in action.placements:
                hands[player].remove(NUMBER[identity(tile)])
            board = board + tuple(action.placements)
            scores[player] += verdict.score  # RULES K-18
            passes = 0
            events.append(
                TilesPlayed(
                    seat=player,
                    placements=[
                        {"cell": [q, r], "tile": t, "number": NUMBER[identity(t)]}
                        for q, r, t in action.placements
                    ],
                    score=verdict.score,
                    paths=[_path_json(p) for p in verdict.paths],
                    total=scores[player],
                )
            )
            want = self.config["hand_size"] - len(hands[player])
            if self.config["physical"] and want and bag:
                # RULES K-19 at a real table: the player draws and tells the tiles (phase draw)
                new = replace(state, board=board, hands=tuple(tuple(h) for h in hands), scores=tuple(scores),
                              passes=passes, phase=DRAW, owed=min(want, len(bag)))
                return new, events
            drawn = [] if self.config["physical"] else _draw(bag, want, rng)  # RULES K-19: refill while the bag has tiles
            hands[player].extend(drawn)
            if drawn:
                events.append(TilesDrawn(seat=player, n=len(drawn), bag=len(bag)))
                events.append(
                    TilesDrawnPrivate(seat=player, tiles=drawn, first=len(hands[player]) - len(drawn) + 1, to=(player,))
                )
        over, reason = False, None
        if isinstance(action, Play) and not hands[player] and not bag:
            over, reason = True, "hand_and_bag_empty"  # RULES K-20
        elif passes >= n:
            over, reason = True, "all_passed"  # RULES K-21
        new = State(
            board=board,
            bag=tuple(bag),
            hands=tuple(tuple(h) for h in hands),
            scores=tuple(scores),
            turn=player if over else (player + 1) % n,
            passes=passes,
            over=over,
            end_reason=reason,
        )
        if over:
            out = self.outcome(new)
            events.append(
                GameEnded(
                    scores=list(out.scores),
                    winners=list(out.winners),
                    reason=reason,
                    penalties=self._penalties(new),
                )
            )
        return new, events

    def _told(self, state: State, player: int, action: Drew) -> tuple[State, list[Event]]:
        """Physical table: tiles told as drawn from the real bag (phases start, deal, draw)."""
        bag = [t for t in state.bag if t not in action.tiles]
        events: list[Event] = []
        if state.phase == START:  # RULES K-4: the start tile, laid at the centre, seen by all
            t = action.tiles[0]
            events.append(StartTold(tile=TILES[t - 1], number=t, bag=len(bag)))
            owed = min(self.config["hand_size"], len(bag))
            return replace(state, board=((0, 0, TILES[t - 1]),), bag=tuple(bag), phase=DEAL, owed=owed), events
        hands = [list(h) for h in state.hands]
        hands[player].extend(action.tiles)
        owed = state.owed - len(action.tiles)
        events.append(TilesDrawn(seat=player, n=len(action.tiles), bag=len(bag), left=owed))
        events.append(TilesTold(seat=player, tiles=list(action.tiles), first=len(hands[player]) - len(action.tiles) + 1,
                                to=(player,)))
        new = replace(state, bag=tuple(bag), hands=tuple(tuple(h) for h in hands), owed=owed)
        if owed:
            return new, events
        n = state.n_players
        if state.phase == DEAL:  # RULES K-5: hands are drawn in turn, from the first player
            nxt = (player + 1) % n
            if hands[nxt]:  # every hand is drawn: the first player begins
                return replace(new, turn=nxt, phase=PLAY), events
            return replace(new, turn=nxt, owed=min(self.config["hand_size"], len(bag))), events
        # the draw of a play (K-19) or an exchange (K-7: the returned tiles go back now)
        new = replace(new, bag=tuple(sorted(bag + list(state.returning))), returning=(), phase=PLAY)
        if state.returning:
            events.append(TilesReturned(seat=player, n=len(state.returning), bag=len(new.bag)))
        if state.passes >= n:  # RULES K-21 (an exchange counted as a pass by the variant)
            return self._ended(replace(new, over=True, end_reason="all_passed"), events)
        return replace(new, turn=(player + 1) % n), events

    def _ended(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        out = self.outcome(state)
        events.append(GameEnded(scores=list(out.scores), winners=list(out.winners), reason=state.end_reason,
                                penalties=self._penalties(state)))
        return state, events

    # --- end ------------------------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return state.over

    def _penalties(self, state: State) -> list[int]:
        per = int(self.config["hand_penalty"])  # RULES K-22 variant KALIKO_HAND_PENALTY
        return [per * len(h) for h in state.hands]

    def outcome(self, state: State) -> Outcome:
        scores = list(state.scores)
        if state.over:
            scores = [s - p for s, p in zip(scores, self._penalties(state), strict=True)]
        top = max(scores)
        winners = tuple(i for i, s in enumerate(scores) if s == top) if state.over else ()
        return Outcome(tuple(scores), winners)  # RULES K-22: highest total, ties shared

    # --- information --------------------------------------------------------------------------------
    def view(self, state: State, player: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {
            "board": [{"cell": [q, r], "tile": t} for q, r, t in state.board],
            "bag": len(state.bag),
            "hand_sizes": [len(h) for h in state.hands],
            "scores": list(state.scores),
            "turn": state.turn,
            "passes": state.passes,
            "over": state.over,
        }
        if state.phase != PLAY:  # physical table: what is being told, by whom
            v["phase"], v["owed"] = state.phase, state.owed
        if player is not None:
            v["hand"] = [{"number": n, "tile": TILES[n - 1]} for n in state.hands[player]]
        return v

    def hidden_holdings(self, state: State, player: int) -> list[str]:
        return [TILES[n - 1] for n in state.hands[player]]

    # --- serialisation --------------------------------------------------------------------------------
    def state_to_json(self, state: State) -> Any:
        return {
            "board": [{"cell": [q, r], "tile": t} for q, r, t in state.board],
            "bag": list(state.bag),
            "hands": [list(h) for h in state.hands],
            "scores": list(state.scores),
            "turn": state.turn,
            "passes": state.passes,
            "over": state.over,
            "end_reason": state.end_reason,
            **({"phase": state.phase, "owed": state.owed, "returning": list(state.returning)}
               if state.phase != PLAY or state.returning else {}),
        }

    def state_from_json(self, data: Any) -> State:
        return State(
            board=tuple((int(p["cell"][0]), int(p["cell"][1]), str(p["tile"])) for p in data["board"]),
            bag=tuple(int(t) for t in data["bag"]),
            hands=tuple(tuple(int(t) for t in h) for h in data["hands"]),
            scores=tuple(int(s) for s in data["scores"]),
            turn=int(data["turn"]),
            passes=int(data["passes"]),
            over=bool(data["over"]),
            end_reason=data.get("end_reason"),
            phase=str(data.get("phase", PLAY)),
            owed=int(data.get("owed", 0)),
            returning=tuple(int(t) for t in data.get("returning", ())),
        )

    def action_to_json(self, action: Action) -> Any:
        if isinstance(action, Play):
            return {"play": [{"cell": [q, r], "tile": t} for q, r, t in action.placements]}
        if isinstance(action, Exchange):
            return {"exchange": list(action.tiles)}
        if isinstance(action, Drew):
            return {"drew": list(action.tiles)}
        return {"pass": True}

    def action_from_json(self, data: Any) -> Action:
        if "play" in data:
            return Play.of([(p["cell"][0], p["cell"][1], p["tile"]) for p in data["play"]])
        if "exchange" in data:
            return Exchange(tuple(sorted(int(t) for t in data["exchange"])))
        if "drew" in data:
            return Drew(tuple(int(t) for t in data["drew"]))
        if data.get("pass") is True:
            return Pass()
        raise ActionDecodeError(f"not a Kaliko action: {data!r}"[:80])  # never silently a pass (issue #11)


def _draw(bag: list[int], k: int, rng: Rng) -> list[int]:
    """Draw up to k tiles at random from the bag (removing them), in the order drawn."""
    out = []
    for _ in range(min(k, len(bag))):
        out.append(bag.pop(rng.randrange(len(bag))))
    return out


def _in_hand(numbers: tuple[int, ...], hand: tuple[int, ...]) -> None:
    if len(set(numbers)) != len(numbers):
        dup = next(n for n in numbers if numbers.count(n) > 1)
        raise IllegalAction("tile_twice", number=dup)
    for n in numbers:
        if n not in hand:
            raise IllegalAction("not_in_hand", number=n)


def _detail(detail: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in detail.items():
        out[k] = list(v) if isinstance(v, tuple) else v
    return out


def _path_json(p: scoring.PathScore) -> dict[str, Any]:
    d = p.to_json()
    d["cells"] = [list(c) for c in p.cells]
    d["new_segments"] = p.new_segments
    return d


Rules = Kaliko
