"""Every form the companion itself speaks is accepted as input: what a player hears (a token,
a charm, an end, a cell « 1 h 1 puis 3 h 1 »), they can say back, in every language and
verbosity the narration renders."""

from __future__ import annotations

import pytest

from companion.core import Match, fold
from companion.games import goodfortune, kaliko, kikoi
from companion.games.goodfortune.commands import PlaceAt
from companion.games.goodfortune.notation import find_charms, parse_charm, parse_spoken_tile
from companion.games.goodfortune.speech import charm_msg, tile_msg
from companion.games.goodfortune.tiles import CHARMS
from companion.games.kaliko.notation import cell_msg, parse_cell
from companion.games.kikoi import narration as kikoi_narration
from companion.games.kikoi.notation import find_tokens, scan
from companion.games.kikoi.phrases import token_name
from companion.games.kikoi.tokens import KIKOI
from companion.narration import Msg, Verbosity, catalog

LANGS = ("fr", "en")


@pytest.mark.parametrize("lang", LANGS)
def test_kikoi_tokens_as_the_narration_says_them(lang):
    cat = catalog(lang)
    for token in range(28):
        for verbosity in Verbosity:
            said = cat.text(kikoi_narration.tok(token), verbosity)
            assert find_tokens(said) == [token], (lang, verbosity, said)
        # the phrase table's canonical form is the narration's own
        assert token_name(token, lang) == cat.text(kikoi_narration.tok(token))
    for k, name in enumerate(KIKOI):
        assert scan(cat.text(kikoi_narration.kikoi(name))).kikois == (k,)


@pytest.mark.parametrize("lang", LANGS)
def test_good_fortune_charms_ends_and_tiles_as_the_narration_says_them(lang):
    cat = catalog(lang)
    for charm in CHARMS:
        assert parse_charm(cat.text(charm_msg(charm))) == charm
    game = goodfortune.Rules()
    match = Match(game, ["Marie", "Paul"], 3)
    for n in range(1, 22):
        tile = match.state.tile(n)
        charms, numbers = parse_spoken_tile(cat.text(tile_msg(tile)))
        assert numbers[0] == n and set(charms) == set(tile.charms), (lang, cat.text(tile_msg(tile)))
    ui = goodfortune.UI(game)
    for end in ("left", "right"):
        said = cat.text(Msg(f"goodfortune.end.{end}"))
        assert ui.command(said, match, 0) == PlaceAt(end)  # the grammar reads it back
        assert [c for c, _w in find_charms(fold(said))] == []


@pytest.mark.parametrize("lang", LANGS)
def test_kaliko_cells_as_the_narration_says_them(lang):
    cat = catalog(lang)
    game = kaliko.Rules(hand_size=3)
    ui = kaliko.UI(game)
    match = Match(game, ["Marie", "Paul"], 1)
    for q in range(-4, 5):
        for r in range(-4, 5):
            said = cat.text(cell_msg(q, r))  # « 1 h 1 puis 3 h 1 », "1 h 1 then 3 h 1", « centre »
            assert parse_cell(said) == (q, r), (lang, said)
            intent, view = ui.read(("va " if lang == "fr" else "go ") + said, match, 0)
            assert intent is not None and intent.command == "go" and view.cursor == (q, r), (lang, said)


def test_kikoi_requests_as_the_help_suggests_them():
    """The help says « demande à {target} {token} » / "ask {target} for {token}"."""
    game = kikoi.Rules()
    ui = kikoi.UI(game)
    match = Match(game, ["Marie", "Paul", "Zoé"], 4)
    seat = match.current
    for action in match.legal(seat)[:10]:
        for lang, form in (("fr", "demande à {target} {token}"), ("en", "ask {target} for {token}")):
            line = form.format(target=match.players[action.target], token=catalog(lang).text(kikoi_narration.tok(action.token)))
            intent = ui.parse(line, match, seat)
            assert getattr(intent, "action", None) == action, (lang, line)
