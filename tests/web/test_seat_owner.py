"""A seat belongs to the device that claimed it (issue #25, finding 3), over real HTTP with a
real table loop: a second device gets none of the seat's lines and the table hears it; only
the owner hands the seat over; claims and posts from another site or host are refused."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest

from companion.inputs.web.play import TableKeys
from companion.session.inbox import Device, Line, Notice
from tests.web.harness import Table
from tests.web.test_hub import claim, fetch, phone

JSON = {"Accept": "application/json"}


@pytest.fixture
def table():
    t = Table(seed=4)
    t.open()
    yield t
    t.close()


def test_a_second_device_gets_nothing_and_the_table_hears_it(table: Table) -> None:
    assert table.hub is not None
    anne = claim(table.hub, 0)  # the test's own phone claims Anne
    table.start()
    table.wait(lambda: bool(table.private_texts(0)), "Anne's page heard no private line")
    table.wait_idle()
    secrets = table.private_texts(0)
    other = phone()
    printed, posted = len(table.printed), table.inbox.posted
    # the seat's address opened on another device: taken, none of its lines
    status, _, body = fetch(anne, device=other)
    page = body.decode()
    assert status == 409 and "autre appareil" in page and "Anne : libère" in page
    assert not any(s in page for s in secrets) and 'role="log"' not in page
    status, _, body = fetch(anne + "/events", device=other)
    assert status == 409 and b"data:" not in body
    assert fetch(anne + "/line", {"line": "mon plateau"}, JSON, device=other)[0] == 409
    assert fetch(anne + "/release", {}, JSON, device=other)[0] == 409
    table.wait_idle()
    assert table.inbox.posted - posted == 1  # the notice only: no line of the stranger's was posted
    assert table.book.claimed(0) is not None
    heard = table.printed[printed:]
    assert heard.count("Anne : un autre appareil demande ta place.") == 1, heard  # said once, not per request
    # the owner's device still has everything
    status, _, body = fetch(anne)
    assert status == 200 and all(html.escape(s) in body.decode() for s in secrets)
    ok = fetch(anne + "/line", {"line": "mon plateau"}, JSON)
    assert ok[0] == 200 and json.loads(ok[2])["ok"]


def test_only_the_owner_hands_the_seat_over_from_her_device(table: Table) -> None:
    assert table.hub is not None
    anne = claim(table.hub, 0)
    table.start()
    status, _, _ = fetch(anne + "/release", {})
    assert status == 303
    table.wait(lambda: "Place libérée : Anne." in table.printed, "the table was not told")
    assert table.book.claimed(0) is None and fetch(anne)[0] == 404  # the old address is dead
    # another device may claim it now, from the table address
    other = phone()
    status, headers, _ = fetch(table.hub.table_url + "/claim", {"seat": "0"}, device=other)
    assert status == 303 and fetch(table.hub.base_url + headers["Location"], device=other)[0] == 200


def test_anne_releases_her_seat_at_the_keyboard(table: Table) -> None:
    assert table.hub is not None
    claim(table.hub, 0)
    table.start()
    keys = TableKeys(table.inbox, table.names)
    keys.post(Line("Anne : libère"))
    table.wait(lambda: "Place libérée : Anne." in table.printed, "« Anne : libère » did not free the seat")
    assert table.book.claimed(0) is None
    keys.post(Line("Bruno : mon plateau"))  # any other line passes through unchanged
    table.wait_idle()


def test_claims_and_posts_from_another_site_or_host_are_refused(table: Table) -> None:
    hub = table.hub
    assert hub is not None
    base = hub.table_url
    port = hub.port
    for evil in ({"Origin": "http://evil.example"}, {"Origin": "null"},
                 {"Origin": f"http://127.0.0.1:{port + 1}"}, {"Referer": "http://evil.example/x"},
                 {"Sec-Fetch-Site": "cross-site"}, {"Host": f"evil.example:{port}"},
                 {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}):
        assert fetch(base + "/claim", {"seat": "0"}, evil, device=phone())[0] == 403, evil
    assert hub.book.claimed(0) is None  # no page of another site took the free seat
    assert fetch(base, headers={"Host": f"rebound.example:{port}"})[0] == 403  # DNS rebinding
    # every address the server is reached by: its own origin, localhost, a .local name, the LAN address
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"companion.local:{port}", f"192.168.1.20:{port}",
                 f"[::1]:{port}"):
        assert fetch(base, headers={"Host": host})[0] == 200, host
    same = {"Origin": f"http://localhost:{port}", "Host": f"localhost:{port}"}
    status, headers, _ = fetch(base + "/claim", {"seat": "0"}, same)
    assert status == 303
    anne = hub.base_url + headers["Location"]
    assert fetch(anne + "/line", {"line": "aide"}, {**JSON, "Origin": "http://evil.example"})[0] == 403
    assert fetch(anne + "/line", {"line": "aide"}, {**JSON, "Origin": f"http://127.0.0.1:{port}"})[0] == 200


def test_web_urls_drop_a_dead_address_after_release(table: Table, tmp_path: Path) -> None:
    hub = table.hub
    assert hub is not None
    path = tmp_path / "urls.json"
    hub.write_urls(path)
    old = json.loads(path.read_text(encoding="utf-8"))
    assert fetch(old["Anne"])[0] == 200  # opened: claimed by this device
    table.start()
    table.inbox.post(Line("libère Anne"))
    table.wait(lambda: "Place libérée : Anne." in table.printed, "the seat was not freed")
    new = json.loads(path.read_text(encoding="utf-8"))
    assert new["Anne"] != old["Anne"] and new["Bruno"] == old["Bruno"]
    assert fetch(old["Anne"], device=phone())[0] == 404
    assert fetch(new["Anne"], device=phone())[0] == 200  # the address in the file works
    assert path.stat().st_mode & 0o077 == 0


def test_the_notice_is_a_table_sentence_only() -> None:
    """The edge's sentence reaches the core through the inbox and names no secret."""
    t = Table(seed=4, web=False)
    try:
        t.start()
        from companion.narration import Priority, Raw, say

        t.inbox.post(Device(Notice(say("core.web.seat_contested", Priority.MESSAGE, player=Raw("Anne"))), "web"))
        t.wait(lambda: "Anne : un autre appareil demande ta place." in t.printed, "the notice was not said")
    finally:
        t.close()


def test_a_page_that_connects_only_after_its_release_is_told_so(table: Table) -> None:
    """The page asleep (or still opening) when « libère Anne » was said: its stream, opened
    later at the old address, says it was released — the page is not left waiting, and
    learns nothing else of the seat."""
    assert table.hub is not None
    anne = claim(table.hub, 0)
    table.start()
    table.wait(lambda: bool(table.private_texts(0)), "Anne's page heard no private line")
    secrets = table.private_texts(0)
    table.inbox.post(Line("libère Anne"))
    table.wait(lambda: table.book.claimed(0) is None, "the seat was not released")
    status, _, body = fetch(anne + "/events")
    text = body.decode()
    assert status == 200 and "event: released" in text
    assert not any(s in text for s in secrets) and "\ndata: {" not in text
    assert fetch(anne)[0] == 404  # the page itself is gone
