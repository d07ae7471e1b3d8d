"""Vector code for the random programs: OpenCL vector variables, arrays and `__local` arrays of
vectors, kept live across barriers, so that scalarize-vectors, vector context arrays and the
lowering of literals, swizzles, lane-wise operators, masks, conversions and per-lane stores are
checked differentially like the rest.

A program has vectors or not by a coin of its own random stream (`vrng`), so programs without them
are exactly those the same seed gave before vectors existed. Legality is kept the scalar way:
unsigned lanes (wrapping arithmetic), masked shift counts, floats that hold small integers, and
`__local` vector arrays follow the same epoch rules (own slot written, others read only in an
epoch where nobody writes the array).
"""
from __future__ import annotations

import random

# element type -> lane bits; floats hold integers of at most 4096 in magnitude (exact arithmetic)
ELEMENTS = {"uint": 32, "ushort": 16, "uchar": 8, "ulong": 64, "float": 32}
SIZES = {"uint": [2, 3, 4, 8], "ushort": [2, 4, 8, 16], "uchar": [4, 8, 16], "ulong": [2, 3, 4], "float": [2, 3, 4, 8]}
SIGNED_MASK = {"uint": "int", "ushort": "short", "uchar": "char", "ulong": "long", "float": "int"}
LANE_NAMES = "0123456789abcdef"


class VectorVar:
    def __init__(self, name: str, element: str, count: int) -> None:
        self.name, self.element, self.count = name, element, count

    @property
    def ctype(self) -> str:
        return f"{self.element}{self.count}"


class VectorStatements:
    """Mixin of Generator: needs its rng, expr, emit, fresh, note, can_write/can_read_across, L."""

    def init_vectors(self) -> None:
        self.vrng = random.Random(self.seed * 7919 + 1)
        self.with_vectors = self.vrng.random() < 0.5
        self.vectors: list[VectorVar] = []
        self.vector_arrays: list[tuple[VectorVar, int]] = []  # private: (element var shape, length)
        self.vector_locals: list[VectorVar] = []  # __local arrays of L vectors

    # -- declarations ---------------------------------------------------------------------------

    def declare_vectors(self) -> None:
        if not self.with_vectors:
            return
        for _ in range(self.rng.randrange(1, 4)):
            v = self._new_vector_type(self.fresh("vv"))
            self.emit(f"{v.ctype} {v.name} = {self.vector_literal(v)};")
            self.vectors.append(v)
        if self.chance(0.6):
            v = self._new_vector_type(self.fresh("pv"))
            length = self.rng.choice([2, 3, 4])
            inits = ", ".join(self.vector_literal(v) for _ in range(length))
            self.emit(f"{v.ctype} {v.name}[{length}] = {{{inits}}};")
            self.vector_arrays.append((v, length))
        if self.chance(0.6):
            v = self._new_vector_type(self.fresh("lv"))
            self.emit(f"__local {v.ctype} {v.name}[{self.L}];")
            self.emit(f"{v.name}[lid] = {self.vector_literal(v)};")
            self.note(v.name, True)
            self.vector_locals.append(v)

    def _new_vector_type(self, name: str) -> VectorVar:
        element = self.rng.choice(list(ELEMENTS))
        return VectorVar(name, element, self.rng.choice(SIZES[element]))

    # -- expressions ----------------------------------------------------------------------------

    def lane_value(self, element: str, e: str) -> str:
        """The uint expression e as a legal lane value of `element`."""
        if element == "float":
            return f"(float)(int)(({e}) & 1023u)"
        return f"({element})({e})"

    def vector_literal(self, v: VectorVar) -> str:
        """A literal of v's type: a splat, all lanes, or lanes mixed with parts of another vector."""
        r = self.rng.random()
        if r < 0.3:
            return f"({v.ctype})({self.lane_value(v.element, self.expr(1))})"
        donors = [w for w in self.vectors if w.element == v.element and w.count >= 2 and w is not v]
        parts, left = [], v.count
        while left:
            if donors and left >= 2 and self.chance(0.3):
                donor = self.rng.choice(donors)
                width = min(left, donor.count, self.rng.choice([2, 2, 4]))
                if width in (2, 4) or width == donor.count:
                    parts.append(f"{donor.name}.{self.swizzle(donor.count, width)}")
                    left -= width
                    continue
            parts.append(self.lane_value(v.element, self.expr(2)))
            left -= 1
        return f"({v.ctype})({', '.join(parts)})"

    def swizzle(self, count: int, width: int, distinct: bool = False) -> str:
        """`width` lanes of a `count`-lane vector: xyzw letters, sN digits, or a named half."""
        if not distinct and width * 2 == count and count != 3 and self.chance(0.3):
            return self.rng.choice(["lo", "hi", "even", "odd"])
        lanes = self.rng.sample(range(count), width) if distinct else [self.rng.randrange(count) for _ in range(width)]
        if count <= 4 and self.chance(0.6):
            return "".join("xyzw"[k] for k in lanes)
        return "s" + "".join(LANE_NAMES[k] for k in lanes)

    def vector_operand(self, v: VectorVar) -> str:
        """A value of v's type: another vector, a swizzle of a wider one, a literal or a scalar."""
        same = [w for w in self.vectors if w.ctype == v.ctype]
        wider = [w for w in self.vectors if w.element == v.element and w.count > v.count and v.count in (2, 3, 4)]
        r = self.rng.random()
        if r < 0.4 and same:
            return self.rng.choice(same).name
        if r < 0.55 and wider:
            w = self.rng.choice(wider)
            return f"{w.name}.{self.swizzle(w.count, v.count)}"
        if r < 0.7 and self.vector_arrays:
            arrays = [(a, n) for a, n in self.vector_arrays if a.ctype == v.ctype]
            if arrays:
                a, n = self.rng.choice(arrays)
                return f"{a.name}[{self.index(n, True)}]"
        if r < 0.85:
            return self.vector_literal(v)
        return self.lane_value(v.element, self.expr(1))  # widened to every lane

    def lane_read(self) -> str | None:
        """One lane of a vector (or of a `__local` vector array's slot) as a uint expression."""
        if not self.with_vectors or self.scope.in_helper:
            return None
        if self.vector_locals and self.chance(0.3):
            v = self.rng.choice(self.vector_locals)
            slot = "lid"
            if self.chance(0.5) and self.can_read_across(v.name):
                self.note(v.name, False)
                slot = self.other_slot(True)
            return self._as_uint(v.element, f"{v.name}[{slot}].s{LANE_NAMES[self.rng.randrange(v.count)]}")
        if not self.vectors:
            return None
        v = self.rng.choice(self.vectors)
        return self._as_uint(v.element, f"{v.name}.s{LANE_NAMES[self.rng.randrange(v.count)]}")

    @staticmethod
    def _as_uint(element: str, text: str) -> str:
        return f"(uint)(int){text}" if element == "float" else f"(uint){text}"

    # -- statements -----------------------------------------------------------------------------

    def st_vector(self) -> None:
        if not self.vectors or self.scope.in_helper:
            return
        v = self.rng.choice(self.vectors)
        k = self.rng.randrange(9)
        if v.element == "float":
            self.emit(self._float_vector_update(v))
        elif k <= 2:
            op = self.rng.choice(["+", "-", "*", "^", "|", "&", "+"])
            self.emit(f"{v.name} = {v.name} {op} {self.vector_operand(v)};")
        elif k == 3:
            count = f"({v.element})(({self.expr(1)}) & {ELEMENTS[v.element] - 1}u)"
            self.emit(f"{v.name} = {v.name} {self.rng.choice(['<<', '>>'])} {count};")
        elif k == 4:
            other = self.vector_operand(v)
            op = self.rng.choice(["<", ">", "<=", "==", "!="])
            mask = f"({v.name} {op} {other})"
            self.emit(self.rng.choice([f"{v.name} = select({v.name}, {self.vector_operand(v)}, {mask});",
                                       f"{v.name} = {mask} ? {v.name} : {self.vector_operand(v)};",
                                       f"{v.name} = as_{v.ctype}({mask}) & {v.name};"]))
        elif k == 5:
            # (the generator's PRELUDE redefines the other integer builtins as scalar macros)
            self.emit(self.rng.choice([f"{v.name} = min({v.name}, {self.vector_operand(v)});",
                                       f"{v.name} = max({v.name}, {self.vector_operand(v)});",
                                       f"{v.name} = clamp({v.name}, ({v.element})3, ({v.element})100);"]))
        elif k == 6:
            self._convert(v)
        else:
            self._swizzle_store(v)
        if self.chance(0.3):
            self._store_vector(v)

    def _float_vector_update(self, v: VectorVar) -> str:
        a, b = v.name, self.vector_operand(v)
        e = self.rng.choice([f"{a} + {b}", f"{a} - {b}", f"{a} * {b}", f"fmin({a}, {b})", f"fmax({a}, {b})",
                             f"floor({a} * 0.5f)", f"fabs({a})", f"-{a}", f"select({a}, {b}, {a} < {b})"])
        return f"{a} = fmin(fmax({e}, -4096.0f), 4096.0f);"

    def _convert(self, v: VectorVar) -> None:
        sources = [w for w in self.vectors if w.count == v.count and w is not v]
        if not sources:
            self.emit(f"{v.name} = {v.name} + {self.vector_operand(v)};")
            return
        if v.element == "float":  # from narrow lanes only: every value converts exactly
            sources = [w for w in sources if w.element in ("uchar", "ushort")]
            if sources:
                self.emit(f"{v.name} = convert_{v.ctype}({self.rng.choice(sources).name});")
            return
        w = self.rng.choice(sources)
        # a float lane out of the destination's range is undefined unless saturated
        sat = "_sat" if w.element == "float" or self.chance(0.5) else ""
        self.emit(f"{v.name} = convert_{v.ctype}{sat}({w.name});")

    def _swizzle_store(self, v: VectorVar) -> None:
        width = self.rng.choice([1, 1, 2, 2, 3, 4])
        width = min(width, v.count)
        target = self.swizzle(v.count, width, distinct=True)
        if width == 1:
            self.emit(f"{v.name}.{target} = {self.lane_value(v.element, self.expr(1))};")
            return
        shaped = [w for w in self.vectors if w.element == v.element and w.count >= 2]
        source = self.rng.choice(shaped)
        if source.count == width and self.chance(0.5):
            self.emit(f"{v.name}.{target} = {source.name};")
        else:
            self.emit(f"{v.name}.{target} = {source.name}.{self.swizzle(source.count, width)};")

    def _store_vector(self, v: VectorVar) -> None:
        """v into a private vector array, or into this work-item's slot of a `__local` one."""
        arrays = [(a, n) for a, n in self.vector_arrays if a.ctype == v.ctype]
        locals_ = [a for a in self.vector_locals if a.ctype == v.ctype and self.can_write(a.name)]
        if locals_ and self.chance(0.6):
            a = self.rng.choice(locals_)
            self.note(a.name, True)
            lane = f".s{LANE_NAMES[self.rng.randrange(v.count)]}" if self.chance(0.3) else ""
            self.emit(f"{a.name}[lid]{lane} = {v.name}{lane};")
        elif arrays:
            a, n = self.rng.choice(arrays)
            self.emit(f"{a.name}[{self.index(n, True)}] = {v.name};")

    # -- the result -----------------------------------------------------------------------------

    def vector_hash(self, h: str) -> str:
        """h folded with every lane of every vector, of private vector arrays and own local slots."""
        for v in self.vectors:
            for k in range(v.count):
                h = f"({h} * 41u + {self._as_uint(v.element, f'{v.name}.s{LANE_NAMES[k]}')})"
        for a, n in self.vector_arrays:
            h = f"({h} ^ {self._as_uint(a.element, f'{a.name}[lid % {n}u].s{LANE_NAMES[a.count - 1]}')})"
        for a in self.vector_locals:
            for k in range(a.count):
                h = f"({h} + {self._as_uint(a.element, f'{a.name}[lid].s{LANE_NAMES[k]}')})"
        return h
