"""Issue 26: the finder compiled by mypyc (native.py) is the same search as the pure one (same
plays, scores and node counts on the same positions), is never used once its sources changed,
and a machine without a compiler keeps the pure finder without a traceback."""

import os
import shutil
import sysconfig

import pytest

from companion.games.kaliko import finder, native

from .test_kaliko_search import _positions


def _compiled():
    if not finder.COMPILED:
        if os.environ.get("CI") == "true" and not os.environ.get("COMPANION_PURE"):
            pytest.fail(f"./run setup builds the compiled finder under CI; here: {native.STATUS}")
        pytest.skip(native.STATUS)
    return finder


def test_the_compiled_and_pure_finders_give_the_same_plays_scores_and_node_counts():
    fast, pure = _compiled(), finder.pure()
    assert fast.Finder is not pure.Finder and not pure.COMPILED  # two implementations compared
    for b, hand in _positions():
        for kw in ({"max_tiles": 4}, {"max_tiles": 4, "crossings_new_tiles_only": True},
                   {"budget": 3000, "best_only": True}):
            a, p = fast.Finder(b, hand, **kw), pure.Finder(b, hand, **kw)
            got_a = [(f.placements, f.score) for f in a.run()]
            got_p = [(f.placements, f.score) for f in p.run()]
            assert got_a == got_p and a.nodes == p.nodes and a.complete == p.complete
        assert fast.count_plays(b, hand) == pure.count_plays(b, hand)
        fb, pb = fast.best_play(b, hand), pure.best_play(b, hand)
        assert (fb.placements, fb.verdict) == (pb.placements, pb.verdict)


def _copy_sources(tmp_path, monkeypatch):
    for name in native.SOURCES + native.JUDGES:
        shutil.copy(native.HERE / name, tmp_path / name)
    monkeypatch.setattr(native, "HERE", tmp_path)
    monkeypatch.setattr(native, "OUT", tmp_path / "_native")


def test_a_compiled_finder_is_not_used_once_its_source_changed(tmp_path, monkeypatch):
    _copy_sources(tmp_path, monkeypatch)
    monkeypatch.delenv("COMPANION_PURE", raising=False)
    (tmp_path / "_native").mkdir()
    built = tmp_path / "_native" / (native.digest() + sysconfig.get_config_var("EXT_SUFFIX"))
    built.write_bytes(b"a module built from the sources before the edit")
    for name in native.SOURCES + native.JUDGES:  # an edit to any of them, even a comment
        before = (tmp_path / name).read_text(encoding="utf-8")
        (tmp_path / name).write_text(before + "# edited\n", encoding="utf-8")
        assert native.load() is None and "no compiled finder for these sources" in native.STATUS
        (tmp_path / name).write_text(before, encoding="utf-8")
    # the unedited name is found; a damaged module falls back to the pure finder, said why
    assert native.load() is None and "did not load" in native.STATUS


def test_without_a_compiler_the_build_says_so_in_one_sentence(tmp_path, monkeypatch):
    _copy_sources(tmp_path, monkeypatch)
    real = sysconfig.get_config_var

    monkeypatch.setattr(sysconfig, "get_config_var", lambda k: "no-such-cc-here" if k == "CC" else real(k))
    why = native.build(tmp_path / "_native")
    assert why is not None and "no C compiler" in why and "pure Python" in why
    assert not (tmp_path / "_native").exists()


def test_the_joined_module_keeps_no_relative_import_nor_the_twin_tail():
    text = native.joined()
    assert "from ." not in text and native.TWIN not in text and "_native.load()" not in text
    assert "class OldPaths" in text and "def best_play" in text
