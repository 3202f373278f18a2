"""The spoken rules player: chapters, navigation, pause and resume, rate, memory per listener."""

from __future__ import annotations

import json
import queue
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from companion.audiorules.ingame import chapter_utterances
from companion.audiorules.manifest import load
from companion.audiorules.player import PositionStore, RulesPlayer
from companion.narration import Priority, Raw, catalog
from tests.waiting import WAIT, until


@dataclass
class Item:
    text: str
    priority: Priority
    done: threading.Event = field(default_factory=threading.Event)


class GateSpeaker:
    """A speaker whose TEXT items last until the test lets them finish (or a command cuts
    them); other priorities are said at once. It records everything."""

    def __init__(self) -> None:
        self.items: list[Item] = []
        self.rate = 175
        self.cuts = 0
        self.lock = threading.Lock()

    def say(self, text: str, priority: Priority = Priority.MESSAGE) -> Item:
        item = Item(text, priority)
        if priority != Priority.TEXT:
            item.done.set()
        with self.lock:
            self.items.append(item)
        return item

    def interrupt(self) -> None:
        with self.lock:
            self.cuts += 1
            for it in self.items:
                if it.priority == Priority.TEXT:
                    it.done.set()

    def set_rate(self, rate: int) -> None:
        self.rate = rate

    def finish(self) -> None:
        """The sentence being said comes to its end."""
        with self.lock:
            pending = [it for it in self.items if not it.done.is_set()]
        assert pending, "nothing is being said"
        pending[0].done.set()

    def texts(self, priority: Priority | None = Priority.TEXT) -> list[str]:
        with self.lock:
            return [it.text for it in self.items if priority is None or it.priority == priority]


def wait_for(cond, timeout: float = WAIT) -> None:
    until(cond, "the player", timeout)


class Session:
    """A player running in a thread, fed line by line."""

    def __init__(self, game: str, lang: str, store_path: Path, listener: str = "anne") -> None:
        self.man = load(game, lang)
        self.spk = GateSpeaker()
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.printed: list[str] = []
        self.player = RulesPlayer(self.man, self.spk, listener=listener, store=PositionStore(store_path),
                                  input_fn=self._input, print_fn=self.printed.append)
        self.waiting = threading.Event()
        self.thread = threading.Thread(target=self.player.run, daemon=True)
        self.thread.start()

    def _input(self, prompt: str) -> str:
        self.waiting.set()
        line = self.lines.get(timeout=WAIT)
        self.waiting.clear()
        if line is None:
            raise EOFError
        return line

    def send(self, line: str) -> None:
        wait_for(self.waiting.is_set)
        self.waiting.clear()
        self.lines.put(line)
        wait_for(self.waiting.is_set)  # handled: the player asks for the next line

    def close(self) -> None:
        self.lines.put("quitte" if self.man.lang == "fr" else "quit")
        self.thread.join(5)
        assert not self.thread.is_alive()


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "config" / "rules-positions.json"


def test_menu_then_a_chapter_sentence_by_sentence(store_path: Path) -> None:
    s = Session("kissa", "fr", store_path)
    wait_for(s.waiting.is_set)
    assert s.printed[0] == "Règles de 2kissa10, en 8 chapitres."
    assert s.printed[1].startswith("Chapitres : 1, Le but du jeu, 2, Le matériel,")
    assert "Dis un numéro de chapitre" in s.printed[2]
    s.send("3")
    setup = s.man.chapter("setup")
    wait_for(lambda: s.spk.texts() == setup.sentences[:1])
    assert "Chapitre 3 : La mise en place." in s.printed
    for i in range(1, len(setup.sentences)):
        s.spk.finish()
        wait_for(lambda i=i: s.spk.texts() == setup.sentences[: i + 1])
    s.spk.finish()
    wait_for(lambda: "Fin du chapitre 3. Dis « suivant » pour continuer." in s.printed)
    assert [line for line in s.printed if line in setup.sentences] == setup.sentences
    s.close()
    assert s.printed[-1] == "Au revoir. Je me souviens de l'endroit où tu t'es arrêté."


def test_pause_resume_repeat_next_previous(store_path: Path) -> None:
    s = Session("kikoi", "fr", store_path)
    goal = s.man.chapter("goal").sentences
    s.send("suivant")
    wait_for(lambda: s.spk.texts() == goal[:1])
    s.spk.finish()
    wait_for(lambda: s.spk.texts() == goal[:2])
    s.send("pause")
    assert "En pause. Dis « reprends » pour continuer." in s.printed
    assert s.player.wait_idle(WAIT)  # the playback thread rests
    assert s.spk.texts() == goal[:2]  # nothing more while paused
    s.send("reprends")  # the cut sentence is said again, whole
    wait_for(lambda: s.spk.texts() == goal[:2] + goal[1:2])
    s.send("répète")
    wait_for(lambda: s.spk.texts() == goal[:2] + goal[1:2] * 2)
    s.spk.finish()
    wait_for(lambda: s.spk.texts()[-1] == goal[2])
    s.send("suivant")
    comp = s.man.chapter("components").sentences
    wait_for(lambda: s.spk.texts()[-1] == comp[0])
    s.send("précédent")
    wait_for(lambda: s.spk.texts()[-1] == goal[0])
    s.send("précédent")
    assert "C'est le premier chapitre." in s.printed
    s.send("8")
    s.send("suivant")
    assert "C'est le dernier chapitre." in s.printed
    s.close()


def test_chapters_by_name_and_number_words(store_path: Path) -> None:
    s = Session("goodfortune", "en", store_path)
    s.send("example")
    wait_for(lambda: "Chapter 6: A worked example." in s.printed)
    s.send("chapter two")
    wait_for(lambda: "Chapter 2: What is in the box." in s.printed)
    s.send("variants")
    wait_for(lambda: "Chapter 7: Variants." in s.printed)
    s.send("12")
    assert "There are only 8 chapters." in s.printed
    s.send("dance")
    assert "I did not understand “dance”. Say “help”." in s.printed
    s.send("help")
    assert catalog("en").text(__import__("companion.narration", fromlist=["Msg"]).Msg("rules.player_help")) in s.printed
    s.send("chapters")
    assert sum(line.startswith("Chapters: 1, The goal") for line in s.printed) == 2
    # the player's words and numbers are the tables' (issue 24): ordinals and « le dernier » too
    s.send("the third one")
    wait_for(lambda: any(p.startswith("Chapter 3:") for p in s.printed))
    s.send("chapitre le dernier")
    wait_for(lambda: any(p.startswith("Chapter 8:") for p in s.printed))
    s.close()


def test_faster_and_slower_within_limits(store_path: Path) -> None:
    s = Session("kaliko", "fr", store_path)
    s.send("plus vite")
    assert s.spk.rate == 200 and "Vitesse : 200 mots par minute." in s.printed
    s.send("moins vite")
    s.send("moins vite")
    assert s.spk.rate == 150
    s.spk.rate = 450
    s.send("faster")
    assert s.spk.rate == 450 and "Vitesse déjà au bout : 450 mots par minute." in s.printed
    s.close()


def test_commands_before_any_chapter(store_path: Path) -> None:
    s = Session("kikoi", "en", store_path)
    for word in ("pause", "resume", "repeat"):
        s.send(word)
    assert s.printed.count("No chapter chosen yet. Say a chapter number or “next”.") == 3
    assert s.spk.texts() == []
    s.close()


def test_each_listener_resumes_where_they_stopped(store_path: Path) -> None:
    s = Session("kikoi", "fr", store_path, listener="anne")
    turn = s.man.chapter("turn").sentences
    s.send("4")
    for _ in range(3):
        wait_for(lambda: s.spk.texts()[-1:] != [] and not s.spk.items[-1].done.is_set())
        s.spk.finish()
    wait_for(lambda: s.spk.texts() == turn[:4])
    s.send("pause")
    s.close()
    saved = json.loads(store_path.read_text(encoding="utf-8"))
    assert saved["listeners"]["anne"]["kikoi/fr"] == {"chapter": "turn", "sentence": 3}

    again = Session("kikoi", "fr", store_path, listener="anne")
    wait_for(again.waiting.is_set)
    assert "Tu t'étais arrêté au chapitre 4, Un tour de jeu. Dis « reprends » pour continuer." in again.printed
    again.send("reprends")
    wait_for(lambda: again.spk.texts() == [turn[3]])
    again.close()

    other = Session("kikoi", "fr", store_path, listener="bruno")
    wait_for(other.waiting.is_set)
    assert not any("arrêté au chapitre" in line for line in other.printed)
    other.close()
    english = Session("kikoi", "en", store_path, listener="anne")
    wait_for(english.waiting.is_set)
    assert not any("You stopped" in line for line in english.printed)
    english.close()


def test_a_damaged_positions_file_is_kept_aside(store_path: Path) -> None:
    store_path.parent.mkdir(parents=True)
    store_path.write_text("{not json", encoding="utf-8")
    s = Session("kissa", "en", store_path)
    wait_for(s.waiting.is_set)
    assert any(line.startswith("Error: ") and "rules-positions.json" in line for line in s.printed)
    assert store_path.with_suffix(".damaged.json").read_text(encoding="utf-8") == "{not json"
    s.send("1")
    s.close()
    assert json.loads(store_path.read_text(encoding="utf-8"))["listeners"]["anne"]["kissa/en"]["chapter"] == "goal"


def test_end_of_input_lets_the_chapter_finish_through_the_real_speaker(
    store_path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from companion.cli.rules import rules_main
    from companion.outputs.speaker import open_speaker

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    spk = open_speaker(engine="recording", output="null", lang="en")
    lines = iter(["2"])
    printed: list[str] = []

    def feed(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    rc = rules_main(["kissa", "--lang", "en", "--listener", "zoe"], input_fn=feed, print_fn=printed.append, speaker=spk)
    assert rc == 0
    spk.wait(10)
    components = load("kissa", "en").chapter("components").sentences
    said = [c[0] for c in spk.engine.calls]
    assert [t for t in said if t in components] == components
    assert "End of chapter 2. Say “next” to go on." in said
    assert said[-1] == "Goodbye. I remember where you stopped."
    assert (tmp_path / "xdg" / "companion" / "rules-positions.json").exists()
    spk.close()


def test_rule_during_a_game_gives_the_chapter() -> None:
    utts = chapter_utterances("kikoi", "turn", "fr")
    cat = catalog("fr")
    ch = load("kikoi", "fr").chapter("turn")
    assert cat.render(utts[0]) == "Chapitre 4 : Un tour de jeu."
    assert [cat.render(u) for u in utts[1:]] == ch.paragraphs
    assert all(u.priority == Priority.TEXT for u in utts)
    assert isinstance(utts[1].parts[0], Raw)
    assert chapter_utterances("kikoi", "nonesuch", "fr") == []
    assert chapter_utterances("chess", "turn", "fr") == []


def test_game_uis_name_real_chapters() -> None:
    """Every game UI that exists answers `rule_chapter` with a chapter of its rules (or None),
    at the start of a game and after some bot moves."""
    import importlib

    from companion.audiorules import CHAPTERS, GAMES
    from companion.core import find
    from companion.session.transcript import bot_game

    checked = []
    for game in GAMES:
        # every game's package is there: an import error fails here, never skips (issue 25)
        importlib.import_module(f"companion.games.{game}").UI  # noqa: B018
        for steps in (0, 12):
            match, ui = bot_game(find(game), seed=3, max_steps=steps)
            chapter = ui.rule_chapter(match)
            assert chapter is None or chapter in CHAPTERS, (game, steps, chapter)
        checked.append(game)
    assert checked == list(GAMES)


def test_a_chapter_heard_to_its_end_offers_the_next(store_path: Path) -> None:
    store = PositionStore(store_path)
    n = len(load("kissa", "en").chapter("setup").sentences)
    store.set("anne", "kissa", "en", "setup", n)
    s = Session("kissa", "en", store_path)
    wait_for(s.waiting.is_set)
    assert "You stopped in chapter 4, A turn. Say “resume” to go on." in s.printed
    s.send("resume")
    wait_for(lambda: s.spk.texts() == load("kissa", "en").chapter("turn").sentences[:1])
    s.close()
