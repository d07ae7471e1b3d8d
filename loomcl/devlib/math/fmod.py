"""Vectorizable, exact single-precision fmod (the `frem` instruction at float type), written in LLVM IR.

LLVM lowers `frem` to a call of fmodf per lane; here it is integer arithmetic carried in double lanes,
without branches. |x| = mx 2^ex and |y| = my 2^ey with 24-bit integers mx, my (subnormals take the
smallest exponent and no hidden bit). If ex < ey, |x| < |y| and fmod is x. Otherwise the remainder is
(mx 2^(ex - ey) mod my) 2^ey: 2^d mod my for d = ex - ey < 256 by square-and-multiply over d's eight
bits, then times mx mod my. Every product of two residues is below 2^48, exact in a double; the
quotient comes from a multiplication by 1/my, off by at most one, and the remainder r = p - q my
(exact) is corrected once in each direction. The result R 2^ey is exactly representable, so the
final scaling and rounding to float are exact: fmod is bit for bit the C library's. Special values:
y = 0, x infinite or a NaN give NaN; y infinite gives x; the sign is x's (so fmod(-0, y) = -0).
Double fmod's writer is devlib/math/fmod_double.py (53-bit residues do not fit this scheme);
`fmod_function` here serves both.
"""
from __future__ import annotations

from ...ir import types as ty
from ...llvmtext.module import ModuleText
from ...llvmtext.types import intrinsic_suffix
from .fmod_double import DoubleFmodWriter
from .libm import _Writer


def supports(t: ty.Type) -> bool:
    return ty.scalar_of(t) in (ty.f32, ty.f64)


def fmod_function(module: ModuleText, t: ty.Type) -> str:
    """`@name` of the exact fmod at `t` (float or double, scalar or vector), defined once per module."""
    name = f"loomcl.fmod.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        writer = _FmodWriter if ty.scalar_of(t) == ty.f32 else DoubleFmodWriter
        body = writer(module, t)
        body.lines.append(f"  ret {body.F} {body.fmod()}")
        module.declare(name, body.text(name, ("%x", "%y")))
    return f"@{name}"


class _FmodWriter(_Writer):

    def iop(self, opcode: str, a: str, b: str) -> str:
        return self.op(f"{opcode} {self.I} {a}, {b}")

    def dop(self, opcode: str, a: str, b: str) -> str:
        return self.op(f"{opcode} {self.D} {a}, {b}")

    def parts(self, v: str) -> tuple[str, str]:
        """(m as a double, e as i32) with |v| = m 2^(e - 150), for finite v."""
        bits = self.iop("and", self.op(f"bitcast {self.F} {v} to {self.I}"), self.i(0x7FFFFFFF))
        field = self.iop("lshr", bits, self.i(23))
        normal = self.op(f"icmp ne {self.I} {field}, {self.i(0)}")
        hidden = self.op(f"select {self.B} {normal}, {self.I} {self.i(1 << 23)}, {self.I} {self.i(0)}")
        m = self.iop("or", self.iop("and", bits, self.i((1 << 23) - 1)), hidden)
        e = self.op(f"select {self.B} {normal}, {self.I} {field}, {self.I} {self.i(1)}")
        return self.op(f"uitofp {self.I} {m} to {self.D}"), e

    def reduce(self, r: str, m: str) -> str:
        """r mod m for r in (-m, 2m)."""
        r = self.select(self.fcmp("olt", r, self.d(0.0), t=self.D), self.dop("fadd", r, m), r, t=self.D)
        return self.select(self.fcmp("oge", r, m, t=self.D), self.dop("fsub", r, m), r, t=self.D)

    def mulmod(self, a: str, b: str, m: str, inverse: str) -> str:
        product = self.dop("fmul", a, b)                                          # < 2^48: exact
        q = self.call("floor", self.dop("fmul", product, inverse), t=self.D)
        r = self.call("fma", self.op(f"fneg {self.D} {q}"), m, product, t=self.D)  # exact
        return self.reduce(r, m)

    def fmod(self) -> str:
        mx, ex = self.parts("%x")
        my, ey = self.parts("%y")
        d = self.iop("sub", ex, ey)
        inverse = self.dop("fdiv", self.d(1.0), my)
        power = self.reduce(self.d(1.0), my)                                       # 2^0 mod my
        for bit in range(7, -1, -1):
            power = self.mulmod(power, power, my, inverse)
            doubled = self.reduce(self.dop("fadd", power, power), my)
            set_ = self.op(f"icmp ne {self.I} {self.iop('and', d, self.i(1 << bit))}, {self.i(0)}")
            power = self.select(set_, doubled, power, t=self.D)
        remainder = self.mulmod(mx, power, my, inverse)
        biased = self.op(f"zext {self.I} {self.iop('add', ey, self.i(1023 - 150))} to {self.L}")
        scale = self.op(f"bitcast {self.L} {self.op(f'shl {self.L} {biased}, {self.l(52)}')} to {self.D}")
        magnitude = self.op(f"fptrunc {self.D} {self.dop('fmul', remainder, scale)} to {self.F}")
        result = self.call("copysign", magnitude, "%x")
        result = self.select(self.op(f"icmp slt {self.I} {d}, {self.i(0)}"), "%x", result)
        invalid = self.op(f"or {self.B} {self.fcmp('oeq', '%y', self.f(0.0))}, "
                          f"{self.fcmp('oeq', self.call('fabs', '%x'), self.f(float('inf')))}")
        result = self.select(invalid, self.f(float("nan")), result)
        return self.select(self.fcmp("uno", "%x", "%y"), self.op(f"fadd {self.F} %x, %y"), result)
