"""Vectorizable double-precision sin, cos and tan over the whole double range, written in LLVM IR
(branch-free, like the float versions in devlib/math/trig.py, whose writer this extends).

Argument reduction, for every lane with |x| > pi/4: Payne-Hanek in exact double arithmetic, in
base 2^24 digits (fdlibm's idea, written here without branches). |x| is cut into four integer chunks
m_i of 24 bits at absolute positions 24(q - i), q = floor(E / 24) for the exponent E of x; 2/pi into
24-bit digits D_j (a 54-entry table, a gather per digit when vectorized). A product m_i D_j has 48 bits
and the weight 2^(24(q - i - j - 1)), so the products fall into groups of equal weight 2^(-24t) whose
sums (four products, < 2^50) are exact doubles. Groups of weight >= 2^24 add multiples of 4 (whole
turns) and are never formed; t = 0 holds the quadrant, t = 1..6 the fraction: seven groups, 28 products,
ten digits. Carries go up exactly (floor by 2^24), the fraction rounds to the nearest quadrant by its
top digit, and a negative fraction is taken as the digit complement, so that the fraction's digits are
all non-negative when they are summed: no cancellation, even for the doubles closest to a multiple of
pi/2 (about 2^-61 of a quadrant away), and the dropped products are below 2^-118. The fraction becomes a
double-double, times pi/2 a double-double r = r_hi + r_lo, |r| <= pi/4.

The vector functions first ask whether every lane is below _NEAR_LIMIT (the arguments kernels meet).
Then one branch, taken per vector, skips Payne-Hanek (its ten digit loads become 80 scalar loads, as
loomcl asks LLVM for no gathers) for Cody-Waite: k = rint(|x| 2/pi), r = |x| - k P1 - k P2 - k P3
with pi/2 = P1 + P2 + P3 to 2^-160. |x| - k P1 is exact (both are multiples of 2^-53 and the
difference is below 1), k P2 is split exactly by an fma, and the rest is summed as a double-double.
For |x| <= 2^17 r is then known to about 2^-140, far below the distance from any double to a multiple
of pi/2 (the nearest, over the whole double range, are about 2^-61 away).
Scalar functions stay branch-free, since LLVM's loop vectorizer would if-convert the branch and
compute both ways; whole-function vectorization keeps it (MathFunction.reduces_by_period).

Kernels on [-pi/4, pi/4]: sin r = r + r^3 S(r^2) + r_lo (1 - r^2/2) and cos r = 1 - r^2/2 + r^4 C(r^2)
- r r_lo, the 1 - r^2/2 split so that its rounding error is added back (fdlibm's way); S and C are
degree-5 polynomials fitted for loomcl by weighted least squares at Chebyshev nodes (relative errors
2^-58 and 2^-64). tan divides. NaN and +-inf give NaN, -0 keeps its sign in sin and tan. Measured
errors are in tests/e2e/test_math_double.py (OpenCL 1.2 allows 4 ulp for sin and cos, 5 for tan).
"""
from __future__ import annotations

from ...ir import types as ty
from ...ir.instructions import MathFunction
from ...llvmtext.module import ModuleText
from ...llvmtext.types import intrinsic_suffix
from .libm import _Writer
from .trig import _pi_fixed

SUPPORTED = {MathFunction.SIN, MathFunction.COS, MathFunction.TAN}

_SIN_POLY = (1.5895943103357368e-10, -2.505074222357712e-08, 2.755731358095979e-06,
             -0.00019841269829452244, 0.008333333333321907, -0.1666666666666663)
_COS_POLY = (-1.1358093609276402e-11, 2.0875691483269687e-09, -2.755731410296429e-07,
             2.480158728855358e-05, -0.0013888888888872505, 0.04166666666666659)
_PIO2_HI, _PIO2_LO = 1.5707963267948966, 6.123233995736766e-17
_PIO4 = 0.7853981633974483
_PIO2_TAIL = -1.4973849048591698e-33   # pi/2 - _PIO2_HI - _PIO2_LO
_TWO_OVER_PI = 0.6366197723675814
_NEAR_LIMIT = float(1 << 17)
_TABLE = "loomcl.two_over_pi_digits"
_PAD = 6          # zero digits before D_0: q - 4 >= -5 indexes them
_DIGITS = 48      # D_0 .. D_47: q <= 42 (E <= 1023) reads up to D_{q+5}
_GROUPS = 7       # t = 0 (the quadrant) and six fraction digits
_CHUNKS = 4       # 53 bits at any alignment span at most four 24-bit chunks
_RADIX = float(1 << 24)


def supports(function: MathFunction, t: ty.Type) -> bool:
    return function in SUPPORTED and ty.scalar_of(t) == ty.f64


def libm_function(module: ModuleText, function: MathFunction, t: ty.Type) -> str:
    name = f"loomcl.{function.value}.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        body = _DoubleTrigWriter(module, t)
        body.trig(function)
        module.declare(name, body.text(name))
    return f"@{name}"


def two_over_pi_digits() -> list[int]:
    """D_j, the 24-bit digits of 2/pi after the binary point: 2/pi = sum D_j 2^(-24(j + 1))."""
    precision = 24 * _DIGITS + 64
    two_over_pi = (1 << (2 * precision + 1)) // _pi_fixed(precision)
    return [(two_over_pi >> (precision - 24 * (j + 1))) & 0xFFFFFF for j in range(_DIGITS)]


def _table_text() -> str:
    digits = [0] * _PAD + two_over_pi_digits()
    items = ", ".join(f"double {float(d)!r}" for d in digits)
    return f"@{_TABLE} = private unnamed_addr constant [{len(digits)} x double] [{items}], align 64"


class _DoubleTrigWriter(_Writer):

    def dop(self, opcode: str, a: str, b: str) -> str:
        return self.op(f"{opcode} {self.F} {a}, {b}")

    def iop(self, opcode: str, a: str, b: str) -> str:
        return self.op(f"{opcode} {self.I} {a}, {b}")

    def digit(self, index: str) -> str:
        """D_index (index already offset by _PAD), a gather when vectorized."""
        self.module.declare(_TABLE, _table_text())
        pointers = self.op(f"getelementptr inbounds double, ptr @{_TABLE}, {self.I} {index}")
        if self.lanes is None:
            return self.op(f"load double, ptr {pointers}, align 8")
        name = f"llvm.masked.gather.v{self.lanes}f64.v{self.lanes}p0"
        vp = f"<{self.lanes} x ptr>"
        self.module.declare(name, f"declare {self.F} @{name}({vp}, {self.B}, {self.F})")
        return self.op(f"call {self.F} @{name}({vp} align 8 {pointers}, {self.B} "
                       f"{self.splat('i1', 'true')}, {self.F} poison)")

    def power_of_two(self, exponent: str) -> str:
        """2^exponent for an i32 exponent of a normal double."""
        biased = self.op(f"zext {self.I} {self.iop('add', exponent, self.i(1023))} to {self.L}")
        return self.op(f"bitcast {self.L} {self.op(f'shl {self.L} {biased}, {self.l(52)}')} to {self.F}")

    def floor_radix(self, g: str) -> str:
        """floor(g / 2^24), exact for the integers here."""
        return self.call("floor", self.dop("fmul", g, self.d(1 / _RADIX)))

    def reduce(self, ax: str, exponent: str) -> tuple[str, str, str]:
        """(k, r_hi, r_lo): |x| = k pi/2 + r_hi + r_lo, k as i32 (only k mod 4 is right)."""
        e = self.op(f"select {self.B} {self.op(f'icmp slt {self.I} {exponent}, {self.i(-1)}')}, "
                    f"{self.I} {self.i(-1)}, {self.I} {exponent}")
        q = self.iop("sub", self.iop("sdiv", self.iop("add", e, self.i(24)), self.i(24)), self.i(1))
        chunks, above = [], self.d(0.0)
        for i in range(_CHUNKS):   # m_i = floor(|x| 2^-24(q-i)) - 2^24 floor(|x| 2^-24(q-i+1))
            shift = self.iop("mul", self.iop("sub", self.i(i), q), self.i(24))
            whole = self.call("trunc", self.dop("fmul", ax, self.power_of_two(shift)))
            chunks.append(self.dop("fsub", whole, self.dop("fmul", above, self.d(_RADIX))))
            above = whole
        base = self.iop("add", q, self.i(_PAD - _CHUNKS))   # D_{q-4}
        digits = [self.digit(self.iop("add", base, self.i(j))) for j in range(_CHUNKS + _GROUPS - 1)]
        groups = []
        for t in range(_GROUPS):   # chunk i meets digit q - 1 - i + t
            g = self.d(0.0)
            for i in range(_CHUNKS):
                g = self.fma(chunks[i], digits[_CHUNKS - 1 - i + t], g)
            groups.append(g)
        for t in range(_GROUPS - 1, 0, -1):
            carry = self.floor_radix(groups[t])
            groups[t] = self.fma(carry, self.d(-_RADIX), groups[t])
            groups[t - 1] = self.dop("fadd", groups[t - 1], carry)
        up = self.fcmp("oge", groups[1], self.d(_RADIX / 2))
        quadrant = self.fma(self.call("floor", self.dop("fmul", groups[0], self.d(0.25))), self.d(-4.0), groups[0])
        quadrant = self.dop("fadd", quadrant, self.select(up, self.d(1.0), self.d(0.0)))
        k = self.op(f"fptosi {self.F} {quadrant} to {self.I}")
        # digits of |fraction|: g_t, or the complement 2^24 - 1 - g_t (+1 at the last) when rounded up
        fraction = [self.select(up, self.dop("fsub", self.d(_RADIX - 1), g), g) for g in groups[1:]]
        fraction[-1] = self.dop("fadd", fraction[-1], self.select(up, self.d(1.0), self.d(0.0)))
        pairs = [self.fma(fraction[2 * p], self.d(_RADIX), fraction[2 * p + 1]) for p in range(3)]
        a = self.dop("fmul", pairs[0], self.d(2.0 ** -48))
        b = self.dop("fmul", pairs[1], self.d(2.0 ** -96))
        hi = self.dop("fadd", a, b)
        c = self.dop("fmul", pairs[2], self.d(2.0 ** -144))
        lo = self.dop("fadd", self.dop("fadd", self.dop("fsub", a, hi), b), c)
        sign = self.select(up, self.d(-_PIO2_HI), self.d(_PIO2_HI))
        r_hi = self.dop("fmul", hi, sign)
        r_lo = self.fma(hi, sign, self.op(f"fneg {self.F} {r_hi}"))
        r_lo = self.fma(lo, sign, self.fma(hi, self.select(up, self.d(-_PIO2_LO), self.d(_PIO2_LO)), r_lo))
        head = self.dop("fadd", r_hi, r_lo)
        return k, head, self.dop("fsub", r_lo, self.dop("fsub", head, r_hi))

    def reduce_near(self, ax: str) -> tuple[str, str, str]:
        """(k, r_hi, r_lo) as reduce gives them, by Cody-Waite, for |x| <= _NEAR_LIMIT."""
        k = self.call("rint", self.dop("fmul", ax, self.d(_TWO_OVER_PI)))
        minus_k = self.op(f"fneg {self.F} {k}")
        r1 = self.call("fma", minus_k, self.d(_PIO2_HI), ax)                 # exact
        p = self.dop("fmul", k, self.d(_PIO2_LO))
        p_error = self.call("fma", k, self.d(_PIO2_LO), self.op(f"fneg {self.F} {p}"))   # k P2 = p + p_error
        s = self.dop("fsub", r1, p)
        back = self.dop("fsub", s, r1)                                        # two-sum: r1 - p = s + e
        e = self.dop("fadd", self.dop("fsub", r1, self.dop("fsub", s, back)),
                     self.dop("fsub", self.op(f"fneg {self.F} {p}"), back))
        lo = self.call("fma", minus_k, self.d(_PIO2_TAIL), self.dop("fsub", e, p_error))
        head = self.dop("fadd", s, lo)
        tail = self.dop("fsub", lo, self.dop("fsub", head, s))
        return self.op(f"fptosi {self.F} {k} to {self.I}"), head, tail

    def trig(self, function: MathFunction) -> None:
        bits = self.op(f"bitcast {self.F} %x to {self.L}")
        abits = self.op(f"and {self.L} {bits}, {self.l((1 << 63) - 1)}")
        ax = self.op(f"bitcast {self.L} {abits} to {self.F}")
        biased = self.op(f"trunc {self.L} {self.op(f'lshr {self.L} {abits}, {self.l(52)}')} to {self.I}")
        exponent = self.iop("sub", biased, self.i(1023))
        if self.lanes is None:
            k, r_hi, r_lo = self.reduce(ax, exponent)
        else:
            k, r_hi, r_lo = self.either_way(self.fcmp("ole", ax, self.d(_NEAR_LIMIT)), lambda: self.reduce_near(ax),
                                            lambda: self.reduce(ax, exponent), (self.I, self.F, self.F))
        small = self.fcmp("ole", ax, self.d(_PIO4))
        k = self.op(f"select {self.B} {small}, {self.I} {self.i(0)}, {self.I} {k}")
        r_hi = self.select(small, ax, r_hi)
        r_lo = self.select(small, self.d(0.0), r_lo)
        z = self.dop("fmul", r_hi, r_hi)
        half_z = self.dop("fmul", z, self.d(0.5))
        sin_tail = self.dop("fmul", r_lo, self.dop("fsub", self.d(1.0), half_z))
        r3 = self.dop("fmul", r_hi, z)
        sin_r = self.dop("fadd", r_hi, self.fma(r3, self.horner(z, _SIN_POLY, t=self.F), sin_tail))
        w = self.dop("fsub", self.d(1.0), half_z)
        lost = self.dop("fsub", self.dop("fsub", self.d(1.0), w), half_z)
        cross = self.dop("fmul", r_hi, self.op(f"fneg {self.F} {r_lo}"))
        cos_tail = self.fma(self.dop("fmul", z, z), self.horner(z, _COS_POLY, t=self.F), cross)
        cos_r = self.dop("fadd", w, self.dop("fadd", lost, cos_tail))
        if function == MathFunction.COS:
            k = self.iop("add", k, self.i(1))
        odd = self.op(f"trunc {self.I} {k} to {self.B}")
        sign_bit = self.l(-(1 << 63))
        x_sign = self.op(f"and {self.L} {bits}, {sign_bit}")
        if function == MathFunction.TAN:
            numerator = self.select(odd, cos_r, sin_r)
            denominator = self.select(odd, self.op(f"fneg {self.F} {sin_r}"), cos_r)
            result = self.dop("fdiv", numerator, denominator)
            sign = x_sign
        else:
            result = self.select(odd, cos_r, sin_r)
            half_turn = self.op(f"zext {self.I} {self.iop('and', k, self.i(2))} to {self.L}")
            sign = self.op(f"shl {self.L} {half_turn}, {self.l(62)}")
            if function == MathFunction.SIN:
                sign = self.op(f"xor {self.L} {sign}, {x_sign}")
        result_bits = self.op(f"xor {self.L} {self.op(f'bitcast {self.F} {result} to {self.L}')}, {sign}")
        result = self.op(f"bitcast {self.L} {result_bits} to {self.F}")
        not_finite = self.op(f"icmp uge {self.L} {abits}, {self.l(0x7FF << 52)}")
        self.lines.append(f"  ret {self.F} {self.select(not_finite, self.dop('fsub', '%x', '%x'), result)}")
