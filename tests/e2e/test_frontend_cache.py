"""driver/frontend_cache.py: a program built again (hashcat makes its programs from binaries, which
are their source, at every start) skips the front end when its source, options and every file the
include search looked at are the same; a changed, new or removed include file is a miss, and the
kernel computes what the current files say."""
import numpy as np
import pytest

import loomcl as cl
from loomcl import frontend
from loomcl.driver import compiler, frontend_cache

SOURCE = """#include "value.h"
__kernel void k(__global uint *out) { out[get_global_id(0)] = VALUE + (uint)get_global_id(0); }
"""


@pytest.fixture
def front_end_runs(tmp_path, monkeypatch):
    """A private cache, and the number of times the front end ran."""
    monkeypatch.setenv("LOOMCL_CACHE_DIR", str(tmp_path / "cache"))
    runs = []
    real = frontend.parse_program

    def counted(*args, **kwargs):
        runs.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(compiler.frontend, "parse_program", counted)
    return runs


def run(source: str, options: str) -> list[int]:
    context = cl.create_some_context()
    queue = cl.CommandQueue(context)
    program = cl.Program(context, source).build(options)
    out = np.zeros(4, np.uint32)
    buffer = cl.Buffer(context, cl.mem_flags.WRITE_ONLY, out.nbytes)
    program.k(queue, (4,), None, buffer)
    cl.enqueue_copy(queue, out, buffer)
    return out.tolist()


def test_a_second_build_skips_the_front_end_and_gives_the_same_kernel(tmp_path, front_end_runs):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "value.h").write_text("#define VALUE 100u\n")
    options = f"-I {tmp_path / 'inc'}"
    assert run(SOURCE, options) == [100, 101, 102, 103]
    assert run(SOURCE, options) == [100, 101, 102, 103]
    assert len(front_end_runs) == 1
    assert run(SOURCE, options + " -D UNUSED=1") == [100, 101, 102, 103]  # other options: another entry
    assert len(front_end_runs) == 2


def test_a_changed_include_file_is_a_miss(tmp_path, front_end_runs):
    (tmp_path / "inc").mkdir()
    header = tmp_path / "inc" / "value.h"
    header.write_text("#define VALUE 100u\n")
    options = f"-I {tmp_path / 'inc'}"
    assert run(SOURCE, options) == [100, 101, 102, 103]
    header.write_text("#define VALUE 7u\n")
    assert run(SOURCE, options) == [7, 8, 9, 10]
    assert len(front_end_runs) == 2


def test_a_file_that_now_comes_first_in_the_search_is_a_miss(tmp_path, front_end_runs):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (second / "value.h").write_text("#define VALUE 100u\n")
    options = f"-I {first} -I {second}"
    assert run(SOURCE, options) == [100, 101, 102, 103]
    (first / "value.h").write_text("#define VALUE 5u\n")  # the search now stops at first/
    assert run(SOURCE, options) == [5, 6, 7, 8]
    assert len(front_end_runs) == 2


def test_no_cache_when_the_cache_is_off(tmp_path, front_end_runs, monkeypatch):
    monkeypatch.setenv("LOOMCL_CACHE_SIZE", "0")
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "value.h").write_text("#define VALUE 1u\n")
    run(SOURCE, f"-I {tmp_path / 'inc'}")
    run(SOURCE, f"-I {tmp_path / 'inc'}")
    assert len(front_end_runs) == 2


def test_a_damaged_entry_is_a_miss(tmp_path, front_end_runs):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "value.h").write_text("#define VALUE 3u\n")
    options = f"-I {tmp_path / 'inc'}"
    run(SOURCE, options)
    key = frontend_cache.key(SOURCE, options, "<kernel>")
    frontend_cache.cache.store(key, frontend_cache.FORMAT + b"not a pickle")
    assert run(SOURCE, options) == [3, 4, 5, 6]
    assert len(front_end_runs) == 2


def test_a_compiled_and_linked_program_from_its_binary_skips_the_front_end(tmp_path, front_end_runs):
    """hashcat's path: clCompileProgram and clLinkProgram, then at the next start a program from the
    executable's binary (whose units compile again)."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "value.h").write_text("#define VALUE 9u\n")
    context = cl.create_some_context()
    queue = cl.CommandQueue(context)
    compiled = cl.Program(context, SOURCE).compile(f"-I {tmp_path / 'inc'}")
    linked = cl.link_program(context, [compiled])
    again = cl.Program(context, context.devices, linked.binaries).build()
    out = np.zeros(4, np.uint32)
    buffer = cl.Buffer(context, cl.mem_flags.WRITE_ONLY, out.nbytes)
    again.k(queue, (4,), None, buffer)
    cl.enqueue_copy(queue, out, buffer)
    assert out.tolist() == [9, 10, 11, 12]
    assert len(front_end_runs) == 1
    (tmp_path / "inc" / "value.h").write_text("#define VALUE 2u\n")
    changed = cl.Program(context, context.devices, linked.binaries).build()
    changed.k(queue, (4,), None, buffer)
    cl.enqueue_copy(queue, out, buffer)
    assert out.tolist() == [2, 3, 4, 5]
    assert len(front_end_runs) == 2
