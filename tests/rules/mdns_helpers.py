"""What the mDNS tests share: a `companion serve --lan` in its own process, announced on the
loopback interface only, and an independent client (python-zeroconf in another process, not
the companion's code) that browses and resolves like a phone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"

# The independent client: only python-zeroconf, in a fresh interpreter.
CLIENT = r"""
import json, sys, threading
from zeroconf import AddressResolverIPv4, IPVersion, ServiceBrowser, ServiceInfo, ServiceStateChange, Zeroconf

want = sys.argv[1]
zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
found = threading.Event()
names = []
def seen(zeroconf, service_type, name, state_change):
    if state_change is ServiceStateChange.Added and name == want + "._http._tcp.local.":
        names.append(name); found.set()
browser = ServiceBrowser(zc, "_http._tcp.local.", handlers=[seen])
out = {"browsed": found.wait(15)}
browser.cancel()
if names:
    info = ServiceInfo("_http._tcp.local.", names[0])
    if info.request(zc, 5000):
        out.update(server=info.server, port=info.port,
                   txt={k.decode(): (v or b"").decode() for k, v in info.properties.items()})
        r = AddressResolverIPv4(info.server)
        out["addresses"] = [str(a) for a in r.ip_addresses_by_version(IPVersion.V4Only)] if r.request(zc, 5000) else []
zc.close()
print(json.dumps(out))
"""


def client_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "COMPANION_MDNS_INTERFACES": LOOPBACK, "PYTHONUNBUFFERED": "1"}


def browse_from_another_process(instance: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", CLIENT, instance], capture_output=True, text=True,
                          timeout=60, env=client_env())
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


class Serve:
    """`companion serve --lan --port 0` in its own process; `wait_for(text)` reads its lines."""

    def __init__(self, xdg: Path, *extra: str, lang: str = "en") -> None:
        env = {**client_env(), "XDG_CONFIG_HOME": str(xdg), "COMPANION_LANG": lang}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli.rules", "serve", "--lan", "--no-build",
             *(() if "--port" in extra else ("--port", "0")), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, encoding="utf-8", env=env)
        self.lines: list[str] = []
        self._new = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._new:
                self.lines.append(line.rstrip("\n"))
                self._new.notify_all()
        with self._new:
            self.lines.append("<exit>")
            self._new.notify_all()

    def wait_for(self, text: str, timeout: float = 60) -> str:
        with self._new:
            ok = self._new.wait_for(lambda: any(text in ln or ln == "<exit>" for ln in self.lines), timeout)
            hit = [ln for ln in self.lines if text in ln]
        assert ok and hit, f"{text!r} never printed; got {self.lines}"
        return hit[0]

    def stop(self) -> list[str]:
        self.proc.terminate()
        self.proc.wait(20)
        with self._new:
            self._new.wait_for(lambda: "<exit>" in self.lines, 10)
        return self.lines
