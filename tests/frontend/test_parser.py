import pytest

from loomcl.frontend import ast as A
from loomcl.frontend import types as T

from .util import compile_log, compile_ok, kernel_body, show


@pytest.mark.parametrize("expr, grouped", [
    ("i + s * c", "(i + (s * c))"),
    ("i - s - c", "((i - s) - c)"),
    ("i * s / c % l", "(((i * s) / c) % l)"),
    ("i << 1 + 2", "(i << (1 + 2))"),
    ("i < s == c > l", "((i < s) == (c > l))"),
    ("i & s ^ c | l", "((i & s) ^ c) | l".join("()")),
    ("i || s && c", "(i || (s && c))"),
    ("i = s = c", "(i = (s = c))"),
    ("i += s *= 2", "(i += (s *= 2))"),
    ("i ? s : c ? l : 0", "(i ? s : (c ? l : 0))"),
    ("i, s, c", "((i, s), c)"),
    ("-i++", "(-(i++))"),
    ("!~i", "(!(~i))"),
    ("*gp++", "(*(gp++))"),
    ("&gp[1]", "(&gp[1])"),
    ("++i + i--", "((++i) + (i--))"),
    ("(float)i / 2", "(((float)i) / 2)"),
    ("(long)-i", "((long)(-i))"),
    ("gp[i + 1]", "gp[(i + 1)]"),
    ("f = -f * 2.5f", "(f = ((-f) * 2.5))"),
    ("i >= 0 && i <= 10 || !i", "(((i >= 0) && (i <= 10)) || (!i))"),
    ("i & 1 ? s : c", "((i & 1) ? s : c)"),
])
def test_precedence_and_associativity(expr, grouped):
    assert show(expr) == grouped


def test_sizeof_forms_fold_to_size_t():
    for expr, size in [("sizeof(int)", 4), ("sizeof i", 4), ("sizeof(double)", 8),
                       ("sizeof(float*)", 8), ("sizeof(char)", 1), ("sizeof l + 1", 9)]:
        assert show(expr) in (str(size), f"({size - 1} + 1)")


def test_alignof_spellings_fold_to_the_alignment():
    for expr, align in [("_Alignof(int)", 4), ("__alignof__(double)", 8), ("__alignof(float3)", 16),
                        ("__alignof__ l", 8), ("_Alignof(char)", 1), ("__alignof__(float*)", 8)]:
        assert show(expr) == str(align)


def test_alignof_of_an_aligned_union_of_anonymous_structs():
    body = kernel_body("typedef union { struct { float x, y; } __attribute__((aligned(8))); } c_t;"
                       "void f(ulong *o) { o[0] = __alignof__(c_t); o[1] = sizeof(c_t); }")
    assert [s.expr.value.value for s in body] == [8, 8]


def test_alignof_of_an_incomplete_type_is_an_error():
    assert "invalid application of 'alignof' to type 'struct S'" in \
        compile_log("struct S; void f(ulong *o) { *o = __alignof__(struct S); }")


def test_all_statement_kinds():
    body = kernel_body("""
        kernel void k(global int *out) {
            int x = 0;
            ;
            { int y = 1; x += y; }
            if (x) x = 1; else x = 2;
            if (x) { x = 3; }
            while (x < 10) x++;
            do { x--; } while (x > 0);
            for (int i = 0; i < 4; i++) { if (i == 1) continue; if (i == 3) break; }
            for (;;) break;
            switch (x) { case 0: x = 1; case 1: { x = 2; break; } default: x = 3; }
            out[0] = x;
            return;
        }""")
    kinds = [type(s).__name__ for s in body]
    assert kinds == ["DeclStmt", "NullStmt", "CompoundStmt", "IfStmt", "IfStmt", "WhileStmt",
                     "DoWhileStmt", "ForStmt", "ForStmt", "SwitchStmt", "ExprStmt", "ReturnStmt"]
    forever = body[8]
    assert forever.init is None and forever.cond is None and forever.step is None
    assert isinstance(forever.body, A.BreakStmt) and forever.body.target is forever
    switch = body[9]
    assert [c.value for c in switch.cases] == [0, 1] and switch.default is not None


def test_dangling_else_binds_to_nearest_if():
    body = kernel_body("void f(int a, int b) { if (a) if (b) a = 1; else a = 2; }")
    outer = body[0]
    assert outer.else_ is None and outer.then.else_ is not None


def test_break_and_continue_targets():
    body = kernel_body("""void f(int n) {
        for (int i = 0; i < n; i++) { switch (i) { case 0: continue; default: break; } }
    }""")
    loop = body[0]
    switch = loop.body.items[0]
    case0, default = switch.cases[0], switch.default
    assert case0.body.target is loop
    assert default.body.target is switch


def test_kernel_attributes_and_qualifiers():
    tu = compile_ok("""
        __kernel __attribute__((reqd_work_group_size(8, 4, 1)))
        __attribute__((vec_type_hint(float4))) __attribute__((work_group_size_hint(8,4,1)))
        void k(__global const float * restrict a, __constant float *c, __local int *scratch,
               const unsigned int n, global volatile int *flag) {}
        kernel void plain(global float *x) {}
        """)
    k = tu.kernel("k")
    assert k.is_kernel and k.reqd_work_group_size == (8, 4, 1)
    a, c, scratch, n, flag = k.params
    assert a.type.pointee.address_space is T.AddressSpace.GLOBAL and a.type.pointee.quals.const
    assert a.type.quals.restrict
    assert c.type.pointee.address_space is T.AddressSpace.CONSTANT
    assert scratch.type.pointee.address_space is T.AddressSpace.LOCAL
    assert n.type == T.UINT.with_quals(T.Qualifiers(const=True))
    assert flag.type.pointee.quals.volatile
    assert tu.kernel("plain").reqd_work_group_size is None
    assert [f.name for f in tu.kernels] == ["k", "plain"]


def test_type_specifier_combinations():
    tu = compile_ok("""void f(unsigned char a, signed char b, unsigned short c, short int d,
        unsigned e, long int g, unsigned long h, long long i, uchar j, ushort k, uint l,
        ulong m, size_t n, ptrdiff_t o, bool p, half *q, double r, signed s) {}""")
    types = [p.type for p in tu.functions[0].params]
    assert types[:16] == [T.UCHAR, T.CHAR, T.USHORT, T.SHORT, T.UINT, T.LONG, T.ULONG, T.LONG,
                          T.UCHAR, T.USHORT, T.UINT, T.ULONG, T.ULONG, T.LONG, T.BOOL,
                          types[15]]
    assert types[15].pointee.unqualified() == T.HALF
    assert types[16:] == [T.DOUBLE, T.INT]


def test_typedefs_and_shadowing():
    tu = compile_ok("""
        typedef float real;
        typedef __global real *gptr;
        kernel void k(gptr out) { real x = 2; { int real = 3; x += real; } out[0] = (real)x; }""")
    assert str(tu.kernels[0].params[0].type) == "__global float *"


def test_declarators_pointer_to_array_and_arrays():
    tu = compile_ok("""void f(float (*p)[4], float q[8], int rows) {
        float m[2][3];
        int *ptrs[2];
        m[1][2] = (*p)[3] + q[0];
        ptrs[0] = &rows;
    }""")
    f = tu.functions[0]
    assert str(f.params[0].type) == "__generic float[4] *"
    assert f.params[1].type.is_pointer
    m = f.body.items[0].decls[0]
    assert m.type.length == 2 and m.type.element.length == 3


def test_prototype_then_definition_and_call_linking():
    tu = compile_ok("""
        float sq(float x);
        kernel void k(global float *a) { a[0] = sq(a[1]); }
        float sq(float x) { return x * x; }""")
    call = tu.kernels[0].body.items[0].expr.value
    assert isinstance(call, A.Call) and call.function.definition is tu.functions[-1]
    assert call.function.definition.body is not None


def test_program_scope_constants_with_nested_initializers():
    tu = compile_ok("""
        __constant float w[] = {0.25f, 0.5f, 0.25f};
        __constant int m[2][3] = {{1, 2, 3}, {4}};
        __constant int flat[2][2] = {1, 2, 3, 4};
        constant float scale = 2 * 1.5f;
        __constant uint mask = ~0u >> 4;
    """)
    w, m, flat, scale, mask = tu.globals
    assert w.type.length == 3 and [x.value for x in w.init.items] == [0.25, 0.5, 0.25]
    assert m.init.items[1].items[0].value == 4 and len(m.init.items[1].items) == 1
    assert [[x.value for x in row.items] for row in flat.init.items] == [[1, 2], [3, 4]]
    assert isinstance(scale.init, A.FloatLiteral) and scale.init.value == 3.0
    assert mask.init.value == 0x0FFFFFFF and mask.address_space is T.AddressSpace.CONSTANT


def test_local_variables_in_nested_blocks_of_a_kernel():
    tu = compile_ok("""kernel void k(global float *g) {
        __local float a[64];
        if (get_local_id(0) == 0) { local int counter; counter = 0; }
        for (int i = 0; i < 2; i++) { __local float b[8][8]; b[i][i] = a[i]; }
    }""")
    body = tu.kernels[0].body.items
    a = body[0].decls[0]
    counter = body[1].then.items[0].decls[0]
    assert a.address_space is counter.address_space is T.AddressSpace.LOCAL
    assert a.type.size == 256


def test_syntax_error_recovery_reports_several_errors():
    log = compile_log("""void f() {
    int x = 1
    x = ;
    int y = 2;
    y = (3;
}
void g() { return 1 }""")
    assert log.count("error:") == 5


@pytest.mark.parametrize("source, message", [
    ("struct S { int a; }; void f() { struct S s; s.b = 1; }", "no member named 'b' in 'struct S'"),
    ("void f() { goto x; }", "use of undeclared label 'x'"),
    ("void f(int a) { a.x = 1; }", "member reference base type 'int' is not a structure, union or vector"),
    ("void f() { float4 v; v.q = 1; }", "illegal vector component name 'q'"),
    ("void f() { float2 v; v.z = 1; }", "vector component name 'z' is out of range for a vector of 2 components"),
    ("void f() { float4 v; int4 w = v; }", "cannot convert between vector values of different types ('float4' and 'int4')"),
    ("void f() { float4 v = (float4)(1.0f, 2.0f); }", "a 'float4' literal needs 4 components, not 2"),
    ("void f() { int4 v; float4 w = (float4)v; }", "cannot cast from vector type 'int4' to vector type 'float4'; use convert_float4() or as_float4()"),
    ("unsigned float x;", "invalid combination of type specifiers"),
])
def test_unsupported_constructs_are_reported(source, message):
    assert message in compile_log(source)
