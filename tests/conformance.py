"""The conformance suite every registered game must pass (run by tests/test_conformance.py).

Kept as plain functions so a game's own tests can call them on special configurations.
"""

from __future__ import annotations

import json
from typing import Any

from companion.core import Game, IllegalAction, Match, Rng


def roundtrip_state(game: Game[Any, Any], state: Any) -> Any:
    data = json.loads(json.dumps(game.state_to_json(state)))
    back = game.state_from_json(data)
    assert game.state_to_json(back) == data, "state changed in a JSON round trip"
    return back


def random_playout(
    game: Game[Any, Any], n_players: int, seed: int, max_steps: int = 5000, check_every: int = 1,
    bots: list[Any] | None = None,
) -> Match[Any, Any]:
    """Play a whole game with random legal actions, checking the contract at each step.

    `bots` (one per seat) choose the moves between the steps checked, for games whose every
    position holds tens of thousands of legal actions (Kaliko): the whole list is then made only
    at the steps checked (every `check_every`-th), and the move there is a random one of it."""
    match: Match[Any, Any] = Match(game, [f"P{i}" for i in range(n_players)], seed)
    rng = Rng(seed + 1)
    seen: list[Any] = []
    for bot in bots or []:
        bot.observe([e for e in match.setup_events if e.visible_to(bot.seat)])
    for step in range(max_steps):
        if match.over:
            break
        seat = match.current
        assert seat is not None, "no current player before the end"
        checked = step % check_every == 0
        legal = match.legal(seat) if bots is None or checked else []
        assert legal or not checked and bots is not None, f"no legal action before the end (step {step})"
        if checked:
            _check_views(game, match.state, n_players)
            back = roundtrip_state(game, match.state)
            assert [game.action_to_json(a) for a in game.legal_actions(back, seat)] == [
                game.action_to_json(a) for a in legal
            ], "legal actions differ after a JSON round trip"
            # the wrong seat is refused, and nothing changes
            other = (seat + 1) % n_players
            if other != seat:
                before = json.dumps(game.state_to_json(match.state), sort_keys=True)
                try:
                    match.play(other, legal[0])
                except IllegalAction as exc:
                    assert exc.code == "not_your_turn"
                else:  # pragma: no cover
                    raise AssertionError("a seat played out of turn")
                assert json.dumps(game.state_to_json(match.state), sort_keys=True) == before
            # an action legal earlier but not now is refused with a reason
            legal_json = {json.dumps(game.action_to_json(a), sort_keys=True) for a in legal}
            for old in seen[-50:]:
                if json.dumps(game.action_to_json(old), sort_keys=True) not in legal_json:
                    try:
                        match.check(seat, old)
                    except IllegalAction as exc:
                        assert exc.code, "refusal without a reason code"
                    else:  # pragma: no cover
                        raise AssertionError(f"stale action accepted: {old!r}")
                    break
        # a uniformly random legal move where the whole list was made, else the bot's move
        action = rng.choice(legal) if legal else bots[seat].choose(match.state)  # type: ignore[index]
        seen.append(action)
        events = match.play(seat, action)
        for ev in events:
            json.dumps(ev.to_json())  # events are plain data
        for bot in bots or []:
            bot.observe([e for e in events if e.visible_to(bot.seat)])
    assert match.over, f"game not over after {max_steps} steps"
    assert match.current is None
    out = match.outcome()
    assert len(out.scores) == n_players and out.winners
    assert set(out.winners) <= set(range(n_players))
    # replay from the journal gives the same state
    again: Match[Any, Any] = Match(game, list(match.players), seed)
    again.replay(json.loads(json.dumps(match.actions_json())))
    assert game.state_to_json(again.state) == game.state_to_json(match.state)
    return match


def _check_views(game: Game[Any, Any], state: Any, n: int) -> None:
    views = {p: json.dumps(game.view(state, p), ensure_ascii=False) for p in range(n)}
    views[-1] = json.dumps(game.view(state, None), ensure_ascii=False)
    for owner in range(n):
        secrets = game.hidden_holdings(state, owner)
        for viewer, text in views.items():
            if viewer == owner:
                continue
            for secret in secrets:
                assert secret not in text, f"seat {viewer} can see {secret!r} of seat {owner}"
