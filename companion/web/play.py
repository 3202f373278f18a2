"""`companion play ... --web [--lan] [--port N] [--web-urls FILE] [--qr FILE.png] [--join]`:
the seats' pages and terminals around a running game (docs/private-channels.md)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.inbox import Inbox
from companion.narration import Priority, Raw

from .seats import SeatBook


def open_channels(inbox: Inbox, names: list[str], humans: list[int], langs: list[str], lang: str,
                  title: str, args: argparse.Namespace) -> tuple[SeatBook, Any, Any]:
    """The shared seat book, the web hub (or None) and the terminals' server (or None), started.

    This is what the table loop calls once the match is made; every claim, line and release
    then arrives in `inbox`. Returns (book, hub, join_server)."""
    book = SeatBook(names, inbox, humans)
    hub = None
    if getattr(args, "web", False):
        from .hub import WebHub

        hub = WebHub(inbox, names, langs=langs, humans=humans, lang=lang, game_title=title,
                     host="0.0.0.0" if args.lan else "127.0.0.1", port=args.port, book=book)
        hub.start()
    join = None
    if getattr(args, "web", False) or getattr(args, "join", False):
        from companion.adapters.join import JoinServer

        join = JoinServer(book, langs)
        join.start()
    return book, hub, join


def announce(hub: Any, args: argparse.Namespace, tell: Callable[..., None], out: Callable[[str], None]) -> None:
    """The table address (said and printed by `tell(msg_id, **params)`), its QR code printed by
    `out` and saved as PNG with `--qr`, the seats' secret addresses with `--web-urls`."""
    if hub is None:
        return
    if args.lan:
        tell("core.web.lan", priority=Priority.IMPORTANT)
        _announce_mdns(hub, args, out)
    tell("core.web.table_url", url=Raw(hub.table_url))
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
    from companion.audiorules.announce import AnnounceError, parse_interfaces
    from companion.audiorules.cli import announce_lan

    from .hub import PREFIX

    try:
        interfaces = parse_interfaces(getattr(args, "mdns_interfaces", None))
    except AnnounceError as exc:
        out(str(exc))
        return
    hub.announcer = announce_lan(hub.port, interfaces, out, hub.lang, enabled=not getattr(args, "no_mdns", False),
                                 path=PREFIX, persist=False)


__all__ = ["announce", "open_channels"]
