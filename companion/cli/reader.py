"""`companion reader`: the token reader from the command line.

    companion reader listen PORT [--json] [--seconds N]   one line per event (a board's first test)
    companion reader emulate [--link PATH] ...            a reader in software on a pseudo-terminal
    companion reader write PORT SLOT TEXT                 writes TEXT on the tag lying on SLOT
"""

from __future__ import annotations

import argparse
import json
import queue
import sys
import time


def _describe(event) -> str:
    d = event.to_json()
    kind = d["event"]
    if kind == "hello":
        return (f"reader {d['reader']}: protocol {d['version']}, firmware {d['firmware']}, "
                f"{d['slots']} slot(s), {', '.join(d['capabilities']) or 'no extras'}")
    if kind in ("placed", "removed"):
        text = d["text"] if d["text"] is not None else "(no text)"
        return f"{kind} slot {d['slot']}: {text} [{d['uid']}]"
    if kind == "button":
        return f"button {d['button']}: {'long' if d['long'] else 'short'} press"
    if kind == "status":
        return (f"status: up {d['uptime']} s, {d['crc_errors']} CRC errors, {d['frames_dropped']} "
                f"frames dropped, {d['reader_faults']} reader faults")
    if kind == "lost":
        return f"reader lost ({d['why']})"
    if kind == "too_new":
        return f"reader {d['reader']} speaks protocol {d['version']}: too new for this program, ignored"
    return f"reader {d['reader']} back"


def listen_main(args: argparse.Namespace) -> int:
    from companion.inputs.reader.device import TokenReader

    events: queue.Queue = queue.Queue()
    reader = TokenReader(args.port, events.put).start()
    end = time.monotonic() + args.seconds if args.seconds else None
    next_status = time.monotonic() + args.status if args.status else None
    try:
        while end is None or time.monotonic() < end:
            if next_status is not None and time.monotonic() >= next_status:
                from companion.protocol import StatusReq

                reader.send(StatusReq())
                next_status += args.status
            try:
                event = events.get(timeout=0.1)
            except queue.Empty:
                continue
            line = json.dumps(event.to_json(), ensure_ascii=False) if args.json else _describe(event)
            print(line, flush=True)
    except KeyboardInterrupt:  # Ctrl+C is how one stops listening: a normal end
        return 0
    finally:
        reader.close()
    return 0


def write_main(args: argparse.Namespace) -> int:
    from companion.inputs.reader.device import TokenReader

    reader = TokenReader(args.port, lambda e: None).start()
    try:
        end = time.monotonic() + 5
        while not reader.tracker.accepting and time.monotonic() < end:
            time.sleep(0.05)
        seq = reader.write_tag(args.slot, args.text) if reader.tracker.accepting else None
        while seq is not None and seq not in reader.acks and time.monotonic() < end:
            time.sleep(0.05)
    finally:
        reader.close()
    from companion.protocol import ACK_CODES

    if seq is None or seq not in reader.acks:
        print("no answer from the reader", file=sys.stderr)
        return 1
    code = reader.acks[seq]
    print(ACK_CODES.get(code, f"code {code}"))
    return 0 if code == 0 else 1


def reader_main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="companion reader", description="The tactile token reader (serial, protocol 1).")
    sub = ap.add_subparsers(dest="cmd", metavar="COMMAND", required=True)
    li = sub.add_parser("listen", help="print each event of a reader (placed, removed, button...)")
    li.add_argument("port", help="a device (/dev/ttyACM0) or a pyserial URL")
    li.add_argument("--json", action="store_true", help="one JSON object a line")
    li.add_argument("--seconds", type=float, default=None, help="stop after this long")
    li.add_argument("--status", type=float, default=None, metavar="SECONDS",
                    help="ask the reader's counters (CRC errors, reader faults) this often")
    sub.add_parser("emulate", help="a reader in software on a pseudo-terminal (commands on stdin)", add_help=False)
    wr = sub.add_parser("write", help="write a text (e.g. kikoi:kigliss-sleep) on the tag lying on a slot")
    wr.add_argument("port")
    wr.add_argument("slot", type=int)
    wr.add_argument("text")
    if argv and argv[0] == "emulate":
        from companion.inputs.reader.emulator import run

        return run(argv[1:])
    args = ap.parse_args(argv)
    if args.cmd == "listen":
        return listen_main(args)
    return write_main(args)
