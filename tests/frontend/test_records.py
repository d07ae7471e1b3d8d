"""Structs, unions, enums and goto in the frontend: layout, member types and diagnostics."""
from __future__ import annotations

import pytest

from loomcl.frontend import types as T

from .util import compile_log, compile_ok, kernel_body


def record_of(source: str, name: str) -> T.Record:
    """The record type of variable `name` declared in the last function of source."""
    for item in kernel_body(source):
        for decl in getattr(item, "decls", []):
            if decl.name == name:
                t = decl.type
                while t.is_array:
                    t = t.element
                return t.record
    raise KeyError(name)


@pytest.mark.parametrize("members, size, align, offsets", [
    ("char c; int i;", 8, 4, [0, 4]),
    ("char c; double d; char e;", 24, 8, [0, 8, 16]),
    ("float3 v; char c;", 32, 16, [0, 16]),           # a 3-vector is sized and aligned like 4
    ("char c; float4 v;", 32, 16, [0, 16]),
    ("short s[3]; long l;", 16, 8, [0, 8]),
    ("int *p; char c;", 16, 8, [0, 8]),
    ("bool b; char c[3]; short s;", 6, 2, [0, 1, 4]),
])
def test_struct_layout_follows_the_c_abi(members, size, align, offsets):
    record = record_of(f"void f() {{ struct S {{ {members} }} s; }}", "s")
    assert (record.size, record.align) == (size, align)
    assert [f.offset for f in record.fields] == offsets


def test_union_members_share_offset_zero_and_the_largest_size():
    record = record_of("void f() { union U { char c[5]; int i; short s; } u; }", "u")
    assert record.is_union and (record.size, record.align) == (8, 4)
    assert {f.offset for f in record.fields} == {0}


def test_anonymous_members_are_reached_through_their_parent():
    body = kernel_body("""struct S { int tag; union { float f; int i; }; };
        void f() { struct S s; s.i = 3; }""")
    assign = body[1].expr
    assert assign.target.name == "i" and assign.target.base.field.offset == 4


def test_self_referential_struct_through_a_pointer():
    record = record_of("struct N { struct N *next; int v; }; void f() { struct N n; }", "n")
    assert record.fields[0].type.pointee.record is record and record.size == 16


def test_member_of_global_struct_stays_global():
    body = kernel_body("""typedef struct { int a[4]; } S;
        __kernel void k(__global S *p) { p->a[1] = 2; }""")
    target = body[0].expr.target
    assert target.type.address_space is T.AddressSpace.GLOBAL


def test_enum_constants_are_ints_in_scope():
    body = kernel_body("enum E { A, B = 5, C, D = A + 10 }; void f(int *o) { o[0] = C; o[1] = D; }")
    assert [s.expr.value.value for s in body] == [6, 10]


def test_sizeof_and_typedef_of_a_struct():
    body = kernel_body("typedef struct P { char c; long l; } P; void f(ulong *o) { *o = sizeof(P); }")
    assert body[0].expr.value.value == 16


@pytest.mark.parametrize("source, message", [
    ("struct S { int x; }; void f() { struct S s; s.z = 1; }", "error: no member named 'z' in 'struct S'"),
    ("struct S { int x; }; void f(struct S *p) { p.x = 1; }",
     "member reference type '__generic struct S *' is a pointer; did you mean to use '->'?"),
    ("struct S { int x; }; void f() { struct S s; s->x = 1; }",
     "member reference type 'struct S' is not a pointer; did you mean to use '.'?"),
    ("struct S; void f() { struct S s; }", "variable has incomplete type 'struct S'"),
    ("struct S; void f(struct S *p) { p->x = 1; }", "incomplete definition of type 'struct S'"),
    ("struct S { int x; }; struct S { int y; };", "redefinition of 'struct S'"),
    ("struct S { int x; float x; };", "duplicate member 'x'"),
    ("struct S { struct S s; }; void f() { struct S v; }", "field has incomplete type 'struct S'"),
    ("struct S { int x; }; union S *p;", "use of 'S' with tag type that does not match previous declaration"),
    ("struct S { int x : 3; };", "bit-fields are not supported in OpenCL C structs"),
    ("struct __attribute__((packed)) S { char c; int x; };", "the 'packed' attribute on structs and unions is not supported yet"),
    ("struct S { int x; }; void f() { struct S s = { .y = 1 }; }",
     "field designator 'y' does not refer to any field in type 'struct S'"),
    ("struct S { int x; }; void f() { struct S s = { 1, 2 }; }", "excess elements in struct initializer"),
    ("union U { int x; float f; }; void f() { union U u = { 1, 2 }; }", "excess elements in union initializer"),
    ("struct S { int x; }; void f() { struct S s; int i = s; }", "initializing 'int' with an expression of incompatible type"),
    ("void f() { goto nowhere; }", "use of undeclared label 'nowhere'"),
    ("void f() { a: ; a: ; }", "redefinition of label 'a'"),
])
def test_record_misuse_is_diagnosed(source, message):
    log = compile_log(source)
    assert message in log
    assert "t.cl:1:" in log and "^" in log


def test_struct_programs_without_errors_compile():
    compile_ok("""
        typedef struct Pair { int key; float value; } pair;
        struct Fwd;
        struct Fwd *later(struct Fwd *p) { return p; }
        struct Fwd { pair items[2]; union { int i; float f; }; };
        pair swap(pair p) { pair q = { .value = (float)p.key, .key = (int)p.value }; return q; }
        void f(__global struct Fwd *g) { struct Fwd l = g[0]; l.items[1] = swap(l.items[0]); g[1] = l; }
    """)
