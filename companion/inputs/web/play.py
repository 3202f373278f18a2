"""`companion play ... --web [--lan] [--port N] [--web-urls FILE] [--qr FILE.png] [--join]`:
the seats' pages and terminals around a running game (docs/private-channels.md)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.narration import Priority, Raw
from companion.session.inbox import Inbox, Line

from .seats import SeatBook, release_target, release_words


def open_channels(inbox: Inbox, names: list[str], humans: list[int], langs: list[str], lang: str,
                  title: str, args: argparse.Namespace,
                  notes: list[tuple[str, dict[str, Any]]] | None = None) -> tuple[SeatBook, Any, Any]:
    """The shared seat book, the web hub (or None) and the terminals' server (or None), started.

    This is what the table loop calls once the match is made; every claim, line and release
    then arrives in `inbox`. Returns (book, hub, join_server). What the table should hear
    about them (no private folder for the terminals' socket) is added to `notes` as
    (message id, parameters)."""
    book = SeatBook(names, inbox, humans)
    hub = None
    if getattr(args, "web", False):
        from .hub import WebHub

        hub = WebHub(inbox, names, langs=langs, humans=humans, lang=lang, game_title=title,
                     host="0.0.0.0" if args.lan else "127.0.0.1", port=args.port, book=book)
        hub.start()
    join = None
    if getattr(args, "web", False) or getattr(args, "join", False):
        from companion.inputs.terminal import JoinServer, Unavailable

        try:
            join = JoinServer(book, langs)
            join.start()
        except Unavailable as exc:  # the game goes on without terminals (issue #25)
            join = None
            if notes is not None:
                notes.append(("core.join.unsafe_folder", {"path": Raw(str(exc.path))}))
    return book, hub, join


class TableKeys:
    """Where the table's keyboard posts when seats have pages or terminals: « Anne : libère »
    (the owner speaking for herself) reaches the core as « libère Anne », the table's word
    that frees a seat (the core reads a `Name:` prefix as the speaker and would not see it)."""

    def __init__(self, inner: Any, names: list[str]) -> None:
        self.inner = inner
        self.names = names

    def post(self, item: Any) -> None:
        if isinstance(item, Line) and item.source == "keyboard" and ":" in item.text:
            seat = release_target(item.text, self.names)
            if seat is not None:
                item = Line(f"{release_words()[0]} {self.names[seat]}", source=item.source)
        self.inner.post(item)


def announce(hub: Any, args: argparse.Namespace, tell: Callable[..., None], out: Callable[[str], None]) -> None:
    """The table address (said and printed by `tell(msg_id, **params)`), its QR code printed by
    `out` and saved as PNG with `--qr`, the seats' secret addresses with `--web-urls`."""
    if hub is None:
        return
    from .hub import PREFIX

    if args.lan:
        tell("core.web.lan", priority=Priority.IMPORTANT)
        _announce_mdns(hub, args, out)
        announced = getattr(hub.announcer, "announced", None)
        if announced is not None:  # issue 28: the QR codes and the address say the .local name
            hub.use_name(announced.base_url)
    tell("core.web.table_url", url=Raw(hub.table_url))
    if hub.plain_url:
        tell("core.web.plain_url", url=Raw(hub.plain_url + PREFIX))
    out(hub.qr_text())
    if getattr(args, "qr", None):
        hub.qr_png(Path(args.qr))
        tell("core.web.qr_png", path=Raw(str(args.qr)))
    if getattr(args, "web_urls", None):
        hub.write_urls(Path(args.web_urls))
        tell("core.web.urls_written", path=Raw(str(args.web_urls)))


def _announce_mdns(hub: Any, args: argparse.Namespace, out: Callable[[str], None]) -> None:
    """`--lan`: the seats' pages announced by mDNS too (issue 28), the name not kept for the
    rules labels (a `companion serve --lan` on this machine keeps its own)."""
    from companion.audiorules.announce import AnnounceError, announce_lan, parse_interfaces

    from .hub import PREFIX

    try:
        interfaces = parse_interfaces(getattr(args, "mdns_interfaces", None))
    except AnnounceError as exc:
        out(str(exc))
        return
    hub.announcer = announce_lan(hub.port, interfaces, out, hub.lang, enabled=not getattr(args, "no_mdns", False),
                                 path=PREFIX, persist=False)


__all__ = ["TableKeys", "announce", "open_channels"]
