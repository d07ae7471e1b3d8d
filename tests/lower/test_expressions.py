"""Expression lowering: opcodes by signedness, conversions, short-circuit operators, pointers."""
import re

import pytest

from .util import kernel_ir, ops


@pytest.mark.parametrize("type_, op, opcode", [
    ("int", "/", "sdiv"), ("uint", "/", "udiv"), ("int", "%", "srem"), ("uint", "%", "urem"),
    ("int", ">>", "ashr"), ("uint", ">>", "lshr"), ("long", "/", "sdiv"), ("ulong", "%", "urem"),
    ("float", "/", "fdiv"), ("int", "<<", "shl"), ("int", "^", "xor"), ("float", "-", "fsub"),
])
def test_arithmetic_opcode_follows_signedness(type_, op, opcode):
    text = kernel_ir(f"{type_} a = out[0], b = out[1]; out[2] = a {op} b;")
    assert opcode in ops(text)


@pytest.mark.parametrize("type_, op, predicate", [
    ("int", "<", "slt"), ("uint", "<", "ult"), ("long", ">=", "sge"), ("ulong", ">", "ugt"),
    ("float", "<", "olt"), ("float", "==", "oeq"), ("float", "!=", "une"), ("int", "!=", "ne"),
])
def test_comparison_predicates(type_, op, predicate):
    text = kernel_ir(f"{type_} a = out[0], b = out[1]; out[2] = a {op} b;")
    assert f"cmp {predicate} " in text
    assert "zext" in text  # the result is an int


@pytest.mark.parametrize("type_, lane, flagged", [
    ("int", "", True), ("long", "", True), ("uint", "", False), ("ulong", "", False),
    ("char", "", True),  # promoted: the arithmetic is int's
    ("int4", ".x", False), ("float", "", False),
])
def test_signed_overflow_is_undefined_only_for_int_and_long(type_, lane, flagged):
    text = kernel_ir(f"{type_} a = out[0], b = out[1], s = a * b - b; out[2] = (uint)s{lane};")
    assert bool(re.search(r"= (mul|sub) nsw ", text)) == flagged


def test_increment_of_a_char_wraps_defined():
    """c++ on a char is computed in char by the lowering: no nsw (C converts the int result back)."""
    assert " nsw " not in kernel_ir("char c = out[0]; c++; out[1] = c;").replace("nuw nsw", "")


def test_shift_count_is_masked_by_width():
    text = kernel_ir("int a = out[0]; long b = out[1]; out[2] = a << out[3]; out[3] = b >> a;")
    assert "and %" in text and "i32 31" in text and "i64 63" in text


def test_constant_shift_count_is_folded():
    text = kernel_ir("int a = out[0]; out[1] = a << 33;")
    assert re.search(r"shl %a\.\d+, i32 1\n", text)


@pytest.mark.parametrize("source, target, opcode", [
    ("char", "int", "sext"), ("uchar", "int", "zext"), ("long", "int", "trunc"),
    ("int", "float", "sitofp"), ("uint", "float", "uitofp"), ("float", "int", "fptosi"),
    ("float", "uint", "fptoui"), ("float", "double", "fpext"), ("double", "float", "fptrunc"),
])
def test_conversions(source, target, opcode):
    text = kernel_ir(f"{source} a = ({source})out[0]; {target} b = a; out[1] = (int)b;")
    assert opcode in ops(text)


def test_literal_conversions_are_folded():
    text = kernel_ir("float x = out[0]; out[1] = x * 2;")
    assert "fmul %" in text and "f32 2.0" in text
    assert "sitofp i32" not in text


def test_float_to_bool_uses_unordered_compare():
    assert "cmp une" in kernel_ir("float x = out[0]; if (x) out[1] = 1;")


def test_logical_and_short_circuits_with_phi():
    text = kernel_ir("int a = out[0]; if (a > 0 && out[a] > 1) out[1] = 1;")
    assert "and.rhs" in text and "logic.end" in text
    assert "phi i1 [i1 0, entry]" in text


def test_logical_or_short_circuits_with_phi():
    text = kernel_ir("int a = out[0]; out[1] = a > 0 || out[a] > 1;")
    assert "or.rhs" in text and "phi i1 [i1 1, entry]" in text


def test_conditional_expression_joins_arms():
    text = kernel_ir("int a = out[0]; out[1] = a > 0 ? a : -a;")
    assert "cond.then" in text and "cond.else" in text and "phi i32" in text


def test_pointer_arithmetic_is_elementptr_of_the_pointee():
    text = kernel_ir("__global float *p = f + 3; p -= 1; p++; f[0] = *p;",
                     "__global float *f")
    assert "elementptr f32, %p.1, i64 -1" not in text  # the offset is negated at run time
    assert text.count("elementptr f32") >= 3
    assert "sub i64 0, i64 1" in text or "i64 -1" in text


def test_pointer_difference_divides_by_element_size():
    text = kernel_ir("__global int *p = out + 5; out[0] = p - out;")
    assert "ptrtoint" in text and "sdiv" in text and "i64 4" in text


def test_char_pointer_difference_needs_no_division():
    text = kernel_ir("__global char *p = c + 5; c[0] = p - c;", "__global char *c")
    assert "sdiv" not in text


def test_compound_assignment_converts_through_computation_type():
    text = kernel_ir("char c = out[0]; c += 300; c /= 2; out[1] = c;")
    assert "sext" in text and "trunc" in text and "sdiv" in text


def test_postfix_increment_yields_old_value():
    text = kernel_ir("int i = 0; out[i++] = i;")
    lines = text.splitlines()
    add = next(l for l in lines if " = add nsw %i" in l)
    assert add.split(" = ")[0] != ""
    assert "store %i" in text  # the old value indexes the store


def test_prefix_decrement_on_float_uses_fsub():
    assert re.search(r"fsub %f\.\d+, f32 1\.0", kernel_ir("float f = out[0]; --f; out[1] = f;"))


def test_unary_operators():
    text = kernel_ir("int a = out[0]; float x = a; out[1] = -a + ~a + !a; out[2] = -x;")
    assert re.search(r"sub i32 0, %a\.\d+", text) and re.search(r"xor %a\.\d+, i32 -1", text)
    assert "cmp eq" in text and "fneg" in text


def test_comma_and_assignment_values():
    text = kernel_ir("int a, b; a = (b = 3, b + 1); out[0] = a;")
    assert "store i32 3, %b" in text and "add nsw %b" in text


def test_address_of_and_deref():
    text = kernel_ir("int x = 4; int *p = &x; *p = 5; out[0] = x;")
    assert "store %x, %p" in text or "store %x" in text
    assert "store i32 5" in text


def test_bool_is_i8_in_memory_and_i1_as_value():
    text = kernel_ir("bool b = out[0] > 1; if (b) out[1] = 2;")
    assert "alloca i8" in text and "zext" in text and "trunc %b.1 to i1" in text
