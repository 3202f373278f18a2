"""Done when (#27): whole games played from a braille seat through brltty's virtual display.

* KIKOI with three humans, Anne on a braille seat only (no speech, no screen): she reads all
  of her own secrets on the display and nothing of the others', and plays by routing keys
  and by typing on the braille keyboard;
* 2kissa10 against a bot from the braille seat alone.
"""

from __future__ import annotations

import random

from .display import Brltty, Display
from .harness import BrailleTable

ANNE = 0


def pick(table: BrailleTable, seat: int, rng: random.Random) -> str:
    """What Bruno or Chloé types on their own terminal: one of their legal moves, or an answer."""
    sayable = table.core.ui.phrases(table.match, seat, "fr")
    moves = [p for p, c in sayable.concrete if c.startswith("action:")]
    if moves:
        return rng.choice(moves)
    return "oui"


def words(text: str) -> str:
    return " ".join(text.split())


def test_whole_kikoi_game_three_humans_one_on_braille(brltty: Brltty) -> None:
    t = BrailleTable("kikoi", ["Anne", "Bruno", "Chloé"], ANNE, Display(brltty, 80), seed=4)
    try:
        for s in (1, 2):
            assert t.book.claim(s, "terminal") is not None
        t.start()
        rng = random.Random(7)
        typed_move = typed_board = False
        turns = 0
        while not t.match.over:
            turns += 1
            assert turns < 400, "the game did not end"
            pending = sorted(t.core.pending)
            actor = pending[0] if pending else t.match.current
            if actor != ANNE:
                t.post(actor, pick(t, actor, rng))
                continue
            state = t.read_all()
            assert state == "alert", f"Anne's turn is not shown as an alert: {t.read()!r}"
            if not typed_board:
                # typed on the braille keyboard: her own board, answered on her display only
                typed_board = True
                t.type("mon plateau")
                assert t.read_all() == "alert"  # her turn still waits
            offers = t.offer_cells()
            if not typed_move and t.match.current == ANNE and not pending:
                typed_move = True
                phrase = next(p for p, c in t.core.ui.phrases(t.match, ANNE, "fr").concrete if c.startswith("action:"))
                before = len(t.match.history)
                t.type(phrase)
                assert len(t.match.history) > before, f"the typed move was not played: {t.printed[-3:]}"
                continue
            for _ in range(8):  # the choices follow the question: pan on to them
                if offers:
                    break
                t.key("FwinRt")
                offers = t.offer_cells()
            assert offers, f"no choice on the display: {t.read()!r}"
            before = len(t.match.history)
            t.route(rng.choice(offers))
            assert len(t.match.history) > before, f"the routing key played nothing: {t.printed[-3:]}"
        t.read_all()
        assert typed_move and typed_board
        read = words(" ".join(t.reads))
        channel = {s: [h for h in t.book.claimed(s).channel.since(0)] for s in range(3)}
        private = {s: [h.text for h in channel[s] if h.private] for s in range(3)}
        others = set(private[1]) | set(private[2])
        secrets = [x for x in private[ANNE] if x not in others]
        assert len(secrets) >= 3, private[ANNE]
        for secret in secrets:  # every secret of hers was on her display, read in full
            assert words(secret) in read, secret
        for s in (1, 2):
            for secret in (x for x in private[s] if x not in private[ANNE]):
                assert words(secret) not in read, secret
                assert all(secret != e.text for e in t.seat.view.entries), secret
        # the table's screen never shows a secret; it says the display took the seat
        printed = "\n".join(t.printed)
        assert "Plage braille connectée pour Anne." in printed
        assert not any(x in printed for s in range(3) for x in private[s] if x in secrets)
        assert "La partie est finie." in read, read[-300:]  # its end read on the display too
    finally:
        t.close()


def test_whole_kissa_game_against_a_bot_from_the_braille_seat(brltty: Brltty) -> None:
    t = BrailleTable("kissa", ["Anne"], ANNE, Display(brltty, 80), bots=1, seed=3)
    try:
        t.start()
        turns = 0
        while not t.match.over:
            turns += 1
            assert turns < 300, "the game did not end"
            state = t.read_all()
            assert state == "alert", t.read()
            if ANNE in t.core.pending:  # which reading? (the numbers are in several places)
                t.type("peu importe")
                continue
            assert t.match.current == ANNE
            before = len(t.match.history)
            t.type(kissa_move(t))
            if ANNE not in t.core.pending:
                assert len(t.match.history) > before, t.printed[-3:]
        assert t.read_all() == "done"
        read = words(" ".join(t.reads))
        assert "La partie est finie." in read, read[-300:]
        assert t.core.humans == [ANNE] and t.match.over
    finally:
        t.close()


def kissa_move(t: BrailleTable) -> str:
    """What Anne types: the shortest legal equation as numbers only, « 1*9=9 »."""
    moves = [p for p, c in t.core.ui.phrases(t.match, ANNE, "fr").concrete if c.startswith("action:")]
    if not moves:
        return "pas de solution"
    phrase = min(moves, key=len)
    a, b, c = (w for w in phrase.split() if w.isdigit())
    return f"{a}{'*' if ' fois ' in phrase else '+'}{b}={c}"


def test_a_kipirat_chance_is_an_alert_with_its_answers(brltty: Brltty) -> None:
    """Anne holds the KIPIRAT; Chloé gives Bruno a token: « kipirat ? » is an alert on her
    display, its answers under the routing keys (RULES KI-11)."""
    from companion.games.kikoi.rules import PIRATE, Ask

    t = BrailleTable("kikoi", ["Anne", "Bruno", "Chloé"], ANNE, Display(brltty, 80), seed=4)
    try:
        game = t.game
        data = game.state_to_json(t.match.state)
        data["bag"].remove("kipirat")
        data["pirate"] = ANNE
        t.match.state = game.state_from_json(data)
        for s in (1, 2):
            t.book.claim(s, "terminal")
        t.start()
        rng = random.Random(3)
        for _ in range(60):
            state = t.match.state
            if state.phase == PIRATE and state.actor == ANNE:
                break
            actor = sorted(t.core.pending)[0] if t.core.pending else t.match.current
            if actor == ANNE:
                assert t.read_all() == "alert"
                offers = t.offer_cells()
                while not offers:
                    t.key("FwinRt")
                    offers = t.offer_cells()
                t.route(rng.choice(offers))
                continue
            legal = game.legal_actions(state, actor)
            # Bruno and Chloé ask each other for what the other has: a gift between two others
            gifts = [a for a in legal if isinstance(a, Ask) and a.target not in (None, ANNE)
                     and a.token in state.boards[a.target]]
            t.post(actor, pick_gift(t, actor, gifts, rng))
        else:
            raise AssertionError("no KIPIRAT window came")
        assert t.read_all() == "alert"
        view = t.seat.view
        assert view.current.alert and view.info.mine
        assert [posted for _, posted in view.current.offers] == ["je vole", "je laisse passer"]
        assert t.read().startswith("[!] Anne, le Kigliss qui dort passe. Kipirat ?"), t.read()
        before = len(t.match.history)
        offers = t.offer_cells()
        while not offers:
            t.key("FwinRt")
            offers = t.offer_cells()
        assert t.read().endswith("| vole | laisse passer")  # shown without the « je » they share
        t.route(offers[-1])  # « je laisse passer »
        assert len(t.match.history) > before  # her answer was played
        assert t.match.state.pirate == ANNE  # and she kept her secret
    finally:
        t.close()


def pick_gift(t: BrailleTable, seat: int, gifts: list, rng: random.Random) -> str:  # noqa: ANN001
    """The phrase of a request between Bruno and Chloé that will be given, else any move."""
    import json

    concrete = t.core.ui.phrases(t.match, seat, "fr").concrete
    if gifts:
        want = {json.dumps(t.game.action_to_json(a), sort_keys=True) for a in gifts}
        for phrase, command in concrete:
            if command.startswith("action:") and json.dumps(json.loads(command[7:]), sort_keys=True) in want:
                return phrase
    return pick(t, seat, rng)
