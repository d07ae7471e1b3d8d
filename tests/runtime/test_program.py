"""Programs: building through the compiler interface, build errors, kernel lookup."""
import pytest

import loomcl as cl


def test_build_returns_self_and_lists_kernels(ctx):
    prg = cl.Program(ctx, "kernel source")
    assert prg.build(options="-D X=1") is prg
    names = prg.get_info(cl.program_info.KERNEL_NAMES).split(";")
    assert "vadd" in names and prg.num_kernels == len(names)
    assert {k.function_name for k in prg.all_kernels()} == set(names)
    assert prg.get_build_info(ctx.devices[0], cl.program_build_info.LOG) == ""
    assert prg.get_build_info(ctx.devices[0], cl.program_build_info.STATUS) == cl.build_status.SUCCESS


def test_options_as_list(ctx):
    prg = cl.Program(ctx, "x").build(options=["-D", "A=1", "-I", "dir with space"])
    assert prg.get_build_info(ctx.devices[0], cl.program_build_info.OPTIONS) == "-D A=1 -I 'dir with space'"


def test_compile_error_carries_log(ctx):
    prg = cl.Program(ctx, "#error stop here")
    with pytest.raises(cl.RuntimeError, match="BUILD_PROGRAM_FAILURE") as info:
        prg.build()
    assert info.value.code == cl.status_code.BUILD_PROGRAM_FAILURE
    assert "input.cl:1:2: error: #error stop here" in str(info.value)
    assert prg.get_build_info(ctx.devices[0], cl.program_build_info.STATUS) == cl.build_status.ERROR


def test_bad_option(ctx):
    with pytest.raises(cl.LogicError, match="INVALID_BUILD_OPTIONS.*-bogus"):
        cl.Program(ctx, "x").build(options="-bogus")


def test_attribute_access_gives_cached_kernels(prg):
    knl = prg.vadd
    assert isinstance(knl, cl.Kernel) and knl is prg.vadd
    assert knl.function_name == "vadd" and knl.num_args == 4
    assert knl.get_info(cl.kernel_info.FUNCTION_NAME) == "vadd"
    with pytest.raises(cl.RuntimeError, match="KERNEL_ARG_INFO_NOT_AVAILABLE.*-cl-kernel-arg-info"):
        knl.get_arg_info(3, cl.kernel_arg_info.TYPE_NAME)  # built without -cl-kernel-arg-info


def test_unknown_kernel_name(prg):
    with pytest.raises(cl.LogicError, match="INVALID_KERNEL_NAME.*'nope'.*vadd"):
        cl.Kernel(prg, "nope")
    with pytest.raises(AttributeError, match="INVALID_KERNEL_NAME.*vadd"):
        prg.nope
    assert not hasattr(prg, "nope")


def test_kernel_before_build(ctx):
    prg = cl.Program(ctx, "x")
    with pytest.raises(cl.LogicError, match="INVALID_PROGRAM_EXECUTABLE"):
        cl.Kernel(prg, "vadd")
    with pytest.raises(AttributeError):
        prg.vadd


def test_foreign_binaries_are_refused(ctx):
    with pytest.raises(cl.LogicError, match="INVALID_BINARY.*binaries\\[0\\] is not a loomcl program binary"):
        cl.Program(ctx, ctx.devices, [b"\x7fELF"])


def test_reqd_work_group_size_reported(prg, ctx):
    info = cl.kernel_work_group_info.COMPILE_WORK_GROUP_SIZE
    assert prg.fixed.get_work_group_info(info, ctx.devices[0]) == [8, 1, 1]
    assert prg.vadd.get_work_group_info(info, ctx.devices[0]) == [0, 0, 0]

