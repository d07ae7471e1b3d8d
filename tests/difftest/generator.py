"""Random legal OpenCL C work-group programs, for differential testing of the work-group compiler.

`generate(seed)` gives a `Program`: one kernel `k(__global int *out, __global const int *in,
__local int *sh, int n)` with its helper functions, an NDRange (1-, 2- or 3-D, small), and inputs.
The same seed always gives the same program.

Legality holds by construction (the reference interpreter checks it again at run time):

* Barriers only in uniform control flow: uniform conditions are built from uniform values (constants,
  `n`, local and group sizes, group ids, uniform variables and loop counters, `in[uniform]`, and
  `__local` slots read by everyone after a barrier). Varying code (ifs, loops, switches, single
  work-item blocks, helpers called from them) holds no barrier; helpers with barriers are called
  from uniform control flow only. A varying `return` comes only after the last barrier, in the
  kernel's tail; a uniform one may come anywhere.
* No data races: between two barriers every work-item writes only its own slot of a `__local`
  array (`sh[lid]`) and `out` (`out[2 gid + j]`), and reads other items' slots of an array only in
  an epoch (the code between two barriers) where nobody writes that array. `State` tracks, per
  epoch, which arrays are written and which are read across; since work-items run concurrently
  within an epoch, order inside it does not matter, only the two sets. Loops containing barriers
  get a barrier at the end of their body when their tail could race with their head.
* No uninitialized reads: every variable and private array is initialized where declared; every
  `__local` array gets its own slot written at the start of the kernel.
* No undefined arithmetic: arithmetic is done in `uint`/`ulong` (narrow and signed variables are
  converted back), shifts are masked, divisors are nonzero (and positive for signed division),
  floats hold small integers (|f| <= 4096, so every result is exact), indices are masked or
  reduced modulo the length.
"""
from __future__ import annotations

import random
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from .vector_statements import VectorStatements

IN_LEN = 64
OUT_PER_ITEM = 2

# ctype -> (bits, signed); float separately
INT_TYPES = {"char": (8, True), "uchar": (8, False), "short": (16, True), "ushort": (16, False),
             "int": (32, True), "uint": (32, False), "long": (64, True), "ulong": (64, False)}
FLOAT = "float"

# Plain OpenCL C definitions of integer builtins that loomcl's library lacks today (as in the
# regression files): the work-group semantics under test do not depend on how they are written.
PRELUDE = r"""
static uint __r_popcount(uint x){uint c=0u; while(x){c+=x&1u; x>>=1;} return c;}
static uint __r_clz(uint x){uint c=0u; for(int i=31;i>=0;i--){ if((x>>i)&1u) break; c++;} return c;}
static uint __r_rotate(uint x, uint s){s&=31u; return s? (x<<s)|(x>>(32u-s)) : x;}
static uint __r_mul_hi(uint a, uint b){return (uint)(((ulong)a*(ulong)b)>>32);}
static uint __r_abs_diff(uint a, uint b){return a>b? a-b : b-a;}
static uint __r_hadd(uint a, uint b){return (a>>1)+(b>>1)+(a&b&1u);}
static uint __r_rhadd(uint a, uint b){return (a>>1)+(b>>1)+((a|b)&1u);}
static uint __r_add_sat(uint a, uint b){uint s=a+b; return s<a? 0xffffffffu : s;}
static uint __r_sub_sat(uint a, uint b){return a<b? 0u : a-b;}
#define as_int(x) ((int)(x))
#define as_uint(x) ((uint)(x))
#define popcount __r_popcount
#define clz __r_clz
#define rotate __r_rotate
#define mul_hi __r_mul_hi
#define abs_diff __r_abs_diff
#define hadd __r_hadd
#define rhadd __r_rhadd
#define add_sat __r_add_sat
#define sub_sat __r_sub_sat
"""

PARAMS = "__global int* out, __global const int* in, __local int* sh, int n"


@dataclass
class Program:
    """A generated kernel with its launch and inputs (in the regression files' terms)."""

    seed: int
    source: str  # helpers and the kernel, without PRELUDE
    kernel: str
    global_size: tuple
    local_size: tuple
    inputs: np.ndarray  # `in`, int32
    out_initial: np.ndarray  # int32

    @property
    def n(self) -> int:
        return len(self.inputs)

    @property
    def items_per_group(self) -> int:
        return int(np.prod(self.local_size))

    @property
    def num_groups(self) -> tuple:
        return tuple(g // l for g, l in zip(self.global_size, self.local_size))


@dataclass(eq=False)
class State:
    """`__local` arrays written (own slots) and read across (others' slots) in the current epoch."""

    written: set = field(default_factory=set)
    read: set = field(default_factory=set)

    def copy(self) -> State:
        return State(set(self.written), set(self.read))

    def union(self, other: State) -> State:
        return State(self.written | other.written, self.read | other.read)

    def conflicts(self) -> bool:
        return bool(self.written & self.read)


@dataclass
class Var:
    name: str
    ctype: str
    uniform: bool = False


@dataclass
class Scope:
    """What the code being generated can see: the kernel, or one helper."""

    lines: list = field(default_factory=list)
    vars: list = field(default_factory=list)
    arrays: list = field(default_factory=list)  # (name, ctype, length)
    locals_: list = field(default_factory=list)  # (name, ctype) of __local arrays, length L
    counters: list = field(default_factory=list)  # loop counters in scope: Var
    in_helper: bool = False
    pure: bool = False  # a helper without work-item ids or local memory
    out_ok: bool = True  # may read `in` (and, in the kernel, read and write `out`)


class Generator(VectorStatements):
    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.init_vectors()
        self.counter = 0
        self.indent = 1
        self.uniform = True  # control flow here is uniform: barriers allowed
        self.tail = False  # after the last barrier: varying returns allowed
        self.state = State()
        self.logs: list[State] = []  # accumulators of every access, for loops with barriers
        self.helpers: list[str] = []
        self.pure_helpers: list[str] = []
        self.barrier_helpers: list[tuple] = []  # (name, locals used, takes lid/L)
        self.depth = 0
        self.budget = 0
        self._choose_sizes()
        self.scope = Scope()

    # -- sizes ---------------------------------------------------------------------------------

    def _choose_sizes(self) -> None:
        r = self.rng
        dims = r.choices([1, 2, 3], [6, 3, 2])[0]
        if dims == 1:  # sizes of a vector width and more, where LLVM vectorizes the work-item loops
            local = (r.choice([1, 2, 3, 4, 5, 7, 8, 13, 16, 16, 24, 32, 64, 64]),)
            groups = (r.choice([1, 2, 2, 3] if local[0] <= 16 else [1, 2]),)
        elif dims == 2:
            local = (r.choice([1, 2, 3, 4, 8, 16, 16]), r.choice([1, 2, 3, 4]))
            groups = (r.choice([1, 2]), r.choice([1, 2]))
        else:
            local = (r.choice([1, 2, 3]), r.choice([1, 2]), r.choice([1, 2, 3]))
            groups = (r.choice([1, 2]), 1, r.choice([1, 2]))
        self.dims = dims
        self.local_size = local
        self.global_size = tuple(l * g for l, g in zip(local, groups))
        self.L = int(np.prod(local))

    # -- emitting ---------------------------------------------------------------------------------

    def fresh(self, hint: str) -> str:
        self.counter += 1
        return f"{hint}{self.counter}"

    def emit(self, line: str) -> None:
        self.scope.lines.append("    " * self.indent + line)

    @contextmanager
    def braces(self, head: str, tail: str = "}"):
        self.emit(head + " {")
        self.indent += 1
        try:
            yield
        finally:
            self.indent -= 1
            self.emit(tail)

    @contextmanager
    def control(self, uniform: bool):
        saved_uniform, saved_depth = self.uniform, self.depth
        self.uniform = self.uniform and uniform
        self.depth += 1
        try:
            yield
        finally:
            self.uniform, self.depth = saved_uniform, saved_depth

    @contextmanager
    def detached(self, scope: Scope):
        """Generate a helper in the middle of the kernel: everything about the current position is
        saved and restored."""
        saved = (self.scope, self.indent, self.uniform, self.state, self.depth, self.logs, self.budget, self.tail)
        self.scope, self.indent, self.depth, self.logs, self.tail = scope, 1, 1, [], False
        try:
            yield
        finally:
            (self.scope, self.indent, self.uniform, self.state, self.depth, self.logs, self.budget,
             self.tail) = saved

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    # -- local-memory accesses ----------------------------------------------------------------------

    def note(self, array: str, write: bool) -> None:
        (self.state.written if write else self.state.read).add(array)
        for log in self.logs:
            (log.written if write else log.read).add(array)

    def can_write(self, array: str) -> bool:
        return array not in self.state.read

    def can_read_across(self, array: str) -> bool:
        return array not in self.state.written

    def barrier(self) -> None:
        assert self.uniform
        flags = self.rng.choice(["CLK_LOCAL_MEM_FENCE", "CLK_LOCAL_MEM_FENCE", "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE"])
        name = "work_group_barrier" if self.chance(0.1) else "barrier"
        self.emit(f"{name}({flags});")
        self.state = State()

    # -- expressions (all of type uint) ----------------------------------------------------------

    def const(self) -> str:
        r = self.rng.random()
        if r < 0.6:
            return f"{self.rng.randrange(0, 17)}u"
        if r < 0.8:
            return f"{self.rng.choice([31, 63, 255, 256, 1023, 0x7fffffff, 0x80000000, 0xffffffff])}u"
        return f"{self.rng.getrandbits(32)}u"

    def as_uint(self, var: Var) -> str:
        if var.ctype == FLOAT:
            return f"(uint)(int){var.name}"
        if var.ctype in ("long", "ulong"):
            return f"(uint)({var.name} ^ ({var.name} >> 32))" if self.chance(0.5) else f"(uint){var.name}"
        return var.name if var.ctype == "uint" else f"(uint){var.name}"

    def uniform_leaf(self, mem: bool) -> str:
        s = self.scope
        options = ["const", "const", "N", "L", "grp", "size", "uvar", "uvar", "counter", "in", "bcast"]
        while True:
            k = self.rng.choice(options)
            if k == "const":
                return self.const()
            if k == "N" and not s.in_helper:
                return "N"
            if k == "L" and not s.pure:
                return "L" if not s.in_helper or self.chance(0.5) else "(uint)get_local_size(0)"
            if k == "grp" and not s.pure:
                return self.rng.choice(["grp", "(uint)get_group_id(0)"]) if not s.in_helper else "(uint)get_group_id(0)"
            if k == "size":
                d = self.rng.randrange(self.dims)
                return self.rng.choice([f"(uint)get_local_size({d})", f"(uint)get_num_groups({d})",
                                        f"(uint)get_global_size({d})", f"(uint)get_group_id({d})"])
            uvars = [v for v in s.vars if v.uniform]
            if k == "uvar" and uvars:
                return self.as_uint(self.rng.choice(uvars))
            ucounters = [c for c in s.counters if c.uniform]
            if k == "counter" and ucounters:
                return self.rng.choice(ucounters).name
            if k == "in" and mem and s.out_ok and self.depth < 6:
                return f"(uint)in[({self.expr(2, uniform=True, mem=False)}) & {IN_LEN - 1}u]"
            if k == "bcast" and mem and s.locals_ and self.uniform:
                name, ctype = self.rng.choice(s.locals_)
                if self.can_read_across(name):
                    self.note(name, False)
                    slot = self.rng.choice(["0", "L - 1u", str(self.rng.randrange(self.L)) + "u"])
                    return self.read_local(name, ctype, slot)

    def read_local(self, name: str, ctype: str, index: str) -> str:
        return f"as_uint({name}[{index}])" if ctype == "int" else f"(uint){name}[{index}]"

    def varying_leaf(self, mem: bool) -> str:
        s = self.scope
        while True:
            k = self.rng.choice(["var", "var", "var", "id", "id", "uniform", "array", "own", "other", "out", "in"])
            if k == "var" and s.vars:
                return self.as_uint(self.rng.choice(s.vars))
            if k == "id":
                ids = ["a", "b"] if s.pure else ["lid"] if s.in_helper else ["lid", "gid", "lx", "(uint)get_local_id(0)", "(uint)get_global_id(0)"]
                if self.dims > 1 and not s.in_helper:
                    ids += ["ly", f"(uint)get_local_id({self.rng.randrange(1, self.dims)})"]
                ids += [c.name for c in s.counters]
                return self.rng.choice(ids)
            if k == "uniform":
                return self.uniform_leaf(mem)
            if k == "array" and s.arrays:
                name, ctype, length = self.rng.choice(s.arrays)
                return self.cast_to_uint(ctype, f"{name}[{self.index(length, mem)}]")
            if not mem:
                continue
            if k == "own" and s.locals_:
                name, ctype = self.rng.choice(s.locals_)
                return self.read_local(name, ctype, "lid")
            if k == "other" and s.locals_:
                name, ctype = self.rng.choice(s.locals_)
                if self.can_read_across(name):
                    self.note(name, False)
                    return self.read_local(name, ctype, self.other_slot(mem))
            if k == "out" and s.out_ok and not s.in_helper:
                return f"as_uint(out[gid * {OUT_PER_ITEM}u + {self.rng.randrange(OUT_PER_ITEM)}u])"
            if k == "in" and s.out_ok:
                return f"(uint)in[({self.expr(2, mem=False)}) & {IN_LEN - 1}u]"
            if k == "in" and self.with_vectors and self.chance(0.5):
                lane = self.lane_read()
                if lane:
                    return lane

    def cast_to_uint(self, ctype: str, text: str) -> str:
        if ctype == FLOAT:
            return f"(uint)(int){text}"
        return text if ctype == "uint" else f"(uint){text}"

    def other_slot(self, mem: bool) -> str:
        k = self.rng.randrange(1, max(2, self.L + 1))
        return self.rng.choice([f"(lid + {k}u) % L", "L - 1u - lid", "(lid ^ 1u) % L",
                                f"({self.expr(2, mem=False)}) % L", f"(lid + L - 1u) % L"])

    def index(self, length: int, mem: bool) -> str:
        e = self.expr(2, mem=mem)
        if length & (length - 1) == 0:
            return f"({e}) & {length - 1}u"
        return f"({e}) % {length}u"

    def expr(self, depth: int = 0, uniform: bool = False, mem: bool = True) -> str:
        """A uint expression; `uniform`: the same value in every work-item of a group."""
        if depth >= 3 or self.chance(0.4 + 0.2 * depth):
            return self.uniform_leaf(mem) if uniform else self.varying_leaf(mem)
        sub = lambda: self.expr(depth + 1, uniform, mem)  # noqa: E731
        k = self.rng.randrange(16)
        a, b = sub(), sub()
        if k <= 4:
            return f"({a} {self.rng.choice(['+', '-', '*', '^', '&', '|', '+', '*'])} {b})"
        if k == 5:
            return f"({a} {self.rng.choice(['<<', '>>'])} ({b} & 31u))"
        if k == 6:
            return self.rng.choice([f"({a} / (({b} & 7u) + 1u))", f"({a} % (({b} & 15u) + 1u))",
                                    f"({a} / ({b} | 1u))"])
        if k == 7:
            op = self.rng.choice(["<", "<=", "==", "!=", ">", ">="])
            return f"(uint)({a} {op} {b})" if self.chance(0.5) else f"(({a} {op} {b}) ? {sub()} : {b})"
        if k == 8:
            return self.rng.choice([f"min({a}, {b})", f"max({a}, {b})", f"clamp({a}, 3u, 100u)"])
        if k == 9:
            f = self.rng.choice(["popcount", "clz"])
            return f"{f}({a})" if self.chance(0.5) else \
                f"{self.rng.choice(['rotate', 'mul_hi', 'abs_diff', 'hadd', 'rhadd', 'add_sat', 'sub_sat'])}({a}, {b})"
        if k == 10:
            return self.rng.choice([f"(uint)((int){a} >> ({b} & 31u))", f"(uint)((int){a} / (int)(({b} & 7u) + 1u))",
                                    f"(uint)((int){a} % (int)(({b} & 7u) + 1u))", f"(uint)min((int){a}, (int){b})",
                                    f"(uint)max((int){a}, (int){b})", f"(uint)abs((int){a})",
                                    f"(uint)((int){a} < (int){b})"])
        if k == 11:
            return self.rng.choice([f"(uint)(((ulong){a} * (ulong){b}) >> {self.rng.randrange(1, 40)})",
                                    f"(uint)(((ulong){a} << 7) / ((ulong){b} + 1ul))",
                                    f"(uint)((long)(int){a} * (long)(int)({b} & 255u) >> 3)"])
        if k == 12 and not uniform and self.scope.out_ok and not self.scope.pure:
            return f"{self.pure_helper()}({a}, {b}, in)"
        if k == 13:
            t = self.rng.choice(list(INT_TYPES))
            return f"(uint)({t})({a})"
        return f"({a} {self.rng.choice(['+', '^', '-'])} {b})"

    def condition(self, uniform: bool, mem: bool = True) -> str:
        a = self.expr(1, uniform, mem)
        r = self.rng.random()
        if r < 0.3:
            return f"(({a}) & {self.rng.choice([1, 3, 7])}u) == {self.rng.randrange(2)}u"
        if r < 0.6:
            return f"{a} {self.rng.choice(['<', '>', '<=', '>='])} {self.expr(2, uniform, mem)}"
        if r < 0.75:
            return f"({a}) % 3u != 0u"
        return f"{a} {self.rng.choice(['<', '>'])} {self.const()}"

    def lid_guard(self) -> str:
        """A guard on the local id, in the forms fold-local-id-guards recognizes and others."""
        w = self.rng.randrange(1, self.L + 1)
        lid = self.rng.choice(["lid", "lid", "(uint)get_local_id(0)"] if self.dims == 1 and not self.scope.in_helper
                              else ["lid"])
        return self.rng.choice([f"{lid} < {w}u", f"{lid} == {min(w, self.L - 1)}u", f"{lid} < L / 2u",
                                f"{lid} == L - 1u", f"{lid} >= {w}u", f"{lid} == (L >> 1)", f"{lid} < N % 5u"
                                if not self.scope.in_helper else f"{lid} < {w}u"])

    # -- assignments -------------------------------------------------------------------------------

    def assign_text(self, var: Var, uniform: bool) -> str:
        e = self.expr(0, uniform)
        t, x = var.ctype, var.name
        if t == FLOAT:
            return self.float_assign(x, uniform)
        bits, signed = INT_TYPES[t]
        wide = "ulong" if bits == 64 else "uint"
        r = self.rng.random()
        if r < 0.35:
            return f"{x} = ({t})({e});"
        if r < 0.7:
            op = self.rng.choice(["+", "-", "*", "^", "|", "&", "+"])
            if bits == 64 and self.chance(0.5):
                e = f"((ulong)({e}) << 32 | (ulong)({self.expr(1, uniform)}))"
            return f"{x} = ({t})(({wide}){x} {op} ({wide})({e}));"
        if r < 0.8 and signed:
            return self.rng.choice([f"{x} = ({t})({x} >> (({e}) & {bits - 1}u));",
                                    f"{x} = ({t})({x} / ({t})((({e}) & 7u) + 1u));",
                                    f"{x} = ({t})({x} % ({t})((({e}) & 7u) + 1u));",
                                    f"{x} = ({t})clamp({x}, ({t})-5, ({t})9);",
                                    f"{x} = ({t})abs({x});"])
        if r < 0.9:
            return self.rng.choice([f"{x} = min({x}, ({t})({e}));", f"{x} = max({x}, ({t})({e}));",
                                    f"{x} = ({x} < ({t})({e})) ? {x} : ({t})({self.expr(1, uniform)});"])
        return f"{x} = ({t})({wide})(({wide}){x} >> (({e}) & {bits - 1}u));"

    def float_operand(self, uniform: bool) -> str:
        fvars = [v.name for v in self.scope.vars if v.ctype == FLOAT and (v.uniform or not uniform)]
        if fvars and self.chance(0.6):
            return self.rng.choice(fvars)
        return f"(float)(({self.expr(1, uniform)}) & 255u)" if self.chance(0.7) else \
            f"((float)(int)(({self.expr(1, uniform)}) & 63u) - 32.0f)"

    def float_assign(self, x: str, uniform: bool) -> str:
        a, b = self.float_operand(uniform), self.float_operand(uniform)
        e = self.rng.choice([f"{a} + {b}", f"{a} - {b}", f"{a} * {b}", f"fmin({a}, {b})", f"fmax({a}, {b})",
                             f"floor({a} * 0.5f)", f"fabs({a})", f"-{a}", f"({a} < {b} ? {a} : {b})",
                             f"ceil({a} * 0.25f)"])
        return f"{x} = fmin(fmax({e}, -4096.0f), 4096.0f);"

    def st_assign(self) -> None:
        s = self.scope
        if self.uniform and self.chance(0.3):
            uvars = [v for v in s.vars if v.uniform]
            if uvars:
                self.emit(self.assign_text(self.rng.choice(uvars), uniform=True))
                return
        vvars = [v for v in s.vars if not v.uniform]
        if vvars:
            self.emit(self.assign_text(self.rng.choice(vvars), uniform=False))

    def st_local_write(self) -> None:
        s = self.scope
        if not s.locals_:
            return
        name, ctype = self.rng.choice(s.locals_)
        e = self.expr(0)  # first: it may read other slots of `name`, which forbids the write
        if not self.can_write(name):
            return
        self.note(name, True)
        self.emit(f"{name}[lid] = as_int({e});" if ctype == "int" else f"{name}[lid] = ({ctype})({e});")

    def st_out_write(self) -> None:
        if self.scope.out_ok and not self.scope.in_helper:
            self.emit(f"out[gid * {OUT_PER_ITEM}u + {self.rng.randrange(OUT_PER_ITEM)}u] = as_int({self.expr(0)});")

    def st_array_write(self) -> None:
        s = self.scope
        if not s.arrays:
            return
        name, ctype, length = self.rng.choice(s.arrays)
        idx = self.index(length, True)
        if ctype == FLOAT:
            self.emit(f"{name}[{idx}] = (float)(({self.expr(1)}) & 1023u);")
        elif self.chance(0.3) and ctype in ("uint", "ulong"):
            self.emit(f"{name}[{idx}] {self.rng.choice(['^=', '+=', '|='])} ({ctype})({self.expr(1)});")
        else:
            self.emit(f"{name}[{idx}] = ({ctype})({self.expr(0)});")

    def same_type_vars(self, count: int):
        s = self.scope
        by_type: dict = {}
        for v in s.vars:
            if v.uniform and not self.uniform:
                continue
            by_type.setdefault((v.ctype, v.uniform), []).append(v)
        groups = [g for g in by_type.values() if len(g) >= count]
        if not groups:
            return None
        return self.rng.sample(self.rng.choice(groups), count)

    def st_swap(self) -> None:
        """`t = a; a = b; b = t;` (or a rotation of three), then maybe a barrier."""
        vs = self.same_type_vars(self.rng.choice([2, 2, 3]))
        if vs is None:
            return
        t = self.fresh("t")
        with self.braces(""):
            self.emit(f"{vs[0].ctype} {t} = {vs[0].name};")
            for a, b in zip(vs, vs[1:]):
                self.emit(f"{a.name} = {b.name};")
            self.emit(f"{vs[-1].name} = {t};")
        if self.uniform and self.chance(0.6):
            self.barrier()

    def st_shift_register(self) -> None:
        """`prev = cur; cur = f(cur); barrier` in a uniform loop: values rotated across barriers."""
        if not self.uniform:
            return
        vs = self.same_type_vars(2)
        if vs is None:
            return
        prev, cur = vs

        def body(counter):
            self.emit(f"{prev.name} = {cur.name};")
            self.emit(self.assign_text(cur, cur.uniform))
            if self.chance(0.5):
                self.st_local_write()
            self.barrier()
            if self.chance(0.5):
                self.st_assign()

        self.uniform_loop(body)

    # -- control flow ---------------------------------------------------------------------------------

    def body(self, count: int) -> None:
        for _ in range(count):
            if self.budget <= 0:
                return
            self.budget -= 1
            self.statement()

    def statement(self) -> None:
        deep = self.depth >= 4
        choices = [(self.st_assign, 8), (self.st_local_write, 3), (self.st_out_write, 1), (self.st_array_write, 3),
                   (self.st_swap, 2), (self.st_pure_call, 1)]
        if not deep:
            choices += [(self.st_if_varying, 3), (self.st_loop_varying, 2), (self.st_switch, 1)]
            if not self.scope.pure:
                choices.append((self.st_single_item, 2))
        if self.uniform:
            choices += [(self.barrier, 4), (self.st_shift_register, 1)]
            if not deep:
                choices += [(self.st_if_uniform, 3), (self.st_loop_uniform, 3), (self.st_guarded_loop, 2),
                            (self.st_reduction, 1), (self.st_scan, 1), (self.st_broadcast, 1),
                            (self.st_barrier_call, 2), (self.st_atomics, 1), (self.st_uniform_return, 1)]
        if self.tail and not self.uniform and not self.scope.in_helper:
            choices.append((self.st_varying_return, 1))
        if self.vectors and not self.scope.in_helper:
            choices.append((self.st_vector, 8))
        fs, ws = zip(*choices)
        self.rng.choices(fs, ws)[0]()

    def branch_states(self, branches) -> None:
        """Run generators of mutually exclusive uniform branches from the same state; join."""
        start, end = self.state, None
        for gen in branches:
            self.state = start.copy()
            gen()
            end = self.state if end is None else end.union(self.state)
        self.state = end

    def st_if_uniform(self) -> None:
        cond = self.condition(uniform=True)
        with self.control(uniform=True):
            branches = [lambda: self._block(f"if ({cond})", 3)]
            branches.append((lambda: self._block("else", 3)) if self.chance(0.5) else (lambda: None))
            self.branch_states(branches)

    def _block(self, head: str, count: int) -> None:
        with self.braces(head):
            self.body(self.rng.randrange(1, count + 1))

    def st_if_varying(self) -> None:
        cond = self.condition(uniform=False)
        with self.control(uniform=False):
            self._block(f"if ({cond})", 3)
            if self.chance(0.4):
                self._block("else", 2)

    def st_single_item(self) -> None:
        """A block only one work-item (or a few) runs, followed by common code."""
        with self.control(uniform=False):
            self._block(f"if ({self.lid_guard()})", 3)

    def st_switch(self) -> None:
        uniform = self.uniform and self.chance(0.4)
        value = self.expr(1, uniform)
        cases = self.rng.sample(range(6), self.rng.randrange(1, 4))
        with self.control(uniform=uniform):
            with self.braces(f"switch (({value}) % 6u)"):
                gens = []
                for c in cases:
                    gens.append(lambda c=c: self._case(f"case {c}u:"))
                if self.chance(0.6):
                    gens.append(lambda: self._case("default:"))
                start = self.state.copy()
                for g in gens:
                    g()  # uniform: each case starts from the state before the switch or after the case
                    if uniform:  # above it (fallthrough); the join of all is the state after
                        start = self.state = start.union(self.state)

    def _case(self, label: str) -> None:
        self.emit(label)
        self.indent += 1
        self.emit("{")
        self.indent += 1
        self.body(self.rng.randrange(1, 3))
        self.indent -= 1
        self.emit("}")
        if self.chance(0.75):
            self.emit("break;")
        self.indent -= 1

    @contextmanager
    def loop_header(self, uniform: bool, barriers: bool):
        """A loop with a bounded trip count; the bound is evaluated before the loop (no memory reads
        in the condition). Yields inside the body, with the loop's counter in scope."""
        bound = self.fresh("b")
        kind = self.rng.choice(["for", "for", "down", "while", "do"])
        e = self.expr(1, uniform=uniform)
        trips = self.rng.choice([f"(({e}) & 3u) + {self.rng.randrange(0 if kind != 'do' else 1, 3)}u",
                                 f"{self.rng.randrange(1, 5)}u", f"(({e}) % 4u) + 1u"])
        self.emit(f"const uint {bound} = {trips};")
        counter = Var(self.fresh("i"), "uint", uniform)
        head = {"for": f"for (uint {counter.name} = 0u; {counter.name} < {bound}; {counter.name}++)",
                "down": f"for (uint {counter.name} = {bound}; {counter.name} > 0u; {counter.name}--)",
                "while": f"uint {counter.name} = {bound};\n{'    ' * self.indent}while ({counter.name} > 0u)",
                "do": f"uint {counter.name} = {bound};\n{'    ' * self.indent}do"}[kind]
        tail = f"}} while ({counter.name} > 0u);" if kind == "do" else "}"
        with self.control(uniform=uniform):
            self.scope.counters.append(counter)
            try:
                with self.braces(head, tail):
                    if kind in ("while", "do"):
                        self.emit(f"{counter.name}--;")
                    yield counter
            finally:
                self.scope.counters.remove(counter)

    def uniform_loop(self, body) -> None:
        """A uniform loop around `body(counter)`, which may hold barriers; maybe a uniform break.
        The state after it joins zero trips, the break and the end of the body."""
        log = State()
        self.logs.append(log)
        try:
            with self.loop_header(uniform=True, barriers=True) as counter:
                start = self.state.copy()  # after the bound's evaluation: the zero-trip path
                body(counter)
                if self.chance(0.2):
                    cond = self.condition(uniform=True, mem=False)
                    self.emit(f"if ({cond}) break;")
                    start = start.union(self.state)
                self._close_loop_epoch(log)
        finally:
            self.logs.remove(log)
        self.state = self.state.union(start)

    def st_loop_uniform(self) -> None:
        """A uniform loop; its body may hold barriers."""
        self.uniform_loop(lambda counter: self.body(self.rng.randrange(1, 5)))

    def _close_loop_epoch(self, log: State) -> None:
        """The loop's head runs in the same epoch as its tail: if that could race, end the body
        with a barrier (the loop is uniform, so everyone reaches it)."""
        if self.state.union(log).conflicts() or (self.state.written and self.chance(0.3)):
            self.barrier()

    def st_loop_varying(self) -> None:
        """A loop whose trip count differs between work-items (no barrier inside)."""
        with self.loop_header(uniform=False, barriers=False):
            self.body(self.rng.randrange(1, 4))
            if self.chance(0.3):
                self.emit(f"if ({self.condition(uniform=False, mem=False)}) {self.rng.choice(['break', 'continue'])};")
                self.body(1)

    def st_guarded_loop(self) -> None:
        """hipSYCL listing 3.3: everyone runs the maximal trip count, the work is guarded per item,
        and the barrier in the loop is unconditional."""
        mine = self.fresh("tc")
        self.emit(f"const uint {mine} = ({self.expr(1)}) & 3u;")

        def body(counter):
            with self.control(uniform=False):
                self._block(f"if ({counter.name} < {mine})", 3)
            self.barrier()
            if self.chance(0.6):
                self.body(self.rng.randrange(1, 3))

        self.uniform_loop(body)

    def ensure_clean(self) -> None:
        if self.state.written or self.state.read:
            self.barrier()

    def st_reduction(self) -> None:
        """A tree reduction over a `__local` array with `if (lid < s)` guards."""
        arrays = [(n, t) for n, t in self.scope.locals_ if t in ("int", "uint", "ulong", "long")]
        if not arrays:
            return
        name, ctype = self.rng.choice(arrays)
        self.ensure_clean()
        self.emit(f"{name}[lid] = {'as_int' if ctype == 'int' else '(' + ctype + ')'}({self.expr(1, mem=False)});")
        self.note(name, True)
        self.barrier()
        s = self.fresh("s")
        op = self.rng.choice(["+", "^", "|"])
        cast = "as_int" if ctype == "int" else f"({ctype})"
        if self.chance(0.5):
            head = f"for (uint {s} = L / 2u; {s} > 0u; {s} >>= 1)"
        else:
            head = f"for (uint {s} = 1u; {s} < L; {s} *= 2u)"
        with self.braces(head):
            if "L / 2u" in head:
                self.emit(f"if (lid < {s}) {name}[lid] = {cast}({self.read_local(name, ctype, 'lid')} {op} "
                          f"{self.read_local(name, ctype, f'lid + {s}')});")
            else:
                self.emit(f"if (lid % (2u * {s}) == 0u && lid + {s} < L) {name}[lid] = {cast}("
                          f"{self.read_local(name, ctype, 'lid')} {op} {self.read_local(name, ctype, f'lid + {s}')});")
            self.note(name, True)  # disjoint slots: legal, though State cannot tell
            self.note(name, False)
            self.barrier()
        self.note(name, False)
        var = self.pick_var(uniform=False)
        if var is not None:
            self.emit(self.set_from_uint(var, f"{self.as_uint(var)} + {self.read_local(name, ctype, '0')}"))
        self.barrier()

    def st_scan(self) -> None:
        """A Hillis-Steele inclusive scan: read, barrier, write own slot, barrier."""
        arrays = [(n, t) for n, t in self.scope.locals_ if t in ("int", "uint")]
        if not arrays:
            return
        name, ctype = self.rng.choice(arrays)
        self.ensure_clean()
        t = self.fresh("t")
        d = self.fresh("d")
        with self.braces(f"for (uint {d} = 1u; {d} < L; {d} <<= 1)"):
            self.emit(f"uint {t} = {self.read_local(name, ctype, 'lid')};")
            self.emit(f"if (lid >= {d}) {t} += {self.read_local(name, ctype, f'lid - {d}')};")
            self.note(name, False)
            self.barrier()
            self.emit(f"{name}[lid] = {'as_int' if ctype == 'int' else '(uint)'}({t});")
            self.note(name, True)
            self.barrier()

    def st_broadcast(self) -> None:
        """One work-item writes a `__local` slot; after a barrier everyone reads it."""
        if self.scope.in_helper:
            return
        if not self.can_write("lc"):
            self.barrier()
        w = self.rng.randrange(self.L)
        with self.control(uniform=False):
            with self.braces(f"if (lid == {w}u)"):
                self.emit(f"lc[lid] = {self.expr(1)};")
                self.body(1)
        self.note("lc", True)
        self.barrier()
        self.note("lc", False)
        var = self.pick_var(uniform=True) if self.chance(0.5) else self.pick_var(uniform=False)
        if var is not None:
            self.emit(self.set_from_uint(var, f"lc[{w}u] + {self.as_uint(var)}"))

    def st_atomics(self) -> None:
        """Commutative atomics on a `__local` counter; only the final value is read."""
        if self.scope.in_helper:
            return
        if not self.can_write("lc"):
            self.barrier()
        self.emit("if (lid == 0u) lc[0] = 0u;")
        self.note("lc", True)
        self.barrier()
        op = self.rng.choice(["atomic_add", "atomic_or", "atomic_xor", "atomic_max", "atomic_min", "atomic_and",
                              "atomic_sub", "atom_add"])
        if self.chance(0.5):
            self.emit(f"if ({self.condition(uniform=False)}) {op}(&lc[0], {self.expr(1)});")
        else:
            self.emit(f"{op}(&lc[0], {self.expr(1)});")
        self.barrier()
        self.note("lc", False)
        var = self.pick_var(uniform=False)
        if var is not None and var.ctype != FLOAT:
            self.emit(f"{var.name} = ({var.ctype})({self.as_uint(var)} ^ lc[0]);")

    def st_uniform_return(self) -> None:
        if self.scope.in_helper:
            return
        with self.braces(f"if ({self.condition(uniform=True)})"):
            self.emit(f"out[gid * {OUT_PER_ITEM}u] = as_int({self.expr(1)});")
            self.emit("return;")

    def st_varying_return(self) -> None:
        with self.braces(f"if ({self.condition(uniform=False)})"):
            self.emit(f"out[gid * {OUT_PER_ITEM}u + 1u] = as_int({self.expr(1)});")
            self.emit("return;")

    @staticmethod
    def set_from_uint(var: Var, e: str) -> str:
        if var.ctype == FLOAT:
            return f"{var.name} = (float)(({e}) & 255u);"
        return f"{var.name} = ({var.ctype})({e});"

    def pick_var(self, uniform: bool):
        vs = [v for v in self.scope.vars if v.uniform == uniform and (self.uniform or not v.uniform)]
        return self.rng.choice(vs) if vs else None

    # -- helpers ---------------------------------------------------------------------------------------

    def st_pure_call(self) -> None:
        if not self.scope.out_ok or self.scope.pure:
            return
        var = self.pick_var(uniform=False)
        if var is None:
            return
        args = f"{self.expr(1)}, {self.expr(1)}, in"
        self.emit(self.set_from_uint(var, f"{self.pure_helper()}({args})"))

    def st_barrier_call(self) -> None:
        if self.scope.in_helper:
            return
        if not self.barrier_helpers or (len(self.barrier_helpers) < 2 and self.chance(0.3)):
            with self.detached(Scope()):
                self.make_barrier_helper(self.kernel_locals)
        name, arrays, exit_state, accesses = self.rng.choice(self.barrier_helpers)
        self.ensure_clean()
        var = self.pick_var(uniform=False)
        args = ", ".join(arrays + ["lid", "L", self.expr(1, mem=False), self.expr(1, uniform=True, mem=False)])
        call = f"{name}({args})"
        if var is None:
            self.emit(f"{call};")
        elif var.ctype == FLOAT:
            self.emit(f"{var.name} = (float)({call} & 255u);")
        else:
            self.emit(f"{var.name} = ({var.ctype})({self.as_uint(var)} + {call});")
        for array in accesses.written:
            self.note(array, True)
        for array in accesses.read:
            self.note(array, False)
        self.state = exit_state.copy()

    def pure_helper(self) -> str:
        """A barrier-free helper (made on first use, then sometimes reused)."""
        if not self.pure_helpers or (len(self.pure_helpers) < 2 and self.chance(0.3)):
            scope = Scope(vars=[Var("a", "uint"), Var("b", "uint"), Var("r", "uint")], arrays=[("q", "uint", 3)],
                          in_helper=True, pure=True)
            with self.detached(scope):
                self.make_pure_helper()
        return self.rng.choice(self.pure_helpers)

    def make_pure_helper(self) -> None:
        name = self.fresh("pf")
        self.uniform, self.state = False, State()
        self.emit("uint r = a ^ (b << 3);")
        self.emit("uint q[3] = {a, b, 7u};")
        self.budget = 4
        self.body(4)
        with self.braces(f"if ({self.condition(uniform=False)})"):
            self.emit(f"return r + {self.expr(1)};")
        self.body(1)
        self.emit(f"return r ^ q[({self.expr(1)}) % 3u];")
        text = [f"static uint {name}(uint a, uint b, __global const int* in)", "{"] + self.scope.lines + ["}"]
        self.helpers.append("\n".join(text))
        self.pure_helpers.append(name)

    def make_barrier_helper(self, kernel_locals) -> None:
        """A helper with barriers, called from uniform control flow; `u` is uniform."""
        name = self.fresh("hb")
        accesses = State()
        self.logs = [accesses]
        used = [(n, t) for n, t in kernel_locals if n == "sh" or self.chance(0.4)]
        params = ", ".join(f"__local {t}* {n}" for n, t in used)
        self.scope = Scope(vars=[Var("a", "uint"), Var("u", "uint", uniform=True), Var("r", "uint")],
                           locals_=used, in_helper=True, out_ok=False)
        self.uniform, self.state = True, State()
        if self.chance(0.5):
            self.emit("lid = (uint)get_local_id(0) + (uint)get_local_size(0) * (uint)get_local_id(1);" if self.dims == 2
                      else "lid = lid + 0u;")
        self.emit("uint r = a + u;")
        self.budget = 6
        self.body(self.rng.randrange(2, 6))
        returns = []
        if self.chance(0.4):
            returns.append(self.state.copy())
            with self.braces(f"if ({self.condition(uniform=True, mem=False)})"):
                self.emit("return r ^ a;")
            self.body(2)
        self.emit(f"return r + {self.expr(1)};")
        exit_state = self.state
        for s in returns:
            exit_state = exit_state.union(s)
        text = [f"static uint {name}({params + ', ' if params else ''}uint lid, uint L, uint a, uint u)", "{"] + \
            self.scope.lines + ["}"]
        self.helpers.append("\n".join(text))
        self.barrier_helpers.append((name, [n for n, _ in used], exit_state, accesses))

    # -- the kernel ---------------------------------------------------------------------------------------

    def kernel_prologue(self) -> None:
        s = self.scope
        self.emit("const uint lx = (uint)get_local_id(0), ly = (uint)get_local_id(1), lz = (uint)get_local_id(2);")
        self.emit("const uint Lx = (uint)get_local_size(0), Ly = (uint)get_local_size(1), "
                  "L = Lx * Ly * (uint)get_local_size(2);")
        self.emit("const uint lid = lx + Lx * (ly + Ly * lz);")
        self.emit("const uint grp = (uint)get_group_id(0) + (uint)get_num_groups(0) * "
                  "((uint)get_group_id(1) + (uint)get_num_groups(1) * (uint)get_group_id(2));")
        self.emit("const uint gid = grp * L + lid;")
        self.emit("const uint N = (uint)n;")
        local_arrays = [("sh", "int")]
        for k in range(self.rng.randrange(0, 3)):
            t = self.rng.choice(["uint", "ushort", "long", "uchar", "int", "ulong"])
            name = f"la{k}"
            self.emit(f"__local {t} {name}[{self.L}];")
            local_arrays.append((name, t))
        self.emit(f"__local uint lc[{self.L}];  /* broadcasts and atomics */")
        types = ["uint", "uint", "uint", "int", "uchar", "char", "short", "ushort", "long", "ulong", FLOAT]
        for _ in range(self.rng.randrange(2, 6)):
            t = self.rng.choice(types)
            v = Var(self.fresh("v"), t)
            init = self.expr(1)
            self.emit(f"{t} {v.name} = ({t})(({init}) & 255u);" if t == FLOAT else f"{t} {v.name} = ({t})({init});")
            s.vars.append(v)
        for _ in range(self.rng.randrange(1, 3)):
            v = Var(self.fresh("u"), self.rng.choice(["uint", "uint", "int", "ushort", "long", FLOAT]), uniform=True)
            init = self.expr(1, uniform=True)
            self.emit(f"{v.ctype} {v.name} = ({v.ctype})(({init}) & 255u);" if v.ctype == FLOAT
                      else f"{v.ctype} {v.name} = ({v.ctype})({init});")
            s.vars.append(v)
        for _ in range(self.rng.randrange(1, 3)):
            t = self.rng.choice(["uint", "uint", "ulong", "ushort", "char", FLOAT])
            length = self.rng.choice([2, 3, 4, 4, 5, 8])
            name = self.fresh("pa")
            inits = ", ".join(f"({t})({self.expr(2) if self.chance(0.5) else self.const()} & 1023u)"
                              for _ in range(length))
            self.emit(f"{t} {name}[{length}] = {{{inits}}};")
            s.arrays.append((name, t, length))
        self.declare_vectors()
        for name, t in local_arrays:
            self.emit(f"{name}[lid] = {'as_int' if t == 'int' else '(' + t + ')'}({self.expr(1)});")
            self.note(name, True)
        s.locals_ = local_arrays

    def kernel_epilogue(self) -> None:
        s = self.scope
        self.tail = True
        with self.control(uniform=False):
            self.budget = 3
            self.body(self.rng.randrange(0, 3))
        self.tail = False
        h1, h2 = "0u", "0u"
        for k, v in enumerate(s.vars):
            if k % 2 == 0:
                h1 = f"({h1} * 31u + {self.as_uint(v)})"
            else:
                h2 = f"({h2} * 37u + {self.as_uint(v)})"
        for name, t, length in s.arrays:
            h2 = f"({h2} ^ {self.cast_to_uint(t, f'{name}[lid % {length}u]')})"
        for name, t in s.locals_:
            h1 = f"({h1} + {self.read_local(name, t, 'lid')})"
        self.emit(f"out[gid * {OUT_PER_ITEM}u] = as_int({h1});")
        self.emit(f"out[gid * {OUT_PER_ITEM}u + 1u] = as_int({self.vector_hash(h2)});")

    def generate(self) -> Program:
        r = self.rng
        kernel_scope = Scope()
        self.scope = kernel_scope
        self.kernel_prologue()
        self.kernel_locals = list(kernel_scope.locals_)
        self.budget = r.randrange(4, 15)
        self.body(self.budget)
        self.kernel_epilogue()
        source = "\n\n".join(self.helpers + [f"__kernel void k({PARAMS})\n{{\n" + "\n".join(kernel_scope.lines) + "\n}"])
        inputs = self.inputs()
        out_initial = np.array([r.getrandbits(32) for _ in range(OUT_PER_ITEM * int(np.prod(self.global_size)))],
                               np.uint32).view(np.int32)
        return Program(self.seed, source + "\n", "k", self.global_size, self.local_size, inputs, out_initial)

    def inputs(self) -> np.ndarray:
        r = self.rng
        values = [r.randrange(16) if r.random() < 0.5 else r.getrandbits(32) for _ in range(IN_LEN)]
        return np.array(values, np.uint32).view(np.int32)


def generate(seed: int) -> Program:
    return Generator(seed).generate()


if __name__ == "__main__":
    import sys

    p = generate(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    print(p.source)
    print(f"// global {p.global_size} local {p.local_size}")
