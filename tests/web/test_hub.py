"""The web hub over real HTTP: secrets, claims, limits, catch-up, what is served and what not."""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import os
import shutil
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from companion.inputs.web import SeatBook, SeatClaimed, SeatReleased, release_target
from companion.inputs.web.hub import MAX_LINE, PREFIX, RATE_LINES, WebHub
from companion.session.inbox import Device, Inbox, Line


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # noqa: ANN002, ANN003
        return None


def phone() -> urllib.request.OpenerDirector:
    """One device: a browser that keeps its cookies (the key to the seat it claimed)."""
    return urllib.request.build_opener(NoRedirect, urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


JAR = http.cookiejar.CookieJar()  # the test's own phone, emptied for each hub
OPENER = urllib.request.build_opener(NoRedirect, urllib.request.HTTPCookieProcessor(JAR))


def fetch(url: str, data: dict[str, str] | None = None, headers: dict[str, str] | None = None,
          device: urllib.request.OpenerDirector | None = None) -> tuple[int, dict[str, str], bytes]:
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    req = urllib.request.Request(url, data=body, headers=headers or {})
    try:
        with (device or OPENER).open(req, timeout=5) as resp:
            return resp.status, dict(resp.headers), resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


@pytest.fixture
def hub():
    inbox = Inbox()
    h = WebHub(inbox, ["Anne", "Bruno", "Robot"], humans=[0, 1], lang="fr", game_title="Les 5 KIKOI", port=0)
    JAR.clear()
    h.start()
    yield h
    h.stop()


def drain(inbox: Inbox) -> list[object]:
    out = []
    while (item := inbox.get(timeout=0.05)) is not None:
        out.append(item)
    return out


def claim(hub: WebHub, seat: int) -> str:
    status, headers, _ = fetch(hub.table_url + "/claim", {"seat": str(seat)})
    assert status == 303
    return hub.base_url + headers["Location"]


def test_claim_posts_the_channel_and_refuses_a_second_claim(hub: WebHub) -> None:
    status, headers, body = fetch(hub.table_url)
    assert status == 200 and b"Je suis Anne" in body and b"Robot" not in body  # bots have no page
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert headers["Referrer-Policy"] == "same-origin"
    url = claim(hub, 0)
    [item] = drain(hub.inbox)
    assert isinstance(item, Device) and isinstance(item.event, SeatClaimed) and item.event.seat == 0
    assert item.event.channel is hub.channel(0)
    assert fetch(hub.table_url + "/claim", {"seat": "0"})[0] == 409
    assert fetch(hub.table_url + "/claim", {"seat": "2"})[0] == 400  # a bot's seat
    assert fetch(hub.table_url + "/claim", {"seat": "x"})[0] == 400
    status, _, body = fetch(url)
    assert status == 200 and b'lang="fr"' in body and b'role="log"' in body
    assert drain(hub.inbox) == []  # opening one's own page again claims nothing more


def test_secret_addresses_and_nothing_else(hub: WebHub, tmp_path: Path) -> None:
    path = tmp_path / "urls.json"
    hub.write_urls(path)
    urls = json.loads(path.read_text(encoding="utf-8"))
    assert set(urls) == {"Anne", "Bruno"}
    assert path.stat().st_mode & 0o077 == 0
    token = urls["Anne"].rsplit("/", 1)[1]
    assert len(token) >= 32 and token not in urls["Bruno"]
    wrong = token[:-1] + ("y" if token.endswith("x") else "x")  # one character off (a token may end in x)
    assert fetch(hub.table_url + "/s/" + wrong)[0] == 404
    assert fetch(hub.table_url + "/s/")[0] == 404
    for path_ in ("/", "/etc/passwd", PREFIX + "/../../etc/passwd", PREFIX + "/s/" + token + "/../../x",
                  "/kikoi/fr/", PREFIX + "/static/app.js"):
        assert fetch(hub.base_url + path_)[0] == 404, path_
    # the script's address claims the seat at its first opening
    assert fetch(urls["Anne"])[0] == 200
    assert isinstance(drain(hub.inbox)[0], Device)
    assert fetch(hub.table_url + "/claim", {"seat": "0"})[0] == 409


def test_lines_limits_and_release(hub: WebHub) -> None:
    url = claim(hub, 1)
    drain(hub.inbox)
    ok = fetch(url + "/line", {"line": "mon plateau"}, {"Accept": "application/json"})
    assert ok[0] == 200 and json.loads(ok[2]) == {"ok": True, "error": ""}
    [line] = drain(hub.inbox)
    assert line == Line("mon plateau", 1, source="web")
    long = fetch(url + "/line", {"line": "a" * (MAX_LINE + 1)}, {"Accept": "application/json"})
    assert "trop longue" in json.loads(long[2])["error"]
    for _ in range(RATE_LINES):
        fetch(url + "/line", {"line": "état"}, {"Accept": "application/json"})
    fast = fetch(url + "/line", {"line": "état"}, {"Accept": "application/json"})
    assert fast[0] == 429 and "Trop vite" in json.loads(fast[2])["error"]
    assert len(drain(hub.inbox)) == RATE_LINES - 1  # the first was sent before the long one
    assert fetch(hub.base_url + PREFIX + "/claim", {"seat": "1", "pad": "x" * 5000})[0] == 413  # body limit
    # without scripts, the form posts and comes back to the page
    assert fetch(url + "/line", {"line": "aide"})[0] == 303
    # « libère Bruno »: the page is cut off, its address dead, the seat free
    channel = hub.channel(1)
    assert hub.release(1)
    items = drain(hub.inbox)
    assert any(isinstance(i, Device) and isinstance(i.event, SeatReleased) and i.event.channel is channel
               for i in items)
    assert fetch(url)[0] == 404
    assert fetch(url + "/line", {"line": "aide"})[0] == 404
    assert claim(hub, 1) != url


def read_events(url: str, last: int | None, count: int) -> list[dict]:
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    headers = {"Last-Event-ID": str(last)} if last is not None else {}
    keyed = urllib.request.Request(url + "/events")
    JAR.add_cookie_header(keyed)  # the phone's key to its seat
    headers.update(keyed.unredirected_hdrs)
    conn.request("GET", parts.path + "/events", headers=headers)
    resp = conn.getresponse()
    assert resp.status == 200 and resp.headers["Content-Type"].startswith("text/event-stream")
    out: list[dict] = []
    while len(out) < count:
        line = resp.fp.readline().decode()
        if line.startswith("data: "):
            out.append(json.loads(line[6:]))
    conn.close()
    return out


def test_stream_catches_up_and_never_shows_another_seat(hub: WebHub) -> None:
    anne, bruno = claim(hub, 0), claim(hub, 1)
    ca, cb = hub.channel(0), hub.channel(1)
    for i in range(3):
        ca.deliver(f"public {i}", private=False, priority=1, earcon=None, lang="fr")
        cb.deliver(f"public {i}", private=False, priority=1, earcon=None, lang="fr")
    ca.deliver("Tes 4 jetons : secret d'Anne", private=True, priority=2, earcon="private", lang="fr")
    cb.deliver("Tes 4 jetons : secret de Bruno", private=True, priority=2, earcon="private", lang="fr")
    got = read_events(anne, None, 4)
    assert [g["n"] for g in got] == [1, 2, 3, 4] and got[3]["private"] and "Anne" in got[3]["text"]
    again = read_events(anne, 2, 2)  # reconnection: only what was missed
    assert [g["text"] for g in again] == ["public 2", "Tes 4 jetons : secret d'Anne"]
    assert all("Anne" not in g["text"] for g in read_events(bruno, None, 4))
    # a seat page shows what was said before it loaded, marked private
    body = fetch(anne)[2].decode()
    assert "secret d&#x27;Anne" in body and "Bruno" not in body.split('role="log"')[1]


def text_qr_to_png(text: str, path: Path, scale: int = 8) -> None:
    """The QR code printed as text (half blocks, two module rows a line) drawn as an image."""
    from PIL import Image

    top = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1)}
    lines = [ln for ln in text.splitlines() if ln]
    width = max(len(ln) for ln in lines)
    img = Image.new("L", (width * scale, len(lines) * 2 * scale), 0)
    for y, ln in enumerate(lines):
        for x, ch in enumerate(ln):
            for half, on in enumerate(top.get(ch, (0, 0))):
                if on:
                    img.paste(255, (x * scale, (2 * y + half) * scale, (x + 1) * scale, (2 * y + half + 1) * scale))
    framed = Image.new("L", (img.width + 8 * scale, img.height + 8 * scale), 255)
    framed.paste(img, (4 * scale, 4 * scale))
    framed.save(path)


def test_table_qr_code_reads_back(hub: WebHub, tmp_path: Path) -> None:
    png = tmp_path / "table.png"
    hub.qr_png(png)
    assert fetch(hub.table_url + "/qr.png")[2][:8] == b"\x89PNG\r\n\x1a\n"
    text_png = tmp_path / "text.png"
    text_qr_to_png(hub.qr_text(), text_png)
    zbar = shutil.which("zbarimg")
    if zbar is None:
        assert os.environ.get("CI") != "true", "zbarimg is required under CI (apt-get install zbar-tools)"
        pytest.skip("zbarimg is not installed (apt-get install zbar-tools)")
    for image in (png, text_png):
        out = subprocess.run([zbar, "--raw", "-q", str(image)], capture_output=True, text=True, timeout=30)
        assert out.stdout.strip() == hub.table_url, image.name
    assert "/s/" not in hub.table_url  # the table address holds no secret


def test_release_words() -> None:
    names = ["Anne", "Bruno", "Chloé"]
    assert release_target("libère Anne", names) == 0
    assert release_target("Libere chloe", names) == 2
    assert release_target("release Bruno", names) == 1
    assert release_target("libère la place de Bruno", names) == 1
    assert release_target("libère", names) is None
    assert release_target("libère Zoé", names) is None
    assert release_target("demande à Anne le kigliss", names) is None


def test_book_is_shared_by_pages_and_terminals() -> None:
    inbox = Inbox()
    book = SeatBook(["Anne", "Bruno"], inbox)
    assert book.claim(0, "terminal") is not None
    assert book.claim(0, "web") is None
    assert book.seat_named("anne") == 0 and book.seat_named("Zoé") is None
    assert book.release(0) and not book.release(0)
    assert book.claim(0, "web") is not None
