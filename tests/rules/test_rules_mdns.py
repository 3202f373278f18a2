"""`companion serve --lan` announces companion.local and an _http._tcp service by mDNS, resolved
here by an independent client in another process — on the loopback interface only
(COMPANION_MDNS_INTERFACES=127.0.0.1, set for every test in tests/conftest.py)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from companion.audiorules import announce
from companion.audiorules.announce import AnnounceError, parse_interfaces
from companion.audiorules.scan import decode
from companion.cli.rules import serve_main

from .mdns_helpers import LOOPBACK, Serve, browse_from_another_process


def test_tests_never_multicast_on_a_real_interface() -> None:
    assert parse_interfaces(None) == [LOOPBACK]


def test_serve_lan_is_resolved_by_another_process(tmp_path: Path, empty_build: Path) -> None:
    srv = Serve(tmp_path / "xdg")
    try:
        line = srv.wait_for("Announced on the local network as")
        url = re.search(r"(http://companion\.local:(\d+)/)", line)
        assert url, line
        port = int(url[2])
        plain = srv.wait_for("For phones that cannot open .local names:")
        assert plain.endswith(f"http://{LOOPBACK}:{port}/")
        seen = browse_from_another_process("companion")
        assert seen["browsed"] is True
        assert seen["server"] == "companion.local."
        assert seen["port"] == port
        assert seen["txt"]["path"] == "/" and seen["txt"]["rules"] == "/{game}/{lang}/"
        assert seen["txt"]["games"] == "kikoi,kaliko,goodfortune,kissa"
        assert seen["addresses"] == [LOOPBACK]
        # the address resolved serves the rules page
        with urllib.request.urlopen(f"http://{seen['addresses'][0]}:{port}/kikoi/fr/", timeout=10) as resp:
            assert resp.status == 200 and "Les 5 KIKOI" in resp.read().decode("utf-8")
    finally:
        lines = srv.stop()
    assert "Server stopped." in lines
    assert json.loads((tmp_path / "xdg" / "companion" / "mdns.json").read_text()) == {"host": "companion"}


def test_a_second_companion_takes_its_own_name_and_says_so(tmp_path: Path, empty_build: Path) -> None:
    first = Serve(tmp_path / "first")
    try:
        first.wait_for("Announced on the local network as companion.local")
        second = Serve(tmp_path / "second")
        try:
            said = second.wait_for("is already taken")
            assert said == ("The name companion.local is already taken by another companion on this network: "
                            "this one takes the name companion-2.local. Print its labels with this name.")
            second.wait_for("Announced on the local network as companion-2.local")
            seen = browse_from_another_process("companion-2")
            assert seen["server"] == "companion-2.local." and seen["addresses"] == [LOOPBACK]
        finally:
            second.stop()
        # the name is kept: this machine asks for companion-2 again next time
        assert json.loads((tmp_path / "second" / "companion" / "mdns.json").read_text()) == {"host": "companion-2"}
    finally:
        first.stop()


def test_a_bad_interface_is_one_sentence() -> None:
    out: list[str] = []
    assert serve_main(["--lan", "--port", "0", "--mdns-interfaces", "eth0"], print_fn=out.append) == 2
    assert out == ["Erreur : 'eth0' is not an IPv4 address of this machine (for COMPANION_MDNS_INTERFACES)"]


def test_an_address_this_machine_lacks_is_one_sentence() -> None:
    out: list[str] = []
    assert serve_main(["--lan", "--port", "0", "--mdns-interfaces", "198.51.100.77"], print_fn=out.append) == 1
    assert out == ["Erreur : an address given with --mdns-interfaces or COMPANION_MDNS_INTERFACES is not one "
                   "of this machine's"]


def test_interfaces_from_the_option_or_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert parse_interfaces("127.0.0.1, 192.168.1.20") == ["127.0.0.1", "192.168.1.20"]
    monkeypatch.setenv("COMPANION_MDNS_INTERFACES", "10.0.0.5")
    assert parse_interfaces(None) == ["10.0.0.5"]
    monkeypatch.setenv("COMPANION_MDNS_INTERFACES", "")
    assert parse_interfaces(None) is None
    with pytest.raises(AnnounceError):
        parse_interfaces("999.1.1.1")


def test_the_saved_name_survives_and_a_damaged_file_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert announce.saved_name() == "companion"
    assert announce.home_base_url() == "http://companion.local:8765"
    announce.save_name("companion-3")
    assert announce.saved_name() == "companion-3"
    assert list(announce.candidates("companion-3"))[:3] == ["companion-3", "companion", "companion-2"]
    announce.config_file().write_text("{not json", encoding="utf-8")
    assert announce.saved_name() == "companion"
    announce.config_file().write_text('{"host": "evil.example.org"}', encoding="utf-8")
    assert announce.saved_name() == "companion"


def test_beside_another_responder_holding_port_5353(tmp_path: Path, empty_build: Path) -> None:
    """avahi-daemon (Raspberry Pi OS runs it) holds UDP 5353 with SO_REUSEADDR and SO_REUSEPORT
    and joins the mDNS group (avahi-core/socket.c): a socket made the same way, on loopback, is
    held open meanwhile; the companion still announces and another process still resolves it.
    (Not avahi-daemon itself: installing it starts it on the machine's real interfaces.)"""
    import socket

    held = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
    held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    held.bind(("", 5353))
    held.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                    socket.inet_aton("224.0.0.251") + socket.inet_aton(LOOPBACK))
    srv = Serve(tmp_path / "xdg")
    try:
        srv.wait_for("Announced on the local network as companion.local")
        seen = browse_from_another_process("companion")
        assert seen["server"] == "companion.local." and seen["addresses"] == [LOOPBACK]
        held.settimeout(5)
        data, _ = held.recvfrom(9000)  # the other responder hears the mDNS traffic too
        assert data
    finally:
        srv.stop()
        held.close()


def test_play_web_lan_announces_the_seats_pages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`companion play … --web --lan`: the table's pages announced the same way (path /t), the
    name not kept for the labels; the hub's stop withdraws it."""
    import argparse

    from companion.inputs.web.hub import WebHub
    from companion.inputs.web.play import announce as announce_table
    from companion.session.inbox import Inbox

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    hub = WebHub(Inbox(), ["Anne", "Bruno"], humans=[0, 1], lang="en", game_title="Kaliko", port=0,
                 host=LOOPBACK)
    hub.start()
    out: list[str] = []
    told: list[tuple[str, str]] = []
    args = argparse.Namespace(lan=True, mdns_interfaces=None, no_mdns=False, qr=tmp_path / "qr.png",
                              web_urls=tmp_path / "urls.json")
    try:
        announce_table(hub, args, lambda msg_id, **p: told.append((msg_id, str(getattr(p.get("url"), "text", "")))),
                       out.append)
        assert f"Announced on the local network as companion.local: labels printed with this name lead to " \
               f"http://companion.local:{hub.port}/t" in out
        seen = browse_from_another_process("companion")
        assert seen["txt"]["path"] == "/t" and seen["port"] == hub.port
        # the table's address and its QR codes use the announced name, the plain address said too
        named, plain = f"http://companion.local:{hub.port}/t", f"http://{LOOPBACK}:{hub.port}/t"
        assert ("core.web.table_url", named) in told and ("core.web.plain_url", plain) in told
        assert decode(args.qr) == [named]  # the PNG saved with --qr
        png = tmp_path / "served.png"
        with urllib.request.urlopen(f"{plain}/qr.png", timeout=30) as r:  # the table page's
            png.write_bytes(r.read())
        assert decode(png) == [named]
        # the name is one the pages answer to; the seats' secret addresses (scripts) stay plain
        req = urllib.request.Request(plain, headers={"Host": f"companion.local:{hub.port}"})
        with urllib.request.urlopen(req, timeout=30) as r:
            assert r.status == 200
        assert all(u.startswith(plain + "/s/") for u in json.loads(args.web_urls.read_text()).values())
    finally:
        hub.stop()
    assert hub.announcer is not None and hub.announcer.zc is None  # withdrawn
    assert not (tmp_path / "xdg" / "companion" / "mdns.json").exists()


def test_beside_a_real_avahi_daemon_in_a_network_namespace() -> None:
    """avahi-daemon (Debian's, as on Raspberry Pi OS) and `companion serve --lan` on the same
    interface of a network namespace made here (a veth pair, no real interface); a phone in a
    second namespace resolves both avahi's host name and companion.local, and browses the
    service. Needs root (CI runs as root) and avahi-daemon (./run installs it)."""
    if os.geteuid() != 0 or not shutil.which("avahi-daemon") or not shutil.which("unshare"):
        if os.environ.get("CI") == "true":
            raise AssertionError("CI must run this as root with avahi-daemon and unshare installed")
        pytest.skip("needs root, unshare and avahi-daemon (apt-get install avahi-daemon)")
    script = Path(__file__).with_name("avahi_netns.py")
    proc = subprocess.run(["unshare", "-n", "-m", "--propagation", "private", sys.executable, str(script)],
                          capture_output=True, text=True, timeout=180,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert proc.returncode == 0, proc.stderr[-1500:]
    seen = json.loads(proc.stdout)
    assert seen["avahi_running"], seen["avahi_log"]
    assert any(line.startswith("Announced on the local network as companion.local") for line in seen["serve"]), seen
    phone = seen["phone"]
    assert phone["tablehost.local."] == ["10.77.0.1"], seen  # avahi answers...
    assert phone["companion.local."] == ["10.77.0.1"], seen  # ...and so does the companion, beside it
    assert phone["service"][0] == "companion.local." and phone["service"][2]["path"] == "/"
