"""Good Fortune (Jean-Louis Roubira, Daïmon Play, 2025): the pure rules, docs/rules.md §2.

Two players, 21 tiles. Each round the medallion holder pushes a tile from their lucky line,
then the other player pushes one; the medallion's face says which is placed first; each
tile is placed at an end of the three-tile central line, and its owner collects (or
discards) the tile at the opposite end. Nine rounds; collections score by greedy grouping.

`legal_actions` is the single source of legality; `check` gives the precise reason.
Options (RULES variant flags):
  deck        "default" (the owner's chosen deck file, else the synthetic one), "synthetic"
              (shipped, invented), or a Deck / deck-file path (see deckfile.py)
  physical    False: the companion deals. True: the players declare the deal (seat 0's lucky
              line, then the central line left to right) and the tiles they push.
  medallion   "pass_flip" (GFA-1 default) | "pass_only" | "flip_only"   (GF_MEDALLION)
  match       "any" (GFA-2 default: share any charm) | "domino_half"     (GF_MATCH)
  free_end    False (GFA-3 default: forced against a matching end) | True (GF_FREE_END)
  tie_order   "best" (GFA-5 default) | "fixed"                           (GF_TIE_ORDER)
  tiebreak    "draw" (GFA-7 default) | "most_tiles" | "largest_group"    (GF_TIEBREAK)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.core import ActionDecodeError, Event, Game, IllegalAction, Option, Outcome, Rng

from .deck import DEFAULT, SYNTHETIC, Deck, synthetic
from .events import (
    CentralLineLaid,
    GameEnded,
    GameStarted,
    LuckyLineDealt,
    MedallionPassed,
    MedallionTaken,
    OrderDecided,
    PlacementChoice,
    RoundStarted,
    TileDeclared,
    TilePlaced,
    TilePushed,
)
from .notation import parse_tile
from .scoring import Breakdown, score
from .tiles import FIRST, LAST, N_TILES, Tile

ROUNDS = 9  # RULES GF-11
HAND = 9  # RULES GF-2: 8 drawn + tile 1 or 21
LEFT, RIGHT = "left", "right"
SMALL, LARGE = "small", "large"


# --- actions ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Push:
    """RULES GF-6: push tile `number` from one's lucky line towards the central line."""

    number: int


@dataclass(frozen=True)
class Place:
    """RULES GF-8: place one's pushed tile at `end`; `outer` (GF_MATCH=domino_half only) is
    the charm left facing outwards when the owner may choose it."""

    end: str
    outer: str | None = None


@dataclass(frozen=True)
class Declare:
    """Physical table, set-up: the next tile of the deal is `number` (seat 0's lucky line
    first, then the central line from left to right); `left` = the charm on its left half
    (domino_half only, central tiles)."""

    number: int
    left: str | None = None


Action = Push | Place | Declare


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class State:
    deck: str
    tiles: tuple[Tile, ...]  # tiles[n - 1] is tile n
    phase: str  # "declare" (physical set-up), "push", "place", "over"
    lines: tuple[tuple[int, ...], tuple[int, ...]]  # lucky lines, ascending (GF-4)
    central: tuple[int, ...]  # left to right; 3 tiles once dealt (GF-3, GF-8)
    lefts: tuple[str, ...] | None  # domino_half: charm on each central tile's left half
    collections: tuple[tuple[int, ...], tuple[int, ...]]  # in the order collected
    discarded: tuple[int, ...]
    round: int  # 1..9
    holder: int  # medallion holder (GF-5, GF-10)
    face: str  # medallion face up: "small" or "large"
    pushed: tuple[int | None, int | None]  # this round's pushed tile of each seat
    order: tuple[int, ...]  # seats whose pushed tile is still to be placed, next first
    first_holder: int  # who was dealt tile 1

    def tile(self, number: int) -> Tile:
        return self.tiles[number - 1]


@dataclass(frozen=True)
class Placement:
    """One way to place a tile: the end, the outer charm, and whether it collects."""

    end: str
    outer: str | None
    collects: bool
    matched: tuple[str, ...]  # the shared charms with the touched end tile


def exposed(tiles: tuple[Tile, ...], central: tuple[int, ...], lefts: tuple[str, ...] | None, end: str) -> str | None:
    """domino_half: the charm showing on the outer half of the `end` tile."""
    if lefts is None:
        return None
    if end == LEFT:
        return lefts[0]
    return tiles[central[-1] - 1].other(lefts[-1])


def placements(
    tiles: tuple[Tile, ...],
    central: tuple[int, ...],
    lefts: tuple[str, ...] | None,
    number: int,
    domino_half: bool,
    free_end: bool,
) -> list[Placement]:
    """Every legal way to place tile `number` against the line (RULES GF-8, GFA-2, GFA-3)."""
    t = tiles[number - 1]
    ways: dict[str, tuple[str, ...]] = {}
    for end, idx in ((LEFT, 0), (RIGHT, -1)):
        if domino_half:  # GFA-2 variant: only the end's outer half counts
            show = exposed(tiles, central, lefts, end)
            ways[end] = (show,) if show is not None and t.has(show) else ()
        else:  # GFA-2 default: any charm shared with the touched end tile
            ways[end] = t.shares(tiles[central[idx] - 1])
    matching = [e for e in (LEFT, RIGHT) if ways[e]]
    ends = matching if matching and not free_end else [LEFT, RIGHT]  # GFA-3
    out = []
    for end in ends:
        hit = ways[end]
        if not domino_half:
            out.append(Placement(end, None, bool(hit), hit))
        elif hit:  # the matching charm touches; the other one faces out
            out.append(Placement(end, t.other(hit[0]), True, hit))
        else:  # no match: the owner turns the tile as they like
            out.extend(Placement(end, c, False, ()) for c in t.charms)
    return out


def place_on(
    tiles: tuple[Tile, ...],
    central: tuple[int, ...],
    lefts: tuple[str, ...] | None,
    number: int,
    end: str,
    outer: str | None,
) -> tuple[tuple[int, ...], tuple[str, ...] | None, int]:
    """The line after placing `number` at `end`, and the tile taken off the opposite end."""
    if end == LEFT:
        new = (number, central[0], central[1])
        gone = central[2]
        nl = None if lefts is None else (outer or "", lefts[0], lefts[1])
    else:
        new = (central[1], central[2], number)
        gone = central[0]
        nl = None if lefts is None else (lefts[1], lefts[2], tiles[number - 1].other(outer or ""))
    return new, nl, gone


def next_medallion(holder: int, face: str, mode: str) -> tuple[int, str]:
    """RULES GF-10 / GFA-1: the medallion after a round."""
    flip = {SMALL: LARGE, LARGE: SMALL}
    if mode == "pass_only":
        return 1 - holder, face
    if mode == "flip_only":
        return holder, flip[face]
    return 1 - holder, flip[face]


def placing_order(pushed: tuple[int | None, int | None], face: str) -> tuple[int, int]:
    """RULES GF-7: small face, the lower number first; large face, the higher."""
    a, b = pushed
    assert a is not None and b is not None
    low = 0 if a < b else 1
    return (low, 1 - low) if face == SMALL else (1 - low, low)


class GoodFortune(Game[State, Action]):
    name = "goodfortune"
    min_players = 2
    max_players = 2
    options = {
        "deck": Option(DEFAULT, None, "goodfortune.option.deck"),
        "physical": Option(False, None, "goodfortune.option.physical"),
        "medallion": Option("pass_flip", ("pass_flip", "pass_only", "flip_only"), "goodfortune.option.medallion"),
        "match": Option("any", ("any", "domino_half"), "goodfortune.option.match"),
        "free_end": Option(False, None, "goodfortune.option.free_end"),
        "tie_order": Option("best", ("best", "fixed"), "goodfortune.option.tie_order"),
        "tiebreak": Option("draw", ("draw", "most_tiles", "largest_group"), "goodfortune.option.tiebreak"),
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        spec = self.config["deck"]
        self.deck: Deck = spec if isinstance(spec, Deck) else self.load_deck(str(spec))
        self.config["deck"] = self.deck.name if isinstance(spec, Deck) else spec
        self.domino_half = self.config["match"] == "domino_half"
        self.free_end = bool(self.config["free_end"])

    def load_deck(self, spec: str) -> Deck:
        """Only the shipped deck here (pure); the package's `Rules` also reads deck files."""
        if spec not in (SYNTHETIC, DEFAULT):
            raise ValueError(f"unknown deck {spec!r}")
        return synthetic()

    # --- set-up --------------------------------------------------------------------------------
    def setup(self, n_players: int, rng: Rng) -> tuple[State, list[Event]]:
        tiles = self.deck.tiles
        base = State(
            self.deck.name, tiles, "declare", ((), ()), (), None, ((), ()), (), 1, 0, SMALL, (None, None), (), 0
        )
        events: list[Event] = [GameStarted(deck=self.deck.name, physical=bool(self.config["physical"]),
                                           options={k: v for k, v in self.config.items() if k != "deck"})]
        if self.config["physical"]:
            return base, events
        first = rng.randrange(2)  # GF-1: tiles 1 and 21 to the players at random
        rest = [n for n in range(1, N_TILES + 1) if n not in (FIRST, LAST)]
        rng.shuffle(rest)  # GF-2: shuffle the 19 others, 8 each
        hands = [rest[:8], rest[8:16]]
        hands[first].append(FIRST)
        hands[1 - first].append(LAST)
        central = tuple(rest[16:19])  # GF-3: the last 3, face up, in random order
        lefts = tuple(rng.choice(tiles[n - 1].charms) for n in central) if self.domino_half else None
        state = replace(base, lines=(tuple(sorted(hands[0])), tuple(sorted(hands[1]))), central=central, lefts=lefts)
        return self._start(state, events)

    def _start(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        """GF-4 lucky lines face up, GF-5 the holder of tile 1 takes the medallion, small face."""
        first = 0 if FIRST in state.lines[0] else 1
        state = replace(state, phase="push", holder=first, face=SMALL, first_holder=first, round=1)
        for seat in (0, 1):
            events.append(LuckyLineDealt(seat=seat, tiles=self._names(state, state.lines[seat])))
        events.append(CentralLineLaid(tiles=self._names(state, state.central), lefts=_opt_list(state.lefts)))
        events.append(MedallionTaken(seat=first, face=SMALL, tile=str(state.tile(FIRST))))
        events.append(self._round_event(state))
        return state, events

    def _round_event(self, state: State) -> Event:
        shows = None
        if state.lefts is not None:  # GF_MATCH=domino_half: the charms showing at the two ends
            shows = [exposed(state.tiles, state.central, state.lefts, LEFT),
                     exposed(state.tiles, state.central, state.lefts, RIGHT)]
        return RoundStarted(round=state.round, holder=state.holder, face=state.face,
                            ends=[str(state.tile(state.central[0])), str(state.tile(state.central[-1]))],
                            shows=shows)

    # --- turn order ---------------------------------------------------------------------------------
    def current_player(self, state: State) -> int | None:
        if state.phase == "over":
            return None
        if state.phase == "declare":
            return 0
        if state.phase == "place":
            return state.order[0]
        return state.holder if state.pushed[state.holder] is None else 1 - state.holder  # GF-6

    # --- legality -------------------------------------------------------------------------------------
    def legal_actions(self, state: State, player: int) -> list[Action]:
        if player != self.current_player(state):
            return []
        if state.phase == "declare":
            return list(self._declarable(state))
        if state.phase == "push":
            return [Push(n) for n in state.lines[player]]
        number = state.pushed[player]
        assert number is not None
        return [Place(o.end, o.outer) for o in self._options(state, number)]

    def _options(self, state: State, number: int) -> list[Placement]:
        return placements(state.tiles, state.central, state.lefts, number, self.domino_half, self.free_end)

    def _declarable(self, state: State) -> list[Declare]:
        used = set(state.lines[0]) | set(state.central)
        free = [n for n in range(1, N_TILES + 1) if n not in used]
        if len(state.lines[0]) < HAND:  # seat 0's lucky line: exactly one of tiles 1 and 21
            special = {FIRST, LAST} & set(state.lines[0])
            if special:
                return [Declare(n) for n in free if n not in (FIRST, LAST)]
            if len(state.lines[0]) == HAND - 1:
                return [Declare(n) for n in (FIRST, LAST)]
            return [Declare(n) for n in free]
        out: list[Declare] = []
        for n in free:
            if n in (FIRST, LAST):
                continue
            if self.domino_half:
                out.extend(Declare(n, c) for c in state.tile(n).charms)
            else:
                out.append(Declare(n))
        return out

    def check(self, state: State, player: int, action: Action) -> None:
        if state.phase == "declare":
            if not isinstance(action, Declare):
                raise IllegalAction("deal_first")
            self._check_declare(state, action)
        elif state.phase == "push":
            if not isinstance(action, Push):
                raise IllegalAction("push_first", phase="push")
            if action.number not in state.lines[player]:
                where = self._where(state, action.number, player)
                raise IllegalAction("not_in_line", number=action.number, where=where,
                                    line=list(state.lines[player]))
        else:
            number = state.pushed[player]
            assert number is not None
            if not isinstance(action, Place):
                raise IllegalAction("must_place", number=number)
            if action.end not in (LEFT, RIGHT):
                raise IllegalAction("bad_end", end=str(action.end))
            opts = self._options(state, number)
            if not any(o.end == action.end for o in opts):
                other = opts[0].end
                raise IllegalAction("must_match", number=number, end=action.end, other=other,
                                    tile=str(state.tile(state.central[0 if other == LEFT else -1])))
            if not any(o.end == action.end and o.outer == action.outer for o in opts):
                raise IllegalAction("bad_orientation", number=number, choices=[o.outer or "" for o in opts if o.end == action.end])
        if action not in self.legal_actions(state, player):  # pragma: no cover - safety net
            raise IllegalAction("not_legal")

    def _check_declare(self, state: State, action: Declare) -> None:
        n = action.number
        if not isinstance(n, int) or not 1 <= n <= N_TILES:
            raise IllegalAction("no_such_tile", number=n if isinstance(n, int) else 0)
        if n in state.lines[0] or n in state.central:
            raise IllegalAction("already_declared", number=n)
        if len(state.lines[0]) < HAND:
            special = {FIRST, LAST} & set(state.lines[0])
            if special and n in (FIRST, LAST):
                raise IllegalAction("one_or_twentyone", number=n, held=min(special))
            if not special and len(state.lines[0]) == HAND - 1 and n not in (FIRST, LAST):
                raise IllegalAction("needs_one_or_twentyone", number=n)
        elif n in (FIRST, LAST):
            raise IllegalAction("not_central", number=n)
        if Declare(n, action.left) not in self._declarable(state):
            raise IllegalAction("bad_orientation", number=n, choices=list(state.tile(n).charms))

    def _where(self, state: State, number: int, player: int) -> str:
        if not isinstance(number, int) or not 1 <= number <= N_TILES:
            return "none"
        if number in state.lines[1 - player]:
            return "opponent"
        if number in state.central:
            return "central"
        if number in state.collections[0] or number in state.collections[1]:
            return "collected"
        if number in state.discarded:
            return "discarded"
        return "pushed" if number in state.pushed else "none"

    # --- moves ----------------------------------------------------------------------------------------------
    def apply(self, state: State, player: int, action: Action, rng: Rng) -> tuple[State, list[Event]]:
        if isinstance(action, Declare):
            return self._apply_declare(state, action)
        if isinstance(action, Push):
            lines = list(state.lines)
            lines[player] = tuple(n for n in lines[player] if n != action.number)
            pushed = list(state.pushed)
            pushed[player] = action.number
            state = replace(state, lines=(lines[0], lines[1]), pushed=(pushed[0], pushed[1]))
            events: list[Event] = [TilePushed(seat=player, tile=str(state.tile(action.number)),
                                              round=state.round, holder=player == state.holder)]
            if state.pushed[1 - player] is None:
                return state, events
            first, second = placing_order(state.pushed, state.face)  # GF-7
            events.append(OrderDecided(face=state.face, first=first, second=second,
                                       first_tile=str(state.tile(state.pushed[first] or 0)),
                                       second_tile=str(state.tile(state.pushed[second] or 0))))
            state = replace(state, order=(first, second), phase="place")
            return self._advance(state, events)
        assert isinstance(action, Place)
        return self._advance(*self._place(state, player, action.end, action.outer, forced=False, events=[]))

    def _place(self, state: State, seat: int, end: str, outer: str | None, forced: bool,
               events: list[Event]) -> tuple[State, list[Event]]:
        """RULES GF-8: place, then collect or discard the opposite end tile."""
        number = state.pushed[seat]
        assert number is not None
        opt = next(o for o in self._options(state, number) if o.end == end and o.outer == outer)
        against = state.central[0 if end == LEFT else -1]
        central, lefts, gone = place_on(state.tiles, state.central, state.lefts, number, end, outer)
        cols = list(state.collections)
        discarded = state.discarded
        if opt.collects:
            cols[seat] = (*cols[seat], gone)
        else:
            discarded = (*discarded, gone)
        pushed = list(state.pushed)
        pushed[seat] = None
        state = replace(state, central=central, lefts=lefts, collections=(cols[0], cols[1]), discarded=discarded,
                        pushed=(pushed[0], pushed[1]), order=state.order[1:])
        events.append(TilePlaced(
            seat=seat, tile=str(state.tile(number)), end=end, outer=outer,
            against=str(state.tile(against)), matched=list(opt.matched), forced=forced,
            collected=str(state.tile(gone)) if opt.collects else None,
            discarded=None if opt.collects else str(state.tile(gone)),
            line=self._names(state, central), lefts=_opt_list(lefts),
            score=self.breakdown(state, seat).total, collection_size=len(cols[seat]),
        ))
        return state, events

    def _advance(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        """Place forced tiles by themselves; stop at an owner's choice or the round's end."""
        while state.order:
            seat = state.order[0]
            number = state.pushed[seat]
            assert number is not None
            opts = self._options(state, number)
            if len(opts) > 1:  # GFA-4: the owner chooses
                choices = [{"end": o.end, "outer": o.outer, "collects": o.collects,
                            "gone": str(state.tile(state.central[-1 if o.end == LEFT else 0]))} for o in opts]
                events.append(PlacementChoice(seat=seat, tile=str(state.tile(number)), choices=choices))
                return replace(state, phase="place"), events
            state, events = self._place(state, seat, opts[0].end, opts[0].outer, forced=True, events=events)
        if state.round >= ROUNDS:  # GF-11
            state = replace(state, phase="over")
            out = self.outcome(state)
            events.append(GameEnded(
                scores=list(out.scores), winners=list(out.winners),
                breakdowns=[self.breakdown_json(state, s) for s in (0, 1)],
                tiebreak=self.config["tiebreak"] if len(set(out.scores)) == 1 else None,
                central=self._names(state, state.central), discarded=self._names(state, state.discarded),
            ))
            return state, events
        holder, face = next_medallion(state.holder, state.face, self.config["medallion"])  # GF-10
        events.append(MedallionPassed(from_=state.holder, seat=holder, face=face,
                                      passed=holder != state.holder, flipped=face != state.face))
        state = replace(state, phase="push", round=state.round + 1, holder=holder, face=face)
        events.append(self._round_event(state))
        return state, events

    def _apply_declare(self, state: State, action: Declare) -> tuple[State, list[Event]]:
        n = action.number
        if len(state.lines[0]) < HAND:
            line = tuple(sorted((*state.lines[0], n)))
            state = replace(state, lines=(line, ()))
            events: list[Event] = [TileDeclared(zone="line", seat=0, tile=str(state.tile(n)), count=len(line))]
        else:
            central = (*state.central, n)
            lefts = (*(state.lefts or ()), action.left or "") if self.domino_half else None
            state = replace(state, central=central, lefts=lefts)
            events = [TileDeclared(zone="central", tile=str(state.tile(n)), count=len(central), left=action.left)]
        if len(state.central) < 3:
            return state, events
        used = set(state.lines[0]) | set(state.central)
        state = replace(state, lines=(state.lines[0], tuple(n for n in range(1, N_TILES + 1) if n not in used)))
        return self._start(state, events)

    # --- end ---------------------------------------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def breakdown(self, state: State, seat: int) -> Breakdown:
        """RULES GF-12/13 for `seat`'s collection as it stands."""
        return score([state.tile(n) for n in state.collections[seat]], self.config["tie_order"])

    def breakdown_json(self, state: State, seat: int) -> list[dict[str, Any]]:
        names = [str(state.tile(n)) for n in state.collections[seat]]
        return [{"charm": g.charm, "tiles": [names[i] for i in g.tiles], "dice": g.dice, "points": g.points}
                for g in self.breakdown(state, seat).groups]

    def outcome(self, state: State) -> Outcome:
        scores = tuple(self.breakdown(state, s).total for s in (0, 1))
        if state.phase != "over":
            return Outcome(scores, ())
        if scores[0] != scores[1]:
            return Outcome(scores, (0 if scores[0] > scores[1] else 1,))
        mode = self.config["tiebreak"]  # GF-14, GFA-7
        if mode == "most_tiles":
            keys = [len(state.collections[s]) for s in (0, 1)]
        elif mode == "largest_group":
            keys = [max((len(g.tiles) for g in self.breakdown(state, s).groups), default=0) for s in (0, 1)]
        else:
            keys = [0, 0]
        if keys[0] != keys[1]:
            return Outcome(scores, (0 if keys[0] > keys[1] else 1,))
        return Outcome(scores, (0, 1))

    # --- information: everything is public (GF-4, GFA-9) ---------------------------------------------
    def view(self, state: State, player: int | None) -> dict[str, Any]:
        v = self.state_to_json(state)
        v.pop("tiles")
        return v

    def _names(self, state: State, numbers: tuple[int, ...]) -> list[str]:
        return [str(state.tile(n)) for n in numbers]

    # --- serialisation ------------------------------------------------------------------------------------
    def state_to_json(self, state: State) -> Any:
        return {
            "deck": state.deck, "tiles": [str(t) for t in state.tiles], "phase": state.phase,
            "lines": [list(x) for x in state.lines], "central": list(state.central),
            "lefts": _opt_list(state.lefts), "collections": [list(x) for x in state.collections],
            "discarded": list(state.discarded), "round": state.round, "holder": state.holder,
            "face": state.face, "pushed": list(state.pushed), "order": list(state.order),
            "first_holder": state.first_holder,
        }

    def state_from_json(self, data: Any) -> State:
        return State(
            str(data["deck"]), tuple(parse_tile(s, need_number=True) for s in data["tiles"]), str(data["phase"]),
            (tuple(data["lines"][0]), tuple(data["lines"][1])), tuple(data["central"]),
            None if data["lefts"] is None else tuple(data["lefts"]),
            (tuple(data["collections"][0]), tuple(data["collections"][1])), tuple(data["discarded"]),
            int(data["round"]), int(data["holder"]), str(data["face"]),
            (data["pushed"][0], data["pushed"][1]), tuple(data["order"]), int(data["first_holder"]),
        )

    def action_to_json(self, action: Action) -> Any:
        if isinstance(action, Push):
            return {"push": action.number}
        if isinstance(action, Place):
            return {"place": action.end, "outer": action.outer}
        return {"declare": action.number, "left": action.left}

    def action_from_json(self, data: Any) -> Action:
        if "push" in data:
            return Push(int(data["push"]))
        if "place" in data:
            return Place(str(data["place"]), data.get("outer"))
        if "declare" in data:
            return Declare(int(data["declare"]), data.get("left"))
        raise ActionDecodeError(f"not a Good Fortune action: {data!r}"[:80])


def _opt_list(x: tuple[str, ...] | None) -> list[str] | None:
    return None if x is None else list(x)
