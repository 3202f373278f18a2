"""Whole games typed as words by human seats through the session: every legal action can be
said, in French and in English, and odd lines never break anything."""

from __future__ import annotations

import pytest

from companion.core import Match, Rng
from companion.games.kikoi import UI, Rules
from companion.games.kikoi.rules import ALL, Ask, DrawBlind, Drew, Pass, Pirate, RedsIn, Reply
from companion.games.kikoi.tokens import KIKOI, MOMENTS
from companion.session import Seat, Session
from tests.quiet import Quiet

NAMES = ["Marie", "Paul", "Zoé", "Luc"]
FR_MOMENT = {"house": "dans sa maison", "eat": "qui mange", "bike": "à vélo", "forest": "en forêt", "sleep": "qui dort"}
EN_MOMENT = {"house": "at home", "eat": "eating", "bike": "on the bike", "forest": "in the forest", "sleep": "sleeping"}
RED = {25: "kikonk", 26: "kitourn", 27: "kipirat"}


def words(action, lang: str) -> str:
    def token(t: int) -> str:
        if t >= 25:
            return RED[t]
        moment = (FR_MOMENT if lang == "fr" else EN_MOMENT)[MOMENTS[t % 5]]
        return f"le {KIKOI[t // 5].upper()} {moment}" if lang == "fr" else f"{KIKOI[t // 5]} {moment}"

    if isinstance(action, Ask):
        if action.target is ALL:
            return token(action.token)
        name = NAMES[action.target]
        return f"demande à {name} {token(action.token)}" if lang == "fr" else f"ask {name} for {token(action.token)}"
    if isinstance(action, Reply):
        return ("je donne" if action.give else "non, je ne l'ai pas") if lang == "fr" else ("I give it" if action.give else "no")
    if isinstance(action, Drew):
        return f"j'ai pioché {token(action.token)}" if lang == "fr" else f"I drew {token(action.token)}"
    if isinstance(action, DrawBlind):
        return "pioche" if lang == "fr" else "draw"
    if isinstance(action, Pass):
        return "passe" if lang == "fr" else "pass"
    if isinstance(action, RedsIn):
        return "prêt" if lang == "fr" else "ready"
    assert isinstance(action, Pirate)
    return ("kipirat !" if action.steal else "je passe") if lang == "fr" else ("kipirat!" if action.steal else "let it pass")


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("physical", [False, True])
def test_every_action_can_be_typed(lang, physical):
    for seed in range(3):
        n = 3 + seed % 2
        rules = Rules(physical=physical)
        match = Match(rules, NAMES[:n], seed)
        lines: list[str] = []
        s = Session("kikoi", UI(rules), match, [Seat(x) for x in NAMES[:n]], lang=lang, speaker=Quiet(), out=lines.append)
        s.start()
        rng = Rng(seed)
        for _ in range(3000):
            if match.over:
                break
            seat = match.current
            action = rng.choice(match.legal(seat))
            before = len(match.history)
            if rng.random() < 0.05:  # an odd line now and then: refused or not understood, nothing changes
                s.handle(rng.choice(["kigliss", "bonjour", "demande à Personne le truc", "12", "kipirat", "pioche"]), seat)
                s.pending.clear()
                continue
            s.handle(words(action, lang), seat)
            assert len(match.history) == before + 1, (words(action, lang), lines[-3:])
            assert match.history[-1].action == action
        assert match.over and match.events()[-1].type == "game_ended"
        assert any(("gagne" in x or "Victoire" in x) if lang == "fr" else "win" in x for x in lines[-5:])
