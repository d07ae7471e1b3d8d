"""Vectorizable double-precision cbrt and hypot, written in LLVM IR (branch-free; see devlib/math/libm.py).

* cbrt: |x| = 2^(3q + s) m with m in [1, 2), s in {0, 1, 2} (subnormals scaled by 2^54 first);
  z = 2^s m in [1, 8), a degree-4 polynomial guess of z^(1/3) (relative error 2^-8.6, fitted for
  loomcl), three Newton steps y <- y - (y^3 - z)/(3y^2) (2^-17, 2^-34, then below rounding), times 2^q
  with the sign of x. OpenCL 1.2 allows 2 ulp.
* hypot: both magnitudes scaled by the same power of two 2^-e (e from the larger one's exponent,
  clamped so that both factors stay normal: exact), sqrt(fma(a, a, b b)) 2^e (one rounding each),
  so no intermediate overflows or underflows. hypot(+-inf, anything) = inf, even NaN (C99 F.9.4.3).
Special values: cbrt keeps +-0 and +-inf, NaN gives NaN. Measured errors: tests/e2e/test_math_double.py.
"""
from __future__ import annotations

from ...ir import types as ty
from ...ir.instructions import MathFunction as M
from ...llvmtext.module import ModuleText
from ...llvmtext.types import intrinsic_suffix
from .pow_double import _DoublePowWriter

SUPPORTED = {M.CBRT, M.HYPOT}

_CBRT_GUESS = (-0.00037427839229130146, 0.008573597403810865, -0.07787538244373197, 0.43611209429666586,
               0.6361495267211763)


def supports(function: M, t: ty.Type) -> bool:
    return function in SUPPORTED and ty.scalar_of(t) == ty.f64


def libm_function(module: ModuleText, function: M, t: ty.Type) -> str:
    name = f"loomcl.{function.value}.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        body = _RootWriter(module, t)
        params = ("%x", "%y") if function == M.HYPOT else ("%x",)
        body.lines.append(f"  ret {body.F} {getattr(body, function.value)()}")
        module.declare(name, body.text(name, params))
    return f"@{name}"


class _RootWriter(_DoublePowWriter):

    def power_of_two(self, exponent: str) -> str:
        """2^exponent for an i32 exponent of a normal double."""
        biased = self.op(f"zext {self.I} {self.op(f'add {self.I} {exponent}, {self.i(1023)}')} to {self.L}")
        return self.op(f"bitcast {self.L} {self.op(f'shl {self.L} {biased}, {self.l(52)}')} to {self.F}")

    def exponent_field(self, v: str) -> str:
        bits = self.op(f"bitcast {self.F} {v} to {self.L}")
        return self.op(f"trunc {self.L} {self.op(f'lshr {self.L} {bits}, {self.l(52)}')} to {self.I}")

    def cbrt(self) -> str:
        ax = self.call("fabs", "%x")
        small = self.fcmp("olt", ax, self.d(2.2250738585072014e-308))
        scaled = self.select(small, self.dop("fmul", ax, self.d(2.0 ** 54)), ax)
        e = self.op(f"sub {self.I} {self.exponent_field(scaled)}, {self.i(1023)}")
        unscale = self.op(f"select {self.B} {small}, {self.I} {self.i(54)}, {self.I} {self.i(0)}")
        e = self.op(f"sub {self.I} {e}, {unscale}")
        # e = 3q + s with s in 0..2 (floor division: e may be negative)
        shifted = self.op(f"add {self.I} {e}, {self.i(3 * 400)}")
        q = self.op(f"sub {self.I} {self.op(f'sdiv {self.I} {shifted}, {self.i(3)}')}, {self.i(400)}")
        s = self.op(f"sub {self.I} {e}, {self.op(f'mul {self.I} {q}, {self.i(3)}')}")
        bits = self.op(f"bitcast {self.F} {scaled} to {self.L}")
        fraction = self.op(f"and {self.L} {bits}, {self.l((1 << 52) - 1)}")
        mantissa = self.op(f"or {self.L} {fraction}, {self.l(1023 << 52)}")
        z = self.dop("fmul", self.op(f"bitcast {self.L} {mantissa} to {self.F}"), self.power_of_two(s))
        y = self.horner(z, _CBRT_GUESS, t=self.F)
        for _ in range(3):
            y2 = self.dop("fmul", y, y)
            step = self.dop("fdiv", self.call("fma", y2, y, self.neg(z)), self.dop("fmul", y2, self.d(3.0)))
            y = self.dop("fsub", y, step)
        result = self.call("copysign", self.dop("fmul", y, self.power_of_two(q)), "%x")
        special = self.op(f"or {self.B} {self.fcmp('oeq', ax, self.d(0.0))}, "
                          f"{self.fcmp('ueq', ax, self.d(float('inf')))}")
        return self.select(special, self.dop("fadd", "%x", "%x"), result)

    def hypot(self) -> str:
        ax, ay = self.call("fabs", "%x"), self.call("fabs", "%y")
        big, little = self.call("maxnum", ax, ay), self.call("minnum", ax, ay)
        e = self.op(f"sub {self.I} {self.exponent_field(big)}, {self.i(1023)}")
        for predicate, bound in (("slt", -1000), ("sgt", 1000)):
            beyond = self.op(f"icmp {predicate} {self.I} {e}, {self.i(bound)}")
            e = self.op(f"select {self.B} {beyond}, {self.I} {self.i(bound)}, {self.I} {e}")
        down = self.power_of_two(self.op(f"sub {self.I} {self.i(0)}, {e}"))
        a, b = self.dop("fmul", big, down), self.dop("fmul", little, down)
        result = self.dop("fmul", self.call("sqrt", self.fma(a, a, self.dop("fmul", b, b))), self.power_of_two(e))
        result = self.select(self.fcmp("uno", "%x", "%y"), self.dop("fadd", "%x", "%y"), result)
        infinite = self.op(f"or {self.B} {self.fcmp('oeq', ax, self.d(float('inf')))}, "
                           f"{self.fcmp('oeq', ay, self.d(float('inf')))}")
        return self.select(infinite, self.d(float("inf")), result)
