"""`companion rules GAME`: the spoken, line-oriented rules player.

Each chapter is said sentence by sentence through the speaker (the speech issue's audio path),
and each sentence is printed as one line. Commands are typed or dictated lines (`input()`),
in French or English: a chapter number or name, chapitres/chapters, suivant/next,
précédent/previous, pause, reprends/resume, répète/repeat, plus vite/faster,
moins vite/slower, aide/help, quitte/quit. Where each listener stopped (chapter and sentence)
is kept in `$XDG_CONFIG_HOME/companion/rules-positions.json`; the speaking rate lives in the
listener's speech profile.

Input, output and the speaker are injectable (tests drive the player without a terminal).
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import paths
from companion.core.text import fold
from companion.language import LAST, cached, groups, ordinal, read_number, words
from companion.narration import Msg, Priority, catalog

from .manifest import Manifest

RATE_STEP = 25
MIN_RATE, MAX_RATE = 80, 450

@cached
def _commands() -> dict[str, str]:
    """The rules player's words (« suivant », "next"...) -> its command: data, every language
    at once (`companion/language/<lang>/rules.json`)."""
    return {w: c for c, ws in groups("rules", "words").items() for w in ws}


def config_dir() -> Path:
    return paths.config_dir()


def of_title(lang: str, title: str) -> str:
    """"de" joined to a title's article, as French says it: « des 5 KIKOI », « du Jeu »,
    « de Kaliko », « d'Antan »; English: "of Kaliko"."""
    if lang != "fr":
        return f"of {title}"
    for article, joined in (("Les ", "des "), ("Le ", "du ")):
        if title.startswith(article):
            return joined + title[len(article):]
    if title[:1].lower() in "aeiouyhéè":
        return f"d'{title}"
    return f"de {title}"


class PositionStore:
    """Where each listener stopped, per game and language, in one JSON file."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or config_dir() / "rules-positions.json"
        self.problem: str | None = None
        self.write_error: str | None = None
        self._data: dict[str, Any] = {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or not isinstance(data.get("listeners", {}), dict):
                raise ValueError("not a positions file")
            self._data = data
        except FileNotFoundError:
            self._data = {}  # no listener has stopped anywhere yet
        except (OSError, ValueError) as exc:
            # Keep the damaged file aside rather than overwrite it, and start afresh.
            self.problem = f"{self.path}: {exc}"
            # kept aside when it can be; when it cannot, the next save writes over it
            with contextlib.suppress(OSError):
                self.path.replace(self.path.with_suffix(".damaged.json"))

    def get(self, listener: str, game: str, lang: str) -> tuple[str, int] | None:
        entry = self._data.get("listeners", {}).get(listener, {}).get(f"{game}/{lang}")
        if not isinstance(entry, dict) or not isinstance(entry.get("chapter"), str):
            return None
        sentence = entry.get("sentence", 0)
        return entry["chapter"], sentence if isinstance(sentence, int) and sentence >= 0 else 0

    def set(self, listener: str, game: str, lang: str, chapter: str, sentence: int) -> None:
        listeners = self._data.setdefault("listeners", {})
        listeners.setdefault(listener, {})[f"{game}/{lang}"] = {"chapter": chapter, "sentence": sentence}
        from companion.saves.files import io_message_id, write_text_atomic

        try:
            write_text_atomic(self.path, json.dumps(self._data, ensure_ascii=False, indent=2) + "\n")
            self.write_error = None
        except OSError as exc:
            self.problem = f"{self.path}: {exc}"
            self.write_error = io_message_id(exc)  # a core.po sentence: said instead of "I remember"


@dataclass
class Position:
    chapter: int = -1  # index in the manifest; -1 before any chapter was chosen
    sentence: int = 0


class RulesPlayer:
    """Plays one game's rules in one language for one listener.

    `speaker` needs `say(text, priority) -> item with .done (threading.Event)`, `interrupt()`,
    and optionally `rate`/`set_rate(n)`; `open_speaker` gives one.
    """

    def __init__(
        self,
        manifest: Manifest,
        speaker: Any,
        *,
        listener: str = "default",
        store: PositionStore | None = None,
        input_fn: Callable[[str], str] = input,
        print_fn: Callable[[str], None] = print,
        paced: bool = False,
        scan_fn: Callable[[], tuple[str, str] | None] | None = None,
    ) -> None:
        self.man = manifest
        # « lis le code »: the camera reads a label (issue 28); the game read is played next
        self.scan_fn = scan_fn
        self.switch_to: tuple[str, str] | None = None
        self.spk = speaker
        self.listener = listener
        self.store = store if store is not None else PositionStore()
        self.input_fn = input_fn
        self.print_fn = print_fn
        self.cat = catalog(manifest.lang)
        self.pos = Position()
        # Without sound (no sound card, text only) each sentence waits for the listener's Enter,
        # so a chapter is not printed at once and « pause » / « reprends » mean something.
        self.paced = paced
        self._advance = False
        self.playing = False
        self.finished = False  # the current chapter was heard to its end
        self._lock = threading.Lock()
        self._generation = 0
        self._wake = threading.Condition(self._lock)
        self._stop = False
        self._idle = threading.Event()
        self._idle.set()
        self._worker = threading.Thread(target=self._run_worker, name="rules-player", daemon=True)

    # --- speaking and printing ----------------------------------------------------------------
    def _text(self, msg_id: str, **params: Any) -> str:
        return self.cat.text(Msg(msg_id, **params))

    def tell(self, msg_id: str, priority: Priority = Priority.MESSAGE, **params: Any) -> None:
        """Print and say one message of the player itself (not cut by the next command)."""
        text = self._text(msg_id, **params)
        self.print_fn(text)
        self.spk.say(text, priority)

    @property
    def chapter(self):  # -> Chapter | None
        return self.man.chapters[self.pos.chapter] if self.pos.chapter >= 0 else None

    # --- the playback thread -----------------------------------------------------------------
    def _run_worker(self) -> None:
        while True:
            with self._lock:
                while not self._stop and not self.playing:
                    self._idle.set()
                    self._wake.wait()
                if self._stop:
                    self._idle.set()
                    return
                self._idle.clear()
                gen = self._generation
                ch = self.chapter
                assert ch is not None
                sentences = ch.sentences
                i = self.pos.sentence
                if i >= len(sentences):
                    self.playing = False
                    self.finished = True
                    self._chapter_end()
                    continue
                text = sentences[i]
                self.print_fn(text)
                item = self.spk.say(text, Priority.TEXT)
            done = getattr(item, "done", None)
            if done is not None:
                done.wait()
            elif hasattr(self.spk, "wait"):
                self.spk.wait()
            with self._lock:
                if gen != self._generation:  # a command cut this sentence: it stays current
                    continue
                self.pos.sentence = i + 1
                self._save()
                if self.paced and i + 1 < len(sentences):
                    self._wait_for_enter(gen)

    def _wait_for_enter(self, gen: int) -> None:
        """Paced mode (lock held): the sentence was printed; the next waits for Enter (or a
        command: « pause » keeps the place, « reprends » goes on from the next sentence)."""
        self._advance = False
        self._idle.set()  # waiting for the listener: nothing is being played
        while not self._stop and gen == self._generation and not self._advance:
            self._wake.wait()
        if not self._stop and gen == self._generation:
            self._idle.clear()
        self._advance = False

    def _chapter_end(self) -> None:
        """Called with the lock held when the last sentence of a chapter was said."""
        if self.pos.chapter >= len(self.man.chapters) - 1:
            self.tell("rules.player_rules_end")
        else:
            self.tell("rules.player_chapter_end", number=self.pos.chapter + 1)

    def _save(self) -> None:
        ch = self.chapter
        if ch is not None:
            self.store.set(self.listener, self.man.game, self.man.lang, ch.id, self.pos.sentence)

    def _cut(self) -> None:
        """Stop the sentence being said (lock held): the worker will not advance past it."""
        self._generation += 1
        self.spk.interrupt()
        self._wake.notify_all()  # a paced wait for Enter ends too

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Until nothing is being played (for tests and for the end of input)."""
        return self._idle.wait(timeout)

    # --- commands ------------------------------------------------------------------------------
    def start_chapter(self, index: int) -> None:
        with self._lock:
            self._cut()
            self.pos = Position(index, 0)
            self.finished = False
            ch = self.man.chapters[index]
            self.tell("rules.player_chapter", number=index + 1, title=ch.title)
            self.playing = True
            self._idle.clear()
            self._save()
            self._wake.notify_all()

    def resume(self) -> None:
        with self._lock:
            if self.pos.chapter < 0:
                self.tell("rules.player_not_started")
                return
            if self.playing:
                return
            if self.pos.sentence >= len(self.chapter.sentences):
                self.pos.sentence = 0  # heard to the end: resume means hear it again
            self.finished = False
            self.playing = True
            self._idle.clear()
            self._wake.notify_all()

    def pause(self) -> None:
        with self._lock:
            if self.pos.chapter < 0:
                self.tell("rules.player_not_started")
                return
            self._cut()
            self.playing = False
            self._save()
            self.tell("rules.player_paused")

    def repeat(self) -> None:
        """The sentence being said again, or the last one heard."""
        with self._lock:
            if self.pos.chapter < 0:
                self.tell("rules.player_not_started")
                return
            self._cut()
            last = len(self.chapter.sentences) - 1
            if self.finished or self.pos.sentence > last:
                self.pos.sentence = max(last, 0)
            self.finished = False
            self.playing = True
            self._idle.clear()
            self._wake.notify_all()

    def change_rate(self, delta: int) -> None:
        current = int(getattr(self.spk, "rate", 175))
        new = max(MIN_RATE, min(MAX_RATE, current + delta))
        if new == current:
            self.tell("rules.player_rate_limit", rate=current)
            return
        if hasattr(self.spk, "set_rate"):
            self.spk.set_rate(new)
        else:
            self.spk.rate = new
        self.tell("rules.player_rate", rate=new)

    def menu(self) -> None:
        items = [self._text("rules.player_menu_item", number=i, title=ch.title)
                 for i, ch in enumerate(self.man.chapters, 1)]
        self.tell("rules.player_menu", items=items)
        self.tell("rules.player_menu_hint")

    def find_chapter(self, text: str) -> int | None:
        """The chapter index a line names (a number, a number word, an id or a title word)."""
        f = fold(text)
        for word in words("rules", "chapter"):  # « chapitre 3 », "chapter three"
            if f.startswith(word + " "):
                f = f[len(word) + 1:]
        n = read_number(f) or ordinal(f)  # « 3 », « trois », « le premier », "first"
        if n == LAST and self.man.chapters:  # « le dernier »
            return len(self.man.chapters) - 1
        if n is not None and n > 0:
            return n - 1
        if len(f) < 3:
            return None
        hits = [i for i, ch in enumerate(self.man.chapters)
                if f == ch.id or f in fold(ch.title).split() or f == fold(ch.title)]
        return hits[0] if len(hits) == 1 else None

    def handle(self, line: str) -> bool:
        """Obey one line; False when the listener quits."""
        f = fold(line)
        if not f:
            if self.paced:  # Enter: the next sentence
                with self._lock:
                    if self.playing:
                        self._advance = True
                        self._wake.notify_all()
            return True
        cmd = _commands().get(f)
        if cmd == "quit":
            return False
        if cmd == "scan" and self.scan_fn is not None:
            with self._lock:
                self._cut()
                self.playing = False
            hit = self.scan_fn()
            if hit is not None:
                self.switch_to = hit
                return False
            self.tell("rules.player_scan_none", game=self.man.title)
            return True
        if cmd == "next":
            if self.pos.chapter >= len(self.man.chapters) - 1:
                self.tell("rules.player_last")
            else:
                self.start_chapter(self.pos.chapter + 1)
        elif cmd == "previous":
            if self.pos.chapter <= 0:
                self.tell("rules.player_first")
            else:
                self.start_chapter(self.pos.chapter - 1)
        elif cmd == "pause":
            self.pause()
        elif cmd == "resume":
            self.resume()
        elif cmd == "repeat":
            self.repeat()
        elif cmd == "faster":
            self.change_rate(RATE_STEP)
        elif cmd == "slower":
            self.change_rate(-RATE_STEP)
        elif cmd == "menu":
            with self._lock:
                self._cut()
                self.playing = False
            self.menu()
        elif cmd == "help":
            self.tell("rules.player_help", Priority.TEXT)
            if self.scan_fn is not None:
                self.tell("rules.player_help_scan", Priority.TEXT)
        else:
            index = self.find_chapter(line)
            if index is None:
                self.tell("rules.player_unknown", Priority.IMPORTANT, text=line.strip())
            elif not 0 <= index < len(self.man.chapters):
                self.tell("rules.player_no_chapter", Priority.IMPORTANT, n=len(self.man.chapters))
            else:
                self.start_chapter(index)
        return True

    # --- the session ---------------------------------------------------------------------------
    def welcome(self) -> None:
        self.tell("rules.player_welcome", game=self.man.title, of_game=of_title(self.man.lang, self.man.title),
                  n=len(self.man.chapters))
        if self.store.problem:
            self.tell("rules.error", Priority.IMPORTANT, detail=self.store.problem)
        saved = self.store.get(self.listener, self.man.game, self.man.lang)
        if saved is not None:
            chapter_id, sentence = saved
            try:
                index = self.man.index(chapter_id)
            except ValueError:
                index = -1
            if index >= 0 and sentence >= len(self.man.chapters[index].sentences) and index + 1 < len(self.man.chapters):
                index, sentence = index + 1, 0  # that chapter was heard to its end: offer the next
            if index >= 0:
                self.pos = Position(index, min(sentence, len(self.man.chapters[index].sentences)))
                self.tell("rules.player_resume_offer", number=index + 1, title=self.man.chapters[index].title)
        self.menu()

    def run(self, start: str | None = None) -> int:
        """The whole session: welcome, then one command per line until quit or end of input."""
        self._worker.start()
        try:
            self.welcome()
            if start is not None:
                self.handle(start)
            while True:
                try:
                    line = self.input_fn("> ")
                except EOFError:
                    self.wait_idle()  # input ended (a pipe): let the chapter finish
                    break
                except KeyboardInterrupt:
                    break
                if not self.handle(line):
                    break
        finally:
            with self._lock:
                if self.playing:
                    self._cut()
                    self.playing = False
                self._save()
                self._stop = True
                self._wake.notify_all()
            self._worker.join(timeout=5)
            if self.store.write_error:  # saved nothing: never say it remembers
                self.tell(self.store.write_error, Priority.IMPORTANT, path=str(self.store.path))
            elif self.switch_to is None:  # a label read: the next game's rules follow at once
                self.tell("rules.player_bye")
        return 0
