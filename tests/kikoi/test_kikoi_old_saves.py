"""A physical KIKOI game saved before the red tokens had a move of their own (action schema 1,
no « prêt » after the deal) still resumes: the replay takes them as put in the bag where the
newer game asks for it (RULES KI-3), and the game goes on from the same position."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli.runner import open_saved_game
from companion.core import Match
from companion.games import kikoi
from companion.saves import journal as jr

GOLDEN = Path(__file__).parent / "golden" / "s2_physical_table_bob.journal.jsonl"


def _records() -> tuple[dict, list[dict]]:
    recs = [json.loads(line)["r"] for line in GOLDEN.read_text(encoding="utf-8").splitlines()]
    return recs[0], [r for r in recs[1:] if r["kind"] == "action"]


def _save(path: Path, start: dict, actions: list[dict], schema: int) -> None:
    head = {k: start[k] for k in ("game", "options", "players", "seats", "seed")} | {"lang": "fr", "resolved": {}}
    j = jr.Journal.create(path, head, schema=schema)
    for rec in actions:
        j.action(rec["seat"], rec["action"])
    j.close()


def test_a_schema_1_save_without_the_red_tokens_move_resumes_where_it_was(tmp_path):
    start, actions = _records()
    reds = next(i for i, r in enumerate(actions) if r["action"] == {"reds": "in"})
    cut = reds + 12  # some moves after the deal
    newer = Match(kikoi.Rules(physical=True), start["players"], start["seed"])
    newer.replay(actions[:cut])

    old = tmp_path / "old.jsonl"
    _save(old, start, actions[:reds] + actions[reds + 1:cut], schema=1)
    journal, pieces, notes = open_saved_game(old, "fr")
    journal.close()
    entry, game, _ui, _bots, names, _kinds, saved_start, c = pieces
    assert saved_start["schema"] == 1 and not notes, notes  # nothing set aside
    assert len(c.actions) == cut - 1

    # the same replay `companion resume` does, move by move with what the old save implies
    from companion.cli.runner import _implied, _replay_one

    match = Match(game, names, int(saved_start["seed"]))
    for rec in c.actions:
        _replay_one(match, int(rec["seat"]), jr.decode_action(game, rec["action"]), _implied(entry, 1))
    assert match.state == newer.state


def test_a_save_of_this_schema_must_say_it_put_the_red_tokens_in(tmp_path):
    """Without the implied move (a save of schema 2 that lacks it), the move after the deal is
    not one of this game, and the moves after it do not replay without it: the save is refused
    with its reason and left as it is (issue 25), never silently replayed nor cut."""
    import pytest

    from companion.cli.runner import UserError

    start, actions = _records()
    reds = next(i for i, r in enumerate(actions) if r["action"] == {"reds": "in"})
    bad = tmp_path / "bad.jsonl"
    _save(bad, start, actions[:reds] + actions[reds + 1:reds + 6], schema=kikoi.ACTION_SCHEMA)
    before = bad.read_bytes()
    with pytest.raises(UserError) as exc:
        open_saved_game(bad, "fr")
    assert exc.value.msg.id == "core.error.journal_unreplayable" and exc.value.msg.params["line"] == reds + 2
    assert bad.read_bytes() == before
