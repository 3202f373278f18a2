"""What one braille display shows, and what its keys do: no I/O (the seat in `seat.py` does it).

The display is one line of 14 to 80 cells:

* a **status group** on the left (4 cells from 20 cells, 6 from 40; none below 20, where the
  « état » key says it instead): `*` it is your move, `?` a question awaits your answer, else
  the first letter of the player to move; then your score; then `+N` lines not read yet;
* a blank cell, then a window of the **current entry** of the history: the newest message
  stays until the player pans on (a new line never pushes away a line not yet read);
* an **alert** (your turn, a question such as a Kipirat chance, a refusal of your line)
  starts with a full cell and stays: no new line replaces it until a routing key dismisses
  it (or its turn is over); the status group's `*` or `?` says at once that it waits;
* the choices the current turn offers follow the turn's alert, each after a cell of dots 7-8:
  a routing key on one plays it; on any other word it copies that word into the line being
  typed (a number of a 2kissa10 row, a name, a cell).

Keys arrive already decoded by the seat (`Key`); `press` returns the line to post, if any.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .render import text_cells, word_cells

ALERT_CELL = 0xFF  # dots 1-8: this line is an alert
OFFER_CELL = 0xC0  # dots 7-8: a choice starts here
CURSOR_CELL = 0xC0  # dots 7-8 after the typed text: where the next character goes
HISTORY = 500  # entries kept for panning back
MIN_CELLS, MAX_CELLS = 14, 80

# The shared words a key asks for, in each language (the core reads them like typed lines).
WORDS = {
    "fr": {"status": "état", "repeat": "répète", "help": "aide"},
    "en": {"status": "status", "repeat": "repeat", "help": "help"},
}


@dataclass(frozen=True)
class Info:
    """The table as this seat may know it, taken in the loop's thread with each line."""

    turn: str = ""  # the player to move ("" when none, or the game is over)
    mine: bool = False  # it is this seat's move
    asked: bool = False  # a question waits for this seat's answer
    score: int | None = None  # this seat's score
    offers: tuple[tuple[str, str], ...] = ()  # (shown, posted): the choices of this turn
    key: tuple[int, ...] = ()  # which state these offers belong to


@dataclass
class Entry:
    text: str
    alert: bool = False
    offers: tuple[tuple[str, str], ...] = ()
    key: tuple[int, ...] = ()  # the turn a turn's alert belongs to
    seen: bool = False  # a key was pressed while it was shown
    shown: bool = False  # it has been on the display
    dismissed: bool = False

    @property
    def holding(self) -> bool:
        """An alert not dismissed yet: it stays on the display."""
        return self.alert and not self.dismissed


@dataclass(frozen=True)
class Key:
    """A key of the display, decoded: `kind` is route (cell `n`, from 0), char (`text`),
    enter, backspace, escape, or a motion/command: next, prev, next_line, prev_line,
    first, last, status, repeat, help."""

    kind: str
    n: int = 0
    text: str = ""


Unit = tuple[bytes, tuple[str, str] | None]  # cells, and what a routing key there does


@dataclass
class View:
    width: int
    lang: str = "fr"
    contracted: bool = False
    entries: list[Entry] = field(default_factory=list)
    pos: int = -1  # the entry shown
    win: int = 0  # its window
    typed: str = ""  # the line being typed on the braille keyboard
    typing: bool = False  # the display shows the typed line
    info: Info = field(default_factory=Info)

    def __post_init__(self) -> None:
        self.width = max(MIN_CELLS, min(MAX_CELLS, self.width))

    # ------------------------------------------------------------------ layout
    @property
    def status_width(self) -> int:
        return 0 if self.width < 20 else (4 if self.width < 40 else 6)

    @property
    def text_width(self) -> int:
        return self.width - (self.status_width + 1 if self.status_width else 0)

    def status_text(self) -> str:
        i = self.info
        mark = "*" if i.mine else "?" if i.asked else (i.turn[:1] or "-")
        score = "" if i.score is None else str(i.score)
        unread = self.unread
        return mark + score + (f"+{unread}" if unread else "")

    @property
    def unread(self) -> int:
        """Lines never shown yet (an alert shown at once leaves the lines before it unread)."""
        return sum(not e.shown for e in self.entries)

    @property
    def current(self) -> Entry | None:
        return self.entries[self.pos] if 0 <= self.pos < len(self.entries) else None

    def _units(self, e: Entry) -> list[Unit]:
        units: list[Unit] = []
        if e.alert:
            units.append((bytes([ALERT_CELL]), ("dismiss", "")))
        units += [(word_cells(w, self.lang, self.contracted), ("word", w)) for w in e.text.split()]
        for shown, posted in e.offers:
            units.append((bytes([OFFER_CELL]), ("offer", posted)))
            units += [(word_cells(w, self.lang, self.contracted), ("offer", posted)) for w in shown.split()]
        return units

    def windows(self, e: Entry) -> list[list[tuple[int, Unit]]]:
        """The entry cut into windows of whole words (a word longer than a window is cut)."""
        width = self.text_width
        out: list[list[tuple[int, Unit]]] = [[]]
        used = 0
        for cells, act in self._units(e):
            pieces = [cells[i:i + width] for i in range(0, len(cells), width)] or [b""]
            for piece in pieces:
                need = len(piece) + (1 if used else 0)
                if used and used + need > width:
                    out.append([])
                    used = 0
                    need = len(piece)
                start = used + (1 if used else 0)
                out[-1].append((start, (piece, act)))
                used = start + len(piece)
        return out

    def frame(self) -> tuple[bytes, list[tuple[str, str] | None]]:
        """The cells shown now (exactly `width`) and what a routing key over each does."""
        cells = bytearray(self.width)
        acts: list[tuple[str, str] | None] = [None] * self.width
        off = 0
        if self.status_width:
            status = text_cells(self.status_text(), self.lang, False)[: self.status_width]
            cells[: len(status)] = status
            for i in range(self.status_width):
                acts[i] = ("status", "")
            off = self.status_width + 1
        if self.typing:
            shown = text_cells(self.typed, self.lang, False) + bytes([CURSOR_CELL])
            if self.typed.endswith(" "):
                shown = shown[:-1] + b"\x00" + bytes([CURSOR_CELL])
            tail = shown[-self.text_width:]
            cells[off: off + len(tail)] = tail
            for i in range(len(tail)):
                acts[off + i] = ("typed", "")
            return bytes(cells), acts
        e = self.current
        if e is not None:
            wins = self.windows(e)
            self.win = max(0, min(self.win, len(wins) - 1))
            for start, (piece, act) in wins[self.win]:
                cells[off + start: off + start + len(piece)] = piece
                for i in range(len(piece)):
                    acts[off + start + i] = act
        return bytes(cells), acts

    # ------------------------------------------------------------------ lines arriving
    def add(self, text: str, *, alert: bool = False, offers: tuple[tuple[str, str], ...] = (),
            key: tuple[int, ...] = ()) -> None:
        cur = self.current
        self.entries.append(Entry(text, alert, offers, key))
        newest = len(self.entries) - 1
        # Lines are read in order: a new line shows at once only when the one shown is the
        # newest, read (a key was pressed on it) and no alert (an alert stays).
        if cur is None or (self.pos == newest - 1 and cur.seen and not cur.holding):
            self._show(newest)
        if len(self.entries) > HISTORY:
            del self.entries[0]
            self.pos = max(0, self.pos - 1)
            self.entries[0].shown = True  # what falls out of the history is not "unread"

    def _show(self, pos: int, win: int = 0) -> None:
        self.pos, self.win = pos, win
        self.entries[pos].shown = True

    # ------------------------------------------------------------------ keys
    def press(self, key: Key) -> str | None:
        """Apply one key; the line to post to the table's inbox, if the key says one."""
        cur = self.current
        if cur is not None and not self.typing:
            cur.seen = True
        words = WORDS.get(self.lang, WORDS["fr"])
        k = key.kind
        if k in words:
            return words[k]
        if k == "char":
            self.typed += key.text
            self.typing = True
            return None
        if k == "backspace":
            self.typed = self.typed[:-1]
            self.typing = bool(self.typed)
            return None
        if k == "escape":
            self.typed, self.typing = "", False
            return None
        if k == "enter":
            line, self.typed, self.typing = self.typed.strip(), "", False
            return line or None
        if k == "route":
            return self._route(key.n)
        self.typing = False
        self._move(k)
        return None

    def _route(self, n: int) -> str | None:
        _, acts = self.frame()
        act = acts[n] if 0 <= n < len(acts) else None
        if act is None:
            return None
        kind, value = act
        if kind == "status":
            return WORDS.get(self.lang, WORDS["fr"])["status"]
        if kind == "typed":
            self.typing = False  # back to the history; the typed line is kept
            return None
        cur = self.current
        if kind == "offer":
            self._dismiss()
            return value
        if cur is not None and cur.holding:
            self._dismiss()
            return None
        if kind == "word":
            sep = "" if not self.typed or self.typed.endswith(" ") else " "
            self.typed += sep + value.strip(".,;:!?«»()") + " "
            self.typing = True
        return None

    def expire(self, key: tuple[int, ...]) -> None:
        """The turn announced by an alert is over (the table moved on): it stops holding."""
        cur = self.current
        for e in self.entries:
            if e.holding and e.key and e.key != key:
                e.dismissed = True
                if e is cur:
                    cur.dismissed = False
                    self._dismiss()

    def _dismiss(self) -> None:
        cur = self.current
        if cur is None:
            return
        cur.dismissed = True
        # back where the reading stopped: the first line never shown, else the next one
        unread = next((i for i, e in enumerate(self.entries) if not e.shown), None)
        if unread is not None:
            self._show(unread)
        elif self.pos < len(self.entries) - 1:
            self._show(self.pos + 1)

    def _move(self, k: str) -> None:
        if self.current is None:
            return
        last = len(self.windows(self.entries[self.pos])) - 1
        if k == "next":
            if self.win < last:
                self.win += 1
            elif self.pos < len(self.entries) - 1:
                self._show(self.pos + 1)
        elif k == "prev":
            if self.win > 0:
                self.win -= 1
            elif self.pos > 0:
                self._show(self.pos - 1, len(self.windows(self.entries[self.pos - 1])) - 1)
        elif k == "next_line" and self.pos < len(self.entries) - 1:
            self._show(self.pos + 1)
        elif k == "prev_line" and self.pos > 0:
            self._show(self.pos - 1)
        elif k == "first":
            self._show(0)
        elif k == "last":
            self._show(len(self.entries) - 1)


__all__ = ["ALERT_CELL", "CURSOR_CELL", "OFFER_CELL", "WORDS", "Entry", "Info", "Key", "View"]
