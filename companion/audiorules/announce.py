"""The companion's home address on the local network, announced by mDNS / DNS-SD.

`companion serve --lan` (and `play --web --lan`) announce, with python-zeroconf (a library
nobody here wrote, pure Python, so it works beside a running avahi-daemon as on Raspberry Pi
OS — both share UDP port 5353 — and without one):

* a host name, `companion.local` (an A record for each address the companion listens on);
* an `_http._tcp` service named « companion » (so phones' and computers' service browsers
  list it), whose TXT record gives the rules path (`path=/`, `rules=/<game>/<lang>/`).

So a label printed once with `http://companion.local:8765/...` keeps working on any home
network, whatever address the router gives. A second companion on the same network finds the
name taken (it asks first), takes `companion-2.local` and says so; the name taken is kept in
`$XDG_CONFIG_HOME/companion/mdns.json`, so this machine asks for the same name next time and
its labels stay valid.

Interfaces: `--mdns-interfaces` or `COMPANION_MDNS_INTERFACES` (addresses separated by commas,
e.g. `127.0.0.1`, which the tests use: they never multicast on a real interface); by default
every IPv4 interface but loopback.
"""

from __future__ import annotations

import ipaddress
import json
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import DEFAULT_PORT, GAMES, LANGS

BASE_NAME = "companion"
SERVICE_TYPE = "_http._tcp.local."
PROBE_MS = 2500  # an answer takes up to about 1.4 s: a responder multicasts a record at most
# once a second (RFC 6762 section 6), so a query just after its announcement waits for that
ENV_INTERFACES = "COMPANION_MDNS_INTERFACES"
MAX_TRIES = 20


class AnnounceError(RuntimeError):
    """The announcement could not be made (no interface, no multicast, a bad address)."""


def config_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "companion" / "mdns.json"


def saved_name() -> str:
    """The host name (without `.local`) this machine announced last, else « companion »."""
    try:
        name = json.loads(config_file().read_text(encoding="utf-8")).get("host", "")
    except (OSError, ValueError, AttributeError):
        return BASE_NAME
    return name if isinstance(name, str) and _valid_label(name) else BASE_NAME


def save_name(name: str) -> None:
    path = config_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"host": name}) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass  # a read-only home: the name is announced all the same, asked for afresh next time


def _valid_label(name: str) -> bool:
    return 0 < len(name) <= 63 and all(c.isascii() and (c.isalnum() or c == "-") for c in name) \
        and name.startswith(BASE_NAME)


def home_base_url(port: int = DEFAULT_PORT) -> str:
    """The base URL a label encodes by default: this machine's announced name."""
    return f"http://{saved_name()}.local:{port}"


def candidates(first: str = BASE_NAME):
    """companion, companion-2, companion-3... starting with `first` (the saved name)."""
    yield first
    seen = {first}
    for n in range(1, MAX_TRIES + 1):
        name = BASE_NAME if n == 1 else f"{BASE_NAME}-{n}"
        if name not in seen:
            seen.add(name)
            yield name


def parse_interfaces(text: str | None) -> list[str] | None:
    """The interface addresses of `--mdns-interfaces` / COMPANION_MDNS_INTERFACES, or None (all).
    Raises AnnounceError on a word that is not an IPv4 address."""
    if text is None:
        text = os.environ.get(ENV_INTERFACES)
    if not text or not text.strip():
        return None
    out = []
    for word in text.replace(" ", ",").split(","):
        if not word:
            continue
        try:
            out.append(str(ipaddress.IPv4Address(word)))
        except ValueError as exc:
            raise AnnounceError(f"{word!r} is not an IPv4 address of this machine (for {ENV_INTERFACES})") from exc
    return out or None


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses, loopback excepted (ifaddr, which zeroconf uses itself)."""
    import ifaddr

    out = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ip.ip.startswith("127.") and not ip.ip.startswith("169.254."):
                out.append(ip.ip)
    return sorted(set(out))


@dataclass
class Announced:
    host: str          # e.g. "companion.local"
    instance: str      # e.g. "companion"
    port: int
    addresses: list[str]
    renamed: bool      # the wished name was taken: another companion has it

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"


class Announcer:
    """The mDNS announcement of one server (`start` asks for a free name, then announces it;
    `close` withdraws it: a goodbye packet, so browsers forget it at once)."""

    def __init__(self, port: int, interfaces: list[str] | None = None) -> None:
        self.port = int(port)
        self.interfaces = interfaces
        self.zc: Any = None
        self.info: Any = None
        self.announced: Announced | None = None

    def start(self, wished: str | None = None, persist: bool = True, path: str = "/") -> Announced:
        """Take the first free name from `wished` (by default the saved one) and announce it;
        `persist`: keep the name for next time (the rules server's, which labels encode)."""
        from zeroconf import IPVersion, NonUniqueNameException, ServiceInfo, Zeroconf

        addresses = list(self.interfaces) if self.interfaces else lan_addresses()
        if not addresses:
            raise AnnounceError("no network interface with an IPv4 address: connect to the home network first")
        try:
            self.zc = Zeroconf(interfaces=self.interfaces or addresses, ip_version=IPVersion.V4Only)
        except OSError as exc:
            raise AnnounceError(f"cannot use multicast on {', '.join(addresses)}: {exc.strerror or exc}") from exc
        first = wished or saved_name()
        try:
            for name in candidates(first):
                if self._taken(f"{name}.local."):
                    continue
                info = ServiceInfo(
                    SERVICE_TYPE, f"{name}.{SERVICE_TYPE}", port=self.port, server=f"{name}.local.",
                    addresses=[socket.inet_aton(a) for a in addresses],
                    properties={"path": path, "rules": "/{game}/{lang}/", "games": ",".join(GAMES),
                                "langs": ",".join(LANGS)},
                )
                try:
                    self.zc.register_service(info, allow_name_change=False)
                except NonUniqueNameException:
                    continue  # the service name is taken though the host name was free
                self.info = info
                self.announced = Announced(f"{name}.local", name, self.port, addresses, renamed=name != first)
                if persist:
                    save_name(name)
                return self.announced
        except Exception:
            self.close()
            raise
        self.close()
        raise AnnounceError(f"every name from {BASE_NAME} to {BASE_NAME}-{MAX_TRIES} is taken on this network")

    def _taken(self, host: str) -> bool:
        """Whether another machine (or another companion here) already answers for `host`."""
        from zeroconf import AddressResolverIPv4, DNSQuestionType

        assert self.zc is not None
        # QM: answered by multicast. A unicast answer (QU) to port 5353 can be handed by
        # SO_REUSEPORT to another program's socket on this machine (avahi, another companion).
        return bool(AddressResolverIPv4(host).request(self.zc, PROBE_MS, question_type=DNSQuestionType.QM))

    def close(self) -> None:
        if self.zc is None:
            return
        try:
            if self.info is not None:
                self.zc.unregister_service(self.info)
        finally:
            self.zc.close()
            self.zc, self.info = None, None


def _say(lang: str, msg_id: str, **params: object) -> str:
    from companion.narration import Msg, catalog

    return catalog(lang).text(Msg(msg_id, **params))


def announce_lan(port: int, interfaces: list[str] | None, print_fn, lang: str, *, enabled: bool = True,
                 path: str = "/", persist: bool = True):
    """Announce the server by mDNS and say under which name (and whether it had to change it),
    then the plain addresses for phones without mDNS. Returns the Announcer (close it), or None
    when the announcement is off or failed (said in one sentence: the pages still serve)."""
    announcer = None
    if enabled:
        wished = saved_name()
        announcer = Announcer(port, interfaces)
        try:
            done = announcer.start(wished, persist=persist, path=path)
        except (AnnounceError, OSError) as exc:
            print_fn(_say(lang, "rules.mdns_failed", detail=str(exc)))
            announcer = None
        else:
            if done.renamed:
                print_fn(_say(lang, "rules.mdns_renamed", wished=f"{wished}.local", host=done.host))
            print_fn(_say(lang, "rules.mdns_announced", host=done.host, url=done.base_url + path))
            print_fn(_say(lang, "rules.serve_listening", url=done.base_url + path))
    plain = interfaces or lan_addresses()
    if announcer is None:
        print_fn(_say(lang, "rules.serve_listening", url=f"http://{plain[0] if plain else 'localhost'}:{port}{path}"))
    for addr in plain:
        print_fn(_say(lang, "rules.plain_address", url=f"http://{addr}:{port}{path}"))
    return announcer


__all__ = ["AnnounceError", "Announced", "Announcer", "announce_lan", "home_base_url", "lan_addresses",
           "parse_interfaces", "saved_name"]
