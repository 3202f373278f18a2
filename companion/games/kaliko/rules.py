"""Kaliko rules (RULES.md §1, K-1 to K-22), pure: no I/O, clock, own randomness or text.

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
KALIKO_KADON_EXTRAS is reserved by RULES KA-8 and has no behaviour, so it is no option.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.core import Event, Game, IllegalAction, Option, Outcome, Rng

from . import scoring
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
START = (0, 0)  # RULES §7: the start tile lies at (0, 0)


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


Action = Play | Exchange | Pass


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
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.max_players = int(self.config["max_players"])  # RULES §1.1: DEFAULT 2-4, up to 6
        self._plays_cache: dict[Any, list[Play]] = {}

    # --- set-up ----------------------------------------------------------------------------
    def setup(self, n_players: int, rng: Rng) -> tuple[State, list[Event]]:
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
        events = [
            Event(
                "game_started",
                {
                    "players": n_players,
                    "start": {"cell": [0, 0], "tile": TILES[start - 1], "number": start},
                    "first": first,
                    "bag": len(bag),
                },
            )
        ]
        for seat, hand in enumerate(hands):
            events.append(Event("hand_dealt", {"seat": seat, "tiles": list(hand)}, to=(seat,)))
        return state, events

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
        n = state.n_players
        hands = [list(h) for h in state.hands]
        bag = list(state.bag)
        scores = list(state.scores)
        board = state.board
        passes = state.passes
        events: list[Event] = []
        if isinstance(action, Pass):
            passes += 1
            events.append(Event("passed", {"seat": player, "passes": passes}))
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
            events.append(Event("tiles_exchanged", {"seat": player, "n": len(action.tiles), "bag": len(bag)}))
            events.append(
                Event(
                    "exchange_drawn",
                    # "first": the hand position of the first tile drawn (they go at the end)
                    {"seat": player, "returned": list(action.tiles), "drawn": drawn,
                     "first": len(hands[player]) - len(drawn) + 1},
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
                Event(
                    "tiles_played",
                    {
                        "seat": player,
                        "placements": [
                            {"cell": [q, r], "tile": t, "number": NUMBER[identity(t)]}
                            for q, r, t in action.placements
                        ],
                        "score": verdict.score,
                        "paths": [_path_json(p) for p in verdict.paths],
                        "total": scores[player],
                    },
                )
            )
            want = self.config["hand_size"] - len(hands[player])
            drawn = _draw(bag, want, rng)  # RULES K-19: refill while the bag has tiles
            hands[player].extend(drawn)
            if drawn:
                events.append(
                    Event("tiles_drawn", {"seat": player, "n": len(drawn), "bag": len(bag)})
                )
                events.append(
                    Event(
                        "tiles_drawn_private",
                        {"seat": player, "tiles": drawn, "first": len(hands[player]) - len(drawn) + 1},
                        to=(player,),
                    )
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
                Event(
                    "game_ended",
                    {
                        "scores": list(out.scores),
                        "winners": list(out.winners),
                        "reason": reason,
                        "penalties": self._penalties(new),
                    },
                )
            )
        return new, events

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
        )

    def action_to_json(self, action: Action) -> Any:
        if isinstance(action, Play):
            return {"play": [{"cell": [q, r], "tile": t} for q, r, t in action.placements]}
        if isinstance(action, Exchange):
            return {"exchange": list(action.tiles)}
        return {"pass": True}

    def action_from_json(self, data: Any) -> Action:
        if "play" in data:
            return Play.of([(p["cell"][0], p["cell"][1], p["tile"]) for p in data["play"]])
        if "exchange" in data:
            return Exchange(tuple(sorted(int(t) for t in data["exchange"])))
        return Pass()


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
