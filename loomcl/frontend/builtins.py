"""The OpenCL C builtin function library as data (OpenCL C 2.0 spec, sec. 6.13).

Each `Row` names one or more spellings of a builtin (aliases such as `atom_add` for `atomic_add`
share a row), the `Builtin` identity the lowerer maps to IR, a signature template, and the types the
template is expanded over. Templates are written like C declarations: `T (T, T)` is a function of two
T returning T. Letters stand for types derived from T, lane by lane for a vector T: `S` its element
type (`min(float4, float)`), `U` the unsigned and `I` the signed integer of its width, `W` the
integer twice as wide (`upsample`), `M` a relational result (int, or -1/0 lanes for a vector).
`AS` is expanded over the address spaces listed in the row (atomics, out-pointers); concrete names
(`uint`, `size_t`) mean themselves. gentype rows (`GENFLOATS`, `GENINTEGERS`) cover the scalars and
their vectors.

`overloads(name)` gives every concrete `Overload` of a name; overload.py picks one for a call.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache

from . import builtin_families
from . import types as T


class Builtin(enum.Enum):
    # work-item functions (6.13.1)
    GET_WORK_DIM = enum.auto()
    GET_GLOBAL_SIZE = enum.auto()
    GET_GLOBAL_ID = enum.auto()
    GET_LOCAL_SIZE = enum.auto()
    GET_ENQUEUED_LOCAL_SIZE = enum.auto()
    GET_LOCAL_ID = enum.auto()
    GET_NUM_GROUPS = enum.auto()
    GET_GROUP_ID = enum.auto()
    GET_GLOBAL_OFFSET = enum.auto()
    GET_GLOBAL_LINEAR_ID = enum.auto()
    GET_LOCAL_LINEAR_ID = enum.auto()
    # synchronization and memory fences (6.13.8, 6.13.9)
    BARRIER = enum.auto()
    MEM_FENCE = enum.auto()
    READ_MEM_FENCE = enum.auto()
    WRITE_MEM_FENCE = enum.auto()
    # async copies and prefetch (6.12.10)
    ASYNC_COPY = enum.auto()
    ASYNC_STRIDED_COPY = enum.auto()
    WAIT_GROUP_EVENTS = enum.auto()
    PREFETCH = enum.auto()
    # builtins whose names spell their types (builtin_families.py)
    VLOAD = enum.auto()
    VSTORE = enum.auto()
    VLOAD_HALF = enum.auto()
    VSTORE_HALF = enum.auto()
    CONVERT = enum.auto()
    AS_TYPE = enum.auto()
    # geometric (6.12.5)
    DOT = enum.auto()
    CROSS = enum.auto()
    LENGTH = enum.auto()
    DISTANCE = enum.auto()
    NORMALIZE = enum.auto()
    # math (6.13.2)
    SQRT = enum.auto()
    FABS = enum.auto()
    FMIN = enum.auto()
    FMAX = enum.auto()
    FLOOR = enum.auto()
    CEIL = enum.auto()
    EXP = enum.auto()
    LOG = enum.auto()
    POW = enum.auto()
    SIN = enum.auto()
    COS = enum.auto()
    MAD = enum.auto()
    FMA = enum.auto()
    NATIVE_SQRT = enum.auto()
    NATIVE_EXP = enum.auto()
    NATIVE_LOG = enum.auto()
    NATIVE_SIN = enum.auto()
    NATIVE_COS = enum.auto()
    NATIVE_POWR = enum.auto()
    NATIVE_DIVIDE = enum.auto()
    NATIVE_RECIP = enum.auto()
    # the rest of the OpenCL 1.2 math library (6.12.2) and degrees/radians (6.12.4)
    ACOS = enum.auto()
    ACOSH = enum.auto()
    ACOSPI = enum.auto()
    ASIN = enum.auto()
    ASINH = enum.auto()
    ASINPI = enum.auto()
    ATAN = enum.auto()
    ATAN2 = enum.auto()
    ATANH = enum.auto()
    ATANPI = enum.auto()
    ATAN2PI = enum.auto()
    CBRT = enum.auto()
    COPYSIGN = enum.auto()
    COSH = enum.auto()
    COSPI = enum.auto()
    ERF = enum.auto()
    ERFC = enum.auto()
    EXP2 = enum.auto()
    EXP10 = enum.auto()
    EXPM1 = enum.auto()
    FDIM = enum.auto()
    FMOD = enum.auto()
    FRACT = enum.auto()
    FREXP = enum.auto()
    HYPOT = enum.auto()
    ILOGB = enum.auto()
    LDEXP = enum.auto()
    LGAMMA = enum.auto()
    LGAMMA_R = enum.auto()
    LOG2 = enum.auto()
    LOG10 = enum.auto()
    LOG1P = enum.auto()
    LOGB = enum.auto()
    MAXMAG = enum.auto()
    MINMAG = enum.auto()
    MODF = enum.auto()
    NAN = enum.auto()
    NEXTAFTER = enum.auto()
    POWN = enum.auto()
    POWR = enum.auto()
    REMAINDER = enum.auto()
    REMQUO = enum.auto()
    RINT = enum.auto()
    ROOTN = enum.auto()
    ROUND = enum.auto()
    RSQRT = enum.auto()
    SINCOS = enum.auto()
    SINH = enum.auto()
    SINPI = enum.auto()
    TAN = enum.auto()
    TANH = enum.auto()
    TANPI = enum.auto()
    TGAMMA = enum.auto()
    TRUNC = enum.auto()
    DEGREES = enum.auto()
    RADIANS = enum.auto()
    # integer and common functions (6.13.3, 6.13.4)
    MIN = enum.auto()
    MAX = enum.auto()
    ABS = enum.auto()
    CLAMP = enum.auto()
    ABS_DIFF = enum.auto()
    ADD_SAT = enum.auto()
    SUB_SAT = enum.auto()
    HADD = enum.auto()
    RHADD = enum.auto()
    CLZ = enum.auto()
    CTZ = enum.auto()
    POPCOUNT = enum.auto()
    ROTATE = enum.auto()
    MUL_HI = enum.auto()
    MAD_HI = enum.auto()
    MAD_SAT = enum.auto()
    UPSAMPLE = enum.auto()
    MUL24 = enum.auto()
    MAD24 = enum.auto()
    MIX = enum.auto()
    STEP = enum.auto()
    SMOOTHSTEP = enum.auto()
    SIGN = enum.auto()
    # relational functions (6.13.6)
    ISEQUAL = enum.auto()
    ISNOTEQUAL = enum.auto()
    ISGREATER = enum.auto()
    ISGREATEREQUAL = enum.auto()
    ISLESS = enum.auto()
    ISLESSEQUAL = enum.auto()
    ISLESSGREATER = enum.auto()
    ISORDERED = enum.auto()
    ISUNORDERED = enum.auto()
    ISFINITE = enum.auto()
    ISINF = enum.auto()
    ISNAN = enum.auto()
    ISNORMAL = enum.auto()
    SIGNBIT = enum.auto()
    BITSELECT = enum.auto()
    SELECT = enum.auto()
    SHUFFLE = enum.auto()
    SHUFFLE2 = enum.auto()
    ANY = enum.auto()
    ALL = enum.auto()
    # atomics (6.13.11, the cl_khr_*_int32_* atom_ spellings and cl_khr_int64_*_atomics)
    ATOMIC_ADD = enum.auto()
    ATOMIC_SUB = enum.auto()
    ATOMIC_INC = enum.auto()
    ATOMIC_DEC = enum.auto()
    ATOMIC_XCHG = enum.auto()
    ATOMIC_MIN = enum.auto()
    ATOMIC_MAX = enum.auto()
    ATOMIC_AND = enum.auto()
    ATOMIC_OR = enum.auto()
    ATOMIC_XOR = enum.auto()
    ATOMIC_CMPXCHG = enum.auto()
    # image functions (6.12.14), resolved by sema_image.py (not named GET_: they are no work-item queries)
    READ_IMAGEF = enum.auto()
    READ_IMAGEI = enum.auto()
    READ_IMAGEUI = enum.auto()
    WRITE_IMAGEF = enum.auto()
    WRITE_IMAGEI = enum.auto()
    WRITE_IMAGEUI = enum.auto()
    IMAGE_WIDTH = enum.auto()
    IMAGE_HEIGHT = enum.auto()
    IMAGE_DEPTH = enum.auto()
    IMAGE_ARRAY_SIZE = enum.auto()
    IMAGE_DIM = enum.auto()
    IMAGE_CHANNEL_DATA_TYPE = enum.auto()
    IMAGE_CHANNEL_ORDER = enum.auto()

    @property
    def is_work_item_query(self) -> bool:
        return self.name.startswith("GET_")

    @property
    def is_atomic(self) -> bool:
        return self.name.startswith("ATOMIC_")


@dataclass(frozen=True)
class Overload:
    """One concrete signature of a builtin."""

    name: str
    builtin: Builtin
    result: T.Type
    params: tuple[T.Type, ...]

    def __str__(self) -> str:
        return f"{self.result} {self.name}({', '.join(map(str, self.params))})"


@dataclass(frozen=True)
class Row:
    names: str                          # space-separated spellings
    builtin: Builtin
    signature: str                      # template, e.g. "T (T, T)"
    over: tuple[T.Type, ...] = (T.VOID,)
    spaces: tuple[T.AddressSpace, ...] = (T.AddressSpace.GLOBAL,)


B = Builtin
FLOATS = T.FLOAT_TYPES
INTEGERS = T.INTEGER_TYPES


def vectors_of(scalars: tuple[T.Type, ...]) -> tuple[T.Type, ...]:
    return tuple(T.vector_of(s, n) for s in scalars for n in (2, 3, 4, 8, 16))


# gentype: the scalars and their vectors; in a template `S` is the element type of T
GENFLOATS = FLOATS + vectors_of(FLOATS)
GENINTEGERS = INTEGERS + vectors_of(INTEGERS)
FLOAT_VECTORS = (T.FLOAT,) + vectors_of((T.FLOAT,))  # the half_ and native_ forms
# the geometric functions take scalars and 2-, 3- and 4-lane vectors
GEOMETRIC = FLOATS + tuple(T.vector_of(s, n) for s in FLOATS for n in (2, 3, 4))
FAST_GEOMETRIC = (T.FLOAT,) + tuple(T.vector_of(T.FLOAT, n) for n in (2, 3, 4))  # float only
INT32 = (T.INT, T.UINT)
INT64 = (T.LONG, T.ULONG)
SIGNED_INTEGERS = (T.CHAR, T.SHORT, T.INT, T.LONG)
GLOBAL_LOCAL = (T.AddressSpace.GLOBAL, T.AddressSpace.LOCAL)
PRIVATE_GENERIC = (T.AddressSpace.PRIVATE, T.AddressSpace.GENERIC)
ANY_SPACE = GLOBAL_LOCAL + (T.AddressSpace.PRIVATE,)

# (op, builtin, signature): `atomic_op` and `atom_op` on 32-bit integers (6.13.11 and the
# cl_khr_*_int32_* spellings; xchg also on float), `atom_op` alone on 64-bit integers
# (cl_khr_int64_base_atomics, cl_khr_int64_extended_atomics)
ATOMIC_FUNCTIONS = (
    ("add", B.ATOMIC_ADD, "T (volatile AS T *, T)"),
    ("sub", B.ATOMIC_SUB, "T (volatile AS T *, T)"),
    ("inc", B.ATOMIC_INC, "T (volatile AS T *)"),
    ("dec", B.ATOMIC_DEC, "T (volatile AS T *)"),
    ("xchg", B.ATOMIC_XCHG, "T (volatile AS T *, T)"),
    ("min", B.ATOMIC_MIN, "T (volatile AS T *, T)"),
    ("max", B.ATOMIC_MAX, "T (volatile AS T *, T)"),
    ("and", B.ATOMIC_AND, "T (volatile AS T *, T)"),
    ("or", B.ATOMIC_OR, "T (volatile AS T *, T)"),
    ("xor", B.ATOMIC_XOR, "T (volatile AS T *, T)"),
    ("cmpxchg", B.ATOMIC_CMPXCHG, "T (volatile AS T *, T, T)"),
)

ROWS: tuple[Row, ...] = (
    Row("get_work_dim", B.GET_WORK_DIM, "uint ()"),
    Row("get_global_size", B.GET_GLOBAL_SIZE, "size_t (uint)"),
    Row("get_global_id", B.GET_GLOBAL_ID, "size_t (uint)"),
    Row("get_local_size", B.GET_LOCAL_SIZE, "size_t (uint)"),
    Row("get_enqueued_local_size", B.GET_ENQUEUED_LOCAL_SIZE, "size_t (uint)"),
    Row("get_local_id", B.GET_LOCAL_ID, "size_t (uint)"),
    Row("get_num_groups", B.GET_NUM_GROUPS, "size_t (uint)"),
    Row("get_group_id", B.GET_GROUP_ID, "size_t (uint)"),
    Row("get_global_offset", B.GET_GLOBAL_OFFSET, "size_t (uint)"),
    Row("get_global_linear_id", B.GET_GLOBAL_LINEAR_ID, "size_t ()"),
    Row("get_local_linear_id", B.GET_LOCAL_LINEAR_ID, "size_t ()"),
    Row("barrier work_group_barrier", B.BARRIER, "void (uint)"),
    Row("mem_fence", B.MEM_FENCE, "void (uint)"),
    Row("read_mem_fence", B.READ_MEM_FENCE, "void (uint)"),
    Row("write_mem_fence", B.WRITE_MEM_FENCE, "void (uint)"),
    Row("async_work_group_copy", B.ASYNC_COPY,
        "event_t (__local T *, const __global T *, size_t, event_t)", GENINTEGERS + GENFLOATS),
    Row("async_work_group_copy", B.ASYNC_COPY,
        "event_t (__global T *, const __local T *, size_t, event_t)", GENINTEGERS + GENFLOATS),
    Row("async_work_group_strided_copy", B.ASYNC_STRIDED_COPY,
        "event_t (__local T *, const __global T *, size_t, size_t, event_t)", GENINTEGERS + GENFLOATS),
    Row("async_work_group_strided_copy", B.ASYNC_STRIDED_COPY,
        "event_t (__global T *, const __local T *, size_t, size_t, event_t)", GENINTEGERS + GENFLOATS),
    Row("wait_group_events", B.WAIT_GROUP_EVENTS, "void (int, AS event_t *)", spaces=PRIVATE_GENERIC),
    Row("prefetch", B.PREFETCH, "void (const __global T *, size_t)", GENINTEGERS + GENFLOATS),
    Row("sqrt", B.SQRT, "T (T)", GENFLOATS),
    Row("fabs", B.FABS, "T (T)", GENFLOATS),
    Row("fmin", B.FMIN, "T (T, T)", GENFLOATS),
    Row("fmax", B.FMAX, "T (T, T)", GENFLOATS),
    Row("fmin", B.FMIN, "T (T, S)", vectors_of(FLOATS)),
    Row("fmax", B.FMAX, "T (T, S)", vectors_of(FLOATS)),
    Row("floor", B.FLOOR, "T (T)", GENFLOATS),
    Row("ceil", B.CEIL, "T (T)", GENFLOATS),
    Row("exp", B.EXP, "T (T)", GENFLOATS),
    Row("log", B.LOG, "T (T)", GENFLOATS),
    Row("pow", B.POW, "T (T, T)", GENFLOATS),
    Row("sin", B.SIN, "T (T)", GENFLOATS),
    Row("cos", B.COS, "T (T)", GENFLOATS),
    Row("mad", B.MAD, "T (T, T, T)", GENFLOATS),
    Row("fma", B.FMA, "T (T, T, T)", GENFLOATS),
    Row("native_sqrt", B.NATIVE_SQRT, "T (T)", GENFLOATS),
    Row("native_exp", B.NATIVE_EXP, "T (T)", GENFLOATS),
    Row("native_log", B.NATIVE_LOG, "T (T)", GENFLOATS),
    Row("native_sin", B.NATIVE_SIN, "T (T)", GENFLOATS),
    Row("native_cos", B.NATIVE_COS, "T (T)", GENFLOATS),
    Row("native_powr", B.NATIVE_POWR, "T (T, T)", GENFLOATS),
    Row("native_divide", B.NATIVE_DIVIDE, "T (T, T)", GENFLOATS),
    Row("native_recip", B.NATIVE_RECIP, "T (T)", GENFLOATS),
    Row("min", B.MIN, "T (T, T)", GENINTEGERS + GENFLOATS),
    Row("max", B.MAX, "T (T, T)", GENINTEGERS + GENFLOATS),
    Row("min", B.MIN, "T (T, S)", vectors_of(INTEGERS + FLOATS)),
    Row("max", B.MAX, "T (T, S)", vectors_of(INTEGERS + FLOATS)),
    Row("abs", B.ABS, "U (T)", GENINTEGERS),
    Row("clamp", B.CLAMP, "T (T, T, T)", GENINTEGERS + GENFLOATS),
    Row("clamp", B.CLAMP, "T (T, S, S)", vectors_of(INTEGERS + FLOATS)),
    Row("rsqrt native_rsqrt half_rsqrt", B.RSQRT, "T (T)", GENFLOATS),
    Row("dot", B.DOT, "S (T, T)", GEOMETRIC),
    Row("cross", B.CROSS, "T (T, T)", tuple(T.vector_of(s, n) for s in FLOATS for n in (3, 4))),
    Row("length", B.LENGTH, "S (T)", GEOMETRIC),
    Row("fast_length", B.LENGTH, "S (T)", FAST_GEOMETRIC),
    Row("distance", B.DISTANCE, "S (T, T)", GEOMETRIC),
    Row("fast_distance", B.DISTANCE, "S (T, T)", FAST_GEOMETRIC),
    Row("normalize", B.NORMALIZE, "T (T)", GEOMETRIC),
    Row("fast_normalize", B.NORMALIZE, "T (T)", FAST_GEOMETRIC),
    Row("acos", B.ACOS, "T (T)", GENFLOATS),
    Row("acosh", B.ACOSH, "T (T)", GENFLOATS),
    Row("acospi", B.ACOSPI, "T (T)", GENFLOATS),
    Row("asin", B.ASIN, "T (T)", GENFLOATS),
    Row("asinh", B.ASINH, "T (T)", GENFLOATS),
    Row("asinpi", B.ASINPI, "T (T)", GENFLOATS),
    Row("atan", B.ATAN, "T (T)", GENFLOATS),
    Row("atanh", B.ATANH, "T (T)", GENFLOATS),
    Row("atanpi", B.ATANPI, "T (T)", GENFLOATS),
    Row("cbrt", B.CBRT, "T (T)", GENFLOATS),
    Row("cosh", B.COSH, "T (T)", GENFLOATS),
    Row("cospi", B.COSPI, "T (T)", GENFLOATS),
    Row("erfc", B.ERFC, "T (T)", GENFLOATS),
    Row("erf", B.ERF, "T (T)", GENFLOATS),
    Row("exp2", B.EXP2, "T (T)", GENFLOATS),
    Row("exp10", B.EXP10, "T (T)", GENFLOATS),
    Row("expm1", B.EXPM1, "T (T)", GENFLOATS),
    Row("lgamma", B.LGAMMA, "T (T)", GENFLOATS),
    Row("log2", B.LOG2, "T (T)", GENFLOATS),
    Row("log10", B.LOG10, "T (T)", GENFLOATS),
    Row("log1p", B.LOG1P, "T (T)", GENFLOATS),
    Row("logb", B.LOGB, "T (T)", GENFLOATS),
    Row("rint", B.RINT, "T (T)", GENFLOATS),
    Row("round", B.ROUND, "T (T)", GENFLOATS),
    Row("sinh", B.SINH, "T (T)", GENFLOATS),
    Row("sinpi", B.SINPI, "T (T)", GENFLOATS),
    Row("tan", B.TAN, "T (T)", GENFLOATS),
    Row("tanh", B.TANH, "T (T)", GENFLOATS),
    Row("tanpi", B.TANPI, "T (T)", GENFLOATS),
    Row("tgamma", B.TGAMMA, "T (T)", GENFLOATS),
    Row("trunc", B.TRUNC, "T (T)", GENFLOATS),
    Row("degrees", B.DEGREES, "T (T)", GENFLOATS),
    Row("radians", B.RADIANS, "T (T)", GENFLOATS),
    Row("atan2", B.ATAN2, "T (T, T)", GENFLOATS),
    Row("atan2pi", B.ATAN2PI, "T (T, T)", GENFLOATS),
    Row("copysign", B.COPYSIGN, "T (T, T)", GENFLOATS),
    Row("fdim", B.FDIM, "T (T, T)", GENFLOATS),
    Row("fmod", B.FMOD, "T (T, T)", GENFLOATS),
    Row("hypot", B.HYPOT, "T (T, T)", GENFLOATS),
    Row("maxmag", B.MAXMAG, "T (T, T)", GENFLOATS),
    Row("minmag", B.MINMAG, "T (T, T)", GENFLOATS),
    Row("nextafter", B.NEXTAFTER, "T (T, T)", GENFLOATS),
    Row("powr", B.POWR, "T (T, T)", GENFLOATS),
    Row("remainder", B.REMAINDER, "T (T, T)", GENFLOATS),
    Row("ilogb", B.ILOGB, "N (T)", GENFLOATS),
    Row("ldexp", B.LDEXP, "T (T, N)", GENFLOATS),
    Row("ldexp", B.LDEXP, "T (T, int)", vectors_of(FLOATS)),
    Row("pown", B.POWN, "T (T, N)", GENFLOATS),
    Row("rootn", B.ROOTN, "T (T, N)", GENFLOATS),
    Row("nan", B.NAN, "float (uint)"),
    Row("nan", B.NAN, "double (ulong)"),
    Row("fract", B.FRACT, "T (T, AS T *)", GENFLOATS, ANY_SPACE),
    Row("modf", B.MODF, "T (T, AS T *)", GENFLOATS, ANY_SPACE),
    Row("sincos", B.SINCOS, "T (T, AS T *)", GENFLOATS, ANY_SPACE),
    Row("frexp", B.FREXP, "T (T, AS N *)", GENFLOATS, ANY_SPACE),
    Row("lgamma_r", B.LGAMMA_R, "T (T, AS N *)", GENFLOATS, ANY_SPACE),
    Row("remquo", B.REMQUO, "T (T, T, AS N *)", GENFLOATS, ANY_SPACE),
    Row("half_cos", B.COS, "T (T)", FLOAT_VECTORS),
    Row("half_exp", B.EXP, "T (T)", FLOAT_VECTORS),
    Row("half_exp2 native_exp2", B.EXP2, "T (T)", FLOAT_VECTORS),
    Row("half_exp10 native_exp10", B.EXP10, "T (T)", FLOAT_VECTORS),
    Row("half_log", B.LOG, "T (T)", FLOAT_VECTORS),
    Row("half_log2 native_log2", B.LOG2, "T (T)", FLOAT_VECTORS),
    Row("half_log10 native_log10", B.LOG10, "T (T)", FLOAT_VECTORS),
    Row("half_sin", B.SIN, "T (T)", FLOAT_VECTORS),
    Row("half_sqrt", B.SQRT, "T (T)", FLOAT_VECTORS),
    Row("half_tan native_tan", B.TAN, "T (T)", FLOAT_VECTORS),
    Row("half_recip", B.NATIVE_RECIP, "T (T)", FLOAT_VECTORS),
    Row("half_divide", B.NATIVE_DIVIDE, "T (T, T)", FLOAT_VECTORS),
    Row("half_powr", B.POWR, "T (T, T)", FLOAT_VECTORS),
    Row("abs_diff", B.ABS_DIFF, "U (T, T)", GENINTEGERS),
    Row("add_sat", B.ADD_SAT, "T (T, T)", GENINTEGERS),
    Row("sub_sat", B.SUB_SAT, "T (T, T)", GENINTEGERS),
    Row("hadd", B.HADD, "T (T, T)", GENINTEGERS),
    Row("rhadd", B.RHADD, "T (T, T)", GENINTEGERS),
    Row("clz", B.CLZ, "T (T)", GENINTEGERS),
    Row("ctz", B.CTZ, "T (T)", GENINTEGERS),
    Row("popcount", B.POPCOUNT, "T (T)", GENINTEGERS),
    Row("rotate", B.ROTATE, "T (T, T)", GENINTEGERS),
    Row("mul_hi", B.MUL_HI, "T (T, T)", GENINTEGERS),
    Row("mad_hi", B.MAD_HI, "T (T, T, T)", GENINTEGERS),
    Row("mad_sat", B.MAD_SAT, "T (T, T, T)", GENINTEGERS),
    Row("upsample", B.UPSAMPLE, "W (T, U)", INTEGERS[:6] + vectors_of(INTEGERS[:6])),
    Row("mul24", B.MUL24, "T (T, T)", INT32 + vectors_of(INT32)),
    Row("mad24", B.MAD24, "T (T, T, T)", INT32 + vectors_of(INT32)),
    Row("mix", B.MIX, "T (T, T, T)", GENFLOATS),
    Row("step", B.STEP, "T (T, T)", GENFLOATS),
    Row("smoothstep", B.SMOOTHSTEP, "T (T, T, T)", GENFLOATS),
    Row("sign", B.SIGN, "T (T)", GENFLOATS),
    Row("isequal", B.ISEQUAL, "M (T, T)", GENFLOATS),
    Row("isnotequal", B.ISNOTEQUAL, "M (T, T)", GENFLOATS),
    Row("isgreater", B.ISGREATER, "M (T, T)", GENFLOATS),
    Row("isgreaterequal", B.ISGREATEREQUAL, "M (T, T)", GENFLOATS),
    Row("isless", B.ISLESS, "M (T, T)", GENFLOATS),
    Row("islessequal", B.ISLESSEQUAL, "M (T, T)", GENFLOATS),
    Row("islessgreater", B.ISLESSGREATER, "M (T, T)", GENFLOATS),
    Row("isordered", B.ISORDERED, "M (T, T)", GENFLOATS),
    Row("isunordered", B.ISUNORDERED, "M (T, T)", GENFLOATS),
    Row("isfinite", B.ISFINITE, "M (T)", GENFLOATS),
    Row("isinf", B.ISINF, "M (T)", GENFLOATS),
    Row("isnan", B.ISNAN, "M (T)", GENFLOATS),
    Row("isnormal", B.ISNORMAL, "M (T)", GENFLOATS),
    Row("signbit", B.SIGNBIT, "M (T)", GENFLOATS),
    Row("bitselect", B.BITSELECT, "T (T, T, T)", GENINTEGERS + GENFLOATS),
    Row("select", B.SELECT, "T (T, T, I)", GENINTEGERS + GENFLOATS),
    Row("select", B.SELECT, "T (T, T, U)", GENINTEGERS + GENFLOATS),
    Row("mix", B.MIX, "T (T, T, S)", vectors_of(FLOATS)),
    Row("step", B.STEP, "T (S, T)", vectors_of(FLOATS)),
    Row("smoothstep", B.SMOOTHSTEP, "T (S, S, T)", vectors_of(FLOATS)),
    Row("any", B.ANY, "int (T)", SIGNED_INTEGERS + vectors_of(SIGNED_INTEGERS)),
    Row("all", B.ALL, "int (T)", SIGNED_INTEGERS + vectors_of(SIGNED_INTEGERS)),
    *(Row(f"atomic_{op} atom_{op}", builtin, signature, INT32 + ((T.FLOAT,) if op == "xchg" else ()),
          GLOBAL_LOCAL) for op, builtin, signature in ATOMIC_FUNCTIONS),
    *(Row(f"atom_{op}", builtin, signature, INT64, GLOBAL_LOCAL) for op, builtin, signature in ATOMIC_FUNCTIONS),
)

_NAMED_TYPES = {"void": T.VOID, "bool": T.BOOL, "char": T.CHAR, "short": T.SHORT, "int": T.INT,
                "long": T.LONG, "float": T.FLOAT, "double": T.DOUBLE, "half": T.HALF,
                **T.BUILTIN_TYPE_NAMES}
_SPACES = {"__global": T.AddressSpace.GLOBAL, "__local": T.AddressSpace.LOCAL,
           "__constant": T.AddressSpace.CONSTANT, "__private": T.AddressSpace.PRIVATE}


_SIGNED_OF_SIZE = {1: T.CHAR, 2: T.SHORT, 4: T.INT, 8: T.LONG}
_WIDER = {T.CHAR: T.SHORT, T.UCHAR: T.USHORT, T.SHORT: T.INT, T.USHORT: T.UINT, T.INT: T.LONG,
          T.UINT: T.ULONG}


def _lane_wise(rule):
    """A template letter's rule for scalars, applied to each lane's type of a vector."""
    return lambda t: T.vector_of(rule(t.element), t.count) if t.is_vector else rule(t)


_TEMPLATE_LETTERS = {
    "T": lambda t: t,
    "S": T.element_of,
    "I": _lane_wise(lambda t: _SIGNED_OF_SIZE[t.size]),
    "U": _lane_wise(lambda t: T.to_unsigned(_SIGNED_OF_SIZE[t.size])),
    "W": _lane_wise(lambda t: _WIDER[t]),
    "N": _lane_wise(lambda t: T.INT),   # int, or int lanes as many as T's: ilogb's result, ldexp's exponent
}
# a relational result: int for a scalar, same-width signed lanes (-1/0) for a vector
_TEMPLATE_LETTERS["M"] = lambda t: _TEMPLATE_LETTERS["I"](t) if t.is_vector else T.INT


def template_type(text: str, t: T.Type, space: T.AddressSpace) -> T.Type:
    """A type written in template notation, e.g. `volatile AS T *`, with T and AS substituted."""
    quals: dict = {}
    result: T.Type | None = None
    for word in text.replace("*", " * ").split():
        if word == "*":
            result = T.pointer_to(result)
        elif word in ("const", "volatile"):
            quals[word] = True
        elif word == "AS" or word in _SPACES:
            quals["address_space"] = space if word == "AS" else _SPACES[word]
        else:
            base = _TEMPLATE_LETTERS[word](t) if word in _TEMPLATE_LETTERS else _NAMED_TYPES[word]
            result = base.with_quals(T.Qualifiers(**quals))
    return result


def _expand(row: Row, name: str) -> list[Overload]:
    result_text, _, params_text = row.signature.partition("(")
    params = [p for p in params_text.rstrip(")").split(",") if p.strip()]
    out = []
    for t in row.over:
        for space in row.spaces if "AS" in row.signature else row.spaces[:1]:
            out.append(Overload(name, row.builtin, template_type(result_text, t, space),
                                tuple(template_type(p, t, space) for p in params)))
    return out


def _shuffles() -> list[Overload]:
    """gentypeN shuffle(gentypeM x, ugentypeN mask) and shuffle2(x, y, mask), N and M in 2, 4, 8, 16:
    two lane counts, more than a Row's one template type."""
    out = []
    for element in INTEGERS + FLOATS:
        unsigned = T.to_unsigned(_SIGNED_OF_SIZE[element.size])
        for m in (2, 4, 8, 16):
            source = T.vector_of(element, m)
            for n in (2, 4, 8, 16):
                result, mask = T.vector_of(element, n), T.vector_of(unsigned, n)
                out.append(Overload("shuffle", B.SHUFFLE, result, (source, mask)))
                out.append(Overload("shuffle2", B.SHUFFLE2, result, (source, source, mask)))
    return out


@lru_cache(maxsize=None)
def _table() -> dict[str, tuple[Overload, ...]]:
    table: dict[str, list[Overload]] = {}
    for row in ROWS:
        for name in row.names.split():
            table.setdefault(name, []).extend(_expand(row, name))
    for overload in _shuffles():
        table.setdefault(overload.name, []).append(overload)
    return {name: tuple(overloads) for name, overloads in table.items()}


def overloads(name: str) -> tuple[Overload, ...]:
    """Every signature of the builtin `name`; empty if there is no such builtin."""
    return _table().get(name) or builtin_families.overloads(name)


def is_builtin(name: str) -> bool:
    return bool(overloads(name))


def builtin_names() -> list[str]:
    """Every builtin's spelling (for spelling suggestions)."""
    return list(_table())
