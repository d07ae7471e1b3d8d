"""The OpenCL 1.2 math library as test data: each function's kernel call, input domain, references
(float64 numpy/scipy for float results, mpmath at 100 bits for double results) and ulp limits
(OpenCL 1.2 sec. 7.4, tables 7.1 and 7.2; None: the spec sets no limit)."""
from __future__ import annotations

import math

from dataclasses import dataclass
from typing import Callable

import mpmath as mp
import numpy as np
from scipy import special

mp.mp.prec = 100


@dataclass(frozen=True)
class Function:
    name: str
    domain: Callable            # domain(rng, n) -> tuple of float64 argument arrays
    numpy: Callable             # reference on float64 arrays
    mpmath: Callable            # reference on mpf arguments
    float_ulp: float | None
    double_ulp: float | None
    int_arg: bool = False       # the second argument is an int (ldexp, pown, rootn)
    # below this argument the double error is counted in ulps of max(|result|, 1), i.e. absolutely:
    # lgamma's reflection cancels next to its negative zeros (the spec sets lgamma no bound)
    absolute_below: float | None = None


def uniform(lo, hi):
    return lambda rng, n: (rng.uniform(lo, hi, n),)


def wide(lo_exp, hi_exp, signed=True, shift=0.0):
    """Magnitudes 2^e with e uniform in [lo_exp, hi_exp] (plus `shift`), both signs if `signed`."""
    def make(rng, n):
        x = np.exp2(rng.uniform(lo_exp, hi_exp, n))
        if signed:
            x *= rng.choice([-1.0, 1.0], n)
        return (x + shift,)
    return make


def mixed(*parts):
    """The concatenation of several domains (each gets n // len(parts) points)."""
    return lambda rng, n: tuple(np.concatenate(cols) for cols in zip(*(p(rng, n // len(parts)) for p in parts)))


def pair(first, second):
    return lambda rng, n: first(rng, n) + second(rng, n)


def ints(lo, hi):
    return lambda rng, n: (rng.integers(lo, hi, n).astype(np.float64),)


def _quadrants(x):
    """(sin(pi r), cos(pi r), n mod 4) with x = n/2 + r exactly, |r| <= 1/4: references without
    the error of pi x."""
    n = np.rint(2 * x)
    r = np.where(np.isfinite(x), x - n / 2, np.nan)
    return np.sin(np.pi * r), np.cos(np.pi * r), np.nan_to_num(np.fmod(n, 4) % 4)


def _sinpi(x):
    s, c, q = _quadrants(x)
    return np.choose(q.astype(int), [s, c, -s, -c])


def _cospi(x):
    s, c, q = _quadrants(x)
    return np.choose(q.astype(int), [c, -s, -c, s])


def _tanpi(x):
    """tanpi(n + 1/2) is +inf for even n, -inf for odd n (OpenCL 1.2 sec. 7.5.1)."""
    s, c, q = _quadrants(x)
    with np.errstate(divide="ignore"):
        t = np.where(q % 2 == 0, s / c, -c / s)
    return np.where((q % 2 == 1) & (s == 0), np.where(q == 1, np.inf, -np.inf), t)


def _rootn(x, n):
    with np.errstate(all="ignore"):
        y = np.abs(x) ** (1.0 / n)
    odd = n % 2 == 1
    y = np.where(np.signbit(x) & odd, -y, y)
    return np.where(((x < 0) & ~odd) | (n == 0), np.nan, y)


def _powr(x, y):
    """pow defined as exp(y log x): NaN for x < 0 and for 0^0, inf^0, 1^inf and NaN operands."""
    invalid = (x < 0) | np.isnan(x) | np.isnan(y) | ((x == 0) & (y == 0)) | (np.isinf(x) & (y == 0)) | (
        (x == 1) & np.isinf(y))
    return np.where(invalid, np.nan, np.power(np.abs(x), y))


def _lgamma(x):
    """C99's lgamma (scipy's gammaln differs at -inf and for subnormals)."""
    def one(v):
        try:
            return math.lgamma(v)
        except ValueError:  # a pole
            return math.inf
    return np.vectorize(one, otypes=[np.float64])(x)


def _mp_rootn(x, n):
    y = mp.root(abs(x), int(n))
    return (-y if int(n) % 2 else mp.nan) if x < 0 else y


PI = mp.pi
ANY = mixed(uniform(-10, 10), wide(-40, 20))
UNIT = mixed(uniform(-1, 1), wide(-30, 0))

FUNCTIONS = [
    Function("acos", UNIT, np.arccos, mp.acos, 4, 4),
    Function("acosh", mixed(wide(-30, 4, False, 1.0), wide(0, 100, False)), np.arccosh, mp.acosh, 4, 4),
    Function("acospi", UNIT, lambda x: np.arccos(x) / np.pi, lambda x: mp.acos(x) / PI, 5, 5),
    Function("asin", UNIT, np.arcsin, mp.asin, 4, 4),
    Function("asinh", mixed(ANY, wide(-100, 120)), np.arcsinh, mp.asinh, 4, 4),
    Function("asinpi", UNIT, lambda x: np.arcsin(x) / np.pi, lambda x: mp.asin(x) / PI, 5, 5),
    Function("atan", mixed(ANY, wide(-100, 120)), np.arctan, mp.atan, 5, 5),
    Function("atan2", pair(ANY, ANY), np.arctan2, mp.atan2, 6, 6),
    Function("atanh", UNIT, np.arctanh, mp.atanh, 5, 5),
    Function("atanpi", ANY, lambda x: np.arctan(x) / np.pi, lambda x: mp.atan(x) / PI, 5, 5),
    Function("atan2pi", pair(ANY, ANY), lambda y, x: np.arctan2(y, x) / np.pi,
             lambda y, x: mp.atan2(y, x) / PI, 6, 6),
    Function("cbrt", mixed(ANY, wide(-140, 120)), np.cbrt, lambda x: mp.sign(x) * mp.cbrt(abs(x)), 2, 2),
    Function("cosh", uniform(-88, 88), np.cosh, mp.cosh, 4, 4),
    Function("cospi", mixed(uniform(-4, 4), wide(-20, 30)), _cospi, mp.cospi, 4, 4),
    Function("erf", mixed(uniform(-5, 5), wide(-60, 3)), special.erf, mp.erf, 16, 16),
    Function("erfc", mixed(uniform(-5, 10), uniform(-1, 1), wide(-60, 1)), special.erfc, mp.erfc, 16, 16),
    Function("exp10", uniform(-44, 38), lambda x: 10.0 ** x, lambda x: mp.power(10, x), 3, 3),
    Function("expm1", mixed(uniform(-20, 88), wide(-60, -1)), np.expm1, mp.expm1, 3, 3),
    Function("hypot", pair(ANY, wide(-40, 40)), np.hypot, mp.hypot, 4, 4),
    Function("lgamma", mixed(uniform(0.01, 40), uniform(-30, 0), wide(5, 100, False)), _lgamma,
             lambda x: mp.log(abs(mp.gamma(x))), None, None, absolute_below=-0.5),
    Function("log1p", mixed(uniform(-0.99, 10), wide(-60, 100, False), wide(-60, -1)), np.log1p, mp.log1p,
             2, 2),
    Function("pown", pair(uniform(-4, 4), ints(-30, 30)), lambda x, n: x ** n, lambda x, n: x ** int(n),
             16, 16, int_arg=True),
    Function("powr", pair(uniform(0, 10), uniform(-20, 20)), _powr, mp.power, 16, 16),
    Function("rootn", pair(mixed(uniform(0, 100), wide(-120, 120)), ints(1, 12)), _rootn, _mp_rootn,
             16, 16, int_arg=True),
    Function("rsqrt", mixed(uniform(0, 100), wide(-140, 120, False)), lambda x: 1 / np.sqrt(x),
             lambda x: 1 / mp.sqrt(x), 2, 2),
    Function("sinh", uniform(-88, 88), np.sinh, mp.sinh, 4, 4),
    Function("sinpi", mixed(uniform(-4, 4), wide(-20, 30)), _sinpi, mp.sinpi, 4, 4),
    Function("tanh", mixed(uniform(-10, 10), wide(-40, 4)), np.tanh, mp.tanh, 5, 5),
    Function("tanpi", mixed(uniform(-0.49, 0.49), uniform(-4, 4), wide(-20, 30)), _tanpi,
             lambda x: mp.sinpi(x) / mp.cospi(x), 6, 6),
    Function("tgamma", mixed(uniform(0.01, 35), uniform(-30, 0), wide(-40, -5)), special.gamma, mp.gamma,
             16, 16),
    Function("exp2", uniform(-148, 127), np.exp2, lambda x: mp.power(2, x), 3, 3),
    Function("log2", wide(-140, 120, False), np.log2, lambda x: mp.log(x, 2), 3, 3),
    Function("log10", wide(-140, 120, False), np.log10, mp.log10, 3, 3),
    Function("tan", mixed(uniform(-4, 4), wide(-20, 60)), np.tan, mp.tan, 5, 5),
    Function("sin", mixed(uniform(-10, 10), wide(-30, 120)), np.sin, mp.sin, 4, 4),
    Function("cos", mixed(uniform(-10, 10), wide(-30, 120)), np.cos, mp.cos, 4, 4),
    Function("exp", mixed(uniform(-745, 709), uniform(-2, 2)), np.exp, mp.exp, 3, 3),
    Function("log", mixed(wide(-1074, 1023, False), uniform(0.5, 2)), np.log, mp.log, 3, 3),
    Function("pow", pair(uniform(0, 10), uniform(-20, 20)), np.power, mp.power, 16, 16),
    Function("degrees", ANY, np.degrees, lambda x: x * 180 / PI, 2, 2),
    Function("radians", ANY, np.radians, lambda x: x * PI / 180, 2, 2),
]
