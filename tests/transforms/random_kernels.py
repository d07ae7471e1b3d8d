"""Random race-free work-item kernels in IR text, for differential tests of the pipeline.

A kernel has four private i32 variables (allocas, as lowering emits them), a __local tile and
global `in`/`out`. Statements: assignments; varying ifs and varying-trip loops without barriers;
uniform ifs and uniform loops whose bodies may hold *phases* (`tile[lid] = v; barrier; v = tile[(lid
+ k) % L]; barrier`, race-free by construction); at the end every variable is written to `out`.
"""
from __future__ import annotations

import random

VARS = 4


class Generator:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.lines: list[str] = []
        self.counter = 0
        self.loop_vars = 0

    def fresh(self, hint: str = "t") -> str:
        self.counter += 1
        return f"{hint}{self.counter}"

    def emit(self, line: str) -> None:
        self.lines.append("  " + line)

    def label(self, name: str) -> None:
        self.lines.append(f"{name}:")

    # -- expressions (i32) -------------------------------------------------------------------

    def load_var(self, k: int) -> str:
        name = self.fresh("v")
        self.emit(f"%{name} = load i32, %var{k}")
        return f"%{name}"

    def expr(self, depth: int = 0) -> str:
        r = self.rng.random()
        if depth > 1 or r < 0.3:
            return self.leaf()
        op = self.rng.choice(["add", "sub", "mul", "xor", "and"])
        a, b = self.expr(depth + 1), self.expr(depth + 1)
        name = self.fresh()
        self.emit(f"%{name} = {op} {a}, {b}")
        return f"%{name}"

    def leaf(self) -> str:
        choice = self.rng.choice(["var", "var", "const", "lid", "arg", "in"])
        if choice == "var":
            return self.load_var(self.rng.randrange(VARS))
        if choice == "const":
            return f"i32 {self.rng.randrange(-5, 10)}"
        if choice == "lid":
            return "%lid32"
        if choice == "arg":
            return "%n"
        name = self.fresh("in")
        self.emit(f"%{name}.p = elementptr i32, %in, %gid")
        self.emit(f"%{name} = load i32, %{name}.p")
        return f"%{name}"

    def uniform_condition(self) -> str:
        name = self.fresh("u")
        self.emit(f"%{name} = cmp sgt %n, i32 {self.rng.randrange(-2, 6)}")
        return f"%{name}"

    def varying_condition(self) -> str:
        name = self.fresh("c")
        value = self.expr(1) if self.rng.random() < 0.6 else "%lid32"
        self.emit(f"%{name} = cmp slt {value}, i32 {self.rng.randrange(-3, 8)}")
        return f"%{name}"

    # -- statements ----------------------------------------------------------------------------

    def block(self, budget: int, barriers: bool) -> None:
        for _ in range(self.rng.randrange(1, 4)):
            if budget <= 0:
                return
            budget -= 1
            kinds = ["assign", "assign", "varying_if", "varying_loop"]
            if barriers:
                kinds += ["phase", "phase", "uniform_if", "uniform_loop"]
            getattr(self, self.rng.choice(kinds))(budget, barriers)

    def assign(self, budget, barriers) -> None:
        self.emit(f"store {self.expr()}, %var{self.rng.randrange(VARS)}")

    def phase(self, budget, barriers) -> None:
        self.emit(f"store {self.load_var(self.rng.randrange(VARS))}, %tile.mine")
        self.emit("barrier 1")
        shift = self.fresh("sh")
        self.emit(f"%{shift} = add %lid, i64 {self.rng.randrange(0, 5)}")
        self.emit(f"%{shift}.m = urem %{shift}, %lsz")
        self.emit(f"%{shift}.p = elementptr i32, @tile, %{shift}.m")
        self.emit(f"%{shift}.v = load i32, %{shift}.p")
        self.emit(f"store %{shift}.v, %var{self.rng.randrange(VARS)}")
        self.emit("barrier 1")

    def branches(self, condition: str, budget: int, barriers: bool) -> None:
        then, other, join = self.fresh("then"), self.fresh("else"), self.fresh("join")
        self.emit(f"branch {condition}, {then}, {other}")
        for name in (then, other):
            self.label(name)
            self.block(budget // 2, barriers)
            self.emit(f"jump {join}")
        self.label(join)

    def uniform_if(self, budget, barriers) -> None:
        self.branches(self.uniform_condition(), budget, True)

    def varying_if(self, budget, barriers) -> None:
        self.branches(self.varying_condition(), budget, False)

    def loop(self, bound: str, budget: int, barriers: bool) -> None:
        counter = f"%counter{self.loop_vars}"
        self.loop_vars += 1
        self.lines.insert(3, f"  {counter} = alloca i32")
        head, body, done = self.fresh("head"), self.fresh("body"), self.fresh("done")
        self.emit(f"store i32 0, {counter}")
        self.emit(f"jump {head}")
        self.label(head)
        i = self.fresh("i")
        self.emit(f"%{i} = load i32, {counter}")
        self.emit(f"%{i}.more = cmp slt %{i}, {bound}")
        self.emit(f"branch %{i}.more, {body}, {done}")
        self.label(body)
        self.block(budget // 2, barriers)
        j = self.fresh("i")
        self.emit(f"%{j} = load i32, {counter}")
        self.emit(f"%{j}.next = add %{j}, i32 1")
        self.emit(f"store %{j}.next, {counter}")
        self.emit(f"jump {head}")
        self.label(done)

    def uniform_loop(self, budget, barriers) -> None:
        bound = self.fresh("b")
        self.emit(f"%{bound} = and %n, i32 3")
        self.loop(f"%{bound}", budget, True)

    def varying_loop(self, budget, barriers) -> None:
        bound = self.fresh("b")
        self.emit(f"%{bound} = and %lid32, i32 3")
        self.loop(f"%{bound}", budget, False)

    def kernel(self) -> str:
        self.lines = ["kernel @random(ptr.global %in, ptr.global %out, i32 %n) {", "  local @tile : [64 x i32]",
                      "entry:"]
        self.lines += [f"  %var{k} = alloca i32" for k in range(VARS)]
        for line in ("%lid = local_id 0", "%lid32 = trunc %lid to i32", "%grp = group_id 0",
                     "%lsz = local_size 0", "%base = mul %grp, %lsz", "%gid = add %base, %lid",
                     "%tile.mine = elementptr i32, @tile, %lid"):
            self.emit(line)
        for k in range(VARS):
            self.emit(f"store i32 {k + 1}, %var{k}")
        self.block(12, True)
        for k in range(VARS):
            self.emit(f"%o{k}.i = mul %gid, i64 {VARS}")
            self.emit(f"%o{k}.j = add %o{k}.i, i64 {k}")
            self.emit(f"%o{k}.p = elementptr i32, %out, %o{k}.j")
            self.emit(f"store {self.load_var(k)}, %o{k}.p")
        self.emit("ret")
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"


def random_kernel(seed: int) -> str:
    return Generator(seed).kernel()
