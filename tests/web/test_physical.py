"""Physical-table KIKOI (issue #12, done when): a KIPIRAT drawn from the real bag, typed on
Anne's page, is heard only by Anne; the table and the other pages hear a bad draw."""

from __future__ import annotations

from companion.games.kikoi import narration
from companion.games.kikoi.tokens import KIPIRAT
from companion.narration import catalog
from tests.web.harness import Table
from tests.web.test_hub import claim, fetch


def said(t: int) -> str:
    return catalog("fr").text(narration.tok(t))


def test_kipirat_typed_on_annes_page_is_heard_by_anne_only() -> None:
    table = Table(seed=1, names=("Anne", "Bruno", "Chloé"), bots=0, physical=True, deal=1)
    table.open()
    try:
        assert table.hub is not None
        pages = [claim(table.hub, seat) for seat in range(3)]
        table.start()
        match = table.session.match

        def type_on(seat: int, text: str) -> None:
            n = len(match.history)
            status, _, _ = fetch(pages[seat] + "/line", {"line": text}, {"Accept": "application/json"})
            assert status == 200
            table.wait(lambda: len(match.history) > n, f"{text!r} was not played")

        # the deal, each player telling their token on their own page (RULES KI-2)
        for seat, token in enumerate((0, 5, 10)):  # Kimouss, Kigratt, Kigliss "in the house"
            type_on(seat, said(token))
        type_on(0, "prêt")  # RULES KI-3: the red tokens are in the bag now
        type_on(0, f"demande à Bruno {said(1)}")  # Bruno has no Kimouss
        type_on(1, "non")
        assert match.state.phase == "draw"
        heard_before = {s: len(table.book.claimed(s).channel.since(0)) for s in range(3)}  # type: ignore[union-attr]
        printed_before = len(table.printed)
        type_on(0, said(KIPIRAT))
        table.wait_idle()
        assert match.state.pirate == 0
        new = {s: table.book.claimed(s).channel.since(0)[heard_before[s]:] for s in range(3)}  # type: ignore[union-attr]
        kipirat = said(KIPIRAT).split()[-1]  # "Kipirat"
        assert any(h.private and kipirat in h.text for h in new[0])
        for s in (1, 2):
            assert not any(kipirat in h.text or h.private for h in new[s]), new[s]
            assert [h.text for h in new[s]] == [h.text for h in new[0] if not h.private]
        assert not any(kipirat in line for line in table.printed[printed_before:])
        assert any("Mauvaise pioche" in h.text for h in new[1])
    finally:
        table.close()
