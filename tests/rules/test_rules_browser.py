"""The rules page in a real headless browser: Debian's Chromium driven by Playwright, audited
with axe-core (from the npm registry, in tests/rules/browser/node_modules)."""

from __future__ import annotations

import pytest

from companion.audiorules import CHAPTERS, GAMES, LANGS
from companion.audiorules.manifest import load
from companion.audiorules.server import serve_in_thread
from tests.browser import require_chromium

require_chromium()


@pytest.fixture(scope="module")
def site(built_kikoi):
    srv, base = serve_in_thread(0)
    yield base
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def page(browser):
    # The pages forbid scripts (CSP); the test context may inject axe regardless.
    ctx = browser.new_context(bypass_csp=True)
    pg = ctx.new_page()
    yield pg
    ctx.close()


def audit(page, axe_source: str) -> list[dict]:
    page.evaluate(axe_source)
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [v for v in result["violations"] if v["impact"] in ("serious", "critical")]


def test_page_loads_with_landmarks_and_headings(page, site: str) -> None:
    man = load("kikoi", "fr")
    resp = page.goto(site + "/kikoi/fr/")
    assert resp.status == 200
    assert page.title() == "Les 5 KIKOI — règles audio"
    assert page.get_attribute("html", "lang") == "fr"
    assert page.locator("header").count() == 1 and page.locator("main").count() == 1
    assert page.locator("footer").count() == 1 and page.locator("nav").count() == 2
    assert page.locator("h1").inner_text() == "Les 5 KIKOI — règles audio"
    h2 = page.locator("section h2").all_inner_texts()
    assert h2 == [f"{i}. {c.title}" for i, c in enumerate(man.chapters, 1)]
    assert page.locator("section h3").count() == len(CHAPTERS)


def test_every_audio_element_plays_what_the_server_serves(page, site: str) -> None:
    man = load("kikoi", "fr")
    page.goto(site + "/kikoi/fr/")
    audios = page.locator("audio")
    assert audios.count() == len(CHAPTERS)
    for i, ch in enumerate(man.chapters):
        info = audios.nth(i).evaluate(
            """async (a) => {
                 a.preload = 'auto'; a.load();
                 await new Promise(r => { if (a.readyState >= 1) r();
                   a.addEventListener('loadedmetadata', r); a.addEventListener('error', r);
                   setTimeout(r, 10000); });
                 const resp = await fetch(a.currentSrc);
                 return {src: a.currentSrc, duration: a.duration, error: a.error && a.error.code,
                         status: resp.status, type: resp.headers.get('content-type'),
                         label: a.getAttribute('aria-label')};
               }"""
        )
        assert info["src"] == f"{site}/kikoi/fr/{ch.id}.ogg"
        assert info["status"] == 200 and info["type"] == "audio/ogg" and info["error"] is None
        assert abs(info["duration"] - ch.duration) < 0.2, (ch.id, info["duration"], ch.duration)
        assert info["label"] == f"Audio : {ch.title}"


def test_keyboard_reaches_every_control(page, site: str) -> None:
    page.goto(site + "/kikoi/fr/")
    page.locator("body").click(position={"x": 1, "y": 1})
    controls = page.evaluate(
        "() => [...document.querySelectorAll('a[href], audio[controls]')].map((e, i) => (e.dataset.k = i, i))"
    )
    reached: set[int] = set()
    for _ in range(400):
        page.keyboard.press("Tab")
        k = page.evaluate("() => document.activeElement && document.activeElement.dataset.k")
        if k is not None:
            reached.add(int(k))
        if reached == set(controls):
            break
    assert reached == set(controls), f"never focused: {sorted(set(controls) - reached)}"
    # The skip link comes first and moves focus to the main content.
    page.goto(site + "/kikoi/fr/")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent") == "Aller au contenu"
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "main"


def test_language_switch_by_keyboard(page, site: str) -> None:
    page.goto(site + "/kikoi/fr/")
    link = page.locator('a[hreflang="en"]')
    assert link.inner_text() == "English version" and link.get_attribute("lang") == "en"
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(site + "/kikoi/en/")
    assert page.get_attribute("html", "lang") == "en"
    assert page.locator("h1").inner_text() == "Les 5 KIKOI — audio rules"
    assert page.locator('a[hreflang="fr"]').inner_text() == "Version française"


def test_axe_finds_no_serious_violation(page, site: str, axe_source: str) -> None:
    urls = ["/", "/kikoi/"] + [f"/{g}/{lg}/" for g in GAMES for lg in LANGS]
    problems = {}
    for url in urls:
        page.goto(site + url)
        bad = audit(page, axe_source)
        if bad:
            problems[url] = [(v["id"], v["impact"], v["help"]) for v in bad]
    assert problems == {}
    # and the audit does catch a serious problem when there is one
    page.goto(site + "/kikoi/fr/")
    page.evaluate("() => document.querySelector('audio').removeAttribute('aria-label')")
    page.evaluate("() => { const a = document.querySelector('a[href=\"#goal\"]'); a.textContent = ''; }")
    assert any(v["id"] == "link-name" for v in audit(page, axe_source))


def test_dark_mode_and_small_screen_still_pass(browser, site: str, axe_source: str) -> None:
    ctx = browser.new_context(bypass_csp=True, color_scheme="dark", viewport={"width": 360, "height": 740},
                              device_scale_factor=2, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.goto(site + "/kikoi/fr/")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert audit(page, axe_source) == []
    ctx.close()
