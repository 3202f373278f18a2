"""Run inside a fresh network namespace (`unshare -n -m`, made by test_rules_mdns.py): a veth
pair is the whole network (v0 10.77.0.1, the companion's machine; v1 10.77.0.2, a phone),
avahi-daemon runs on v0 as on Raspberry Pi OS, `companion serve --lan` announces beside it on
the same interface, and the "phone" (python-zeroconf on v1) resolves both names. Nothing
reaches a real interface: the namespace has none. Prints one JSON object."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
AVAHI_CONF = """[server]
host-name=tablehost
use-ipv4=yes
use-ipv6=no
allow-interfaces=v0
enable-dbus=no
[wide-area]
enable-wide-area=no
[publish]
publish-workstation=no
"""
PHONE = r"""
import json, sys
from zeroconf import AddressResolverIPv4, DNSQuestionType, IPVersion, ServiceInfo, Zeroconf
zc = Zeroconf(interfaces=["10.77.0.2"], ip_version=IPVersion.V4Only)
out = {}
for host in ("tablehost.local.", "companion.local."):
    r = AddressResolverIPv4(host)
    ok = r.request(zc, 8000, question_type=DNSQuestionType.QM)
    out[host] = [str(a) for a in r.ip_addresses_by_version(IPVersion.V4Only)] if ok else []
info = ServiceInfo("_http._tcp.local.", "companion._http._tcp.local.")
if info.request(zc, 8000):
    out["service"] = [info.server, info.port, {k.decode(): (v or b"").decode() for k, v in info.properties.items()}]
zc.close()
print(json.dumps(out))
"""


def sh(*cmd: str) -> None:
    subprocess.run(cmd, check=True)


def phone_in_its_own_namespace(env: dict[str, str]) -> dict:
    """The phone on its own network namespace (another machine, as far as avahi can tell), at
    the other end of the veth pair."""
    # "ready" once sh runs in the new namespace (unshare execs it under its own pid): only then
    # is v1 moved there, else it could land in this namespace
    setup = ("echo ready; read _; ip link set lo up; ip addr add 10.77.0.2/24 dev v1; ip link set v1 up; "
             f"exec {sys.executable} -c \"$PHONE\"")
    phone = subprocess.Popen(["unshare", "-n", "sh", "-c", setup], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env={**env, "PHONE": PHONE})
    assert phone.stdin is not None and phone.stdout is not None
    assert phone.stdout.readline() == "ready\n"
    sh("ip", "link", "set", "v1", "netns", str(phone.pid))
    stdout, stderr = phone.communicate("go\n", timeout=60)
    return json.loads(stdout) if phone.returncode == 0 else {"error": stderr[-500:]}


def main() -> int:
    sh("ip", "link", "set", "lo", "up")
    sh("ip", "link", "add", "v0", "type", "veth", "peer", "name", "v1")
    sh("ip", "addr", "add", "10.77.0.1/24", "dev", "v0")
    sh("ip", "link", "set", "v0", "up")
    os.makedirs("/run/avahi-daemon", exist_ok=True)
    sh("mount", "-t", "tmpfs", "tmpfs", "/run/avahi-daemon")  # this namespace's own pid file and socket
    tmp = Path(tempfile.mkdtemp(prefix="companion-avahi-"))
    (tmp / "avahi.conf").write_text(AVAHI_CONF, encoding="utf-8")
    avahi = subprocess.Popen(["avahi-daemon", "-f", str(tmp / "avahi.conf"), "--no-chroot", "--no-rlimits"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    log: list[str] = []
    started = threading.Event()

    def read_log() -> None:
        assert avahi.stderr is not None
        for line in avahi.stderr:
            log.append(line)
            if line.startswith("Server startup complete"):
                started.set()

    threading.Thread(target=read_log, daemon=True).start()
    started.wait(30)  # avahi has probed and announced its host name: it is running as on a Pi
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp / "xdg"), "COMPANION_LANG": "en", "PYTHONUNBUFFERED": "1",
           "COMPANION_MDNS_INTERFACES": "10.77.0.1"}
    serve = None
    out: dict = {}
    try:
        serve = subprocess.Popen([sys.executable, "-m", "companion.cli.rules", "serve", "--lan", "--no-build",
                                  "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        assert serve.stdout is not None
        lines = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = serve.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
            if line.startswith("For phones that cannot open .local names"):
                break
        out["serve"] = lines
        out["avahi_running"] = started.is_set() and avahi.poll() is None
        out["phone"] = phone_in_its_own_namespace(env)
    finally:
        if serve is not None:
            serve.terminate()
            serve.wait(20)
        avahi.terminate()
        avahi.wait(20)
        out["avahi_log"] = "".join(log)[-800:]
        shutil.rmtree(tmp, ignore_errors=True)  # its config and the companion's own config folder
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
