"""`companion reader write PORT` and `companion reader pair PORT`: the spoken, one-token-at-a-time
flows that make a game's tokens known to the reader.

    companion reader write PORT [--game kikoi] [--tokens ID,ID...] [--speech ...] [--lang fr|en]
        « Pose le Kigliss qui dort sur le lecteur » ... « écrit » : writes `kikoi:kigliss-sleep` on
        each tag (a tag that can be written: NTAG21x), then asks for the next token.
    companion reader pair PORT [--game kikoi] [--tokens ID,ID...] [--speech ...] [--lang fr|en]
        the same flow for tags that cannot be written: each tag's UID is remembered as that token
        in the user's data folder (`companion.inputs.reader.pairs`), saved after every token.

A sighted helper or the player follows the voice; every line is also printed. Lifting the token
off the reader asks for the next one.
"""

from __future__ import annotations

import argparse
import queue
import time
from typing import Any

from companion.narration import Priority, Raw, Utterance, catalog, say

WAIT_HELLO = 10.0


def game_tokens(game: str) -> list[str]:
    """Every token of a game, as tag texts (`kikoi:kigliss-sleep`)."""
    if game == "kikoi":
        from companion.games.kikoi.tokens import ALL_TOKENS, token_id

        return [f"kikoi:{token_id(t)}" for t in ALL_TOKENS]
    raise ValueError(f"no tokens known for {game!r} (kikoi)")


class _Voice:
    def __init__(self, engine: str, lang: str) -> None:
        self.lang = lang
        self.speaker: Any = None
        if engine not in ("text", "none"):
            from companion.outputs.speaker import open_speaker

            self.speaker = open_speaker(engine=engine, output="auto", lang=lang)

    def __call__(self, utt: Utterance) -> None:
        text = catalog(self.lang).render(utt)
        print(text, flush=True)
        if self.speaker is not None:
            self.speaker.say(text, utt.priority, utt.earcon, self.lang)

    def close(self) -> None:
        if self.speaker is not None:
            self.speaker.wait(30)
            self.speaker.close()


_held: list[Any] = []  # tokens laid while the flow waited for another lifted


def _next(events: queue.Queue[Any], kinds: tuple[str, ...], deadline: float | None = None) -> Any:
    """The next event of these kinds; a token laid meanwhile is kept for the next wait for one."""
    if "placed" in kinds and _held:
        return _held.pop(0)
    while deadline is None or time.monotonic() < deadline:
        try:
            ev = events.get(timeout=0.1)
        except queue.Empty:
            continue
        kind = getattr(ev, "EVENT", "")
        if kind in kinds:
            return ev
        if kind == "placed":
            _held.append(ev)
    return None


def flow(mode: str, port: str, tokens: list[str], voice: Any, game: str) -> int:
    from companion.inputs.reader.device import TokenReader
    from companion.inputs.reader.pairs import PairsError, load_pairs
    from companion.inputs.reader.play import token_name

    try:
        pairs = load_pairs() if mode == "pair" else {}
    except PairsError as exc:  # never overwritten: said, and nothing is paired
        voice(say(exc.msg_id, Priority.IMPORTANT, "error", None, path=Raw(str(exc.path))))
        return 2
    events: queue.Queue[Any] = queue.Queue()
    reader = TokenReader(port, events.put).start()
    try:
        if _next(events, ("hello",), time.monotonic() + WAIT_HELLO) is None:
            voice(say("core.reader.flow.no_reader", Priority.IMPORTANT, "error", None))
            return 1
        voice(say(f"core.reader.flow.start_{mode}", Priority.MESSAGE, None, None, n=len(tokens)))
        i = 0
        while i < len(tokens):
            text = tokens[i]
            name = token_name(game, text.partition(":")[2])
            voice(say("core.reader.flow.lay", Priority.MESSAGE, "turn", None, token=name))
            ev = _next(events, ("placed",))
            ok = _one(mode, reader, events, ev, text, pairs, voice, game)
            if ok:
                voice(say(f"core.reader.flow.{'written' if mode == 'write' else 'paired'}", Priority.MESSAGE,
                          "good", None, token=name))
                i += 1
            while _next(events, ("removed",), time.monotonic() + 60) is None:
                voice(say("core.reader.flow.lift", Priority.MESSAGE, None, None))
        voice(say(f"core.reader.flow.done_{mode}", Priority.MESSAGE, "end", None, n=len(tokens)))
        return 0
    except KeyboardInterrupt:
        return 130
    finally:
        reader.close()


def _one(mode: str, reader: Any, events: queue.Queue[Any], ev: Any, text: str, pairs: dict[str, str],
         voice: Any, game: str) -> bool:
    from companion.inputs.reader.pairs import save_pairs
    from companion.inputs.reader.play import token_name

    if mode == "pair":
        other = pairs.get(ev.uid) or (ev.text if ev.text and ev.text.startswith(f"{game}:") else None)
        if other and other != text:
            voice(say("core.reader.flow.already", Priority.IMPORTANT, "error", None,
                      token=token_name(game, other.partition(":")[2])))
            return False
        pairs[ev.uid] = text
        save_pairs(pairs)
        return True
    if ev.text == text:
        return True
    seq = reader.write_tag(int(ev.slot), text)
    deadline = time.monotonic() + 3
    while seq is not None and seq not in reader.acks and time.monotonic() < deadline:
        time.sleep(0.02)
    if seq is None or reader.acks.get(seq) != 0:
        voice(say("core.reader.flow.failed", Priority.IMPORTANT, "error", None))
        return False
    return True


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="companion reader", description="Make a game's tokens known to the reader.")
    ap.add_argument("mode", choices=("write", "pair"))
    ap.add_argument("port", help="a device (/dev/ttyACM0) or a pyserial URL")
    ap.add_argument("--game", default="kikoi")
    ap.add_argument("--tokens", default=None, help="only these token ids, comma-separated (kigliss-sleep,...)")
    ap.add_argument("--speech", default="auto", help="auto, espeak-ng, ..., text (print only)")
    ap.add_argument("--lang", choices=("fr", "en"), default="fr")
    args = ap.parse_args(argv)
    try:
        tokens = game_tokens(args.game)
    except ValueError as exc:
        print(f"companion reader: {exc}")
        return 2
    if args.tokens:
        wanted = [f"{args.game}:{t.strip()}" for t in args.tokens.split(",") if t.strip()]
        unknown = [t for t in wanted if t not in tokens]
        if unknown:
            print(f"companion reader: unknown token {unknown[0].partition(':')[2]!r}")
            return 2
        tokens = wanted
    voice = _Voice(args.speech, args.lang)
    try:
        return flow(args.mode, args.port, tokens, voice, args.game)
    finally:
        voice.close()
