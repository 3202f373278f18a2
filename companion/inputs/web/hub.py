"""Seat pages: each player's own private channel on their phone (issue #12), on aiohttp.

`WebHub` is a standalone object with a thread-safe API; the table calls it from its loop:

    hub = WebHub(inbox, names, langs=..., humans=[...], game_title="Les 5 KIKOI")
    hub.start()                    # serves in its own thread; hub.table_url is the address
    hub.write_urls(path)           # {"Anne": "http://.../t/s/<secret>"} for scripts
    hub.release(seat)              # « libère Anne » said at the table

A page (or a second terminal) claiming a seat makes the hub post
`Device(SeatClaimed(seat, channel), "web")` to the inbox; the channel (a `SeatChannel`) is
what the table attaches and delivers to. Lines typed or buttons pressed on the page are
posted as `Line(text, seat, source="web")`. Nothing else reaches the game.

Addresses (under `PREFIX`, so that the rules pages can share the same aiohttp application:
`hub.add_routes(app)` adds them to any `web.Application`):

    /t                  the table address: no secret; lists the free seats to claim
    /t/claim            POST seat=N: claims it, redirects to the seat's secret page
    /t/s/{token}        the seat's page (the token is unguessable: secrets.token_urlsafe)
    /t/s/{token}/events its lines as Server-Sent Events (catch-up with Last-Event-ID)
    /t/s/{token}/line   POST line=...: a command of that seat
    /t/s/{token}/release POST: the seat's owner hands it over
    /t/app.js, /t/app.css, /t/qr.png

A seat belongs to the device that claimed it (issue #25): the claim gives that browser a key
(an HttpOnly cookie whose path is the seat's own address); another device opening the same
address is told the seat is taken, gets none of its lines, and the table hears « un autre
appareil demande la place ». Only the owner hands the seat over: from her device (the
page's « Libérer ma place ») or « Anne : libère » at the table. Every request must name a
host the server is reached by (an address, localhost, a .local name) and every post must
come from the page itself (its Origin), so another web page the phone opens cannot claim a
seat or speak for one. Secrets and keys are compared in constant time.
"""

from __future__ import annotations

import asyncio
import hmac
import html
import json
import secrets
import socket
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from aiohttp import web

from companion.narration import Msg, Priority, Raw, catalog, say
from companion.net.edge import Gate, gate_middleware, host_allowed, listen, same_origin
from companion.session.inbox import Device, Inbox, Line, Notice

from .assets import APP_CSS, APP_JS
from .seats import Claim, SeatBook

#: how many released seat addresses are remembered (to tell a late page it was released)
DEAD_KEPT = 64
PREFIX = "/t"
MAX_LINE = 200  # characters in one command line
RATE_LINES = 5  # lines a seat may send ...
RATE_WINDOW = 3.0  # ... in this many seconds
STREAM_LIFE = 600.0  # a stream ends after this (the page reconnects and catches up)
HEARTBEAT = 15.0  # a comment on idle streams, so that proxies and phones keep them open
IDLE_TIMEOUT = 30.0  # seconds an HTTP connection may stay idle between requests
COOKIE = "companion_seat"  # the device's key to its seat (path: the seat's address)
KEY_LIFE = 24 * 3600  # seconds a phone keeps its key
CONTEST_QUIET = 30.0  # seconds before the table hears again that another device asks for a seat
SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'none'; script-src 'self'; style-src 'self'; "
                                "connect-src 'self'; img-src 'self'; form-action 'self'; "
                                "base-uri 'none'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    # a seat's address never leaks in a Referer to another site; and the page's own posts carry
    # their Origin (under "no-referrer" a browser sends « Origin: null », which any site can forge)
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
}
# The shared commands the big buttons send, in this order.
BUTTONS = ("repeat", "status", "help", "yes", "no")


def button_words(lang: str) -> list[tuple[str, str]]:
    """(command, word) of each big button: the first word of that command in the page's
    language's shared table (`language/<lang>/shared.json`), the same word as the keyboard's."""
    from companion.language.tables import spoken

    words = spoken("shared", "words", lang)
    return [(cmd, str(words[cmd][0])) for cmd in BUTTONS]


def _t(lang: str, msg_id: str, **params: Any) -> str:
    return catalog(lang).text(Msg(msg_id, **params))


def warm_catalogs(langs: list[str]) -> None:
    """Load the core messages before any server thread renders one: the shared catalog loads
    a domain lazily and is not safe to load from two threads at once."""
    for lang in set(langs):
        catalog(lang).has("core.web.title")


class WebHub:
    def __init__(self, inbox: Inbox, names: list[str], *, langs: list[str] | None = None,
                 humans: list[int] | None = None, lang: str = "fr", game_title: str = "",
                 host: str = "127.0.0.1", port: int = 0, book: SeatBook | None = None,
                 hostnames: tuple[str, ...] = (), gate: Gate | None = None) -> None:
        self.inbox = inbox
        self.names = list(names)
        self.lang = lang
        self.langs = list(langs) if langs else [lang] * len(names)
        warm_catalogs([lang, *self.langs])
        self.game_title = game_title
        self.host = host
        self.port = port
        self.book = book or SeatBook(names, inbox, humans)
        self.book.on_release.append(self._released)
        self._sent: dict[int, deque[float]] = {}
        # one unguessable secret per seat; a new one when the seat is released
        self._tokens = {seat: secrets.token_urlsafe(24) for seat in range(len(names))}
        self._dead: dict[str, int] = {}  # released addresses -> their seat (DEAD_KEPT newest)
        self._keys: dict[int, tuple[Claim, str]] = {}  # seat -> (its claim, its device's key)
        self._contested: dict[int, float] = {}  # seat -> when the table last heard of a stranger
        self._urls_path: Path | None = None  # --web-urls: rewritten when an address changes
        # the names this server is reached by besides addresses, localhost and .local names
        self.hostnames = {h.lower().rstrip(".") for h in (*hostnames, socket.gethostname())}
        self.gate = gate or Gate(header_timeout=IDLE_TIMEOUT)
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._server: asyncio.Server | None = None
        self._thread: threading.Thread | None = None
        self.base_url = ""
        self.plain_url = ""  # the address itself, when `base_url` is the announced mDNS name
        self.announcer: Any = None  # issue 28: the mDNS announcement of `--lan` (web/play.py)

    # --- thread-safe API for the table ------------------------------------------------------
    @property
    def table_url(self) -> str:
        return f"{self.base_url}{PREFIX}"

    def use_name(self, base_url: str) -> None:
        """Issue 28: the table's address and its QR codes use the announced mDNS name
        (`http://companion.local:8766`); the plain address stays in `plain_url`, for phones
        that cannot resolve .local names and for the seats' secret addresses (`--web-urls`:
        scripts on machines without an mDNS resolver)."""
        self.plain_url = self.plain_url or self.base_url
        self.base_url = base_url

    def seat_url(self, seat: int) -> str:
        """The seat's secret address (`--web-urls`, for scripts); opening it claims the seat."""
        with self._lock:
            return f"{self.plain_url or self.base_url}{PREFIX}/s/{self._tokens[seat]}"

    def urls(self) -> dict[str, str]:
        return {self.names[s]: self.seat_url(s) for s in sorted(self.book.humans)}

    def write_urls(self, path: Path) -> None:
        """`--web-urls FILE`: every human seat's secret address as JSON (readable by the user only)."""
        self._urls_path = path
        data = json.dumps(self.urls(), ensure_ascii=False, indent=1)
        path.touch(mode=0o600, exist_ok=True)
        path.chmod(0o600)
        tmp = path.with_name(path.name + ".tmp")  # a script reading it never sees half a file
        tmp.touch(mode=0o600, exist_ok=True)
        tmp.chmod(0o600)
        tmp.write_text(data + "\n", encoding="utf-8")
        tmp.replace(path)

    def channel(self, seat: int) -> Any:
        """The Channel of `seat` when a page or terminal holds it, else None."""
        claim = self.book.claimed(seat)
        return claim.channel if claim else None

    def release(self, seat: int) -> bool:
        return self.book.release(seat)

    def qr_text(self) -> str:
        import io

        import qrcode

        qr = qrcode.QRCode(border=2)
        qr.add_data(self.table_url)
        out = io.StringIO()
        qr.print_ascii(out=out, invert=True)
        return out.getvalue()

    def qr_png(self, path: Path | None = None) -> bytes:
        import io

        import qrcode

        img = qrcode.make(self.table_url, border=2)
        buf = io.BytesIO()
        img.save(buf, format="PNG")
        data = buf.getvalue()
        if path is not None:
            path.write_bytes(data)
        return data

    # --- the server in its own thread --------------------------------------------------------
    def start(self, timeout: float = 10.0) -> str:
        """Serve in a daemon thread; returns the table's address."""
        ready = threading.Event()
        errors: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._serve())
            except BaseException as exc:  # noqa: BLE001 - reported to start()'s caller
                errors.append(exc)
                ready.set()
                return
            ready.set()
            loop.run_forever()
            loop.run_until_complete(self._cleanup())
            loop.close()

        self._thread = threading.Thread(target=run, name="web-hub", daemon=True)
        self._thread.start()
        ready.wait(timeout)
        if errors:
            raise errors[0]
        return self.table_url

    def stop(self) -> None:
        if self.announcer is not None:  # issue 28: the mDNS name withdrawn
            self.announcer.close()
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._loop = None

    def make_app(self) -> web.Application:
        app = web.Application(client_max_size=4096, middlewares=[gate_middleware(self.gate), _headers])
        self.add_routes(app)
        return app

    def add_routes(self, app: web.Application) -> None:
        """Add the seat pages to an aiohttp application (the rules server's, for one server)."""
        app.router.add_get(PREFIX, self._table)
        app.router.add_post(PREFIX + "/claim", self._claim)
        app.router.add_get(PREFIX + "/app.js", self._asset)
        app.router.add_get(PREFIX + "/app.css", self._asset)
        app.router.add_get(PREFIX + "/qr.png", self._qr)
        app.router.add_get(PREFIX + "/s/{token}", self._seat_page)
        app.router.add_get(PREFIX + "/s/{token}/events", self._events)
        app.router.add_post(PREFIX + "/s/{token}/line", self._line)
        app.router.add_post(PREFIX + "/s/{token}/release", self._release)
        if _headers not in app.middlewares:
            app.middlewares.append(_headers)
        app.middlewares.append(self._guard)

    async def _serve(self) -> None:
        self._runner = web.AppRunner(self.make_app(), keepalive_timeout=IDLE_TIMEOUT, access_log=None,
                                     shutdown_timeout=1.0, handle_signals=False)
        await self._runner.setup()
        # behind the gate, quietly: no request from the network ever prints (issue #25)
        self._server = await listen(self._runner, self.host, self.port, self.gate)
        port = self._server.sockets[0].getsockname()[1] if self._server.sockets else self.port
        self.port = port
        shown = "127.0.0.1" if self.host in ("127.0.0.1", "localhost") else _lan_address()
        self.base_url = f"http://{shown}:{port}"

    async def _cleanup(self) -> None:
        server = getattr(self, "_server", None)
        if server is not None:
            server.close()
        for transport in list(self.gate.conns):
            transport.abort()
        if self.gate.task is not None:
            self.gate.task.cancel()
        if self._runner is not None:
            await self._runner.cleanup()

    # --- helpers -------------------------------------------------------------------------------
    def _seat_named_by(self, token: str) -> int | None:
        """The human seat whose secret is `token` (compared in constant time with every seat's)."""
        found = None
        given = token.encode()
        with self._lock:
            tokens = dict(self._tokens)
        for seat, secret in tokens.items():
            if hmac.compare_digest(secret.encode(), given):
                found = seat
        return found if found in self.book.humans else None

    def _bind(self, seat: int, claim: Claim) -> str:
        """The new key of the device that just claimed `seat`."""
        key = secrets.token_urlsafe(24)
        with self._lock:
            self._keys[seat] = (claim, key)
        return key

    def _owner(self, request: web.Request, seat: int, *, claim_free: bool) -> tuple[Claim, str | None] | None:
        """(the seat's claim, a new key to give or None) when this device holds `seat`, after
        claiming it when it is free and `claim_free`; None when another device or a terminal holds it."""
        claim = self.book.claimed(seat)
        if claim is None and claim_free:
            claim = self.book.claim(seat, "web")
            if claim is not None:
                return claim, self._bind(seat, claim)
            claim = self.book.claimed(seat)
        if claim is None or claim.source != "web":
            return None
        with self._lock:
            bound = self._keys.get(seat)
        given = request.cookies.get(COOKIE, "")
        if bound is not None and bound[0] is claim and hmac.compare_digest(bound[1].encode(), given.encode()):
            return claim, None
        return None

    def _contest(self, seat: int) -> None:
        """Another device asked for a held seat: the table hears it (once in a while: a device
        retrying must not fill the table's screen)."""
        now = time.monotonic()
        with self._lock:
            if now - self._contested.get(seat, -CONTEST_QUIET) < CONTEST_QUIET:
                return
            self._contested[seat] = now
        utt = say("core.web.seat_contested", Priority.MESSAGE, player=Raw(self.names[seat]))
        self.inbox.post(Device(Notice(utt), "web"))

    def _key_cookie(self, resp: web.StreamResponse, token: str, key: str) -> None:
        resp.set_cookie(COOKIE, key, path=f"{PREFIX}/s/{token}", max_age=KEY_LIFE, httponly=True, samesite="Lax")

    @web.middleware
    async def _guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Host and Origin checks of every seat-page request (issue #25)."""
        if request.path == PREFIX or request.path.startswith(PREFIX + "/"):
            host = request.headers.get("Host", "")
            if not host_allowed(host, self.hostnames):
                raise web.HTTPForbidden(text="Unknown host.\n")
            if request.method == "POST" and not same_origin(request, host):
                raise web.HTTPForbidden(text="Cross-site request refused.\n")
        return await handler(request)  # type: ignore[no-any-return]

    def _allowed(self, seat: int) -> bool:
        now = time.monotonic()
        with self._lock:
            sent = self._sent.setdefault(seat, deque())
            while sent and now - sent[0] > RATE_WINDOW:
                sent.popleft()
            if len(sent) >= RATE_LINES:
                return False
            sent.append(now)
            return True

    def _released(self, seat: int, claim: Claim) -> None:
        with self._lock:
            self._sent.pop(seat, None)
            self._keys.pop(seat, None)
            self._contested.pop(seat, None)
            if claim.source != "web":
                return
            # the old page is cut off; its address is remembered as released, so a page that
            # (re)connects only now — asleep, or still opening — is told so, not left waiting
            self._dead[self._tokens[seat]] = seat
            while len(self._dead) > DEAD_KEPT:
                self._dead.pop(next(iter(self._dead)))
            self._tokens[seat] = secrets.token_urlsafe(24)
        if self._urls_path is not None:  # --web-urls holds no dead address (issue #25)
            try:
                self.write_urls(self._urls_path)
            except OSError:
                pass  # the file's folder is gone: the table address still works

    # --- handlers ------------------------------------------------------------------------------
    async def _asset(self, request: web.Request) -> web.Response:
        if request.path.endswith(".js"):
            return web.Response(text=APP_JS, content_type="text/javascript", charset="utf-8")
        return web.Response(text=APP_CSS, content_type="text/css", charset="utf-8")

    async def _qr(self, request: web.Request) -> web.Response:
        return web.Response(body=self.qr_png(), content_type="image/png")

    async def _table(self, request: web.Request, message: str = "", status: int = 200) -> web.Response:
        lang = self.lang
        title = _t(lang, "core.web.table_title", game=self.game_title)
        items = []
        for seat in sorted(self.book.humans):
            if self.book.claimed(seat):
                items.append(f"<li>{html.escape(_t(lang, 'core.web.taken', player=self.names[seat]))}</li>")
            else:
                label = html.escape(_t(lang, "core.web.claim", player=self.names[seat]))
                items.append(f'<li><form method="post" action="{PREFIX}/claim">'
                             f'<input type="hidden" name="seat" value="{seat}">'
                             f'<button type="submit">{label}</button></form></li>')
        note = f'<p id="status" role="alert">{html.escape(message)}</p>' if message else ""
        page = (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
                f'<meta name="viewport" content="width=device-width, initial-scale=1">'
                f"<title>{html.escape(title)}</title>"
                f'<link rel="stylesheet" href="{PREFIX}/app.css"></head><body><main>'
                f"<h1>{html.escape(title)}</h1>{note}<ul>{''.join(items)}</ul></main></body></html>")
        return web.Response(text=page, content_type="text/html", charset="utf-8", status=status)

    async def _claim(self, request: web.Request) -> web.StreamResponse:
        form = await request.post()
        try:
            seat = int(str(form.get("seat", "")))
        except ValueError:
            raise web.HTTPBadRequest() from None
        if seat not in self.book.humans:
            raise web.HTTPBadRequest()
        claim = self.book.claim(seat, "web")
        if claim is None:
            return await self._table(request, _t(self.lang, "core.web.taken", player=self.names[seat]), 409)
        key = self._bind(seat, claim)
        with self._lock:
            token = self._tokens[seat]
        resp = web.Response(status=303, headers={"Location": f"{PREFIX}/s/{token}"})
        self._key_cookie(resp, token, key)
        return resp

    async def _held_elsewhere(self, request: web.Request, seat: int) -> web.Response:
        """What another device gets: the seat is taken, none of its lines; the table is told."""
        self._contest(seat)
        message = _t(self.lang, "core.web.other_device", player=self.names[seat])
        if "application/json" in request.headers.get("Accept", ""):
            return web.json_response({"ok": False, "error": message}, status=409)
        return await self._table(request, message, 409)

    async def _seat_page(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        seat = self._seat_named_by(token)
        if seat is None:
            raise web.HTTPNotFound()
        owner = self._owner(request, seat, claim_free=True)
        if owner is None:
            return await self._held_elsewhere(request, seat)
        claim, key = owner
        lang = self.langs[seat]
        name = self.names[seat]
        t = lambda msg_id, **p: html.escape(_t(lang, msg_id, **p))  # noqa: E731
        tag = t("core.web.private_tag")
        lines: list[str] = []
        earlier: list[str] = []
        channel = claim.channel
        seen = channel.shown  # None: the first time this claim's page is shown
        last = 0
        for h in channel.since(0):
            mark = f"<strong>{tag} </strong>" if h.private else ""
            cls = ' class="private"' if h.private else ""
            (earlier if seen is not None and h.n <= seen else lines).append(f"<p{cls}>{mark}{html.escape(h.text)}</p>")
            last = h.n
        if seen is not None:
            # #29: a reloaded page says « Reprise » and only what is new; what was shown before
            # stays one step away, outside the live log
            lines.insert(0, f'<p class="resumed">{t("core.web.resumed" if lines else "core.web.resumed_nothing")}</p>')
        channel.shown = max(seen or 0, last)
        before = (f'<details><summary>{t("core.web.earlier")}</summary>{"".join(earlier)}</details>'
                  if earlier else "")
        base = f"{PREFIX}/s/{request.match_info['token']}"
        buttons = "".join(f'<button type="button" data-say="{html.escape(word)}">{t("core.web.button." + cmd)}</button>'
                          for cmd, word in button_words(lang))
        title = t("core.web.title", player=name, game=self.game_title)
        page = (
            f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta name="referrer" content="same-origin">'
            f"<title>{title}</title>"
            f'<link rel="stylesheet" href="{PREFIX}/app.css">'
            f'<script src="{PREFIX}/app.js" defer></script></head>'
            f'<body data-events="{base}/events" data-last="{last}" data-private-tag="{tag}" '
            f'data-offline="{t("core.web.offline")}"><main>'
            f"<h1>{t('core.web.heading', player=name)}</h1>"
            f'<form id="say" method="post" action="{base}/line">'
            f'<label for="line">{t("core.web.command_label")}</label>'
            f'<input type="text" id="line" name="line" maxlength="{MAX_LINE}" autocomplete="off" '
            f'autocapitalize="off" spellcheck="false" autofocus>'
            f'<button type="submit">{t("core.web.send")}</button></form>'
            f'<div role="group" aria-label="{t("core.web.buttons")}">{buttons}</div>'
            f'<p id="status" role="status"></p>'
            f'<h2 id="heard">{t("core.web.log_label")}</h2>'
            f'{before}<div id="log" role="log" aria-live="polite" aria-labelledby="heard" tabindex="0">{"".join(lines)}</div>'
            f'<label class="check"><input type="checkbox" id="speak"> {t("core.web.speak_private")}</label>'
            f'<form id="leave" method="post" action="{base}/release">'
            f'<button type="submit">{t("core.web.release_button")}</button></form>'
            f"</main></body></html>")
        resp = web.Response(text=page, content_type="text/html", charset="utf-8")
        if key is not None:
            self._key_cookie(resp, token, key)
        return resp

    def _owned(self, request: web.Request) -> tuple[int, Claim | None]:
        """The seat of this address, and its claim when this device holds it (else None);
        raises 404 for an unknown address."""
        seat = self._seat_named_by(request.match_info["token"])
        if seat is None:
            raise web.HTTPNotFound()
        owner = self._owner(request, seat, claim_free=False)
        return seat, (owner[0] if owner is not None else None)

    async def _release(self, request: web.Request) -> web.StreamResponse:
        """The owner hands her seat over from her own device; the table hears it is free."""
        seat, claim = self._owned(request)
        if claim is None:
            return await self._held_elsewhere(request, seat)
        if self.book.claimed(seat) is claim:
            self.book.release(seat)
        if "application/json" in request.headers.get("Accept", ""):
            return web.json_response({"ok": True, "error": ""})
        raise web.HTTPSeeOther(PREFIX)

    async def _line(self, request: web.Request) -> web.StreamResponse:
        seat, claim = self._owned(request)
        if claim is None:
            return await self._held_elsewhere(request, seat)
        lang = self.langs[seat]
        form = await request.post()
        text = str(form.get("line", "")).replace("\r", " ").replace("\n", " ").strip()
        error, status = "", 200
        if len(text) > MAX_LINE:
            error, status = _t(lang, "core.web.too_long", n=MAX_LINE), 400
        elif text and not self._allowed(seat):
            error, status = _t(lang, "core.web.too_fast"), 429
        elif text:
            self.inbox.post(Line(text, seat, source="web"))
        if "application/json" in request.headers.get("Accept", ""):
            return web.json_response({"ok": not error, "error": error}, status=status)
        raise web.HTTPSeeOther(f"{PREFIX}/s/{request.match_info['token']}")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        dead = self._dead.get(request.match_info["token"])
        if dead is not None:
            return await self._released_stream(request, dead)
        seat, claim = self._owned(request)
        if claim is None:
            return await self._held_elsewhere(request, seat)
        channel = claim.channel
        try:
            after = int(request.headers.get("Last-Event-ID") or request.query.get("after", "0"))
        except ValueError:
            after = 0
        resp = web.StreamResponse(headers={**SECURITY_HEADERS, "Content-Type": "text/event-stream",
                                           "X-Accel-Buffering": "no"})
        await resp.prepare(request)
        loop = asyncio.get_running_loop()
        wake = asyncio.Event()
        def _wake() -> None:
            loop.call_soon_threadsafe(wake.set)

        off = channel.subscribe(_wake)
        started = time.monotonic()
        try:
            await resp.write(b"retry: 2000\n\n")
            while time.monotonic() - started < STREAM_LIFE:
                for h in channel.since(after):
                    data = json.dumps({"n": h.n, "text": h.text, "private": h.private, "lang": h.lang},
                                      ensure_ascii=False)
                    await resp.write(f"id: {h.n}\ndata: {data}\n\n".encode())
                    after = h.n
                    channel.shown = max(channel.shown or 0, h.n)
                if channel.closed:
                    note = _t(self.langs[seat], "core.web.released")
                    await resp.write(f"event: released\ndata: {note}\n\n".encode())
                    break
                wake.clear()
                if channel.since(after) or channel.closed:
                    continue
                try:
                    await asyncio.wait_for(wake.wait(), HEARTBEAT)
                except TimeoutError:
                    await resp.write(b": idle\n\n")
        except ConnectionResetError:
            pass  # the page went away; it reconnects and catches up
        finally:
            off()
        return resp


    async def _released_stream(self, request: web.Request, seat: int) -> web.StreamResponse:
        """The events of a released address: only that it was released (nothing of the seat)."""
        resp = web.StreamResponse(headers={**SECURITY_HEADERS, "Content-Type": "text/event-stream"})
        await resp.prepare(request)
        note = _t(self.langs[seat], "core.web.released")
        await resp.write(f"retry: 2000\n\nevent: released\ndata: {note}\n\n".encode())
        return resp


@web.middleware
async def _headers(request: web.Request, handler: Any) -> web.StreamResponse:
    try:
        resp = await handler(request)
    except web.HTTPException as exc:
        exc.headers.update(SECURITY_HEADERS)
        raise
    if request.path.startswith(PREFIX) and not resp.prepared:
        for k, v in SECURITY_HEADERS.items():
            resp.headers.setdefault(k, v)
    return resp  # type: ignore[no-any-return]


def _lan_address() -> str:
    """This computer's address on the local network (for the phones), else 127.0.0.1."""
    import socket

    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # TEST-NET: nothing is sent; picks the outgoing interface
        return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


__all__ = ["MAX_LINE", "PREFIX", "RATE_LINES", "RATE_WINDOW", "WebHub"]
