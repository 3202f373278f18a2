"""Les 5 KIKOI: the pure rules (docs/rules.md §3, KI-1 to KI-12, with the KIA defaults and variants).

One source of legality: `legal_actions`. `check` raises the precise reason of a refusal and
agrees with it by construction. No I/O, no clock, no translation; chance comes from the `Rng`.

Two modes (option `physical`):

* the companion holds the bag: it deals and draws with the seeded generator; the asked
  player's answer follows from the boards it keeps;
* at a physical table: chance and the other players' answers come as actions. Each dealt or
  drawn token is told with `Drew(token)` by the player who took it; the asked player answers
  with `Reply(give)`. The rules check what they can: a token already placed elsewhere is not
  in the bag, a refusal of a token the player is known to hold is refused, and so on.

The KIPIRAT window (KIA-9, "declared before the asker acts again"): after every give between
two players, while the KIPIRAT is not yet used, each other player in turn (from the receiver's
left) gets the `pirate` phase, where `Pirate(False)` ("let it pass") is legal for everyone and
`Pirate(True)` only for the secret holder. The window opens whether or not anyone holds the
KIPIRAT (it may still be in the bag), so that its opening tells nobody that it was drawn, and
non-holders' legal lists never show it.

Who is asked in that window (option `kipirat_window`): at a table of several people every
other player is asked, holder or not (KI-11 keeps the holder secret: a question put to one
player only would name them to everyone who hears it). With `holder`, only the holder is
asked, and only when they may steal: meant for one human among bots, where nobody else
hears the question, so that they are not asked on every gift they cannot steal (#17). Then
only the holder knows a window is open: `seen_state` shows everyone else the state as if the
token had already been received. docs/private-channels.md (KIKOI) says why and when.

At a physical table the red tokens wait out of the bag during the deal (KI-1) and go in after
it (KI-3): the phase `reds` waits for the table's « prêt » (`RedsIn`), so a resumed game
knows whether they are in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.core import ActionDecodeError, Event, Game, IllegalAction, Option, Outcome, Rng

from .events import (
    Asked,
    BadDraw,
    BagEmptied,
    BagEmptyNoDraw,
    BoardReceived,
    BoardsRotated,
    DayCompleted,
    DealDone,
    DrewBlind,
    GameEnded,
    GameStarted,
    Given,
    GoodDraw,
    KikonkAsked,
    KikonkDrawn,
    KikonkFailed,
    KipiratDrawn,
    KitournDrawn,
    Passed,
    PlayAgain,
    RedsDue,
    RedsPutIn,
    Refused,
    RefusedCompleted,
    Stolen,
    TokenDealt,
    TokenDrawn,
    TokensDealt,
    TurnBegan,
    TurnLost,
)
from .tokens import (
    KIKONK,
    KIPIRAT,
    KITOURN,
    N_WHITE,
    WHITE,
    completed,
    is_white,
    kikoi_of,
    row_counts,
    token_from_id,
    token_id,
)

# Phases of a state
DEAL = "deal"  # physical: players tell the tokens they were dealt (KI-2)
ASK = "ask"  # the turn's player makes a request (KI-5), or draws blind / passes (KIA-5)
ANSWER = "answer"  # physical: the asked player (or each player, for a KIKONK) answers (KI-6)
DRAW = "draw"  # physical: the asker tells the token they drew (KI-7)
KIKONK_ASK = "kikonk"  # the KIKONK drawer asks everyone at once (KI-9)
PIRATE = "pirate"  # the KIPIRAT window after a give (KI-11, KIA-9)
REDS = "reds"  # physical: the table puts the red tokens into the bag after the deal (KI-3)
OVER = "over"

ALL = None  # Ask.target for a KIKONK request to everyone


# --- actions ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Ask:
    """Ask `target` (a seat; None: everyone, after a KIKONK) for one white token."""

    target: int | None
    token: int


@dataclass(frozen=True)
class Reply:
    """Physical table: the asked player's answer, the token given or refused."""

    give: bool


@dataclass(frozen=True)
class Drew:
    """Physical table: the token the acting player took from the bag (deal or draw)."""

    token: int


@dataclass(frozen=True)
class DrawBlind:
    """The companion draws for a player who has no legal request (KIA-5 default)."""


@dataclass(frozen=True)
class Pass:
    """End the turn: no legal request (KIA-5 variant `pass`) or a KIKONK with no request."""


@dataclass(frozen=True)
class Pirate:
    """In the KIPIRAT window: steal the passing token (holder only) or let it pass."""

    steal: bool


@dataclass(frozen=True)
class RedsIn:
    """Physical table: the red tokens are in the bag now, after the deal (RULES KI-3)."""


Action = Ask | Reply | Drew | DrawBlind | Pass | Pirate | RedsIn


# --- state ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class State:
    n: int
    boards: tuple[tuple[int, ...], ...]  # sorted tokens of each seat's board
    bag: tuple[int, ...]  # sorted
    out: tuple[int, ...]  # red tokens out of the game (used, or not played)
    pirate: int | None  # the seat secretly holding the KIPIRAT (KI-11)
    first: int  # the starting seat (KI-4)
    turn: int  # the seat whose turn it is
    phase: str
    actor: int  # the seat to act now
    request: tuple[int, int, int] | None = None  # (asker, target or -1 for everyone, token)
    pending: tuple[int, int, int] | None = None  # token passing: (token, giver, receiver)
    queue: tuple[int, ...] = ()  # seats still to deal / answer / pass in the window
    deal_left: int = 0  # physical deal: tokens still to take by queue[0]
    moved: bool = False  # a token changed board during this turn
    stall: int = 0  # turns in a row, bag empty, with no token changing board
    reason: str | None = None  # why the game ended

    @property
    def over(self) -> bool:
        return self.phase == OVER


class Rules(Game[State, Action]):
    name = "kikoi"
    min_players = 3
    max_players = 4
    options = {
        "physical": Option(False, (False, True), "kikoi.option.physical"),
        "red_tokens": Option(True, (False, True), "kikoi.option.red_tokens"),
        "two_players": Option(False, (False, True), "kikoi.option.two_players"),
        "deal": Option(None, (None, 1, 2, 3, 4, 5, 6), "kikoi.option.deal"),
        "end": Option("all_days", ("all_days", "bag_empty"), "kikoi.option.end"),
        "stall_rounds": Option(2, (1, 2, 3, 4, 5), "kikoi.option.stall_rounds"),
        "good_draw": Option("exact", ("exact", "same_kikoi"), "kikoi.option.good_draw"),
        "completed_ask": Option("lose_turn", ("lose_turn", "draw"), "kikoi.option.completed_ask"),
        "no_request": Option("draw", ("draw", "pass"), "kikoi.option.no_request"),
        "announce_boards": Option(False, (False, True), "kikoi.option.announce_boards"),
        "repeat_public_log": Option(False, (False, True), "kikoi.option.repeat_public_log"),
        "first": Option(0, (0, 1, 2, 3), "kikoi.option.first"),
        "kipirat_window": Option("everyone", ("everyone", "holder"), "kikoi.option.kipirat_window"),
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        # RULES KIA-1: two players only as a labelled variant.
        if self.config["two_players"]:
            self.min_players = 2

    # --- set-up ---------------------------------------------------------------------------------
    def deal_size(self, n: int) -> int:
        # RULES KI-2: 4 tokens at 3 players, 3 at 4; KIA-1: 6 each at 2; young children: chosen.
        if self.config["deal"] is not None:
            return int(self.config["deal"])
        return {2: 6, 3: 4, 4: 3}[n]

    def setup(self, n_players: int, rng: Rng) -> tuple[State, list[Event]]:
        n = n_players
        if n == 2 and not self.config["two_players"]:
            raise IllegalAction("two_players_variant", count=n)
        first = self.config["first"]
        if first >= n:
            raise IllegalAction("no_such_seat", seat=first)
        k = self.deal_size(n)
        # RULES KI-1: the red tokens are out of the bag during the deal.
        red_out = () if self.config["red_tokens"] else (KIKONK, KITOURN, KIPIRAT)
        start = GameStarted(players=n, deal=k, first=first, red_tokens=bool(self.config["red_tokens"]),
                            physical=bool(self.config["physical"]))
        if self.config["physical"]:
            # RULES KI-1: the red tokens wait outside the bag until the deal is done.
            state = State(n, tuple(() for _ in range(n)), WHITE, (KIKONK, KITOURN, KIPIRAT), None,
                          first, first, DEAL, 0, queue=tuple(range(n)), deal_left=k)
            return state, [start]
        # RULES KI-2: each player draws k tokens and places them on their board.
        bag = list(WHITE)
        rng.shuffle(bag)
        boards = [tuple(sorted(bag[i * k:(i + 1) * k])) for i in range(n)]
        rest = bag[n * k:]
        # RULES KI-3: the red tokens go into the bag after the deal.
        if self.config["red_tokens"]:
            rest += [KIKONK, KITOURN, KIPIRAT]
        events: list[Event] = [start]
        events += [TokensDealt(seat=i, tokens=[token_id(t) for t in b], to=(i,)) for i, b in enumerate(boards)]
        state = State(n, tuple(boards), tuple(sorted(rest)), red_out, None, first, first, ASK, first)
        events += [DealDone(bag=len(state.bag)), TurnBegan(seat=first)]
        return state, events

    def current_player(self, state: State) -> int | None:
        return None if state.over else state.actor

    # --- legality -------------------------------------------------------------------------------
    def request_tokens(self, state: State, asker: int) -> list[int]:
        """The white tokens `asker` may ask for (RULES KI-5 and its exception)."""
        board = state.boards[asker]
        counts = row_counts(board)
        if not state.bag and all(c in (0, 5) for c in counts):
            # RULES KI-5 exception: bag empty and every row empty or full: any KIKOI.
            kikois = [k for k, c in enumerate(counts) if c == 0]
        else:
            # RULES KI-5 restriction: only a KIKOI already on the asker's row.
            kikois = [k for k, c in enumerate(counts) if 0 < c < 5]
        have = set(board)
        return [t for k in kikois for t in range(k * 5, k * 5 + 5) if t not in have]

    def legal_actions(self, state: State, player: int) -> list[Action]:
        if state.over or player != state.actor:
            return []
        phase = state.phase
        if phase == DEAL:
            return [Drew(t) for t in state.bag]
        if phase == REDS:
            return [RedsIn()]
        if phase == DRAW:
            return [Drew(t) for t in state.bag]
        if phase == PIRATE:
            # RULES KI-11: only the secret holder may steal; everyone may let it pass.
            if state.pirate == player:
                return [Pirate(True), Pirate(False)]
            return [Pirate(False)]
        if phase == ANSWER:
            assert state.request is not None
            # RULES KI-6: a holder must give; KI-8: a completed day's tokens are never given.
            return [Reply(self._must_give(state, player, state.request[2]))]
        tokens = self.request_tokens(state, player)
        if phase == KIKONK_ASK:
            # RULES KI-9, KIA-7: one request to everyone, with the KI-5 restriction.
            return [Ask(ALL, t) for t in tokens] or [Pass()]
        # ASK
        if tokens:
            return [Ask(s, t) for s in range(state.n) if s != player for t in tokens]
        if state.bag:
            # RULES KIA-5: no legal request while the bag has tokens: draw blind (or pass).
            if self.config["no_request"] == "pass":
                return [Pass()]
            if self.config["physical"]:
                return [Drew(t) for t in state.bag]
            return [DrawBlind()]
        return [Pass()]

    @staticmethod
    def _must_give(state: State, holder: int, token: int) -> bool:
        board = state.boards[holder]
        return token in board and kikoi_of(token) not in completed(board)

    def check(self, state: State, player: int, action: Action) -> None:
        legal = self.legal_actions(state, player)
        if action in legal:
            return
        raise self._reason(state, player, action)

    def _reason(self, state: State, player: int, action: Action) -> IllegalAction:
        """The precise reason an action not in `legal_actions` is refused."""
        phase = state.phase
        if isinstance(action, Ask):
            t = action.token
            if not is_white(t):
                return IllegalAction("not_white", token=token_id(t) if 0 <= t < 28 else str(t))
            tid = token_id(t)
            if phase not in (ASK, KIKONK_ASK):
                return IllegalAction("wrong_phase", phase=phase)
            if phase == KIKONK_ASK and action.target is not ALL:
                return IllegalAction("kikonk_asks_everyone", token=tid)
            if phase == ASK and action.target is ALL:
                return IllegalAction("no_kikonk", token=tid)
            if action.target is not ALL and not (0 <= action.target < state.n):
                return IllegalAction("no_such_seat", seat=action.target)
            if action.target == player:
                return IllegalAction("ask_yourself", token=tid)
            if t in state.boards[player]:
                return IllegalAction("already_have", token=tid)
            counts = row_counts(state.boards[player])
            if counts[kikoi_of(t)] == 0:
                # RULES KI-5: no token of this KIKOI on the asker's row.
                return IllegalAction("kikoi_not_on_board", token=tid, kikoi=tid.split("-")[0])
            return IllegalAction("not_legal", token=tid)
        if isinstance(action, Reply):
            if phase != ANSWER:
                return IllegalAction("wrong_phase", phase=phase)
            assert state.request is not None
            tid = token_id(state.request[2])
            if action.give:
                if state.request[2] in state.boards[player]:
                    return IllegalAction("completed_day_kept", token=tid)
                return IllegalAction("not_held", token=tid)
            return IllegalAction("must_give", token=tid)
        if isinstance(action, Drew):
            if phase not in (DEAL, DRAW, ASK) or (phase == ASK and not self.config["physical"]):
                return IllegalAction("wrong_phase", phase=phase)
            t = action.token
            if not 0 <= t < 28:
                return IllegalAction("no_such_token", token=str(t))
            tid = token_id(t)
            if phase == DEAL and not is_white(t):
                return IllegalAction("red_in_deal", token=tid)
            if t in state.out:
                return IllegalAction("out_of_game", token=tid)
            for s, b in enumerate(state.boards):
                if t in b:
                    return IllegalAction("already_placed", token=tid, seat=s)
            if t == KIPIRAT and state.pirate is not None:
                return IllegalAction("already_placed", token=tid, seat=-1)
            if phase == ASK:
                return IllegalAction("must_ask", token=tid)
            return IllegalAction("not_in_bag", token=tid)
        if isinstance(action, Pirate):
            if phase != PIRATE:
                return IllegalAction("wrong_phase", phase=phase)
            return IllegalAction("no_kipirat")
        if isinstance(action, RedsIn):
            return IllegalAction("wrong_phase", phase=phase)
        if isinstance(action, (DrawBlind, Pass)):
            if phase in (ASK, KIKONK_ASK) and self.request_tokens(state, player):
                return IllegalAction("must_ask")
            return IllegalAction("wrong_phase", phase=phase)
        return IllegalAction("not_legal")

    # --- moves ------------------------------------------------------------------------------------
    def apply(self, state: State, player: int, action: Action, rng: Rng) -> tuple[State, list[Event]]:
        w = _Work(state, self, rng)
        phase = state.phase
        if phase == DEAL:
            assert isinstance(action, Drew)
            w.deal(player, action.token)
        elif phase == REDS:
            assert isinstance(action, RedsIn)
            w.reds_in()
        elif phase == PIRATE:
            assert isinstance(action, Pirate)
            w.pirate_choice(player, action.steal)
        elif phase == ANSWER:
            assert isinstance(action, Reply)
            w.answer(player, action.give)
        elif phase == DRAW:
            assert isinstance(action, Drew)
            w.drawn(action.token)
        elif isinstance(action, Ask):
            w.ask(player, action.target, action.token)
        elif isinstance(action, Drew):  # physical blind draw (KIA-5)
            w.drawn(action.token)
        elif isinstance(action, DrawBlind):
            w.drawn(w.bag[rng.randrange(len(w.bag))])
        else:
            assert isinstance(action, Pass)
            if phase == KIKONK_ASK:
                w.ev(KikonkFailed(asker=player, token=None))
            else:
                w.ev(Passed(seat=player))
            w.end_turn()
        return w.freeze(), w.events

    # --- end --------------------------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return state.over

    def outcome(self, state: State) -> Outcome:
        # RULES KI-12: each player counts their completed days; KIA-12: ties share the win.
        scores = tuple(len(completed(b)) for b in state.boards)
        best = max(scores)
        return Outcome(scores, tuple(i for i, s in enumerate(scores) if s == best))

    # --- information --------------------------------------------------------------------------------
    def seen_state(self, state: State, player: int | None) -> State:
        """The state as `player` (None: anyone) may know it. With `kipirat_window=holder` only
        the holder is ever asked, so an open window would name them (RULES KI-11): everyone
        else sees the token as already received, as it is when the KIPIRAT is elsewhere."""
        if state.phase != PIRATE or player == state.actor or self.config["kipirat_window"] != "holder":
            return state
        while state.phase == PIRATE:
            state, _ = self.apply(state, state.actor, Pirate(False), Rng(0))  # no chance in letting pass
        return state

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        """What `player` may know: their own board, public counts and announced days.

        Never another board, never the bag's contents, never a requested token that may lie on
        someone else's board; the word for the secret red token appears only in its holder's view.
        """
        state = self.seen_state(state, player)
        v: dict[str, Any] = {
            "players": state.n,
            "first": state.first,
            "turn": state.turn,
            "to_act": None if state.over else state.actor,
            "phase": state.phase,
            "bag": len(state.bag),
            "days": [[token_id(k * 5).split("-")[0] for k in completed(b)] for b in state.boards],
            # red tokens out of the game: used (said aloud), or left in the box
            "red_out": [token_id(t) for t in state.out],
        }
        if state.phase == ASK:
            # RULES KIA-5: a player with no legal request draws blind (or passes), which the
            # table hears at once; whether they can ask is public.
            v["can_ask"] = bool(self.request_tokens(state, state.actor))
        if state.request is not None:
            asker, target, _ = state.request
            v["request"] = {"asker": asker, "target": None if target < 0 else target}
        if state.pending is not None:
            token, giver, receiver = state.pending
            v["passing"] = {"token": token_id(token), "giver": giver, "receiver": receiver}
        if state.over:
            v["reason"] = state.reason
            v["scores"] = list(self.outcome(state).scores)
        if player is not None:
            v["seat"] = player
            v["board"] = [token_id(t) for t in state.boards[player]]
            if state.pirate == player:
                v["secret"] = token_id(KIPIRAT)
        return v

    def hidden_holdings(self, state: State, player: int) -> list[str]:
        out = [token_id(t) for t in state.boards[player]]
        if state.pirate == player:
            out.append(token_id(KIPIRAT))
        return out

    def token_locations(self, state: State) -> dict[int, str]:
        """Where each of the 28 tokens is (for conservation tests): bag, seat N, secret, out, passing."""
        loc: dict[int, str] = {}
        for t in state.bag:
            loc[t] = "bag"
        for s, b in enumerate(state.boards):
            for t in b:
                loc[t] = f"seat {s}"
        for t in state.out:
            loc[t] = "out"
        if state.pirate is not None:
            loc[KIPIRAT] = "secret"
        if state.pending is not None:
            loc[state.pending[0]] = "passing"
        return loc

    # --- serialisation --------------------------------------------------------------------------------
    def state_to_json(self, state: State) -> Any:
        return {
            "n": state.n,
            "boards": [[token_id(t) for t in b] for b in state.boards],
            "bag": [token_id(t) for t in state.bag],
            "out": [token_id(t) for t in state.out],
            "pirate": state.pirate,
            "first": state.first,
            "turn": state.turn,
            "phase": state.phase,
            "actor": state.actor,
            "request": None if state.request is None else {
                "asker": state.request[0], "target": state.request[1],
                "token": token_id(state.request[2])},
            "pending": None if state.pending is None else {
                "token": token_id(state.pending[0]), "giver": state.pending[1],
                "receiver": state.pending[2]},
            "queue": list(state.queue),
            "deal_left": state.deal_left,
            "moved": state.moved,
            "stall": state.stall,
            "reason": state.reason,
        }

    def state_from_json(self, data: Any) -> State:
        def toks(items: list[str]) -> tuple[int, ...]:
            return tuple(sorted(token_from_id(x) for x in items))

        req = data["request"]
        pend = data["pending"]
        return State(
            n=int(data["n"]),
            boards=tuple(toks(b) for b in data["boards"]),
            bag=toks(data["bag"]),
            out=toks(data["out"]),
            pirate=data["pirate"],
            first=int(data["first"]),
            turn=int(data["turn"]),
            phase=str(data["phase"]),
            actor=int(data["actor"]),
            request=None if req is None else (int(req["asker"]), int(req["target"]), token_from_id(req["token"])),
            pending=None if pend is None else (token_from_id(pend["token"]), int(pend["giver"]), int(pend["receiver"])),
            queue=tuple(int(s) for s in data["queue"]),
            deal_left=int(data["deal_left"]),
            moved=bool(data["moved"]),
            stall=int(data["stall"]),
            reason=data["reason"],
        )

    def action_to_json(self, action: Action) -> Any:
        if isinstance(action, Ask):
            return {"ask": "all" if action.target is ALL else action.target, "token": token_id(action.token)}
        if isinstance(action, Reply):
            return {"reply": "give" if action.give else "refuse"}
        if isinstance(action, Drew):
            return {"drew": token_id(action.token)}
        if isinstance(action, DrawBlind):
            return {"draw": "blind"}
        if isinstance(action, Pass):
            return {"pass": True}
        if isinstance(action, Pirate):
            return {"pirate": action.steal}
        if isinstance(action, RedsIn):
            return {"reds": "in"}
        raise TypeError(action)

    def action_from_json(self, data: Any) -> Action:
        if "ask" in data:
            target = data["ask"]
            return Ask(ALL if target == "all" else int(target), token_from_id(data["token"]))
        if "reply" in data:
            if data["reply"] not in ("give", "refuse"):
                raise ActionDecodeError(f"reply {data['reply']!r}")
            return Reply(data["reply"] == "give")
        if "drew" in data:
            return Drew(token_from_id(data["drew"]))
        if data.get("draw") == "blind":
            return DrawBlind()
        if data.get("pass") is True:
            return Pass()
        if "pirate" in data:
            return Pirate(bool(data["pirate"]))
        if data.get("reds") == "in":
            return RedsIn()
        raise ActionDecodeError(f"not a KIKOI action: {data!r}"[:80])


class _Work:
    """A mutable copy of a state while one action is applied (never the input state)."""

    def __init__(self, s: State, rules: Rules, rng: Rng) -> None:
        self.s = s
        self.cfg = rules.config
        self.rules = rules
        self.rng = rng
        self.n = s.n
        self.boards = [set(b) for b in s.boards]
        self.bag = list(s.bag)
        self.out = list(s.out)
        self.pirate = s.pirate
        self.turn = s.turn
        self.phase = s.phase
        self.actor = s.actor
        self.request = s.request
        self.pending = s.pending
        self.queue = list(s.queue)
        self.deal_left = s.deal_left
        self.moved = s.moved
        self.stall = s.stall
        self.reason = s.reason
        self.events: list[Event] = []

    def ev(self, event: Event) -> None:
        self.events.append(event)

    def freeze(self) -> State:
        return State(
            self.n, tuple(tuple(sorted(b)) for b in self.boards), tuple(sorted(self.bag)),
            tuple(sorted(self.out)), self.pirate, self.s.first, self.turn, self.phase, self.actor,
            self.request, self.pending, tuple(self.queue), self.deal_left, self.moved, self.stall,
            self.reason)

    # --- helpers ---------------------------------------------------------------------------------
    def take_from_bag(self, token: int) -> None:
        self.bag.remove(token)
        if not self.bag and self.phase != DEAL:
            self.ev(BagEmptied())

    def place(self, seat: int, token: int) -> None:
        """Put a white token on a board; announce a completed day once (RULES KI-8)."""
        self.boards[seat].add(token)
        k = kikoi_of(token)
        if row_counts(self.boards[seat])[k] == 5:
            self.ev(DayCompleted(seat=seat, kikoi=token_id(k * 5).split("-")[0]))
            # RULES KIA-2: the game ends when all five days are complete.
            if sum(len(completed(b)) for b in self.boards) == 5:
                self.finish("all_days")

    def finish(self, reason: str) -> None:
        self.phase = OVER
        self.reason = reason
        self.request = None
        self.queue = []
        boards = [tuple(sorted(b)) for b in self.boards]
        scores = [len(completed(b)) for b in boards]
        best = max(scores)
        self.ev(GameEnded(scores=scores, winners=[i for i, s in enumerate(scores) if s == best],
                days=[[token_id(k * 5).split("-")[0] for k in completed(b)] for b in boards],
                reason=reason))

    def play_again(self) -> None:
        """The asker keeps the turn (RULES KI-6, KI-7 bonne pioche, KI-9)."""
        if self.phase == OVER:
            return
        self.phase = ASK
        self.actor = self.turn
        self.request = None
        self.ev(PlayAgain(seat=self.turn))

    def end_turn(self, nxt: int | None = None) -> None:
        """The turn passes left (RULES KI-4), after the end checks of KIA-2."""
        if self.phase == OVER:
            return
        nxt = (self.turn + 1) % self.n if nxt is None else nxt
        self.request = None
        self.pending = None
        self.queue = []
        if not self.bag:
            # RULES KIA-2 safeguard: stop after stall_rounds rounds with no token moving.
            self.stall = 0 if self.moved else self.stall + 1
            if self.stall >= self.cfg["stall_rounds"] * self.n:
                self.finish("stall")
                return
            # RULES KIA-2 variant: stop at the end of the round in which the bag empties.
            if self.cfg["end"] == "bag_empty" and nxt == self.s.first:
                self.finish("bag_empty")
                return
        else:
            self.stall = 0
        self.moved = False
        self.turn = self.actor = nxt
        self.phase = ASK
        self.ev(TurnBegan(seat=nxt))

    # --- actions -----------------------------------------------------------------------------------
    def deal(self, seat: int, token: int) -> None:
        """Physical table: `seat` tells a token dealt to them (RULES KI-2)."""
        self.bag.remove(token)
        self.boards[seat].add(token)
        self.ev(TokenDealt(to=(seat,), seat=seat, token=token_id(token)))
        self.deal_left -= 1
        if self.deal_left == 0:
            self.queue.pop(0)
            self.deal_left = self.rules.deal_size(self.n) if self.queue else 0
        if self.queue:
            self.actor = self.queue[0]
            return
        if self.cfg["red_tokens"]:
            # RULES KI-3: the red tokens go into the bag once everyone is dealt; the table
            # does it and says « prêt » (RedsIn).
            self.phase = REDS
            self.actor = self.s.first
            self.ev(RedsDue(seat=self.s.first))
            return
        self.start_play()

    def reds_in(self) -> None:
        """Physical table: the red tokens are in the bag (RULES KI-3); play begins (KI-4)."""
        self.bag += [KIKONK, KITOURN, KIPIRAT]
        self.out = []
        self.ev(RedsPutIn())
        self.start_play()

    def start_play(self) -> None:
        self.phase = ASK
        self.turn = self.actor = self.s.first
        self.ev(DealDone(bag=len(self.bag)))
        self.ev(TurnBegan(seat=self.turn))

    def ask(self, asker: int, target: int | None, token: int) -> None:
        if target is ALL:
            # RULES KI-9: the KIKONK request goes to everyone at once.
            self.ev(KikonkAsked(asker=asker, token=token_id(token)))
            self.request = (asker, -1, token)
            others = [(asker + i) % self.n for i in range(1, self.n)]
            if self.cfg["physical"]:
                self.queue = others
                self.phase = ANSWER
                self.actor = others[0]
                return
            for s in others:
                if token in self.boards[s]:
                    if kikoi_of(token) not in completed(self.boards[s]):
                        self.give(s, asker, token, kikonk=True)
                        return
            # RULES KIA-7: nobody gives it: the turn ends, no draw.
            self.ev(KikonkFailed(asker=asker, token=token_id(token)))
            self.end_turn()
            return
        # RULES KI-5: the request is said aloud.
        self.ev(Asked(asker=asker, target=target, token=token_id(token)))
        self.request = (asker, target, token)
        if self.cfg["physical"]:
            self.phase = ANSWER
            self.actor = target
            self.queue = [target]
            return
        board = self.boards[target]
        must = token in board and kikoi_of(token) not in completed(board)
        self.answer(target, must)

    def answer(self, seat: int, give: bool) -> None:
        assert self.request is not None
        asker, target, token = self.request
        if target < 0:  # a KIKONK answer, one player after another (physical table)
            if give:
                self.give(seat, asker, token, kikonk=True)
                return
            self.queue.pop(0)
            if self.queue:
                self.actor = self.queue[0]
                return
            self.ev(KikonkFailed(asker=asker, token=token_id(token)))
            self.end_turn()
            return
        if give:
            self.give(seat, asker, token, kikonk=False)
            return
        if token in self.boards[seat]:
            # RULES KI-8, KIA-4: a completed day's token is refused; the asker loses the turn.
            self.ev(RefusedCompleted(asker=asker, target=seat, token=token_id(token),
                    kikoi=token_id(kikoi_of(token) * 5).split("-")[0]))
            if self.cfg["completed_ask"] == "lose_turn":
                self.ev(TurnLost(seat=asker))
                self.end_turn()
                return
        else:
            self.ev(Refused(asker=asker, target=seat, token=token_id(token)))
        self.miss()

    def miss(self) -> None:
        """A refused request: the asker draws (RULES KI-7), or the turn passes (KIA-6)."""
        if not self.bag:
            self.ev(BagEmptyNoDraw(seat=self.turn))
            self.end_turn()
            return
        if self.cfg["physical"]:
            self.phase = DRAW
            self.actor = self.turn
            self.queue = []
            return
        self.drawn(self.bag[self.rng.randrange(len(self.bag))])

    def drawn(self, token: int) -> None:
        """The turn's player took `token` from the bag (after a miss, or blind, KIA-5)."""
        seat = self.turn
        asked = self.request[2] if self.request is not None else None
        self.take_from_bag(token)
        if token == KIKONK:
            # RULES KI-9: asked at once to everyone; used once, then out of the game.
            self.out.append(KIKONK)
            self.ev(KikonkDrawn(seat=seat))
            self.phase = KIKONK_ASK
            self.actor = seat
            self.request = None
            return
        if token == KITOURN:
            # RULES KI-10, KIA-8: boards pass left, contents not announced; the turn ends.
            self.out.append(KITOURN)
            self.ev(KitournDrawn(seat=seat))
            self.boards = [self.boards[(i - 1) % self.n] for i in range(self.n)]
            self.moved = True
            self.ev(BoardsRotated())
            if self.cfg["announce_boards"]:
                for i, b in enumerate(self.boards):
                    self.ev(BoardReceived(to=(i,), seat=i, tokens=[token_id(t) for t in sorted(b)]))
            self.end_turn()
            return
        if token == KIPIRAT:
            # RULES KI-11: kept secretly; the table hears exactly what a white token would
            # bring: "mauvaise pioche" after a request, the blind draw's sentence after none.
            self.pirate = seat
            self.ev(KipiratDrawn(to=(seat,), seat=seat))
            self.ev((BadDraw if asked is not None else DrewBlind)(seat=seat, bag=len(self.bag)))
            self.end_turn()
            return
        self.ev(TokenDrawn(to=(seat,), seat=seat, token=token_id(token)))
        if asked is None:
            # RULES KIA-5: a blind draw cannot match a request; the turn ends.
            self.ev(DrewBlind(seat=seat, bag=len(self.bag)))
            self.place(seat, token)
            self.end_turn()
            return
        if self.cfg["good_draw"] == "same_kikoi":
            good = kikoi_of(token) == kikoi_of(asked)  # RULES KIA-3 variant
        else:
            good = token == asked  # RULES KI-7, KIA-3 default: the exact token
        self.ev((GoodDraw if good else BadDraw)(seat=seat, bag=len(self.bag)))
        self.place(seat, token)
        if good:
            self.play_again()
        else:
            self.end_turn()

    def give(self, giver: int, receiver: int, token: int, kikonk: bool) -> None:
        """A token passes from `giver` to `receiver` (RULES KI-6, KI-9); the KIPIRAT window opens."""
        self.boards[giver].discard(token)
        self.moved = True
        self.ev(Given(giver=giver, receiver=receiver, token=token_id(token), kikonk=kikonk))
        self.pending = (token, giver, receiver)
        self.request = None
        if KIPIRAT not in self.out:
            # RULES KI-11, KIA-9: each other player may call "KIPIRAT" before the asker acts again.
            window = [(receiver + i) % self.n for i in range(1, self.n)]
            window = [s for s in window if s != giver]
            if self.cfg["kipirat_window"] == "holder":
                # One human among bots (#17): nobody else hears who is asked, so only the
                # holder is, each time they may steal; nobody, while it is in the bag.
                window = [s for s in window if s == self.pirate]
            if window:
                self.phase = PIRATE
                self.queue = window
                self.actor = window[0]
                return
        self.receive()

    def receive(self) -> None:
        assert self.pending is not None
        token, _giver, receiver = self.pending
        self.pending = None
        self.queue = []
        self.place(receiver, token)
        self.play_again()

    def pirate_choice(self, seat: int, steal: bool) -> None:
        if not steal:
            self.queue.pop(0)
            if self.queue:
                self.actor = self.queue[0]
            else:
                self.receive()
            return
        assert self.pending is not None
        token, giver, receiver = self.pending
        # RULES KI-11: the holder takes the token; the KIPIRAT leaves the game.
        self.pirate = None
        self.out.append(KIPIRAT)
        self.pending = None
        self.ev(Stolen(pirate=seat, giver=giver, receiver=receiver, token=token_id(token)))
        self.place(seat, token)
        if self.phase == OVER:
            return
        # RULES KIA-9: the intended receiver's turn ends; play passes to their left.
        self.ev(TurnLost(seat=receiver))
        self.end_turn((receiver + 1) % self.n)


__all__ = ["ALL", "Ask", "DrawBlind", "Drew", "Pass", "Pirate", "RedsIn", "Reply", "Rules", "State", "N_WHITE"]
