"""`loomcl build kernels.py`, and the claim that the IR does not know its source language."""
import textwrap

import numpy as np

import loomcl as cl
from loomcl.driver import compiler
from loomcl.cli import main
from loomcl.ir import print_module

KERNELS = textwrap.dedent('''
    import numpy as np
    import loomcl as cl

    @cl.kernel
    def scale(a: cl.global_ptr(np.float32), s: np.float32):
        a[cl.global_id(0)] *= s

    @cl.kernel
    def later(a):
        pass

    if __name__ == "__main__":
        raise SystemExit("a build does not run the main block")
''')


def test_build_emits_every_form_of_a_python_file(tmp_path, capsys):
    path = tmp_path / "kernels.py"
    path.write_text(KERNELS.replace("@cl.kernel\ndef later(a):\n    pass\n", ""))
    assert main(["build", str(path), "--emit", "ir"]) == 0
    assert "kernel @scale(ptr.global %a, f32 %s) {" in capsys.readouterr().out
    assert main(["build", str(path), "--emit", "ast"]) == 0
    assert "kernel scale(a: __global float *, s: float) -> void" in capsys.readouterr().out
    assert main(["build", str(path), "--emit", "wg", "--local-size", "16"]) == 0
    assert "scale" in capsys.readouterr().out
    assert main(["build", str(path), "--emit", "llvm"]) == 0
    assert "define" in capsys.readouterr().out


def test_build_reports_a_kernel_that_needs_a_launch_to_be_typed(tmp_path, capsys):
    path = tmp_path / "kernels.py"
    path.write_text(KERNELS)
    assert main(["build", str(path), "--emit", "ir"]) == 1
    line = KERNELS.split("\n").index("def later(a):") + 1
    assert capsys.readouterr().err == (
        f"{path}:{line}:1: error: kernel 'later' has parameters without annotations (a); a build without a "
        f"launch needs them all annotated\ndef later(a):\n^\n")


def test_build_reports_python_syntax_errors(tmp_path, capsys):
    path = tmp_path / "broken.py"
    path.write_text("import loomcl as cl\nx = (\n")
    assert main(["build", str(path)]) == 1
    assert capsys.readouterr().err.startswith(f"{path}:2:5: error: Python syntax error: '(' was never closed")


@cl.kernel
def saxpy(a: np.float32, x: cl.global_ptr(np.float32, const=True), y: cl.global_ptr(np.float32)):
    i = cl.global_id(0)
    y[i] = a * x[i] + y[i]


C_SAXPY = """kernel void saxpy(float a, global const float *x, global float *y)
{
    int i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}"""


def test_python_and_opencl_c_give_the_same_kernel_ir():
    python = saxpy.compiled_program()
    c = compiler.build(C_SAXPY)
    assert print_module(python.module) == print_module(c.module)
    assert python.kernels["saxpy"] == c.kernels["saxpy"]
