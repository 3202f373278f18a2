"""`companion kikoi ...`: tools for Les 5 KIKOI.

    companion kikoi tokens [--json]                 the 28 tokens (RULES §7 ids), texture, symbol
    companion kikoi token WORDS... [--json]         which token(s) spoken or typed words name
    companion kikoi bots [--seed S] [--games G] [--bots memory,random,random]
                         [--option KEY=VALUE ...] [--json]
                                                    bot-only games: scores, winners, days, reason
    companion kikoi replay FILE [--option KEY=VALUE ...] [--json]
                                                    check a recorded game, action by action

JSON shapes (one object per line for `bots`):
  tokens: [{"id": "kimouss-house", "kikoi": "kimouss", "moment": "house", "red": false}, ...]
  token:  {"input": "...", "tokens": ["kigliss-sleep"]}
  bots:   {"seed": 0, "bots": [...], "scores": [..], "winners": [..], "days": [[..]..],
           "reason": "all_days", "actions": 57}
  replay: {"ok": true, "actions": 12, "over": false, "to_act": 1, "scores": [..], "winners": [..]}
          or {"ok": false, "index": 3, "seat": 1, "action": {...}, "reason": "must_give"}
A replay FILE is JSON: {"players": [names], "seed": 1, "options": {...},
"actions": [{"seat": 0, "action": {"ask": 1, "token": "kigliss-sleep"}}, ...]} (actions as
the match journals them: {"ask": seat|"all", "token"}, {"reply": "give"|"refuse"},
{"drew": id}, {"draw": "blind"}, {"pass": true}, {"pirate": true|false}).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion kikoi", description="Les 5 KIKOI tools.")
    sub = p.add_subparsers(dest="command", required=True)
    t = sub.add_parser("tokens", help="list the 28 tokens")
    t.add_argument("--json", action="store_true")
    w = sub.add_parser("token", help="which token spoken or typed words name")
    w.add_argument("words", nargs="+")
    w.add_argument("--json", action="store_true")
    b = sub.add_parser("bots", help="play bot-only games")
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--games", type=int, default=1)
    b.add_argument("--bots", default="memory,random,random", help="comma-separated bot kinds, one per seat")
    b.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    b.add_argument("--json", action="store_true")
    r = sub.add_parser("replay", help="check a recorded game")
    r.add_argument("file")
    r.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    r.add_argument("--json", action="store_true")
    return p


def _options(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"--option needs KEY=VALUE, not {pair!r}")
        out[key.strip()] = value.strip()
    return out


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    err = sys.stderr
    try:
        if args.command == "tokens":
            return _tokens(args.json)
        if args.command == "token":
            return _token(" ".join(args.words), args.json)
        if args.command == "bots":
            return _bots(args, _options(args.option))
        return _replay(args.file, _options(args.option), args.json)
    except ValueError as exc:
        print(f"companion kikoi: {exc}", file=err)
        return 2


def _tokens(as_json: bool) -> int:
    from companion.games.kikoi.tokens import ALL_TOKENS, KIKOI, MOMENTS, is_white, token_id

    rows = []
    for t in ALL_TOKENS:
        white = is_white(t)
        rows.append({"id": token_id(t), "kikoi": KIKOI[t // 5] if white else None,
                     "moment": MOMENTS[t % 5] if white else None, "red": not white})
    if as_json:
        print(json.dumps(rows))
    else:
        for r in rows:
            print(r["id"])
    return 0


def _token(text: str, as_json: bool) -> int:
    from companion.games.kikoi.notation import find_tokens
    from companion.games.kikoi.tokens import token_id

    found = [token_id(t) for t in find_tokens(text)]
    if as_json:
        print(json.dumps({"input": text, "tokens": found}, ensure_ascii=False))
    else:
        print(" ".join(found) if found else "no token")
    return 0 if found else 1


def _bots(args: argparse.Namespace, options: dict[str, Any]) -> int:
    from companion.core import find
    from companion.games.kikoi.bot import BOTS
    from companion.games.kikoi.events import GameEnded
    from companion.session.transcript import bot_game

    if not 1 <= args.games <= 10_000:
        raise ValueError("--games must be between 1 and 10000")
    kinds = [k.strip() for k in args.bots.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in BOTS]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r}; bots: {', '.join(BOTS)}")
    for seed in range(args.seed, args.seed + args.games):
        match, _ui = bot_game(find("kikoi"), seed, kinds, None, **options)
        ended = match.events()[-1]
        assert isinstance(ended, GameEnded)
        rec = {"seed": seed, "bots": kinds, "scores": ended.scores, "winners": ended.winners,
               "days": ended.days, "reason": ended.reason, "actions": len(match.history)}
        if args.json:
            print(json.dumps(rec))
        else:
            print(f"seed {seed}: scores {rec['scores']}, winners {rec['winners']}, "
                  f"end {rec['reason']}, {rec['actions']} actions")
    return 0


MAX_ACTIONS = 10_000  # a game of 5 KIKOI has a few hundred actions at most


def _replay(path: str, options: dict[str, Any], as_json: bool) -> int:
    from companion.core import IllegalAction, Match
    from companion.games.kikoi.rules import Rules
    from companion.saves.files import InputFileError, load_json_input, strict_int

    try:
        data = load_json_input(path, max_depth=8)
    except InputFileError as exc:
        raise ValueError(f"cannot read {path}: {exc}") from None
    try:
        if not isinstance(data, dict):
            raise InputFileError(f"{path}: a game record is a JSON object")
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) and 0 < len(p) <= 40 for p in players):
            raise InputFileError(f'{path}: "players" must be a list of names')
        seed = strict_int(data.get("seed", 0), "seed", 0, (1 << 63) - 1)
        actions = data.get("actions", [])
        if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
            raise InputFileError(f'{path}: "actions" must be a list of at most {MAX_ACTIONS} records')
        saved = data.get("options", {})
        if not isinstance(saved, dict) or not all(isinstance(v, (str, int, bool)) for v in saved.values()):
            raise InputFileError(f'{path}: "options" must be an object of simple values')
    except InputFileError as exc:
        raise ValueError(str(exc)) from None
    opts = {**saved, **options}
    try:
        game = Rules(**opts)
        match = Match(game, list(players), seed)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{path}: {exc}") from exc
    except IllegalAction as exc:
        raise ValueError(f"{path}: {exc.code}") from exc
    for i, rec in enumerate(actions):
        try:
            if not isinstance(rec, dict) or not isinstance(rec.get("action"), dict):
                raise TypeError("a record is {\"seat\": n, \"action\": {...}}")
            seat = strict_int(rec.get("seat"), "seat", 0, len(players) - 1)
            action = game.decode_action(rec["action"])  # the one codec: ActionDecodeError, a ValueError
            match.play(seat, action)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            out = {"ok": False, "index": i, "seat": rec.get("seat") if isinstance(rec, dict) else None,
                   "action": rec.get("action") if isinstance(rec, dict) else None, "reason": "bad_record"}
            _say_replay(out, as_json, str(exc)[:200])
            return 1
        except IllegalAction as exc:
            out = {"ok": False, "index": i, "seat": seat, "action": rec["action"], "reason": exc.code}
            _say_replay(out, as_json, "")
            return 1
    outcome = match.outcome()
    out = {"ok": True, "actions": len(match.history), "over": match.over, "to_act": match.current,
           "scores": list(outcome.scores), "winners": list(outcome.winners) if match.over else []}
    _say_replay(out, as_json, "")
    return 0


def _say_replay(out: dict[str, Any], as_json: bool, extra: str) -> None:
    if as_json:
        print(json.dumps(out, ensure_ascii=False))
    elif out["ok"]:
        state = "over" if out["over"] else f"seat {out['to_act']} to act"
        print(f"{out['actions']} actions, all legal; {state}; scores {out['scores']}")
    else:
        print(f"action {out['index']} (seat {out['seat']}) refused: {out['reason']} {extra}".rstrip())
