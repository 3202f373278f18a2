"""Good Fortune bots: the search's model of the rules agrees with the rules, and its endgame is exact."""

from __future__ import annotations

import pytest

from companion.core import Match, Rng
from companion.games.goodfortune import BOTS, Rules
from companion.games.goodfortune.bot import GreedyBot, SearchBot, Sim

VARIANTS = [{}, {"free_end": True}, {"match": "domino_half"}, {"medallion": "pass_only"}, {"medallion": "flip_only"},
            {"tie_order": "fixed"}]


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_sim_follows_the_rules_move_by_move(options):
    game = Rules(**options)
    sim = Sim(game)
    for seed in range(8):
        m = Match(game, ["A", "B"], seed)
        rng = Rng(seed + 100)
        while not m.over:
            node = sim.node(m.state)
            seat = m.current
            assert sim.current(node) == seat
            moves = sim.moves(node)
            assert [sim.to_action(mv) for mv in moves] == m.legal(seat)
            mv = rng.choice(moves)
            m.play(seat, sim.to_action(mv))
            after = sim.apply(node, mv)
            if not m.over:
                assert after == sim.node(m.state)
            else:
                assert after[7:9] == sim.node(m.state)[7:9]
                assert [sim.score(after[7]), sim.score(after[8])] == list(m.outcome().scores)


def _minimax(game, state, me):
    """The exact value (my score minus theirs) by brute force over the rules themselves."""
    if game.is_over(state):
        s = game.outcome(state).scores
        return s[me] - s[1 - me]
    seat = game.current_player(state)
    values = [_minimax(game, game.apply(state, seat, a, Rng(0))[0], me) for a in game.legal_actions(state, seat)]
    return max(values) if seat == me else min(values)


@pytest.mark.parametrize("options", [{}, {"free_end": True}, {"match": "domino_half"}],
                         ids=lambda o: ",".join(o) or "default")
def test_search_is_exact_in_the_last_two_rounds(options):
    game = Rules(**options)
    for seed in range(5):
        m = Match(game, ["A", "B"], seed)
        rng = Rng(seed)
        while m.state.round < 8:
            m.play(m.current, rng.choice(m.legal(m.current)))
        seat = m.current
        bot = SearchBot(game, seat, Rng(1))
        action = bot.choose(m.state)
        assert bot.stats["exact"]
        truth = _minimax(game, m.state, seat)
        assert bot.stats["value"] == truth
        after = game.apply(m.state, seat, action, Rng(0))[0]
        assert _minimax(game, after, seat) == truth  # the move chosen keeps the best value


def test_bots_are_registered_search_first_and_play_whole_games():
    assert list(BOTS) == ["search", "greedy", "random"]
    game = Rules()
    m = Match(game, ["A", "B"], 3)
    bots = [SearchBot(game, 0, Rng(1), max_nodes=2000), GreedyBot(game, 1, Rng(2))]
    while not m.over:
        m.play(m.current, bots[m.current].choose(m.state))
    assert m.events()[-1].type == "game_ended"


def test_bots_deal_at_a_physical_table():
    game = Rules(physical=True)
    m = Match(game, ["A", "B"], 5)
    bots = [GreedyBot(game, 0, Rng(1)), SearchBot(game, 1, Rng(2), max_nodes=1000)]
    while not m.over:
        m.play(m.current, bots[m.current].choose(m.state))
    assert len(m.state.collections[0]) + len(m.state.collections[1]) + len(m.state.discarded) == 18
