"""Statement lowering: canonical loop and branch shapes, switch, jumps, returns, locations."""
from loomcl.ir import BinaryOp, BinaryOpcode, Return, Switch, Unreachable

from .util import blocks, ir, kernel_ir, lower, ops


def test_for_loop_has_cond_body_step_end():
    text = kernel_ir("for (int i = 0; i < 4; i++) out[i] = i;")
    assert blocks(text) == ["entry", "for.cond", "for.body", "for.step", "for.end"]
    assert "branch %" in text and "jump for.cond" in text


def test_for_without_condition_loops_forever_until_break():
    text = kernel_ir("int i = 0; for (;;) { if (i > 3) break; i++; } out[0] = i;")
    assert "jump for.body" in text and "jump for.end" in text


def test_while_and_do_while():
    text = kernel_ir("int i = 0; while (i < 3) i++; do { i--; } while (i > 0); out[0] = i;")
    assert blocks(text) == ["entry", "while.cond", "while.body", "while.end",
                            "do.body", "do.cond", "do.end"]


def test_continue_goes_to_the_step_block():
    text = kernel_ir("for (int i = 0; i < 8; i++) { if (i & 1) continue; out[i] = 0; }")
    then = text.split("if.then:")[1].split("\n")[1].strip()
    assert then == "jump for.step"


def test_unreachable_code_after_break_and_return_is_dropped():
    text = kernel_ir("for (;;) { break; out[0] = 1; } return; out[1] = 2;")
    assert "unreachable" not in text
    assert "i64 1" not in text  # neither dead store survives


def test_if_else_joins():
    text = kernel_ir("if (out[0]) out[1] = 1; else out[1] = 2;")
    assert blocks(text) == ["entry", "if.then", "if.else", "if.end"]


def test_switch_cases_fall_through_in_source_order():
    text = kernel_ir("""
        int r = 0;
        switch (out[0]) {
        case 1: r = 10;
        case 2: r += 20; break;
        case -3: r = 30; break;
        default: r = 40;
        }
        out[1] = r;""")
    assert "switch %" in text and "[1: switch.case, 2: switch.case.1, -3: switch.case.2]" in text
    case1 = text.split("switch.case:")[1].split("switch.case.1:")[0]
    assert case1.strip().endswith("jump switch.case.1")  # fall-through
    assert "jump switch.end" in text


def test_switch_without_default_goes_to_end():
    module = lower("__kernel void k(__global int *o) { switch (o[0]) { case 0: o[1] = 1; } }")
    switch = next(i for i in module.functions["k"].instructions() if isinstance(i, Switch))
    assert switch.default.name == "switch.end"


def test_break_inside_switch_inside_loop_and_continue_to_loop():
    text = kernel_ir("""
        for (int i = 0; i < 4; i++) {
            switch (i) { case 0: continue; case 1: break; }
            out[i] = i;
        }""")
    assert "jump for.step" in text and "jump switch.end" in text


def test_helper_function_returns_value_and_kernel_returns_void():
    source = """
        int square(int x) { return x * x; }
        float pick(int c, float a, float b) { if (c) return a; return b; }
        __kernel void k(__global int *o) { o[0] = square(o[1]); o[2] = (int)pick(o[3], 1.0f, 2.0f); }
    """
    module = lower(source)
    assert ir(source, "square").startswith("func i32 @square(i32 %x)")
    assert "call @square(" in ir(source, "k") and "call @pick(" in ir(source, "k")
    returns = [i for i in module.functions["pick"].instructions() if isinstance(i, Return)]
    assert len(returns) == 2 and all(r.value is not None for r in returns)


def test_falling_off_a_value_function_returns_undef():
    text = ir("int f(int x) { if (x) return 1; }\n__kernel void k(__global int *o) { o[0] = f(o[1]); }",
              "f")
    assert "ret undef i32" in text


def test_void_helper_ends_with_ret():
    text = ir("void f(__global int *o) { o[0] = 1; }\n__kernel void k(__global int *o) { f(o); }", "f")
    assert text.rstrip("}\n").rstrip().endswith("ret")


def test_instructions_carry_source_locations():
    module = lower("__kernel void k(__global int *o) {\n  int a = o[0];\n  o[1] = a / 3;\n}")
    div = next(i for i in module.functions["k"].instructions()
               if isinstance(i, BinaryOp) and i.opcode is BinaryOpcode.SDIV)
    assert div.loc is not None and div.loc.line == 3


def test_parameters_are_stored_into_allocas():
    text = kernel_ir("out[0] = n;", "__global int *out, int n")
    assert "%n.addr = alloca i32" in text and "store %n, %n.addr" in text


def test_private_array_initializer_zero_fills():
    text = kernel_ir("int t[4] = {1, 2}; out[0] = t[3];")
    assert "alloca [4 x i32]" in text
    assert ops(text).count("store") >= 5  # out.addr + four elements
    assert "store i32 0" in text


def test_nested_array_initializer():
    text = kernel_ir("int t[2][2] = {{1, 2}, {3}}; out[0] = t[1][1];")
    assert "alloca [2 x [2 x i32]]" in text and "elementptr [2 x i32]" in text


def test_no_unreachable_terminators_remain():
    module = lower("__kernel void k(__global int *o) { while (1) { if (o[0]) return; } }")
    assert not any(isinstance(i, Unreachable) for i in module.functions["k"].instructions())
