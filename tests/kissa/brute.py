"""A slow, independent move finder written straight from docs/rules.md §4 (the test oracle).

It shares no code with companion.games.kissa.finder: every run is walked from every cell
in every allowed direction, and every ordered pair of numbers is tried against every third.
"""

from __future__ import annotations

BASE_DIRS = ((0, 1), (1, 0))  # T-3: left to right, top to bottom
EXPERT_DIRS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))


def numbers(board, expert=False, zero_is_number=True):
    """{(cells in reading order): value}; one entry per set of cells and value."""
    seen = {}
    for start in range(100):
        r0, c0 = divmod(start, 10)
        for dr, dc in EXPERT_DIRS if expert else BASE_DIRS:
            cells = []
            r, c = r0, c0
            while 0 <= r < 10 and 0 <= c < 10 and board[r * 10 + c] >= 0:
                cells.append(r * 10 + c)
                text = "".join(str(board[x]) for x in cells)
                if not (len(text) > 1 and text[0] == "0") and not (text == "0" and not zero_is_number):
                    key = (frozenset(cells), int(text))
                    cand = tuple(cells)
                    if key not in seen or cand < seen[key]:
                        seen[key] = cand
                r, c = r + dr, c + dc
    return {cells: value for (_, value), cells in seen.items()}


def token_sum(board, cells):
    return sum(board[x] if board[x] else 10 for x in cells)


def moves(board, expert=False, kids=False, zero_is_number=True):
    """Set of (op, a cells, b cells, c cells, score) with a <= b in (value, cells) order."""
    nums = numbers(board, expert, zero_is_number)
    items = list(nums.items())
    by_value = {}
    for cells, value in items:
        by_value.setdefault(value, []).append(cells)
    tokens = sum(1 for d in board if d >= 0)
    out = set()
    for ca, va in items:
        for cb, vb in items:
            if ca == cb or set(ca) & set(cb):
                continue
            if kids and (len(ca) > 1 or len(cb) > 1):
                continue
            if (vb, cb) < (va, ca):
                continue
            for op, vc in (("+", va + vb), ("*", va * vb)):
                if op == "*" and (va == 0 or vb == 0):
                    continue
                for cc in by_value.get(vc, ()):
                    if set(cc) & (set(ca) | set(cb)):
                        continue
                    score = token_sum(board, ca) + token_sum(board, cb) + token_sum(board, cc)
                    if op == "*":
                        score *= 2
                    if len(ca) + len(cb) + len(cc) == tokens:
                        score *= 2
                    out.add((op, ca, cb, cc, score))
    return out
