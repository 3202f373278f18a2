"""docs/rules.md is the rules the code cites: every rule id cited in the code is there, and each
rule there names a function that exists and a test that exists; every option a game's rules
accept is documented in that game's chapter, and the doc names no option the code lacks."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from companion.games import goodfortune, kaliko, kikoi, kissa

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules.md"
GAMES = ROOT / "companion" / "games"

# A rule id as the code cites it: `# RULES K-16`, "KIA-9", "K-7b" (never inside a word: UTF-8).
RULE_ID = re.compile(r"(?<![\w-])(?:K|KA|KF|GF|GFA|KI|KIA|T|TA)-\d+[ab]?(?![\w-])")
ENTRY = re.compile(r"^\* \*\*((?:K|KA|KF|GF|GFA|KI|KIA|T|TA)-\d+[ab]?)\*\*", re.M)
CODE_REF = re.compile(r"`games/([\w/]+\.py): ([\w.]+)`")
TEST_REF = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")
# chapter of docs/rules.md -> the game's rules class
CHAPTERS = {"1": kaliko.Rules, "2": goodfortune.Rules, "3": kikoi.Rules, "4": kissa.Rules}


def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def entries() -> dict[str, str]:
    """Each rule id of docs/rules.md -> the text of its entry (to the next entry or heading)."""
    text = doc()
    found = list(ENTRY.finditer(text))
    out: dict[str, str] = {}
    for i, m in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(text)
        body = text[m.start():end]
        heading = re.search(r"^#", body, re.M)
        out[m.group(1)] = body[: heading.start()] if heading else body
    return out


@cache
def names(path: Path) -> frozenset[str]:
    """Top-level names of a module (functions, classes, assignments) and `Class.member`s."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
            if isinstance(node, ast.ClassDef):
                for sub in node.body:
                    if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        out.add(f"{node.name}.{sub.name}")
                    elif isinstance(sub, (ast.Assign, ast.AnnAssign)):
                        for t in sub.targets if isinstance(sub, ast.Assign) else [sub.target]:
                            if isinstance(t, ast.Name):
                                out.add(f"{node.name}.{t.id}")
        elif isinstance(node, ast.Assign):
            out.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
    return frozenset(out)


def cited_in_code() -> dict[str, list[str]]:
    """Every rule id cited in companion/ and docs/ (besides docs/rules.md) -> where."""
    out: dict[str, list[str]] = {}
    files = [*sorted((ROOT / "companion").rglob("*.py")), *sorted((ROOT / "docs").glob("*.md"))]
    for path in files:
        if path == DOC:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for rid in RULE_ID.findall(line):
                out.setdefault(rid, []).append(f"{path.relative_to(ROOT)}:{n}")
    return out


def test_the_code_cites_rules_and_the_doc_has_entries():
    assert len(cited_in_code()) > 80 and len(entries()) > 100


def test_every_rule_id_cited_in_the_code_is_in_the_doc():
    have = entries()
    missing = {rid: where[:3] for rid, where in cited_in_code().items() if rid not in have}
    assert not missing, f"rule ids cited but not in docs/rules.md: {missing}"


@pytest.mark.parametrize("rid", sorted(entries()))
def test_each_rule_names_a_function_and_a_test_that_exist(rid):
    body = entries()[rid]
    code = CODE_REF.findall(body)
    tests = TEST_REF.findall(body)
    assert code, f"{rid} names no function (`games/<game>/<file>.py: name`)"
    assert tests, f"{rid} names no test (`tests/<file>.py::test_name`)"
    for path, name in code:
        module = GAMES / path
        assert module.is_file(), f"{rid}: no module games/{path}"
        assert name in names(module), f"{rid}: no {name} in games/{path}"
    for path, name in tests:
        module = ROOT / path
        assert module.is_file(), f"{rid}: no test file {path}"
        assert name in names(module), f"{rid}: no {name} in {path}"


def test_every_function_and_test_named_anywhere_in_the_doc_exists():
    text = doc()
    for path, name in CODE_REF.findall(text):
        assert name in names(GAMES / path), f"no {name} in games/{path}"
    for path, name in TEST_REF.findall(text):
        assert name in names(ROOT / path), f"no {name} in {path}"


def chapter(number: str) -> str:
    text = doc()
    start = re.search(rf"^## {number}\. ", text, re.M)
    assert start, f"no chapter {number}"
    end = re.search(r"^## ", text[start.end():], re.M)
    return text[start.start(): start.end() + end.start()] if end else text[start.start():]


@pytest.mark.parametrize("number", sorted(CHAPTERS))
def test_each_game_chapter_lists_exactly_the_options_its_rules_accept(number):
    rules = CHAPTERS[number]
    text = chapter(number)
    table = re.findall(r"^\| `(\w+)` \|", text, re.M)  # the variants table: | `option` | ...
    assert sorted(table) == sorted(rules.options), f"chapter {number} options table"
    for name, option in rules.options.items():
        row = next(line for line in text.splitlines() if line.startswith(f"| `{name}` |"))
        assert f"`{option.default!r}`" in row or f"`{option.default}`" in row, (
            f"chapter {number}: `{name}` default {option.default!r} not in its row: {row}")


def test_every_section_cited_exists():
    """`RULES §1.4`, `docs/rules.md §7` (in the code, the docs and the tests): a chapter `## 1.`, a section `### 1.4`, or item 1 of a
    chapter's numbered list (§6.1)."""
    text = doc()
    cited: dict[str, str] = {}
    tests = [p for p in (ROOT / "tests").rglob("*.py") if p.name != Path(__file__).name]
    for path in [*(ROOT / "companion").rglob("*.py"), *(ROOT / "docs").glob("*.md"), *tests]:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if path != DOC and re.search(r"RULES|rules\.md", line) and ".md §" not in line.replace("rules.md §", ""):
                for sec in re.findall(r"§(\d+(?:\.\d+)?)", line):
                    cited.setdefault(sec, f"{path.relative_to(ROOT)}:{n}")
    assert {"1.4", "7"} <= set(cited)
    for sec, where in cited.items():
        chapter_no, _, sub = sec.partition(".")
        assert re.search(rf"^## {chapter_no}\. ", text, re.M), f"{where} cites §{sec}"
        if sub:
            item = re.search(rf"^{sub}\. ", chapter(chapter_no), re.M)
            assert re.search(rf"^### {sec} ", text, re.M) or item, f"{where} cites §{sec}"


def test_no_citation_of_the_old_rules_file_is_left():
    for path in [*(ROOT / "companion").rglob("*.py"), *(ROOT / "docs").glob("*.md")]:
        assert "RULES.md" not in path.read_text(encoding="utf-8"), path
