import pytest

from loomcl.frontend import ast as A
from loomcl.frontend import types as T
from loomcl.frontend.builtins import Builtin
from loomcl.frontend.printer import format_expr

from .util import compile_log, compile_ok, kernel_body, show, typed_expr


@pytest.mark.parametrize("expr, type_, shown", [
    ("i + f", T.FLOAT, "(int-to-float(load(i)) + load(f))"),
    ("c + s", T.INT, "(integral(load(c)) + integral(load(s)))"),
    ("u + i", T.UINT, "(load(u) + integral(load(i)))"),
    ("l + u", T.LONG, "(load(l) + integral(load(u)))"),
    ("ul + l", T.ULONG, "(load(ul) + integral(load(l)))"),
    ("f * d", T.DOUBLE, "(float-to-float(load(f)) * load(d))"),
    ("i << l", T.INT, "(load(i) << integral(load(l)))"),
    ("c << 1", T.INT, "(integral(load(c)) << 1)"),
    ("i < u", T.INT, "(integral(load(i)) < load(u))"),
    ("i && f", T.INT, "(int-to-bool(load(i)) && float-to-bool(load(f)))"),
    ("i ? f : d", T.DOUBLE, "(int-to-bool(load(i)) ? float-to-float(load(f)) : load(d))"),
    ("-c", T.INT, "(-integral(load(c)))"),
    ("~u", T.UINT, "(~load(u))"),
    ("!gp", T.INT, "(!pointer-to-bool(load(gp)))"),
    ("f = i", T.FLOAT, "(f = int-to-float(load(i)))"),
    ("c = 300", T.CHAR, "(c = integral(300))"),
    ("(int)f", T.INT, "((int)load(f))"),
    ("(void)i", T.VOID, "((void)load(i))"),
    ("i, f", T.FLOAT, "(i, load(f))"),
    ("c++", T.CHAR, "(c++)"),
])
def test_usual_arithmetic_conversions_are_explicit(expr, type_, shown):
    e = typed_expr(expr)
    assert e.type == type_
    assert show(expr, implicit=True) == shown


def test_compound_assignment_records_computation_type():
    e = typed_expr("i += 1.5")
    assert isinstance(e, A.CompoundAssign) and e.type == T.INT
    assert e.computation_type == T.DOUBLE
    assert e.to_computation is A.CastKind.INT_TO_FLOAT
    assert e.from_computation is A.CastKind.FLOAT_TO_INT
    s = typed_expr("c <<= 2")
    assert s.computation_type == T.INT and s.from_computation is A.CastKind.INTEGRAL


def test_pointer_arithmetic_nodes_and_types():
    add = typed_expr("gp + i")
    assert isinstance(add, A.PointerArith) and add.op is A.BinaryOp.ADD
    assert str(add.type) == "__global float *"
    assert add.offset.type == T.LONG
    swapped = typed_expr("1 + gp")
    assert isinstance(swapped, A.PointerArith) and swapped.offset.type == T.LONG
    sub = typed_expr("gp - 2")
    assert isinstance(sub, A.PointerArith) and sub.op is A.BinaryOp.SUB
    diff = typed_expr("gp - gp")
    assert isinstance(diff, A.PointerDiff) and diff.type == T.LONG
    cmp = typed_expr("gp < gp + 1")
    assert cmp.type == T.INT and cmp.left.type.is_pointer
    null = typed_expr("gp != 0")
    assert null.right.kind is A.CastKind.NULL_TO_POINTER
    pinc = typed_expr("gp += 4")
    assert pinc.type.is_pointer and pinc.value.type == T.LONG


def test_index_and_array_decay():
    body = kernel_body("kernel void k(global float *g) { float a[4]; a[1] = g[2]; }")
    assign = body[1].expr
    target, value = assign.target, assign.value
    assert isinstance(target, A.Index) and target.lvalue and target.type.unqualified() == T.FLOAT
    assert target.base.kind is A.CastKind.ARRAY_TO_POINTER
    assert target.index.type == T.LONG
    assert value.kind is A.CastKind.LOAD and isinstance(value.operand, A.Index)
    assert target.base.operand.decl is body[0].decls[0]


def test_vector_subscript_is_a_vector_index():
    body = kernel_body("kernel void k(global float4 *g, int i) { float4 v; v[i] = g[0][i + 1]; "
                       "(v + 1.0f)[2]; }")
    target, value = body[1].expr.target, body[1].expr.value
    assert isinstance(target, A.VectorIndex) and target.lvalue and target.index.type == T.LONG
    assert target.type.unqualified() == T.FLOAT and target.type.address_space is T.AddressSpace.PRIVATE
    read = value.operand
    assert isinstance(read, A.VectorIndex) and read.type.address_space is T.AddressSpace.GLOBAL
    rvalue = body[2].expr
    assert isinstance(rvalue, A.VectorIndex) and not rvalue.lvalue


def test_event_t_takes_a_zero_constant():
    body = kernel_body("kernel void k() { event_t e = 0; wait_group_events(1, &e); }")
    init = body[0].decls[0].init
    assert init.kind is A.CastKind.NULL_TO_EVENT and init.type == T.EVENT


def test_lvalues_and_decls():
    body = kernel_body("kernel void k(global int *p) { int x; x = *p; }")
    assign = body[1].expr
    assert assign.target.lvalue and assign.target.decl is body[0].decls[0]
    deref = assign.value.operand
    assert isinstance(deref, A.Deref) and deref.lvalue
    assert isinstance(deref.operand.operand, A.VarRef) and deref.operand.operand.decl.name == "p"
    assert not assign.lvalue


def test_address_of_carries_address_space():
    body = kernel_body("kernel void k(global int *g) { local int l[4]; int p; "
                       "&g[1]; &l[2]; &p; }")
    spaces = [s.expr.type.pointee.address_space for s in body[2:]]
    assert spaces == [T.AddressSpace.GLOBAL, T.AddressSpace.LOCAL, T.AddressSpace.PRIVATE]


def test_generic_pointers_accept_named_spaces():
    compile_ok("""float sum(float *p, int n) { float s = 0; for (int i = 0; i < n; i++) s += p[i];
                  return s; }
                  kernel void k(global float *g, local float *l) { float x[2]; g[0] = sum(g, 2) +
                  sum(l, 2) + sum(x, 2); }""")


def test_cl12_pointers_default_to_private():
    log = compile_log("void f(float *p) {}\nkernel void k(global float *g) { f(g); }",
                      "-cl-std=CL1.2")
    assert "passing '__global float *' to parameter of incompatible type '__private float *'" in log


@pytest.mark.parametrize("call, builtin, result", [
    ("get_global_id(0)", Builtin.GET_GLOBAL_ID, T.SIZE_T),
    ("get_local_size(1)", Builtin.GET_LOCAL_SIZE, T.SIZE_T),
    ("get_work_dim()", Builtin.GET_WORK_DIM, T.UINT),
    ("sqrt(f)", Builtin.SQRT, T.FLOAT),
    ("sqrt(d)", Builtin.SQRT, T.DOUBLE),
    ("fmin(f, 1)", Builtin.FMIN, T.FLOAT),
    ("max(i, 2)", Builtin.MAX, T.INT),
    ("min(u, 2u)", Builtin.MIN, T.UINT),
    ("max(f, 0.0f)", Builtin.MAX, T.FLOAT),
    ("abs(i)", Builtin.ABS, T.UINT),
    ("clamp(i, 0, 10)", Builtin.CLAMP, T.INT),
    ("clamp(f, 0.0f, 1.0f)", Builtin.CLAMP, T.FLOAT),
    ("mad(f, f, f)", Builtin.MAD, T.FLOAT),
    ("native_divide(f, 2.0f)", Builtin.NATIVE_DIVIDE, T.FLOAT),
    ("atomic_add(ip, 1)", Builtin.ATOMIC_ADD, T.INT),
    ("atom_inc(ip)", Builtin.ATOMIC_INC, T.INT),
    ("atomic_cmpxchg(ip, 0, 1)", Builtin.ATOMIC_CMPXCHG, T.INT),
    ("atomic_xchg((volatile __global float *)gp, 1.0f)", Builtin.ATOMIC_XCHG, T.FLOAT),
    ("barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)", Builtin.BARRIER, T.VOID),
    ("mem_fence(CLK_GLOBAL_MEM_FENCE)", Builtin.MEM_FENCE, T.VOID),
    ("popcount(u)", Builtin.POPCOUNT, T.UINT),
    ("clz(c)", Builtin.CLZ, T.CHAR),
    ("abs_diff(s, s)", Builtin.ABS_DIFF, T.USHORT),
    ("mad_sat(l, l, l)", Builtin.MAD_SAT, T.LONG),
    ("upsample(c, (uchar)1)", Builtin.UPSAMPLE, T.SHORT),
    ("upsample(u, u)", Builtin.UPSAMPLE, T.ULONG),
    ("mul24(i, i)", Builtin.MUL24, T.INT),
    ("smoothstep(0.0, 1.0, d)", Builtin.SMOOTHSTEP, T.DOUBLE),
    ("sign(f)", Builtin.SIGN, T.FLOAT),
    ("isnan(d)", Builtin.ISNAN, T.INT),
    ("isless(f, 1.0f)", Builtin.ISLESS, T.INT),
    ("bitselect(f, f, f)", Builtin.BITSELECT, T.FLOAT),
    ("select(f, f, i)", Builtin.SELECT, T.FLOAT),
    ("select(d, d, ul)", Builtin.SELECT, T.DOUBLE),
    ("select(c, c, (uchar)1)", Builtin.SELECT, T.CHAR),
])
def test_builtin_overload_resolution(call, builtin, result):
    e = typed_expr(call)
    assert isinstance(e, A.BuiltinCall)
    assert e.builtin is builtin and e.type == result
    assert all(a.type.unqualified() == p.unqualified() for a, p in zip(e.args, e.overload.params))


def test_atomics_on_local_memory_pick_the_local_overload():
    body = kernel_body("kernel void k(global uint *h) { __local uint bins[16]; "
                       "atomic_inc(&bins[3]); atomic_add(&h[0], bins[0]); }")
    local_call, global_call = body[1].expr, body[2].expr
    assert local_call.overload.params[0].pointee.address_space is T.AddressSpace.LOCAL
    assert local_call.type == T.UINT
    assert global_call.overload.params[0].pointee.address_space is T.AddressSpace.GLOBAL


@pytest.mark.parametrize("call, message", [
    ("sqrt(i)", "call to 'sqrt' is ambiguous (arguments: 'int')"),
    ("min(u, i)", "call to 'min' is ambiguous (arguments: 'uint', 'int')"),
    ("fmax(f, 1.0)", "call to 'fmax' is ambiguous"),
    ("sqrt(gp)", "no matching function for call to 'sqrt' (arguments: '__global float *')"),
    ("get_global_id()", "no matching function for call to 'get_global_id'"),
    ("atomic_inc(gp)", "no matching function for call to 'atomic_inc'"),
    ("select(f, f, (long)i)", "call to 'select' is ambiguous"),
    ("isnan(gp)", "no matching function for call to 'isnan'"),
])
def test_builtin_overload_errors_list_candidates(call, message):
    log = compile_log(f"kernel void k(global float *gp) {{ int i; uint u; float f; {call}; }}")
    assert message in log
    assert "note: candidate function:" in log


def test_ambiguity_lists_only_the_best_candidates():
    log = compile_log("kernel void k() { uint u; int i; min(u, i); }")
    notes = [line for line in log.splitlines() if line.startswith("note:")]
    assert notes == ["note: candidate function: int min(int, int)",
                     "note: candidate function: uint min(uint, uint)"]


def test_function_call_arguments_and_return_are_converted():
    tu = compile_ok("float half_of(float x) { return x / 2; }\n"
                    "kernel void k(global float *o) { o[0] = half_of(3); }")
    ret = tu.functions[0].body.items[0]
    assert ret.value.type == T.FLOAT and ret.value.right.kind is A.CastKind.INT_TO_FLOAT
    call = tu.kernels[0].body.items[0].expr.value
    assert call.args[0].kind is A.CastKind.INT_TO_FLOAT


def test_case_labels_and_array_sizes_are_folded():
    tu = compile_ok("""#define N (2 * 8)
        kernel void k(global int *o) { int a[N + 1]; int b[sizeof(int) * 2];
        switch (o[0]) { case N: case 'a': case -1: case (1 << 3) | 1: break; } }""")
    body = tu.kernels[0].body.items
    assert body[0].decls[0].type.length == 17 and body[1].decls[0].type.length == 8
    assert [c.value for c in body[2].cases] == [16, 97, -1, 9]


def test_constant_folding_of_float_special_values():
    tu = compile_ok("__constant float big[3] = {INFINITY, -HUGE_VALF, FLT_MAX};")
    values = [x.value for x in tu.globals[0].init.items]
    assert values[0] == float("inf") and values[1] == float("-inf")
    assert values[2] == 3.4028234663852886e38


@pytest.mark.parametrize("source, message", [
    ("void f() { x = 1; }", "use of undeclared identifier 'x'"),
    ("void f(global float *p) { float f; f = p; }",
     "assigning to 'float' from incompatible type '__global float *'"),
    ("void f(global float *p) { local int *q = p; }", "initializing '__local int *' with an "
                                                      "expression of incompatible type"),
    ("void g(int a, int b) {} void f() { g(1); }", "too few arguments to function call, "
                                                    "expected 2, have 1"),
    ("void g(int a) {} void f() { g(1, 2); }", "too many arguments to function call"),
    ("void f() { nosuch(1); }", "use of undeclared function 'nosuch'"),
    ("void f() { 3 = 4; }", "expression is not assignable"),
    ("void f(int a) { a + 1 = 2; }", "expression is not assignable"),
    ("void f() { int x; int x; }", "redefinition of 'x'"),
    ("void f() {} void f() {}", "redefinition of 'f'"),
    ("int f(int); float f(int);", "conflicting types for 'f'"),
    ("void f() { break; }", "'break' statement not in loop or switch statement"),
    ("void f() { switch (1) { default: continue; } }", "'continue' statement not in loop"),
    ("void f() { case 1: ; }", "'case' statement not in switch statement"),
    ("void f(int x) { switch (x) { case 1: case 1: break; } }", "duplicate case value '1'"),
    ("kernel int k() { return 0; }", "function with '__kernel' attribute must have a void return"),
    ("kernel void k(float *p) {}", "pointer arguments to kernel functions must reside in "
                                   "'__global', '__constant', or '__local' address space"),
    ("kernel void k(private float *p) {}", "pointer arguments to kernel functions"),
    ("kernel void k(constant float *c) { c[0] = 1; }",
     "cannot assign to a variable in the __constant address space"),
    ("__constant int t[2] = {1, 2}; void f() { t[0] = 3; }", "__constant address space"),
    ("void f(const int x) { x = 1; }", "cannot assign to a variable of const-qualified type"),
    ("int f(int n) { return n ? f(n - 1) : 0; }", "recursive call to 'f' is not allowed in OpenCL"),
    ("void b(); void a() { b(); } void b() { a(); }", "recursive call to 'a' is not allowed"),
    ("float g = 1;", "program scope variable must reside in constant address space"),
    ("__constant float g;", "variable in constant address space must be initialized"),
    ("void f() { __local float x[4]; }", "non-kernel function variable cannot be declared in "
                                         "local address space"),
    ("kernel void k() { __local int x = 1; }", "'__local' variable cannot have an initializer"),
    ("kernel void k() { global int x; }", "function scope variable cannot be declared in "
                                          "__global address space"),
    ("void f(int n) { int a[n]; }", "array size is not an integer constant expression"),
    ("void f() { int a[0]; }", "array size must be greater than zero"),
    ("void f() { int a[] ; }", "needs an explicit size or an initializer"),
    ("void f() { int a[2] = {1, 2, 3}; }", "excess elements in array initializer"),
    ("int f() { return; }", "non-void function 'f' should return a value"),
    ("void f() { return 1; }", "void function 'f' should not return a value"),
    ("float *f(global float *p) { return p + 0.5f; }", "invalid operands to binary expression"),
    ("void f(float x) { x % 2; }", "invalid operands to binary expression ('float' and 'int')"),
    ("void f(float x) { ~x; }", "invalid argument type 'float' to unary expression"),
    ("void f(int x) { *x; }", "indirection requires pointer operand ('int' invalid)"),
    ("void f(global int *p, local int *q) { p == q; }", "comparison of distinct pointer types"),
    ("void f(global int *p) { (local int *)p; }", "changes address space of pointer"),
    ("void f(int x) { x(); }", "called object type 'int' is not a function"),
    ("void f() { int x = sizeof(void); }", "invalid application of 'sizeof' to type 'void'"),
    ("void g(); kernel void k() { g(); }", "function 'g' is declared but never defined"),
    ("kernel void k(bool b) {}", "kernel parameter cannot be declared as a bool"),
    ("kernel __attribute__((reqd_work_group_size(0, 1))) void k() {}",
     "'reqd_work_group_size' attribute requires three positive integer constants"),
])
def test_semantic_errors(source, message):
    assert message in compile_log(source)


def test_one_mistake_gives_one_error():
    log = compile_log("void f(global float *p) { float y = undefined_var * 2 + p[0]; p[1] = y; }")
    assert log.count("error:") == 1


def test_bool_true_false_and_pointer_sized_typedefs():
    body = kernel_body("kernel void k() { bool b = true; bool n = false; size_t s = 0; "
                       "ptrdiff_t p = 0; intptr_t ip = 0; uintptr_t up = 0; }")
    types = [d.type.unqualified() for stmt in body for d in stmt.decls]
    assert types == [T.BOOL, T.BOOL, T.SIZE_T, T.PTRDIFF_T, T.LONG, T.ULONG]
    assert [format_expr(stmt.decls[0].init, True) for stmt in body[:2]] == ["int-to-bool(1)", "int-to-bool(0)"]
