"""A phone at home, as a separate process: it scans a label (zxing-cpp), resolves the label's
`.local` name by mDNS itself (python-zeroconf on the loopback interface, as a phone's OS does
on the Wi-Fi), opens the address in headless Chromium (told the address the name resolved to,
as the phone's resolver would) and plays chapter 1. Prints one JSON object.

    python tests/rules/phone.py LABEL.svg|.png
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

PLAY_CHAPTER_ONE = """async () => {
  const a = document.querySelector('section audio');
  a.preload = 'auto';
  await a.play();
  await new Promise((ok, fail) => {
    const check = () => { if (a.currentTime > 0.5) ok(); };
    a.addEventListener('timeupdate', check);
    a.addEventListener('error', () => fail(new Error('audio error ' + (a.error && a.error.code))));
    check();
  });
  return {src: a.currentSrc, time: a.currentTime, paused: a.paused,
          chapter: a.closest('section').querySelector('h2').textContent};
}"""


def scan(label: Path) -> str:
    import zxingcpp
    from PIL import Image

    with tempfile.TemporaryDirectory() as tmp:
        png = label
        if label.suffix == ".svg":
            png = Path(tmp) / "label.png"
            subprocess.run(["rsvg-convert", "-d", "150", "-p", "150", "-b", "white", "-o", str(png), str(label)],
                           check=True, timeout=60)
        with Image.open(png) as img:
            found = [r.text for r in zxingcpp.read_barcodes(img.convert("L"))]
    assert len(found) == 1, found
    return found[0]


def resolve(host: str) -> list[str]:
    from zeroconf import AddressResolverIPv4, IPVersion, Zeroconf

    zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    try:
        r = AddressResolverIPv4(host + ".")
        if not r.request(zc, 10000):
            return []
        return [str(a) for a in r.ip_addresses_by_version(IPVersion.V4Only)]
    finally:
        zc.close()


def main(label: str) -> int:
    from playwright.sync_api import sync_playwright

    url = scan(Path(label))
    host = urlsplit(url).hostname or ""
    out: dict = {"url": url, "host": host}
    addresses = resolve(host) if host.endswith(".local") else []
    out["addresses"] = addresses
    if not addresses:
        print(json.dumps(out))
        return 1
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            *ARGS, f"--host-resolver-rules=MAP {host} {addresses[0]}", "--autoplay-policy=no-user-gesture-required"])
        try:
            page = browser.new_page()
            resp = page.goto(url)
            out.update(status=resp.status if resp else None, title=page.title(), page_url=page.url)
            out["played"] = page.evaluate(PLAY_CHAPTER_ONE)
        except Exception as exc:  # noqa: BLE001 - said in the JSON the test reads
            out["error"] = str(exc).splitlines()[0]
            print(json.dumps(out, ensure_ascii=False))
            return 1
        finally:
            browser.close()
    print(json.dumps(out, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
