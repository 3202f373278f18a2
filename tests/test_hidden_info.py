"""No public sentence lets a listener infer a secret (issue #12, DESIGN "Secrets stay with their owner").

The rules' own information model is `Game.view(state, player)`: what `player` may know (None:
what everyone may know). The narration must not say more than it. So, for every listener L
(the table, or one seat), what L hears of a move — the events narrated, then the prompt of
the next player, rendered in French and in English at every verbosity — must be a function
of what L may know before and after the move:

    (view(before, None), view(before, L), action, view(after, None), view(after, L)).

Random playouts of every game with hidden information (hidden holdings, or chance in its
moves) check this at every step, against every alternative the listener cannot tell apart:

* chance: every value of every random draw of the move is forced in turn (`ForcedRng`), so
  every token a draw could bring is applied; at a physical table, where the drawer tells
  the token, every token they could tell;
* hidden holdings: every other place a secret could be (KIKOI: the KIPIRAT with each seat or
  in the bag; a white token or a Kaliko tile swapped between one seat and the bag), then the
  same move is applied in that world when it is legal there.

Two outcomes that leave L with the same knowledge must sound the same to L. The test fails
on the KIPIRAT leak of a blind draw (« ne peut rien demander et pioche » for a white token,
« mauvaise pioche » for the KIPIRAT) and on any future one.

`tests/test_hidden_outputs.py` extends this to every output of the session (issue 25): every
`Say` a line typed by any seat causes — refusals, help, hints, questions, errors — in the
same worlds, at one keyboard without channels and with a channel per seat.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

import pytest

from companion.core import GAMES, IllegalAction, Match, Rng
from companion.narration import Verbosity, catalog
from companion.session.transcript import load, make_bots

LANGS = ("fr", "en")


class ForcedRng(Rng):
    """The match's generator, except that its `index`-th draw returns `value`.

    Records how many draws a move makes and the range of each, so that every value of
    every draw can be forced in turn. Only `randrange` (and `choice`, built on it) may be
    used by a move; any other kind of chance fails the test, to be enumerated here first.
    """

    def __init__(self, base: Rng, index: int = -1, value: int = 0) -> None:
        super().__init__(base.seed)
        self.setstate(base.getstate())
        self.index = index
        self.value = value
        self.ranges: list[int] = []

    def randrange(self, n: int) -> int:
        i = len(self.ranges)
        self.ranges.append(n)
        drawn = super().randrange(n)  # keeps the stream of the later draws unchanged
        return self.value if i == self.index else drawn

    def shuffle(self, items: Any) -> None:  # pragma: no cover - a new kind of chance
        raise AssertionError("a move shuffles: enumerate its outcomes in test_hidden_info")

    def sample(self, items: Any, k: int) -> list[Any]:  # pragma: no cover
        raise AssertionError("a move samples: enumerate its outcomes in test_hidden_info")

    def random(self) -> float:  # pragma: no cover
        raise AssertionError("a move draws a float: enumerate its outcomes in test_hidden_info")


def dump(x: Any) -> str:
    return json.dumps(x, sort_keys=True, ensure_ascii=False)


class World:
    """One game's rules and narration, with all seats human (the strictest case: every
    prompt is said, every private line has a listener)."""

    def __init__(self, name: str, n: int, **options: Any) -> None:
        entry = next(g for g in GAMES if g.name == name)
        self.game, self.ui, _ = load(entry, **options)
        self.name = name
        self.players = ["Anne", "Bruno", "Chloé", "David"][:n]
        self.match: Match[Any, Any] = Match(self.game, self.players, 1)
        self.listeners: list[int | None] = [None, *range(n)]
        self._rendered: dict[str, str] = {}
        self._known: dict[tuple[int, int | None], tuple[Any, str]] = {}  # one step's views (keeps the states alive)

    def heard(self, state: Any, events: list[Any], listener: int | None) -> str:
        """What `listener` hears of a move: its events, then the next player's prompt, then the
        answer to « état » should they ask."""
        self.match.state = state
        utts = [u for ev in events for u in self.ui.narrate(ev, self.match)]
        actor = self.game.current_player(state)
        if actor is not None:
            utts += self.ui.turn_prompt(self.match, actor)
        utts += [u if u.to is not None else replace(u, to=listener) for u in self.ui.status(self.match, listener)]
        return "\n".join(self.render(u) for u in utts if u.to is None or u.to == listener)

    def render(self, u: Any) -> str:
        """The utterance in French and English at every verbosity, with its earcon and priority."""
        key = repr((u.parts, u.priority, u.earcon))
        text = self._rendered.get(key)
        if text is None:
            text = "\n".join(f"{u.earcon}|{u.priority}|" + "/".join(catalog(lang).render(u, v) for v in Verbosity)
                             for lang in LANGS)
            self._rendered[key] = text
        return text

    def knows(self, state: Any, listener: int | None) -> str:
        key = (id(state), listener)
        if key not in self._known:
            self._known[key] = (state, dump([self.game.view(state, None), self.game.view(state, listener)]))
        return self._known[key][1]

    # --- the alternatives a listener cannot tell apart -----------------------------------------
    def chance_outcomes(self, state: Any, seat: int, action: Any, rng: Rng) -> Iterator[tuple[Any, list[Any]]]:
        """Every outcome of `action`'s random draws: each draw forced to each of its values."""
        probe = ForcedRng(rng)
        self.game.apply(state, seat, action, probe)
        for index, n in enumerate(probe.ranges):
            for value in range(n):
                yield self.game.apply(state, seat, action, ForcedRng(rng, index, value))

    def told_outcomes(self, state: Any, seat: int, action: Any, legal: list[Any]) -> list[Any]:
        """At a physical table the drawer tells the token drawn: every token they could tell."""
        if self.name == "kikoi" and "drew" in self.game.action_to_json(action):
            return [a for a in legal if "drew" in self.game.action_to_json(a)]
        return []

    def variants(self, state: Any, action: Any) -> Iterator[tuple[Any, set[int]]]:
        """States differing from `state` only in hidden holdings, with the seats whose holdings
        changed; only those whose public view is unchanged."""
        data = self.game.state_to_json(state)
        public = dump(self.game.view(state, None))
        for alt, changed in getattr(self, f"_variants_{self.name}")(data, self.game.action_to_json(action)):
            other = self.game.state_from_json(alt)
            if dump(self.game.view(other, None)) == public:
                yield other, changed

    def _variants_kikoi(self, data: dict[str, Any], action: Any) -> Iterator[tuple[dict[str, Any], set[int]]]:
        n = data["n"]
        holder = data["pirate"]
        rnd = random.Random(dump(data))
        # RULES KI-6: the answer to a request, said aloud, tells where the requested token is;
        # worlds that differ in its place are told apart by the rules themselves.
        named = {action.get("token"), (data["request"] or {}).get("token"), (data["pending"] or {}).get("token")}
        whites_in_bag = [t for t in data["bag"] if t not in RED_IDS and t not in named]
        # the KIPIRAT with every other seat, or in the bag
        if holder is not None:
            for q in range(n):
                if q != holder:
                    yield {**data, "pirate": q}, {holder, q}
            if whites_in_bag:
                alt = json.loads(json.dumps(data))
                w = rnd.choice(whites_in_bag)
                alt["pirate"] = None
                alt["bag"].remove(w)
                alt["bag"].append(KIPIRAT_ID)
                alt["boards"][holder].append(w)
                yield alt, {holder}
        elif KIPIRAT_ID in data["bag"]:
            for q in range(n):
                if data["boards"][q]:
                    alt = json.loads(json.dumps(data))
                    w = rnd.choice(alt["boards"][q])
                    alt["boards"][q].remove(w)
                    alt["bag"].remove(KIPIRAT_ID)
                    alt["bag"].append(w)
                    alt["pirate"] = q
                    yield alt, {q}
        # a white token swapped between one seat's board and the bag
        for q in range(n):
            mine = [t for t in data["boards"][q] if t not in named]
            if mine and whites_in_bag:
                alt = json.loads(json.dumps(data))
                a, b = rnd.choice(mine), rnd.choice(whites_in_bag)
                alt["boards"][q].remove(a)
                alt["boards"][q].append(b)
                alt["bag"].remove(b)
                alt["bag"].append(a)
                yield alt, {q}

    def _variants_kaliko(self, data: dict[str, Any], action: Any) -> Iterator[tuple[dict[str, Any], set[int]]]:
        rnd = random.Random(dump(data))
        for q, hand in enumerate(data["hands"]):
            if hand and data["bag"]:
                alt = json.loads(json.dumps(data))
                a, b = rnd.choice(alt["hands"][q]), rnd.choice(alt["bag"])
                alt["hands"][q][alt["hands"][q].index(a)] = b
                alt["bag"][alt["bag"].index(b)] = a
                yield alt, {q}


KIPIRAT_ID = "kipirat"
RED_IDS = ("kikonk", "kitourn", "kipirat")


def compare(world: World, groups: dict[tuple[int | None, str], str], listener: int | None, key: str,
            heard: str, where: str) -> None:
    seen = groups.setdefault((listener, key), heard)
    assert seen == heard, (
        f"{where}: {'the table' if listener is None else world.players[listener]} hears differently "
        f"two outcomes they cannot tell apart:\n--- one\n{seen}\n--- other\n{heard}")


def check_playout(name: str, n: int, seed: int, max_steps: int, **options: Any) -> int:
    """One random playout; returns how many alternative outcomes were compared."""
    world = World(name, n, **options)
    game = world.game
    match: Match[Any, Any] = Match(game, world.players, seed)
    policy = random.Random(seed)
    bots = playing_bots(name, game, n, seed)
    for bot in bots or []:
        bot.observe([e for e in match.setup_events if e.visible_to(bot.seat)])
    compared = 0
    for step in range(max_steps):
        if match.over:
            break
        seat = match.current
        assert seat is not None
        state = match.state
        if bots is None:
            legal = game.legal_actions(state, seat)
            action = policy.choice(legal)
        else:  # tens of thousands of legal plays: the game's random bot picks one
            legal = []
            action = bots[seat].choose(state)
        where = f"{name} {options} seed {seed} step {step}"
        # every alternative of this one node, grouped by what each listener may know
        groups: dict[tuple[int | None, str], str] = {}
        world._known.clear()
        outcomes: list[tuple[Any, Any, list[Any], set[int]]] = []  # (before, after, events, changed)
        for after, events in world.chance_outcomes(state, seat, action, match.rng):
            outcomes.append((state, after, events, set()))
        for told in world.told_outcomes(state, seat, action, legal):
            after, events = game.apply(state, seat, told, Rng(0))
            outcomes.append((state, after, events, set()))
        for other, changed in world.variants(state, action):
            if legal_in(game, other, seat, action):
                after, events = game.apply(other, seat, action, ForcedRng(match.rng))
                outcomes.append((other, after, events, changed))
        if outcomes:
            after, events = game.apply(state, seat, action, ForcedRng(match.rng))
            outcomes.append((state, after, events, set()))
        for before, after, events, changed in outcomes:
            for listener in world.listeners:
                if listener in changed:
                    continue  # their own holdings differ: they may hear it
                key = world.knows(before, listener) + dump(game.action_to_json(action)) + world.knows(after, listener)
                compare(world, groups, listener, key, world.heard(after, events, listener), where)
                compared += 1
        events = match.play(seat, action)
        for bot in bots or []:
            bot.observe([e for e in events if e.visible_to(bot.seat)])
    return compared


def legal_in(game: Any, state: Any, seat: int, action: Any) -> bool:
    try:
        game.check(state, seat, action)
    except IllegalAction:
        return False
    return True


def playing_bots(name: str, game: Any, n: int, seed: int) -> list[Any] | None:
    """Kaliko's positions hold tens of thousands of plays: its random bot chooses."""
    if name != "kaliko":
        return None
    _, _, kinds = load(next(g for g in GAMES if g.name == name))
    return make_bots(game, kinds, ["random"] * n, seed)


def games_with_hidden_information() -> list[str]:
    """Registered games whose holdings are hidden or whose moves use chance (found by bot play)."""
    out = []
    for entry in GAMES:
        game, _, kinds = load(entry)
        n = entry.min_players
        match: Match[Any, Any] = Match(game, [f"P{i}" for i in range(n)], 3)
        bots = make_bots(game, kinds, [next(iter(kinds))] * n, 3)
        for bot in bots:
            bot.observe([e for e in match.setup_events if e.visible_to(bot.seat)])
        hidden = False
        if any(game.hidden_holdings(match.state, s) for s in range(n)):
            out.append(entry.name)
            continue
        for _ in range(20):
            if match.over:
                break
            seat = match.current
            assert seat is not None
            action = bots[seat].choose(match.state)
            probe = ForcedRng(match.rng)
            game.apply(match.state, seat, action, probe)
            if probe.ranges or any(game.hidden_holdings(match.state, s) for s in range(entry.min_players)):
                hidden = True
                break
            events = match.play(seat, action)
            for bot in bots:
                bot.observe([e for e in events if e.visible_to(bot.seat)])
        if hidden:
            out.append(entry.name)
    return out


HIDDEN = games_with_hidden_information()

# (game, players, seeds, step cap, options): about 12 s of CPU in all (31,000+ comparisons).
CASES: list[tuple[str, int, Sequence[int], int, dict[str, Any]]] = [
    ("kikoi", 3, (27, 0, 1, 2, 3, 4, 5), 400, {}),  # seed 27 draws the KIPIRAT blind
    ("kikoi", 4, range(6, 10), 400, {}),
    ("kikoi", 3, (27, 10), 400, {"deal": 1}),
    ("kikoi", 3, range(20, 23), 300, {"physical": True}),
    ("kaliko", 2, range(1), 20, {}),
    ("kaliko", 3, range(2, 3), 12, {}),
]


def test_every_game_with_hidden_information_is_checked() -> None:
    assert {"kikoi", "kaliko"} <= set(HIDDEN)
    assert set(HIDDEN) <= {case[0] for case in CASES}


@pytest.mark.parametrize(("name", "n", "seeds", "steps", "options"), CASES,
                         ids=[f"{c[0]}-{c[1]}p-{'-'.join(f'{k}={v}' for k, v in c[4].items()) or 'default'}" for c in CASES])
def test_listeners_hear_nothing_of_others_secrets(name: str, n: int, seeds: Sequence[int], steps: int,
                                                  options: dict[str, Any]) -> None:
    compared = sum(check_playout(name, n, seed, steps, **options) for seed in seeds)
    assert compared > 100  # the alternatives were really there


def test_blind_draw_of_the_kipirat_sounds_like_a_white_token() -> None:
    """The leak of issue #12: a player who can ask for nothing draws blind (KIA-5)."""
    from companion.games.kikoi.rules import DrawBlind

    world = World("kikoi", 3)
    game = world.game
    # Anne has nothing on her board: no request is legal, she draws blind.
    data = game.state_to_json(world.match.state)
    data["bag"] = sorted([*data["bag"], *data["boards"][0]])
    data["boards"][0] = []
    state = game.state_from_json(data)
    assert game.legal_actions(state, 0) == [DrawBlind()]
    heard: dict[str, set[str]] = {}
    for after, events in world.chance_outcomes(state, 0, DrawBlind(), Rng(5)):
        drawn = [e.data.get("token", KIPIRAT_ID) for e in events if e.type in ("token_drawn", "kipirat_drawn")]
        if not drawn:
            continue  # KIKONK and KITOURN are announced by the rules
        for listener in (None, 1, 2):
            heard.setdefault(f"{listener}", set()).add(world.heard(after, events, listener) + world.knows(after, listener))
    assert heard and all(len(v) == 1 for v in heard.values()), heard


# --- who is asked in the KIPIRAT window (#17; RULES KI-11, KIA-9) --------------------------------------
# A lone human among bots (`kipirat_window=holder`) is asked only when they hold the KIPIRAT and
# may steal; at a table of several humans everyone is asked (the default), so the table hears
# the same whoever holds it. docs/private-channels.md (KIKOI) says why.

def _lone_heard(world: World, state: Any, seat: int, action: Any, rng: Rng) -> tuple[str, Any]:
    """What the lone human (seat 0) hears from a bot's move until the KIPIRAT window it opens
    is closed (each bot in it lets the token pass) or they are asked: the events, their prompt,
    and their « état » and « aide » at every state on the way (a line typed while a bot
    thinks is answered at once). Returns (heard, the last state)."""
    game, ui, match = world.game, world.ui, world.match
    after, events = game.apply(state, seat, action, ForcedRng(rng))
    heard: list[Any] = []
    answers: set[str] = set()  # « état », « aide » at any moment: what they could hear, once asked
    while True:
        match.state = after
        heard += [u for ev in events for u in ui.narrate(ev, match)]
        asked = [u if u.to is not None else replace(u, to=0) for u in ui.status(match, 0) + ui.help(match, 0)]
        answers.add("\n".join(world.render(u) for u in asked if u.to == 0))
        actor = game.current_player(after)
        if actor is None or actor == 0 or after.phase != "pirate":
            if actor == 0:
                heard += ui.turn_prompt(match, 0)
            said = "\n".join(world.render(u) for u in heard if u.to in (None, 0))
            return said + "\n--- asked:\n" + "\n".join(sorted(answers)), after
        from companion.games.kikoi.rules import Pirate

        after, events = game.apply(after, actor, Pirate(False), Rng(0))


@pytest.mark.parametrize("seed", [27, 1, 2, 3])
def test_a_lone_human_hears_the_same_whichever_bot_holds_the_kipirat(seed: int) -> None:
    """Holder window: for every bot move that opens a window, the worlds where the KIPIRAT is
    with another bot or in the bag sound the same to the lone human, and so do their views."""
    world = World("kikoi", 4, kipirat_window="holder")
    game = world.game
    match: Match[Any, Any] = Match(game, world.players, seed)
    policy = random.Random(seed)
    compared = windows = 0
    for _ in range(400):
        if match.over:
            break
        seat = match.current
        assert seat is not None
        state = match.state
        action = policy.choice(game.legal_actions(state, seat))
        if seat != 0 and state.phase == "ask":
            after, _ = game.apply(state, seat, action, ForcedRng(match.rng))
            if any(e.type == "given" for e in game.apply(state, seat, action, ForcedRng(match.rng))[1]):
                heard, last = _lone_heard(world, state, seat, action, match.rng)
                seen = dump([game.view(last, None), game.view(last, 0)])
                windows += after.phase == "pirate"
                for other, changed in world.variants(state, action):
                    if 0 in changed or other.pirate == 0 or state.pirate == 0 or not legal_in(game, other, seat, action):
                        continue  # the human's own holdings differ: they may hear it
                    if not any(e.type == "given" for e in game.apply(other, seat, action, ForcedRng(match.rng))[1]):
                        continue  # the token asked for is not there: the refusal is public (KI-6)
                    heard2, last2 = _lone_heard(world, other, seat, action, match.rng)
                    assert heard2 == heard, f"seed {seed}: the lone human hears where the KIPIRAT is"
                    assert dump([game.view(last2, None), game.view(last2, 0)]) == seen
                    compared += 1
        match.play(seat, action)
    assert compared > 5 and windows > 0


class _Scripted:
    """A bot that plays the given requests in order; in a window it lets the token pass."""

    def __init__(self, game: Any, seat: int, requests: list[Any]) -> None:
        self.game, self.seat, self.requests = game, seat, list(requests)

    def observe(self, events: list[Any]) -> None:
        self.seen = len(events)  # nothing to remember: the requests are scripted

    def choose(self, state: Any) -> Any:
        from companion.games.kikoi.rules import Pirate

        legal = self.game.legal_actions(state, self.seat)
        if Pirate(False) in legal:
            return Pirate(False)
        return self.requests.pop(0)


class _Channel:
    public = True

    def __init__(self) -> None:
        self.lines: list[str] = []

    def deliver(self, text: str, *, private: bool, priority: Any, earcon: Any, lang: str) -> None:
        self.lines.append(("[privé] " if private else "") + text)

    def interrupt(self) -> None:
        self.lines.append("(interrupted)")


def _two_humans_table(holder: int, window: str, lang: str, channels: bool) -> tuple[list[str], int]:
    """Anne and Bruno (humans) with two bots; Robot 1 takes two tokens from Robot 2, then asks
    for a third in vain; Robot 2 asks Anne in vain; Anne is to play. Each human asked in a
    window says « passe ». Returns the table's printed lines and how many questions were put."""
    from companion.games.kikoi.rules import ASK, Ask, State
    from companion.games.kikoi.tokens import token_from_id as tok
    from companion.session import Seat, Session

    game, ui, _ = load(next(g for g in GAMES if g.name == "kikoi"), kipirat_window=window)
    names = ["Anne", "Bruno", "Robot 1", "Robot 2"]
    match: Match[Any, Any] = Match(game, names, 4)

    def toks(*ids: str) -> tuple[int, ...]:
        return tuple(sorted(tok(i) for i in ids))

    match.state = State(4, (toks("kimouss-eat"), toks("kiboss-eat"), toks("kigliss-eat"),
                            toks("kigliss-sleep", "kigliss-house")), (), (), holder, 2, 2, ASK, 2)
    r1 = _Scripted(game, 2, [Ask(3, tok("kigliss-sleep")), Ask(3, tok("kigliss-house")), Ask(3, tok("kigliss-forest"))])
    r2 = _Scripted(game, 3, [Ask(0, tok("kimouss-house"))])
    seats = [Seat("Anne"), Seat("Bruno"), Seat("Robot 1", bot=r1), Seat("Robot 2", bot=r2)]  # type: ignore[arg-type]
    lines: list[str] = []
    session = Session("kikoi", ui, match, seats, lang=lang, out=lines.append, private_policy="withhold")
    if channels:
        session.claim(0, _Channel(), "web")
        session.claim(1, _Channel(), "web")
    session.start()
    asked = 0
    while match.state.phase == "pirate" and match.current in (0, 1):
        asked += 1
        session.handle("passe" if lang == "fr" else "pass", match.current)
    assert match.current == 0 and match.state.phase == ASK and len(match.state.boards[2]) == 3
    return lines, asked


@pytest.mark.parametrize("channels", [False, True], ids=["one-speaker", "channels"])
@pytest.mark.parametrize("lang", LANGS)
def test_two_humans_hear_the_same_table_whichever_holds_the_kipirat(lang: str, channels: bool) -> None:
    anne, bruno = (_two_humans_table(holder, "everyone", lang, channels) for holder in (0, 1))
    assert anne == bruno
    assert anne[1] == 4  # two gifts, each asked of Anne and of Bruno


def test_the_holder_window_would_name_the_holder_to_a_second_human() -> None:
    """Why several humans are all asked: asking only the holder tells the table who it is."""
    anne, bruno = (_two_humans_table(holder, "holder", "fr", False) for holder in (0, 1))
    assert anne[1] == bruno[1] == 2 and anne[0] != bruno[0]
    assert any("Anne, kipirat" in line or "Anne, le Kigliss" in line for line in anne[0])
