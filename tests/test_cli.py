"""The command line: info, build --emit at every stage, and its errors."""
from __future__ import annotations

import re

import pytest

from loomcl.cli import main
from loomcl.demo import SOURCE  # vadd, the barrier reduction, tiled matmul


@pytest.fixture
def kernel_file(tmp_path):
    path = tmp_path / "reduce.cl"
    path.write_text(SOURCE)
    return str(path)


def test_info_names_the_device(capsys):
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    assert "Platform: loomcl" in out and "type                       CPU\n" in out
    assert "max work-group size        4096 work-items" in out and "local memory               1 MiB" in out
    assert "version                    OpenCL 3.0 loomcl " in out and ", OpenCL C 1.2 loomcl\n" in out
    assert "OpenCL C features          __opencl_c_images __opencl_c_3d_image_writes" in out


@pytest.mark.parametrize("emit, expected", [
    ("ast", "kernel reduce("),
    ("ir", "barrier 1"),
    ("wg", "work_item_loop x"),
    ("llvm", "x float>"),  # the work-item loops vectorized
    ("asm", "loomcl_wg_reduce:"),
])
def test_build_emits_each_stage(kernel_file, capsys, emit, expected):
    assert main(["build", kernel_file, "--emit", emit, "--kernel", "reduce", "--local-size", "64"]) == 0
    assert expected in capsys.readouterr().out


def test_work_group_form_of_the_reduction_is_structured(kernel_file, capsys):
    assert main(["build", kernel_file, "--emit", "wg", "--kernel", "reduce", "--local-size", "256"]) == 0
    out = capsys.readouterr().out
    assert "barrier" not in out and "local_id" not in out
    assert "math.umin i64 %s, i64 256" in out  # `if (lid < s)` became the loop bound min(s, 256)


def test_build_reports_diagnostics_with_a_caret(tmp_path, capsys):
    bad = tmp_path / "bad.cl"
    bad.write_text("kernel void k(global float *a) { a[0] = b; }\n")
    assert main(["build", str(bad), "--emit", "ir"]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:1:41: error: use of undeclared identifier 'b'" in err
    assert err.splitlines()[-1] == " " * 40 + "^"


def test_build_defines_and_unknown_kernel(kernel_file, tmp_path, capsys):
    source = tmp_path / "d.cl"
    source.write_text("kernel void k(global int *a) { a[0] = VALUE; }\n")
    assert main(["build", str(source), "-D", "VALUE=42", "--emit", "ir"]) == 0
    assert "store i32 42" in capsys.readouterr().out
    assert main(["build", kernel_file, "--kernel", "nope"]) == 1
    assert "no kernel named 'nope' (kernels: vadd, reduce, matmul)" in capsys.readouterr().err


def test_print_after_prints_the_named_passes_to_stderr(kernel_file, capsys):
    assert main(["build", kernel_file, "--kernel", "reduce", "--local-size", "64",
                 "--print-after", "subcfg-formation", "--print-after", "fold-local-id-guards"]) == 0
    captured = capsys.readouterr()
    headers = [line for line in captured.err.splitlines() if line.startswith("; IR after")]
    assert headers == ["; IR after subcfg-formation", "; IR after fold-local-id-guards"]
    after_fold = captured.err.split("; IR after fold-local-id-guards", 1)[1]
    assert "work_item_loop x" in after_fold and "math.umin i64 %s" in after_fold  # the folded guard
    assert "; IR after" not in captured.out and "work_item_loop x" in captured.out  # the result on stdout


def test_print_after_all_and_verify_each(kernel_file, capsys):
    assert main(["build", kernel_file, "--kernel", "vadd", "--print-after", "all", "--verify-each"]) == 0
    err = capsys.readouterr().err
    assert "; IR after inline\n" in err and "; IR after hoist-invariants\n" in err


def test_print_after_an_unknown_pass_lists_the_passes(kernel_file, capsys):
    assert main(["build", kernel_file, "--print-after", "fold-guards"]) == 2
    err = capsys.readouterr().err
    assert "unknown pass 'fold-guards' for --print-after" in err
    assert "the passes are inline, mem2reg, insert-checks, scalarize-vectors, simplify, " in err and "fold-local-id-guards" in err and "(or all)" in err


def test_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert re.match(r"loomcl \d+\.\d+\.\d+ \(llvmlite \d", capsys.readouterr().out)


@pytest.mark.parametrize("size, message", [
    ("100000", "local size 100000 has 100000 work-items; the device allows at most 4096 per work-group"),
    ("64,128", "local size 64,128 has 8192 work-items"),
    ("0", "local size must be 1 to 3 positive integers, got '0'"),
    ("a,b", "local size must be 1 to 3 positive integers, got 'a,b'"),
])
def test_invalid_local_sizes_are_rejected_with_the_device_limit(kernel_file, capsys, size, message):
    with pytest.raises(SystemExit) as done:
        main(["build", kernel_file, "--local-size", size])
    assert done.value.code == 2
    assert message in capsys.readouterr().err


def test_build_of_a_missing_file_says_so(tmp_path, capsys):
    assert main(["build", str(tmp_path / "nothere.cl")]) == 1
    assert capsys.readouterr().err == f"loomcl build: cannot read {tmp_path / 'nothere.cl'}: No such file or directory\n"


@pytest.mark.parametrize("emit", ["ast", "ir"])
def test_build_prints_warnings_to_stderr_and_succeeds(tmp_path, capsys, emit):
    path = tmp_path / "w.cl"
    path.write_text("kernel void k(global int *a) {\n    int spare;\n    a[0] = 1;\n}\n")
    assert main(["build", str(path), "--emit", emit, "--options=-Wall"]) == 0
    err = capsys.readouterr().err
    assert err == f"{path}:2:9: warning: unused variable 'spare' [-Wunused-variable]\n    int spare;\n        ^\n"
    assert main(["build", str(path), "--emit", emit, "--options=-Wall -Werror"]) == 1
    assert "error: unused variable 'spare' [-Werror,-Wunused-variable]" in capsys.readouterr().err


def test_an_llvm_failure_in_emit_asm_is_a_message_and_status_1(kernel_file, capsys, monkeypatch):
    from loomcl.jit import compile_client

    compile_client.POOL.shutdown()  # a fresh compile server cannot answer within a millisecond
    monkeypatch.setenv("LOOMCL_COMPILE_TIMEOUT", "0.001")
    assert main(["build", kernel_file, "--emit", "asm", "--kernel", "vadd"]) == 1
    assert "kernel 'vadd': LLVM did not finish within 0.001 s (LOOMCL_COMPILE_TIMEOUT)" in capsys.readouterr().err


def test_every_subcommand_and_option_has_help():
    from loomcl.cli import parser

    for action in parser()._subparsers._group_actions[0].choices.values():
        for option in action._actions:
            assert option.help, f"loomcl {action.prog.split()[-1]}: {option.dest} has no help text"


def test_build_says_the_local_size_it_compiled_for(kernel_file, capsys):
    assert main(["build", kernel_file, "--emit", "wg", "--kernel", "vadd"]) == 0
    assert "; kernel 'vadd': local size 64,1,1 (the default; choose with --local-size)\n" in capsys.readouterr().err
    assert main(["build", kernel_file, "--emit", "wg", "--kernel", "vadd", "--local-size", "16,4"]) == 0
    assert "; kernel 'vadd': local size 16,4,1 (--local-size)\n" in capsys.readouterr().err


def test_ast_prints_a_for_loops_parts_in_source_order(tmp_path, capsys):
    source = tmp_path / "for.cl"
    source.write_text("kernel void k(global int *a) { for (int i = 0; i < 4; i++) a[i] = i; }\n")
    assert main(["build", str(source), "--emit", "ast"]) == 0
    assert ("    for\n      init:\n        var i: __private int = 0\n      cond: (i < 4)\n      step: (i++)\n"
            "      (a[i] = i)\n") in capsys.readouterr().out
