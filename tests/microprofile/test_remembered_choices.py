"""A choice is remembered on disk and reused by a later process; bad or stale choice files are
ignored (and replaced by the next choice)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

import loomcl as cl
from loomcl.engine import choices, microprofile

from profiled import CountingLaunch, expected_out, grew, selection_of, snapshot

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
RAGGED = (1 << 17) + 37

CHILD = """
import json, sys
sys.path.insert(0, {here!r})
import numpy as np
import loomcl as cl
from loomcl.engine import microprofile
from profiled import CountingLaunch, expected_out, selection_of

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
launch = CountingLaunch(ctx, queue, {n}, 64)
for _ in range(2):
    launch()
out, hits = launch.results()
ok = bool(np.array_equal(out, expected_out(launch.a)) and np.array_equal(hits, launch.expected_hits(2)))
print(json.dumps({{"ok": ok, "choice": list(microprofile.choices_of(launch.kernel).values()),
                  "stats": vars(microprofile.stats)}}))
"""


def run_child(cache: Path, **env) -> dict:
    environment = {**os.environ, "LOOMCL_CACHE_DIR": str(cache), "LOOMCL_MICROPROFILE": "sync",
                   "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])), **env}
    environment.pop("LOOMCL_MICROPROFILE_FORCE", None)
    environment.update(env)
    done = subprocess.run([sys.executable, "-c", CHILD.format(here=str(HERE), n=RAGGED)], env=environment,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_later_process_starts_with_the_remembered_winner(profiling_environment):
    first = run_child(profiling_environment, LOOMCL_MICROPROFILE_FORCE="nointerleave")
    assert first["ok"] and first["choice"] == ["nointerleave"]
    assert first["stats"]["decisions"] == 1 and first["stats"]["variants_compiled"] >= 2
    files = list((profiling_environment / choices.FOLDER).glob("*.json"))
    assert len(files) == 1 and json.loads(files[0].read_text())["winner"] == "nointerleave"
    second = run_child(profiling_environment)
    assert second["ok"] and second["choice"] == ["nointerleave"]
    # only the winner is compiled (for the two regions' local sizes), and nothing is profiled
    assert second["stats"]["remembered"] == 1 and second["stats"]["variants_compiled"] == 2
    assert second["stats"]["profiled_launches"] == 0 and second["stats"]["decisions"] == 0


def _choose(ctx, queue, forced: str, monkeypatch) -> CountingLaunch:
    monkeypatch.setenv(microprofile.FORCE_ENVIRONMENT, forced)
    launch = CountingLaunch(ctx, queue, RAGGED, 64)
    launch()
    monkeypatch.delenv(microprofile.FORCE_ENVIRONMENT)
    return launch


def _the_choice_file(cache: Path) -> Path:
    (path,) = (cache / choices.FOLDER).glob("*.json")
    return path


def test_corrupt_and_stale_choice_files_are_ignored(ctx, queue, monkeypatch, profiling_environment):
    first = _choose(ctx, queue, "scalar", monkeypatch)
    path = _the_choice_file(profiling_environment)
    good = json.loads(path.read_text())
    stale = [b"\x00\xffnot json", b"[1, 2]", json.dumps({**good, "winner": "no-such-variant"}).encode(),
             json.dumps({**good, "key": "0" * 64}).encode(), json.dumps({**good, "format": 99}).encode()]
    for content in stale:
        path.write_bytes(content)
        before = snapshot()
        launch = CountingLaunch(ctx, queue, RAGGED, 64)
        launch()
        assert grew(before, "remembered") == 0 and grew(before, "decisions") == 1, content
        out, hits = launch.results()
        np.testing.assert_array_equal(out, expected_out(launch.a))
        np.testing.assert_array_equal(hits, launch.expected_hits(1))
        assert json.loads(path.read_text())["key"] == good["key"]  # a good choice took its place
    assert selection_of(first.kernel).winner.name == "scalar"


def test_a_remembered_choice_is_taken_in_process(ctx, queue, monkeypatch, profiling_environment):
    _choose(ctx, queue, "nointerleave", monkeypatch)
    before = snapshot()
    launch = CountingLaunch(ctx, queue, RAGGED, 64)
    launch()
    assert grew(before, "remembered") == 1 and grew(before, "profiled_launches") == 0
    assert microprofile.choices_of(launch.kernel) == {selection_of(launch.kernel).shape: "nointerleave"}
    out, hits = launch.results()
    np.testing.assert_array_equal(out, expected_out(launch.a))
    np.testing.assert_array_equal(hits, launch.expected_hits(1))


def test_another_shape_class_is_chosen_on_its_own(ctx, queue, monkeypatch, profiling_environment):
    _choose(ctx, queue, "nointerleave", monkeypatch)
    before = snapshot()
    other = CountingLaunch(ctx, queue, 1 << 19, 64)  # another global size class and buffer sizes
    other()
    assert grew(before, "remembered") == 0 and grew(before, "decisions") == 1
    assert len(list((profiling_environment / choices.FOLDER).glob("*.json"))) == 2


def test_no_choice_is_written_without_a_disk_cache(ctx, queue, monkeypatch, profiling_environment):
    monkeypatch.setenv("LOOMCL_CACHE_SIZE", "0")
    _choose(ctx, queue, "scalar", monkeypatch)
    assert not (profiling_environment / choices.FOLDER).exists()


def test_cache_clear_forgets_the_choices(ctx, queue, monkeypatch, profiling_environment):
    from loomcl.cli import main

    _choose(ctx, queue, "scalar", monkeypatch)
    assert main(["cache", "clear"]) == 0
    assert not list((profiling_environment / choices.FOLDER).glob("*.json"))
    before = snapshot()
    CountingLaunch(ctx, queue, RAGGED, 64)()
    assert grew(before, "remembered") == 0 and grew(before, "decisions") == 1
