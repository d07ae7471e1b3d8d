"""Vectorizable, exact double-precision fmod (the `frem` instruction at double type), written in LLVM IR.

LLVM lowers `frem` to a call of fmod per lane; here it is 64-bit integer arithmetic, without branches
or loops. |x| = mx 2^ex and |y| = my 2^ey with 53-bit integers mx, my (subnormals take the smallest
exponent and no hidden bit). If ex < ey, |x| < |y| and fmod is x. Otherwise d = ex - ey < 2^11 and the
remainder is (mx 2^d mod my) 2^ey: 2^d mod my by square-and-multiply over d's eleven bits, then times
mx mod my. A product p of two residues has up to 106 bits; its quotient by my comes from doubles,
q = floor(double(a) double(b) / my), off by at most 4, and p - q my is exact in wrapping 64-bit
arithmetic (only the low 64 bits of both terms are needed, and the difference is below 2^56). A second,
small quotient brings that into [-my, 2my) and one correction each way into [0, my). The result
R 2^ey is exactly representable, so the final scaling is exact: fmod is bit for bit the C library's,
and remainder and remquo (two fmods each, lower/builtins_math.py) with it. Special values: y = 0, x
infinite or a NaN give NaN; y infinite gives x; the sign is x's (so fmod(-0, y) = -0).
"""
from __future__ import annotations

from .libm import _Writer

_EXPONENT_BITS = 11          # d = ex - ey <= 2045


class DoubleFmodWriter(_Writer):

    def lop(self, opcode: str, a: str, b: str) -> str:
        return self.op(f"{opcode} {self.L} {a}, {b}")

    def dop(self, opcode: str, a: str, b: str) -> str:
        return self.op(f"{opcode} {self.F} {a}, {b}")

    def lselect(self, condition: str, a: str, b: str) -> str:
        return self.select(condition, a, b, t=self.L)

    def to_double(self, v: str) -> str:
        return self.op(f"sitofp {self.L} {v} to {self.F}")

    def parts(self, v: str) -> tuple[str, str]:
        """(m, e) as i64 with |v| = m 2^(e - 1075), for finite v."""
        bits = self.lop("and", self.op(f"bitcast {self.F} {v} to {self.L}"), self.l((1 << 63) - 1))
        field = self.lop("lshr", bits, self.l(52))
        normal = self.op(f"icmp ne {self.L} {field}, {self.l(0)}")
        hidden = self.lselect(normal, self.l(1 << 52), self.l(0))
        m = self.lop("or", self.lop("and", bits, self.l((1 << 52) - 1)), hidden)
        return m, self.lselect(normal, field, self.l(1))

    def reduce(self, r: str, m: str) -> str:
        """r mod m for r in [-m, 2m)."""
        r = self.lselect(self.op(f"icmp slt {self.L} {r}, {self.l(0)}"), self.lop("add", r, m), r)
        return self.lselect(self.op(f"icmp sge {self.L} {r}, {m}"), self.lop("sub", r, m), r)

    def minus_quotient(self, low: str, estimate: str, m: str, inverse: str) -> str:
        """low - floor(estimate / m) m in wrapping arithmetic."""
        q = self.op(f"fptosi {self.F} {self.call('floor', self.dop('fmul', estimate, inverse))} to {self.L}")
        return self.lop("sub", low, self.lop("mul", q, m))

    def mulmod(self, a: str, b: str, m: str, inverse: str) -> str:
        """a b mod m for a, b < 2^53, a b / m < 2^53."""
        estimate = self.dop("fmul", self.to_double(a), self.to_double(b))
        r = self.minus_quotient(self.lop("mul", a, b), estimate, m, inverse)          # |r| < 5m
        return self.reduce(self.minus_quotient(r, self.to_double(r), m, inverse), m)

    def fmod(self) -> str:
        mx, ex = self.parts("%x")
        my, ey = self.parts("%y")
        my = self.lselect(self.op(f"icmp eq {self.L} {my}, {self.l(0)}"), self.l(1), my)   # y = 0: NaN below
        d = self.lop("sub", ex, ey)
        inverse = self.dop("fdiv", self.d(1.0), self.to_double(my))
        power = self.reduce(self.l(1), my)                                         # 2^0 mod my
        for bit in range(_EXPONENT_BITS - 1, -1, -1):
            power = self.mulmod(power, power, my, inverse)
            doubled = self.reduce(self.lop("add", power, power), my)
            set_ = self.op(f"icmp ne {self.L} {self.lop('and', d, self.l(1 << bit))}, {self.l(0)}")
            power = self.lselect(set_, doubled, power)
        remainder = self.to_double(self.mulmod(mx, power, my, inverse))
        # 2^(ey - 1075) in one factor where it is normal, else 2^(ey - 1023) 2^-52 (exact: R 2^ey is a double)
        large = self.op(f"icmp sge {self.L} {ey}, {self.l(53)}")
        field = self.lselect(large, self.lop("sub", ey, self.l(52)), ey)
        scale = self.op(f"bitcast {self.L} {self.lop('shl', field, self.l(52))} to {self.F}")
        magnitude = self.dop("fmul", self.dop("fmul", remainder, scale),
                             self.select(large, self.d(1.0), self.d(2.0 ** -52)))
        result = self.call("copysign", magnitude, "%x")
        result = self.select(self.op(f"icmp slt {self.L} {d}, {self.l(0)}"), "%x", result)
        invalid = self.op(f"or {self.B} {self.fcmp('oeq', '%y', self.d(0.0))}, "
                          f"{self.fcmp('oeq', self.call('fabs', '%x'), self.d(float('inf')))}")
        result = self.select(invalid, self.d(float("nan")), result)
        return self.select(self.fcmp("uno", "%x", "%y"), self.dop("fadd", "%x", "%y"), result)
