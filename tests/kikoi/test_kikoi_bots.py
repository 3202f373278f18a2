"""KIKOI bots: the memory bot remembers public events only, never peeks, and beats random bots."""

from __future__ import annotations

import copy
from dataclasses import replace

from companion.core import Match, RandomBot, Rng
from companion.games.kikoi.bot import BOTS, MemoryBot
from companion.games.kikoi.rules import Ask, Rules


def play(seed: int, kinds: list[str], rules: Rules, probe=None) -> Match:
    m = Match(rules, [f"P{i}" for i in range(len(kinds))], seed)
    root = Rng(seed)
    bots = [BOTS[k](rules, s, root.fork(s + 1)) for s, k in enumerate(kinds)]
    for b in bots:
        b.observe([e for e in m.setup_events if e.visible_to(b.seat)])
    while not m.over:
        seat = m.current
        if probe is not None:
            probe(m, bots[seat])
        events = m.play(seat, bots[seat].choose(m.state))
        for b in bots:
            b.observe([e for e in events if e.visible_to(b.seat)])
    return m


def test_default_bot_is_the_memory_bot():
    assert next(iter(BOTS)) == "memory" and BOTS["random"] is RandomBot


def test_memory_bot_never_reads_other_boards():
    """Its choice is the same when every other board and the bag are shuffled among themselves."""
    rules = Rules()
    checked = 0

    def probe(m: Match, bot) -> None:
        nonlocal checked
        if not isinstance(bot, MemoryBot):
            return
        s = m.state
        others = [t for i, b in enumerate(s.boards) if i != bot.seat for t in b] + list(s.bag)
        white_others = sorted(t for t in others if t < 25)
        Rng(checked).shuffle(white_others)
        it = iter(white_others)
        boards = tuple(b if i == bot.seat else tuple(sorted(next(it) for _ in b if _ < 25)) + tuple(x for x in b if x >= 25)
                       for i, b in enumerate(s.boards))
        bag = tuple(sorted([next(it) for t in s.bag if t < 25] + [t for t in s.bag if t >= 25]))
        fake = replace(s, boards=boards, bag=bag)
        a = copy.deepcopy(bot).choose(s)
        b = copy.deepcopy(bot).choose(fake)
        assert a == b
        checked += 1

    for seed in range(6):
        play(seed, ["memory", "random", "random"], rules, probe)
    assert checked > 50


def test_memory_bot_asks_where_a_token_must_be():
    rules = Rules()
    m = Match(rules, ["A", "B", "C"], seed=1)
    bot = MemoryBot(rules, 0, Rng(1))
    bot.observe([e for e in m.setup_events if e.visible_to(0)])
    mine = m.state.boards[0]
    k = mine[0] // 5
    wanted = next(t for t in range(k * 5, k * 5 + 5) if t not in mine)
    # C gave the wanted token to B earlier: the bot must ask B for it
    from companion.games.kikoi.events import Given
    from companion.games.kikoi.tokens import token_id
    bot.observe([Given(giver=2, receiver=1, token=token_id(wanted), kikonk=False)])
    s = replace(m.state, boards=(m.state.boards[0], m.state.boards[1] + (wanted,), tuple(t for t in m.state.boards[2] if t != wanted)))
    assert bot.choose(s) == Ask(1, wanted)


def test_memory_bot_beats_two_random_bots():
    rules = Rules()
    wins = 0
    games = 60
    for seed in range(games):
        seat = seed % 3
        kinds = ["random"] * 3
        kinds[seat] = "memory"
        m = play(seed, kinds, rules)
        wins += seat in m.outcome().winners
    assert wins / games >= 0.6
