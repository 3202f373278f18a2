"""Two seats' pages of one KIKOI game in a real headless browser (Debian's Chromium driven by
Playwright, never `playwright install`), audited with axe-core (tests/rules/browser)."""

from __future__ import annotations

import pytest

from companion.session.inbox import Line
from tests.browser import require_chromium
from tests.web.harness import Table

require_chromium()


@pytest.fixture
def table():
    t = Table(seed=4)
    t.open()
    yield t
    t.close()


def audit(page, axe_source: str) -> list[dict]:
    # The page's CSP allows only its own scripts: axe is added as the page's own script text.
    page.add_script_tag(content=axe_source)
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return result["violations"]


def log_texts(page) -> list[str]:
    return page.locator("#log p").all_inner_texts()


def claim(browser, url: str, name: str):
    ctx = browser.new_context(bypass_csp=True)
    page = ctx.new_page()
    resp = page.goto(url)
    assert resp is not None and resp.status == 200
    page.get_by_role("button", name=f"Je suis {name}").click()
    page.wait_for_url("**/t/s/**")
    return ctx, page


def test_two_pages_each_hear_their_own_secrets_only(browser, table: Table, axe_source: str) -> None:
    assert table.hub is not None
    url = table.hub.table_url
    ctx_a, anne = claim(browser, url, "Anne")
    ctx_b, bruno = claim(browser, url, "Bruno")
    try:
        assert anne.get_attribute("html", "lang") == "fr"
        # the game starts once both phones are there: each deal is said on its own page only
        table.start()
        anne.wait_for_function("document.querySelectorAll('#log p.private').length > 0")
        bruno.wait_for_function("document.querySelectorAll('#log p.private').length > 0")
        mine_a, mine_b = table.private_texts(0), table.private_texts(1)
        assert mine_a and mine_b
        assert any("jetons" in t for t in mine_a)
        text_a, text_b = "\n".join(log_texts(anne)), "\n".join(log_texts(bruno))
        assert all(t in text_a for t in mine_a) and all(t in text_b for t in mine_b)
        # A private line both hear alike (« Ton plateau : 4 jetons. ») is no secret of either.
        mine_a, mine_b = [t for t in mine_a if t not in mine_b], [t for t in mine_b if t not in mine_a]
        assert mine_a and mine_b
        assert not any(t in text_b for t in mine_a) and not any(t in text_a for t in mine_b)
        # private lines are marked for screen readers
        assert anne.locator("#log p.private strong").first.inner_text().startswith("Privé")
        # public lines reach both pages
        assert "À Anne." in text_a and "À Anne." in text_b

        # Anne plays from her page; the focus stays in the command field, lines are appended
        field = anne.get_by_label("Ta commande")
        assert anne.evaluate("document.activeElement.id") == "line"
        before = anne.locator("#log p").count()
        first_node = anne.locator("#log p").first.inner_text()
        field.fill(table.request_phrase(0))
        field.press("Enter")
        anne.wait_for_function(f"document.querySelectorAll('#log p').length > {before}")
        assert anne.evaluate("document.activeElement.id") == "line"
        assert anne.locator("#log p").first.inner_text() == first_node  # appended, not replaced
        assert table.session.match.history, "the move typed on the page was played"

        # « mon plateau » on Bruno's page: his board, on his page only
        table.wait_idle()
        n_a = len(table.private_texts(0))
        bruno.get_by_label("Ta commande").fill("mon plateau")
        bruno.get_by_label("Ta commande").press("Enter")
        bruno.get_by_role("button", name="État").click()
        assert bruno.evaluate("document.activeElement.id") == "line"
        table.wait_idle()
        bruno.wait_for_function("document.querySelectorAll('#log p.private').length > 2")
        assert len(table.private_texts(0)) == n_a
        text_a, text_b = "\n".join(log_texts(anne)), "\n".join(log_texts(bruno))
        assert not any(t in text_a for t in table.secret_texts(1))
        assert not any(t in text_b for t in table.secret_texts(0))

        # the table's printed transcript shows no hand (only that something was said privately)
        printed = "\n".join(table.printed)
        for t in table.private_texts(0) + table.private_texts(1):
            assert t not in printed
        assert "Téléphone connecté pour Anne." in printed

        # a second claim of a claimed seat is refused
        ctx_c = browser.new_context()
        other = ctx_c.new_page()
        other.goto(url)
        assert other.get_by_role("button", name="Je suis Anne").count() == 0
        resp = other.request.post(url + "/claim", form={"seat": "0"})
        assert resp.status == 409
        # Anne's own address opened on another device: taken, none of her lines (issue #25)
        resp = other.goto(anne.url)
        assert resp is not None and resp.status == 409
        assert "autre appareil" in other.locator("#status").inner_text()
        assert other.locator("#log").count() == 0
        assert not any(t in other.inner_text("body") for t in table.private_texts(0))
        table.wait(lambda: "Anne : un autre appareil demande ta place." in table.printed,
                   "the table did not hear of the other device")
        ctx_c.close()

        # reloading the page says « Reprise » and only what is new (#29); what it had is kept,
        # folded outside the live log
        count = anne.locator("#log p").count()
        anne.reload()
        anne.wait_for_function(f"document.querySelectorAll('details p').length >= {count}")
        assert anne.locator("#log p.resumed").count() == 1
        assert anne.locator("#log p.resumed").inner_text().startswith("Reprise")

        # axe-core: no violation on a seat page nor on the table page
        assert audit(anne, axe_source) == []
        table_page = ctx_b.new_page()
        table_page.goto(url)
        assert audit(table_page, axe_source) == []
    finally:
        ctx_a.close()
        ctx_b.close()


def test_release_at_the_table_frees_the_seat(browser, table: Table) -> None:
    assert table.hub is not None
    url = table.hub.table_url
    ctx, anne = claim(browser, url, "Anne")
    try:
        old = anne.url
        table.start()
        table.inbox.post(Line("libère Anne"))
        anne.wait_for_function("document.getElementById('line').disabled === true")
        assert "libérée" in anne.locator("#status").inner_text()
        assert anne.request.get(old).status == 404  # the old secret address is dead
        ctx2 = browser.new_context()
        again = ctx2.new_page()
        again.goto(url)
        again.get_by_role("button", name="Je suis Anne").click()
        again.wait_for_url("**/t/s/**")
        assert again.url != old
        ctx2.close()
        assert any("Place libérée : Anne." in p for p in table.printed)
    finally:
        ctx.close()


def test_the_owner_frees_her_seat_from_her_page(browser, table: Table) -> None:
    assert table.hub is not None
    url = table.hub.table_url
    ctx, anne = claim(browser, url, "Anne")
    try:
        table.start()
        old = anne.url
        anne.get_by_role("button", name="Libérer ma place").click()
        anne.wait_for_url("**/t")
        table.wait(lambda: "Place libérée : Anne." in table.printed, "the table was not told")
        assert anne.get_by_role("button", name="Je suis Anne").count() == 1  # free again
        assert anne.request.get(old).status == 404
    finally:
        ctx.close()
