"""Program binaries: what `binaries` holds, and programs made from them (built by the fake compiler)."""
import pytest

import loomcl as cl
from loomcl.runtime.program_binary import MAGIC, ProgramBinary, UnitSource, to_binary

SOURCE = "/* fake source */ kernel void vadd() {}"


def executable(source: str, options: str) -> bytes:
    return to_binary(ProgramBinary(cl.program_binary_type.EXECUTABLE, (UnitSource(source, options),)))


def test_binaries_round_trip_source_and_options(ctx):
    prg = cl.Program(ctx, SOURCE)
    assert prg.binaries == [b""] and prg.binary_sizes == [0]  # not built yet
    prg.build(options=["-D", "N=4", "-cl-fast-relaxed-math"])
    (binary,) = prg.binaries
    assert binary.startswith(MAGIC) and prg.get_info(cl.program_info.BINARIES) == [binary]
    assert prg.get_info(cl.program_info.BINARY_SIZES) == [len(binary)]
    again = cl.Program(ctx, ctx.devices, [binary])
    assert again.source == SOURCE
    assert again.get_build_info(ctx.devices[0], cl.program_build_info.BINARY_TYPE) == cl.program_binary_type.EXECUTABLE
    with pytest.raises(cl.LogicError, match="INVALID_PROGRAM_EXECUTABLE"):
        again.vadd
    again.build()
    assert again.get_build_info(ctx.devices[0], cl.program_build_info.OPTIONS) == "-D N=4 -cl-fast-relaxed-math"
    assert again.binaries == [binary]
    assert again.vadd.function_name == "vadd"
    cl.Program(ctx, ctx.devices, [binary]).build(options="-D N=4 -cl-fast-relaxed-math")


def test_build_options_must_match_the_binary(ctx):
    prg = cl.Program(ctx, ctx.devices, [executable(SOURCE, "-D N=4")])
    with pytest.raises(cl.LogicError, match="INVALID_BUILD_OPTIONS.*the binary's options '-D N=4', not '-D N=5'"):
        prg.build(options="-D N=5")


@pytest.mark.parametrize(("devices", "binaries", "message"), [
    ("ctx", [], r"INVALID_VALUE.*0 binaries for 1 devices"),
    ("ctx", [MAGIC + b"{not json"], r"INVALID_BINARY.*binaries\[0\] is a damaged loomcl binary"),
    ("ctx", [MAGIC + b'{"format": 3, "source": "", "options": ""}'],
     "INVALID_BINARY.*format 3; this loomcl reads formats 1 and 2"),
    ("ctx", [MAGIC + b'{"format": 2, "type": "object", "units": [], "link_options": null}'],
     r"INVALID_BINARY.*binaries\[0\] is a damaged loomcl binary"),
    ("ctx", [MAGIC + b'{"format": 2, "type": "shared", "units": [{"source": "", "options": "", "headers": [], '
                     b'"takes_link_options": true}], "link_options": null}'],
     r"INVALID_BINARY.*binaries\[0\] is a damaged loomcl binary"),
    ("ctx", ["text"], r"INVALID_BINARY.*binaries\[0\] is a str, not bytes"),
    ([object()], [executable("", "")], "INVALID_DEVICE"),
])
def test_bad_binaries(ctx, devices, binaries, message):
    with pytest.raises(cl.LogicError, match=message):
        cl.Program(ctx, ctx.devices if devices == "ctx" else devices, binaries)


def test_source_must_be_text(ctx):
    with pytest.raises(cl.LogicError, match="INVALID_VALUE.*the source must be a str, got bytes"):
        cl.Program(ctx, b"kernel void k() {}")


def test_a_format_1_binary_still_builds(ctx):
    old = MAGIC + b'{"format": 1, "source": "/* fake source */ kernel void vadd() {}", "options": "-D N=2"}'
    prg = cl.Program(ctx, ctx.devices, [old]).build()
    assert prg.vadd.function_name == "vadd"
    assert prg.get_build_info(ctx.devices[0], cl.program_build_info.OPTIONS) == "-D N=2"
