"""The OpenCL C builtin function library as data (OpenCL C 2.0 spec, sec. 6.13).

Each `Row` names one or more spellings of a builtin (aliases such as `atom_add` for `atomic_add`
share a row), the `Builtin` identity the lowerer maps to IR, a signature template, and the types the
template is expanded over. Templates are written like C declarations: `T (T, T)` is a function of two
T returning T; `U` is the unsigned type of T (for `abs`); `AS` is expanded over the address spaces
listed in the row (for atomics); concrete names (`uint`, `size_t`) mean themselves. Adding the rest
of the library, or vector overloads, is adding rows (and, for vectors, vector types to `over`).

`overloads(name)` gives every concrete `Overload` of a name; overload.py picks one for a call.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache

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
    # synchronization and memory fences (6.13.8, 6.13.9)
    BARRIER = enum.auto()
    MEM_FENCE = enum.auto()
    READ_MEM_FENCE = enum.auto()
    WRITE_MEM_FENCE = enum.auto()
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
    DEGREES = enum.auto()
    RADIANS = enum.auto()
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
    # 32-bit atomics (6.13.11, and the cl_khr_*_int32_* atom_ spellings)
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
INT32 = (T.INT, T.UINT)
GLOBAL_LOCAL = (T.AddressSpace.GLOBAL, T.AddressSpace.LOCAL)

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
    Row("barrier work_group_barrier", B.BARRIER, "void (uint)"),
    Row("mem_fence", B.MEM_FENCE, "void (uint)"),
    Row("read_mem_fence", B.READ_MEM_FENCE, "void (uint)"),
    Row("write_mem_fence", B.WRITE_MEM_FENCE, "void (uint)"),
    Row("sqrt", B.SQRT, "T (T)", FLOATS),
    Row("fabs", B.FABS, "T (T)", FLOATS),
    Row("fmin", B.FMIN, "T (T, T)", FLOATS),
    Row("fmax", B.FMAX, "T (T, T)", FLOATS),
    Row("floor", B.FLOOR, "T (T)", FLOATS),
    Row("ceil", B.CEIL, "T (T)", FLOATS),
    Row("exp", B.EXP, "T (T)", FLOATS),
    Row("log", B.LOG, "T (T)", FLOATS),
    Row("pow", B.POW, "T (T, T)", FLOATS),
    Row("sin", B.SIN, "T (T)", FLOATS),
    Row("cos", B.COS, "T (T)", FLOATS),
    Row("mad", B.MAD, "T (T, T, T)", FLOATS),
    Row("fma", B.FMA, "T (T, T, T)", FLOATS),
    Row("native_sqrt", B.NATIVE_SQRT, "T (T)", FLOATS),
    Row("native_exp", B.NATIVE_EXP, "T (T)", FLOATS),
    Row("native_log", B.NATIVE_LOG, "T (T)", FLOATS),
    Row("native_sin", B.NATIVE_SIN, "T (T)", FLOATS),
    Row("native_cos", B.NATIVE_COS, "T (T)", FLOATS),
    Row("native_powr", B.NATIVE_POWR, "T (T, T)", FLOATS),
    Row("native_divide", B.NATIVE_DIVIDE, "T (T, T)", FLOATS),
    Row("native_recip", B.NATIVE_RECIP, "T (T)", FLOATS),
    Row("min", B.MIN, "T (T, T)", INTEGERS + FLOATS),
    Row("max", B.MAX, "T (T, T)", INTEGERS + FLOATS),
    Row("abs", B.ABS, "U (T)", INTEGERS),
    Row("clamp", B.CLAMP, "T (T, T, T)", INTEGERS + FLOATS),
    Row("abs_diff", B.ABS_DIFF, "U (T, T)", INTEGERS),
    Row("add_sat", B.ADD_SAT, "T (T, T)", INTEGERS),
    Row("sub_sat", B.SUB_SAT, "T (T, T)", INTEGERS),
    Row("hadd", B.HADD, "T (T, T)", INTEGERS),
    Row("rhadd", B.RHADD, "T (T, T)", INTEGERS),
    Row("clz", B.CLZ, "T (T)", INTEGERS),
    Row("ctz", B.CTZ, "T (T)", INTEGERS),
    Row("popcount", B.POPCOUNT, "T (T)", INTEGERS),
    Row("rotate", B.ROTATE, "T (T, T)", INTEGERS),
    Row("mul_hi", B.MUL_HI, "T (T, T)", INTEGERS),
    Row("mad_hi", B.MAD_HI, "T (T, T, T)", INTEGERS),
    Row("mad_sat", B.MAD_SAT, "T (T, T, T)", INTEGERS),
    Row("upsample", B.UPSAMPLE, "W (T, U)", INTEGERS[:6]),
    Row("mul24", B.MUL24, "T (T, T)", INT32),
    Row("mad24", B.MAD24, "T (T, T, T)", INT32),
    Row("degrees", B.DEGREES, "T (T)", FLOATS),
    Row("radians", B.RADIANS, "T (T)", FLOATS),
    Row("mix", B.MIX, "T (T, T, T)", FLOATS),
    Row("step", B.STEP, "T (T, T)", FLOATS),
    Row("smoothstep", B.SMOOTHSTEP, "T (T, T, T)", FLOATS),
    Row("sign", B.SIGN, "T (T)", FLOATS),
    Row("isequal", B.ISEQUAL, "int (T, T)", FLOATS),
    Row("isnotequal", B.ISNOTEQUAL, "int (T, T)", FLOATS),
    Row("isgreater", B.ISGREATER, "int (T, T)", FLOATS),
    Row("isgreaterequal", B.ISGREATEREQUAL, "int (T, T)", FLOATS),
    Row("isless", B.ISLESS, "int (T, T)", FLOATS),
    Row("islessequal", B.ISLESSEQUAL, "int (T, T)", FLOATS),
    Row("islessgreater", B.ISLESSGREATER, "int (T, T)", FLOATS),
    Row("isordered", B.ISORDERED, "int (T, T)", FLOATS),
    Row("isunordered", B.ISUNORDERED, "int (T, T)", FLOATS),
    Row("isfinite", B.ISFINITE, "int (T)", FLOATS),
    Row("isinf", B.ISINF, "int (T)", FLOATS),
    Row("isnan", B.ISNAN, "int (T)", FLOATS),
    Row("isnormal", B.ISNORMAL, "int (T)", FLOATS),
    Row("signbit", B.SIGNBIT, "int (T)", FLOATS),
    Row("bitselect", B.BITSELECT, "T (T, T, T)", INTEGERS + FLOATS),
    Row("select", B.SELECT, "T (T, T, I)", INTEGERS + FLOATS),
    Row("select", B.SELECT, "T (T, T, U)", INTEGERS + FLOATS),
    Row("atomic_add atom_add", B.ATOMIC_ADD, "T (volatile AS T *, T)", INT32, GLOBAL_LOCAL),
    Row("atomic_sub atom_sub", B.ATOMIC_SUB, "T (volatile AS T *, T)", INT32, GLOBAL_LOCAL),
    Row("atomic_inc atom_inc", B.ATOMIC_INC, "T (volatile AS T *)", INT32, GLOBAL_LOCAL),
    Row("atomic_dec atom_dec", B.ATOMIC_DEC, "T (volatile AS T *)", INT32, GLOBAL_LOCAL),
    Row("atomic_xchg atom_xchg", B.ATOMIC_XCHG, "T (volatile AS T *, T)", INT32 + (T.FLOAT,),
        GLOBAL_LOCAL),
    Row("atomic_min atom_min", B.ATOMIC_MIN, "T (volatile AS T *, T)", INT32, GLOBAL_LOCAL),
    Row("atomic_max atom_max", B.ATOMIC_MAX, "T (volatile AS T *, T)", INT32, GLOBAL_LOCAL),
    Row("atomic_and atom_and", B.ATOMIC_AND, "T (volatile AS T *, T)", INT32, GLOBAL_LOCAL),
    Row("atomic_or atom_or", B.ATOMIC_OR, "T (volatile AS T *, T)", INT32, GLOBAL_LOCAL),
    Row("atomic_xor atom_xor", B.ATOMIC_XOR, "T (volatile AS T *, T)", INT32, GLOBAL_LOCAL),
    Row("atomic_cmpxchg atom_cmpxchg", B.ATOMIC_CMPXCHG, "T (volatile AS T *, T, T)", INT32,
        GLOBAL_LOCAL),
)

_NAMED_TYPES = {"void": T.VOID, "bool": T.BOOL, "char": T.CHAR, "short": T.SHORT, "int": T.INT,
                "long": T.LONG, "float": T.FLOAT, "double": T.DOUBLE, "half": T.HALF,
                **T.BUILTIN_TYPE_NAMES}
_SPACES = {"__global": T.AddressSpace.GLOBAL, "__local": T.AddressSpace.LOCAL,
           "__constant": T.AddressSpace.CONSTANT, "__private": T.AddressSpace.PRIVATE}


_SIGNED_OF_SIZE = {8: T.CHAR, 16: T.SHORT, 32: T.INT, 64: T.LONG}
_WIDER = {T.CHAR: T.SHORT, T.UCHAR: T.USHORT, T.SHORT: T.INT, T.USHORT: T.UINT, T.INT: T.LONG,
          T.UINT: T.ULONG}
_TEMPLATE_LETTERS = {
    "T": lambda t: t,
    "I": lambda t: _SIGNED_OF_SIZE[t.bits],
    "U": lambda t: T.to_unsigned(_SIGNED_OF_SIZE[t.bits]),
    "W": lambda t: _WIDER[t],
}


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


@lru_cache(maxsize=None)
def _table() -> dict[str, tuple[Overload, ...]]:
    table: dict[str, list[Overload]] = {}
    for row in ROWS:
        for name in row.names.split():
            table.setdefault(name, []).extend(_expand(row, name))
    return {name: tuple(overloads) for name, overloads in table.items()}


def overloads(name: str) -> tuple[Overload, ...]:
    """Every signature of the builtin `name`; empty if there is no such builtin."""
    return _table().get(name, ())


def is_builtin(name: str) -> bool:
    return name in _table()


def builtin_names() -> list[str]:
    """Every builtin's spelling (for spelling suggestions)."""
    return list(_table())
