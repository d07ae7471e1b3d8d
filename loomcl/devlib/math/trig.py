"""Vectorizable single-precision sin, cos and tan over the whole float range, written in LLVM IR.

Like devlib/math/libm.py (whose writer this uses): internal `alwaysinline` functions without branches, so the
loop vectorizer widens them inside work-item loops instead of leaving one `sinf` call per lane.

Argument reduction: one path for every lane, Payne-Hanek in integer arithmetic. A float is
|x| = M 2^E with a 24-bit integer M. The bits of 2/pi that would put only multiples of 4 into
M 2^E (2/pi) are dropped, and the next 96 bits are read from a table indexed by the biased exponent
(256 windows of three 32-bit words, 3 KiB; a gather per word when vectorized). M times the window
is a 120-bit product whose bits 94-95 are the quadrant k mod 4 and whose bits below are the fraction
(x 2/pi mod 1); three 32x32 multiplies give the words we need. The fraction, rounded to the nearest
quadrant and taken as a signed 64-bit fixed-point number, becomes a double: its absolute error is
below 2^-63, and floats never come closer to a multiple of pi/2 than about 2^-29 (of a quadrant),
so r = fraction pi/2 is known to about 2^-33 relative before rounding to double. Why not Cody-Waite
plus a fallback: a branch-free function computes both paths for every lane anyway, and the integer
reduction alone (about 25 integer operations) costs about what a three-part Cody-Waite in double
plus the selects between the two would, while being exact for all |x| up to FLT_MAX. Lanes with
|x| < 2^-20 skip the reduction (r = x; the table's windows lose precision there, and sin x = x).

The vector functions branch once per vector, though: when every lane is below 2^17 (the arguments
kernels meet) a two-part Cody-Waite in double replaces the table's gathers (which loomcl's no-gather
tuning makes scalar loads): |x| - k P1 is exact (both are multiples of 2^-52 and the difference is
below 1) and k P2 leaves an error near 2^-92, far below the 2^-29 of a quadrant that floats keep from
multiples of pi/2. Scalar functions stay branch-free for LLVM's loop vectorizer, which would
if-convert the branch; whole-function vectorization keeps it (MathFunction.reduces_by_period).

Kernels: r goes to float as r_hi + r_lo, sin r = r + r^3 S(r^2) (the r_lo correction added once),
cos r = 1 - r^2/2 + r^4 C(r^2), minimax polynomials on [-pi/4, pi/4] (relative errors 2^-28 and
2^-33, fitted for loomcl by weighted least squares). The quadrant picks the polynomial and the sign;
cos uses sin's formula with k + 1, tan divides. NaN and +-inf give NaN; +-0 and subnormals return
themselves from sin and tan, and 1 from cos. Measured errors are in tests/codegen/test_math.py.
"""
from __future__ import annotations

from ...ir import types as ty
from ...ir.instructions import MathFunction
from ...llvmtext.module import ModuleText
from ...llvmtext.types import intrinsic_suffix
from .libm import _Writer

SUPPORTED = {MathFunction.SIN, MathFunction.COS, MathFunction.TAN}

_SIN_POLY = (-1.9514631504047222e-4, 8.332156050896825e-3, -1.6666654536581854e-1)
_COS_POLY = (2.4432412591989775e-5, -1.3887309863174267e-3, 4.166664555439724e-2)
_TINY_EXPONENT = 127 - 20  # biased exponent below which r = x
_NEAR_LIMIT_BITS = 0x48000000  # 2^17 as float bits: vectors below it reduce by Cody-Waite
_PIO2_HI, _PIO2_LO = 1.5707963267948966, 6.123233995736766e-17
_TABLE = "loomcl.two_over_pi"


def supports(function: MathFunction, t: ty.Type) -> bool:
    return function in SUPPORTED and ty.scalar_of(t) == ty.f32


def libm_function(module: ModuleText, function: MathFunction, t: ty.Type) -> str:
    name = f"loomcl.{function.value}.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        body = _TrigWriter(module, t)
        body.trig(function)
        module.declare(name, body.text(name))
    return f"@{name}"


def _pi_fixed(bits: int) -> int:
    """floor(pi 2^bits), by Machin's formula pi = 16 atan(1/5) - 4 atan(1/239) in integers."""
    one = 1 << (bits + 32)

    def arctan_inverse(n: int) -> int:
        total, term, k, sign = 0, one // n, 1, 1
        while term:
            total += sign * (term // k)
            term //= n * n
            k, sign = k + 2, -sign
        return total

    return (16 * arctan_inverse(5) - 4 * arctan_inverse(239)) >> 32


def two_over_pi_windows() -> list[tuple[int, int, int]]:
    """For each biased exponent e, the 96 bits of 2/pi at positions e-151 .. e-56 after the binary
    point (bits at positions <= 0 are zero), as three 32-bit words, most significant first."""
    precision = 320
    two_over_pi = (1 << (2 * precision + 1)) // _pi_fixed(precision)  # floor(2/pi 2^precision)
    windows = []
    for e in range(256):
        last = e - 151 + 95  # position of the window's last bit
        window = (two_over_pi >> (precision - last)) & ((1 << 96) - 1) if last >= 0 else 0
        windows.append((window >> 64, (window >> 32) & 0xFFFFFFFF, window & 0xFFFFFFFF))
    return windows


def _table_text() -> str:
    windows = two_over_pi_windows()
    words = [w[j] for j in range(3) for w in windows]  # word j of exponent e at j*256 + e
    items = ", ".join(f"i32 {w - (1 << 32) if w >> 31 else w}" for w in words)
    return f"@{_TABLE} = private unnamed_addr constant [{len(words)} x i32] [{items}], align 64"


class _TrigWriter(_Writer):

    def gather(self, index: str) -> str:
        """table[index], a gather when vectorized."""
        self.module.declare(_TABLE, _table_text())
        pointers = self.op(f"getelementptr inbounds i32, ptr @{_TABLE}, {self.I} {index}")
        if self.lanes is None:
            return self.op(f"load i32, ptr {pointers}, align 4")
        name = f"llvm.masked.gather.v{self.lanes}i32.v{self.lanes}p0"
        vp = f"<{self.lanes} x ptr>"
        self.module.declare(name, f"declare {self.I} @{name}({vp}, {self.B}, {self.I})")
        return self.op(f"call {self.I} @{name}({vp} align 4 {pointers}, {self.B} "
                       f"{self.splat('i1', 'true')}, {self.I} poison)")

    def mul_wide(self, a64: str, b: str) -> tuple[str, str]:
        """(low, high) 32-bit words of the 64-bit product of a (zero-extended already) and b."""
        product = self.op(f"mul nuw {self.L} {a64}, {self.op(f'zext {self.I} {b} to {self.L}')}")
        high = self.op(f"lshr {self.L} {product}, {self.l(32)}")
        return (self.op(f"trunc {self.L} {product} to {self.I}"), self.op(f"trunc {self.L} {high} to {self.I}"))

    def reduce(self, abits: str) -> tuple[str, str]:
        """(k, r): |x| = k pi/2 + r with |r| <= pi/4, k as i32 (only k mod 4 is right), r a double."""
        e = self.op(f"lshr {self.I} {abits}, {self.i(23)}")
        m = self.op(f"or {self.I} {self.op(f'and {self.I} {abits}, {self.i(0x7FFFFF)}')}, {self.i(0x800000)}")
        w0 = self.gather(e)
        w1 = self.gather(self.op(f"add nuw {self.I} {e}, {self.i(256)}"))
        w2 = self.gather(self.op(f"add nuw {self.I} {e}, {self.i(512)}"))
        m64 = self.op(f"zext {self.I} {m} to {self.L}")
        _, p2_high = self.mul_wide(m64, w2)
        p1_low, p1_high = self.mul_wide(m64, w1)
        word1 = self.op(f"add {self.I} {p2_high}, {p1_low}")  # bits 32..63 of the product
        carry = self.op(f"zext {self.B} {self.op(f'icmp ult {self.I} {word1}, {p1_low}')} to {self.I}")
        p0_low = self.op(f"mul {self.I} {m}, {w0}")
        # bits 64..95 of the product: k mod 4 in the top two, the fraction's top 30 bits below
        word2 = self.op(f"add {self.I} {self.op(f'add {self.I} {p0_low}, {p1_high}')}, {carry}")
        k = self.op(f"lshr {self.I} {self.op(f'add {self.I} {word2}, {self.i(1 << 29)}')}, {self.i(30)}")
        # (fraction - [fraction >= 1/2]) 2^32 as a signed high word and an unsigned low word:
        high = self.op(f"sitofp {self.I} {self.op(f'shl {self.I} {word2}, {self.i(2)}')} to {self.D}")
        low = self.op(f"uitofp {self.I} {word1} to {self.D}")
        fraction = self.fma(low, self.d(2.0 ** -30), high, t=self.D)
        r = self.op(f"fmul {self.D} {fraction}, {self.d(1.5707963267948966 * 2.0 ** -32)}")
        tiny = self.op(f"icmp ult {self.I} {abits}, {self.i(_TINY_EXPONENT << 23)}")
        ax = self.op(f"fpext {self.F} {self.op(f'bitcast {self.I} {abits} to {self.F}')} to {self.D}")
        return (self.op(f"select {self.B} {tiny}, {self.I} {self.i(0)}, {self.I} {k}"),
                self.select(tiny, ax, r, t=self.D))

    def reduce_near(self, abits: str) -> tuple[str, str]:
        """(k, r) as reduce gives them, by Cody-Waite in double, for |x| <= 2^17."""
        ax = self.op(f"fpext {self.F} {self.op(f'bitcast {self.I} {abits} to {self.F}')} to {self.D}")
        k = self.call("rint", self.op(f"fmul {self.D} {ax}, {self.d(0.6366197723675814)}"), t=self.D)
        minus_k = self.op(f"fneg {self.D} {k}")
        r = self.call("fma", minus_k, self.d(_PIO2_HI), ax, t=self.D)      # exact
        r = self.call("fma", minus_k, self.d(_PIO2_LO), r, t=self.D)
        return self.op(f"fptosi {self.D} {k} to {self.I}"), r

    def trig(self, function: MathFunction) -> None:
        bits = self.op(f"bitcast {self.F} %x to {self.I}")
        abits = self.op(f"and {self.I} {bits}, {self.i(0x7FFFFFFF)}")
        if self.lanes is None:
            k, r = self.reduce(abits)
        else:
            near = self.op(f"icmp ule {self.I} {abits}, {self.i(_NEAR_LIMIT_BITS)}")
            k, r = self.either_way(near, lambda: self.reduce_near(abits), lambda: self.reduce(abits), (self.I, self.D))
        r_hi = self.op(f"fptrunc {self.D} {r} to {self.F}")
        r_hi_wide = self.op(f"fpext {self.F} {r_hi} to {self.D}")
        r_lo = self.op(f"fptrunc {self.D} {self.op(f'fsub {self.D} {r}, {r_hi_wide}')} to {self.F}")
        z = self.op(f"fmul {self.F} {r_hi}, {r_hi}")
        sin_tail = self.fma(self.op(f"fmul {self.F} {r_hi}, {z}"), self.horner(z, _SIN_POLY), r_lo)
        sin_r = self.op(f"fadd {self.F} {r_hi}, {sin_tail}")
        cos_q = self.fma(z, self.horner(z, _COS_POLY), self.f(-0.5))
        cos_tail = self.fma(z, cos_q, self.op(f"fmul {self.F} {self.op(f'fneg {self.F} {r_hi}')}, {r_lo}"))
        cos_r = self.op(f"fadd {self.F} {cos_tail}, {self.f(1.0)}")
        if function == MathFunction.COS:
            k = self.op(f"add {self.I} {k}, {self.i(1)}")
        odd = self.op(f"trunc {self.I} {k} to {self.B}")
        if function == MathFunction.TAN:
            numerator = self.select(odd, cos_r, sin_r)
            denominator = self.select(odd, self.op(f"fneg {self.F} {sin_r}"), cos_r)
            result = self.op(f"fdiv {self.F} {numerator}, {denominator}")
            sign = self.op(f"and {self.I} {bits}, {self.i(-0x80000000)}")
        else:
            result = self.select(odd, cos_r, sin_r)
            sign = self.op(f"shl {self.I} {self.op(f'and {self.I} {k}, {self.i(2)}')}, {self.i(30)}")
            if function == MathFunction.SIN:
                sign = self.op(f"xor {self.I} {sign}, {self.op(f'and {self.I} {bits}, {self.i(-0x80000000)}')}")
        result_bits = self.op(f"xor {self.I} {self.op(f'bitcast {self.F} {result} to {self.I}')}, {sign}")
        result = self.op(f"bitcast {self.I} {result_bits} to {self.F}")
        not_finite = self.op(f"icmp uge {self.I} {abits}, {self.i(0x7F800000)}")
        self.lines.append(f"  ret {self.F} {self.select(not_finite, self.op(f'fsub {self.F} %x, %x'), result)}")
