"""Vectorizable double-precision pow (and through it powr, pown, rootn), written in LLVM IR.

pow(x, y) = e^(y ln|x|) with ln|x| and the product y ln|x| carried as double-doubles: |y ln x| goes up
to 745, so the exponent must be known to about 2^-60 relative for a result within a few ulp (OpenCL
1.2 allows 16).

* ln|x|, relative error about 2^-63: subnormals scaled by 2^52; |x| = 2^k z with z in
  [0.708, 1.417), cut into 128 intervals by the top mantissa bits (the layout of the table-driven
  log of glibc 2.28 and ARM's optimized-routines, written here from its description); a table holds
  invc ~ 1/c for the interval's centre c and -ln(invc) as a double-double (a gather per entry when
  vectorized; the interval that holds 1 has invc = 1, so ln z = ln(1 + r) there, no cancellation).
  r = z invc - 1 is exact as a double-double (two_product, then a Sterbenz subtraction), |r| < 2^-7,
  ln(1 + r) = r - r^2/2 + r^3 P(r) (degree 5, 2^-65.7); k ln2 + ln c + r summed by TwoSums.
* e^(z_hi + z_lo): as exp in devlib/math/exp_log_double.py, z_lo added to the reduced argument
  r = z - n ln2 (a double-double again), whose tail t enters as e^(r + t) = e^r + t (1 + r).
* Special values are the float pow's (devlib/math/pow.py, C99 Annex F), shared.
"""
from __future__ import annotations

import struct
from decimal import Decimal, localcontext

from ...ir import types as ty
from ...ir.instructions import MathFunction
from ...llvmtext.module import ModuleText
from ...llvmtext.types import intrinsic_suffix
from .exp_log_double import _EXP_POLY, _LN2_STEP
from .pow import _PowWriter

SUPPORTED = {MathFunction.POW}

_LOG1P_POLY = (-0.125013098077577, 0.14287075118141643, -0.16666666613196257, 0.19999999949590525,
               -0.2500000000000066, 0.33333333333333864)
_OFFSET = 0x3FE6955500000000     # z = |x| 2^-k falls in [asdouble(_OFFSET), 2 asdouble(_OFFSET))
_INTERVAL_BITS = 7
_TABLE = "loomcl.pow_log_table"


def supports(function: MathFunction, t: ty.Type) -> bool:
    return function in SUPPORTED and ty.scalar_of(t) == ty.f64


def libm_function(module: ModuleText, function: MathFunction, t: ty.Type) -> str:
    name = f"loomcl.{function.value}.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        body = _DoublePowWriter(module, t)
        body.pow()
        module.declare(name, body.text(name, ("%x", "%y")))
    return f"@{name}"


def _as_double(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def log_table() -> list[tuple[float, float, float]]:
    """(invc, -ln(invc) head, tail) per interval; invc is 1/centre rounded to double, or 1 exactly for
    the interval that holds 1."""
    rows = []
    width = 1 << (52 - _INTERVAL_BITS)
    for i in range(1 << _INTERVAL_BITS):
        low, high = _as_double(_OFFSET + i * width), _as_double(_OFFSET + (i + 1) * width)
        invc = 1.0 if low <= 1.0 < high else 1.0 / _as_double(_OFFSET + i * width + width // 2)
        with localcontext() as context:
            context.prec = 60
            exact = -Decimal(invc).ln()
            head = float(exact)
            rows.append((invc, head, float(exact - Decimal(head))))
    return rows


def _table_text() -> str:
    rows = log_table()
    values = [row[column] for column in range(3) for row in rows]   # column c of row i at c*128 + i
    items = ", ".join(f"double {v!r}" for v in values)
    return f"@{_TABLE} = private unnamed_addr constant [{len(values)} x double] [{items}], align 64"


class _DoublePowWriter(_PowWriter):
    """Works on double lanes: F is double, and `f` makes double constants (for the shared special cases)."""

    def f(self, value: float) -> str:
        return self.d(value)

    def dop(self, opcode: str, a: str, b: str) -> str:
        return self.op(f"{opcode} {self.F} {a}, {b}")

    def neg(self, a: str) -> str:
        return self.op(f"fneg {self.F} {a}")

    def fast_two_sum(self, a: str, b: str) -> tuple[str, str]:
        """a + b exactly as head and tail, for |a| >= |b| (or a = 0)."""
        head = self.dop("fadd", a, b)
        return head, self.dop("fsub", b, self.dop("fsub", head, a))

    def two_sum(self, a: str, b: str) -> tuple[str, str]:
        head = self.dop("fadd", a, b)
        a_part = self.dop("fsub", head, b)
        lost = self.dop("fadd", self.dop("fsub", a, a_part), self.dop("fsub", b, self.dop("fsub", head, a_part)))
        return head, lost

    def table(self, column: int, index: str) -> str:
        self.module.declare(_TABLE, _table_text())
        return self.load_gather(_TABLE, self.op(f"add {self.I} {index}, {self.i(column << _INTERVAL_BITS)}"))

    def load_gather(self, table: str, index: str) -> str:
        """@table[index] of a double table, a gather when vectorized."""
        pointers = self.op(f"getelementptr inbounds double, ptr @{table}, {self.I} {index}")
        if self.lanes is None:
            return self.op(f"load double, ptr {pointers}, align 8")
        name = f"llvm.masked.gather.v{self.lanes}f64.v{self.lanes}p0"
        vp = f"<{self.lanes} x ptr>"
        self.module.declare(name, f"declare {self.F} @{name}({vp}, {self.B}, {self.F})")
        return self.op(f"call {self.F} @{name}({vp} align 8 {pointers}, {self.B} "
                       f"{self.splat('i1', 'true')}, {self.F} poison)")

    def log_abs(self, x: str = "%x") -> tuple[str, str]:
        """ln|x| as (head, tail) for finite non-zero x; 0 and inf give garbage the caller replaces."""
        ax = self.call("fabs", x)
        small = self.fcmp("olt", ax, self.d(2.2250738585072014e-308))
        ax = self.select(small, self.dop("fmul", ax, self.d(2.0 ** 52)), ax)
        bits = self.op(f"bitcast {self.F} {ax} to {self.L}")
        offset = self.op(f"sub {self.L} {bits}, {self.l(_OFFSET)}")
        top = self.op(f"lshr {self.L} {offset}, {self.l(52 - _INTERVAL_BITS)}")
        index = self.op(f"trunc {self.L} {top} to {self.I}")
        index = self.op(f"and {self.I} {index}, {self.i((1 << _INTERVAL_BITS) - 1)}")
        k = self.op(f"sitofp {self.L} {self.op(f'ashr {self.L} {offset}, {self.l(52)}')} to {self.F}")
        k = self.dop("fsub", k, self.select(small, self.d(52.0), self.d(0.0)))
        z_bits = self.op(f"sub {self.L} {bits}, {self.op(f'and {self.L} {offset}, {self.l(-(1 << 52))}')}")
        z = self.op(f"bitcast {self.L} {z_bits} to {self.F}")
        invc, logc, logc_tail = (self.table(column, index) for column in range(3))
        product = self.dop("fmul", z, invc)
        r, r_tail = self.fast_two_sum(self.dop("fsub", product, self.d(1.0)),
                                      self.call("fma", z, invc, self.neg(product)))
        half_r2 = self.dop("fmul", r, self.d(-0.5))
        square = self.dop("fmul", half_r2, r)
        square_tail = self.call("fma", half_r2, r, self.neg(square))               # -r^2/2 exactly
        r3_poly = self.dop("fmul", self.dop("fmul", r, self.dop("fmul", r, r)), self.horner(r, _LOG1P_POLY, t=self.F))
        head, lost = self.two_sum(self.dop("fmul", k, self.d(_LN2_STEP[0])), logc)  # k ln2 head exact
        head, lost2 = self.two_sum(head, r)
        head, lost3 = self.two_sum(head, square)
        tail = self.dop("fadd", self.dop("fadd", lost, lost2), lost3)
        small_terms = self.fma(k, self.d(_LN2_STEP[1]), self.dop("fadd", logc_tail, r_tail))
        small_terms = self.dop("fadd", small_terms, self.fma(self.dop("fmul", r, self.d(-1.0)), r_tail, square_tail))
        tail = self.dop("fadd", tail, self.dop("fadd", small_terms, r3_poly))
        return self.fast_two_sum(head, tail)

    def exp_double_double(self, z: str, z_tail: str) -> str:
        """e^(z + z_tail) for |z_tail| <= ulp(z); clamped to 0 and inf outside the double range."""
        in_range = self.fcmp("olt", self.call("fabs", z), self.d(750.0))
        z_tail = self.select(in_range, z_tail, self.d(0.0))   # may be NaN where y ln|x| overflowed
        z = self.call("minnum", self.call("maxnum", z, self.d(-750.0)), self.d(712.0))
        n = self.call("rint", self.dop("fmul", z, self.d(1 / 0.6931471805599453)))
        reduced = self.fma(n, self.d(-_LN2_STEP[0]), z)
        # z_tail (up to 2^-44) joins the reduced argument before the polynomial, not after it
        tail = self.fma(n, self.d(-_LN2_STEP[1]), z_tail)
        r = self.dop("fadd", reduced, tail)
        r_tail = self.dop("fadd", self.dop("fsub", reduced, r), tail)
        p = self.fma(self.dop("fmul", r, r), self.horner(r, _EXP_POLY, t=self.F), self.fma(r_tail, r, r_tail))
        one_plus = self.dop("fadd", self.dop("fadd", r, p), self.d(1.0))
        return self.times_power_of_two(one_plus, n)

    def times_power_of_two(self, p: str, n: str) -> str:
        ni = self.op(f"fptosi {self.F} {n} to {self.I}")
        half = self.op(f"ashr {self.I} {ni}, {self.i(1)}")
        for k in (half, self.op(f"sub {self.I} {ni}, {half}")):
            biased = self.op(f"zext {self.I} {self.op(f'add {self.I} {k}, {self.i(1023)}')} to {self.L}")
            scale = self.op(f"bitcast {self.L} {self.op(f'shl {self.L} {biased}, {self.l(52)}')} to {self.F}")
            p = self.dop("fmul", p, scale)
        return p

    def pow(self) -> None:
        log, log_tail = self.log_abs()
        z = self.dop("fmul", "%y", log)
        z_tail = self.fma("%y", log_tail, self.call("fma", "%y", log, self.neg(z)))
        magnitude = self.exp_double_double(z, z_tail)
        ax = self.call("fabs", "%x")
        # |x| = 0 or inf: 0 or inf by the sign of y (log_abs is not meant for them)
        edge = self.select(self.op(f"xor {self.B} {self.fcmp('olt', '%y', self.d(0.0))}, "
                                   f"{self.fcmp('oeq', ax, self.d(0.0))}"), self.d(0.0), self.d(float("inf")))
        edge_x = self.op(f"or {self.B} {self.fcmp('oeq', ax, self.d(0.0))}, "
                         f"{self.fcmp('oeq', ax, self.d(float('inf')))}")
        magnitude = self.select(edge_x, edge, magnitude)
        # y = +-inf: 0 or inf by |x| against 1 (|x| = 1 is a special case below)
        huge = self.select(self.op(f"xor {self.B} {self.fcmp('olt', '%y', self.d(0.0))}, "
                                   f"{self.fcmp('olt', ax, self.d(1.0))}"), self.d(0.0), self.d(float("inf")))
        magnitude = self.select(self.fcmp("oeq", self.call("fabs", "%y"), self.d(float("inf"))), huge, magnitude)
        self.lines.append(f"  ret {self.F} {self.special_cases(magnitude)}")
