"""The per-group test of checked mode's fast path (check_ranges.py), as an LLVM dispatcher function:

    define internal void @loomcl_body_K(<the body's parameters>) {
      ; recompute the leaves, bound them, bound each proven access and narrow value over the box
      br i1 %all.ok, label %fast, label %checked
    fast:     call @loomcl_body_K.fast(...)      ; the body without the proven checks
    checked:  call @loomcl_body_K.checked(...)   ; every check
    }
"""
from __future__ import annotations

from ..abi.kernel import LAUNCH_FIELDS
from ..ir import instructions as ins
from ..ir.function import Function
from ..ir.values import Argument, Constant, Value
from ..llvmtext.errors import CodegenError
from ..llvmtext.module import LAUNCH_TYPE, quote
from ..llvmtext.types import format_constant, llvm_type
from .check_ranges import MAX_FACTOR, MAX_LEAF, Form, GroupTest
from .llvm_emitter import _QUERY_FIELDS

_GROUP_IDS = ("%group.x", "%group.y", "%group.z")


class _Dispatcher:
    def __init__(self, function: Function, test: GroupTest) -> None:
        self.function = function
        self.test = test
        self.lines: list[str] = []
        self.names: dict[Value, str] = {}
        self.count = 0
        self.conditions: list[str] = []

    def temp(self) -> str:
        self.count += 1
        return f"%t{self.count}"

    def emit(self, text: str) -> str:
        name = self.temp()
        self.lines.append(f"  {name} = {text}")
        return name

    # -- leaves: group-invariant values, recomputed -----------------------------------------------

    def value(self, v: Value) -> str:
        """The LLVM operand of a leaf (or constant) in its own type."""
        if isinstance(v, Constant):
            return format_constant(v)
        if v not in self.names:
            self.names[v] = self._compute(v)
        return self.names[v]

    def _compute(self, v: Value) -> str:
        if isinstance(v, Argument):
            return f"%param{v.index}"
        if isinstance(v, ins.ArgumentExtent):
            slot = len(self.function.params) + v.param
            address = self.emit(f"getelementptr inbounds i64, ptr %args, i64 {slot}")
            return self.emit(f"load i64, ptr {address}, align 8")
        if isinstance(v, ins.WorkItemQuery):
            return self._query(v)
        if isinstance(v, ins.Cast):
            return self.emit(f"{v.opcode.value} {llvm_type(v.value.type)} {self.value(v.value)} to {llvm_type(v.type)}")
        if isinstance(v, ins.BinaryOp):
            return self.emit(f"{v.opcode.value} {llvm_type(v.type)} {self.value(v.lhs)}, {self.value(v.rhs)}")
        raise CodegenError(f"the group test cannot recompute {v!r}")

    def _query(self, q: ins.WorkItemQuery) -> str:
        if q.query is ins.Query.GROUP_ID:
            return _GROUP_IDS[q.dim]
        name = _QUERY_FIELDS[q.query]
        dims = "" if name == "work_dim" else f", i64 {q.dim}"
        address = self.emit(f"getelementptr inbounds {LAUNCH_TYPE}, ptr %launch, i64 0, i32 "
                            f"{LAUNCH_FIELDS.index(name)}{dims}")
        return self.emit(f"load i64, ptr {address}, align 8")

    def wide(self, v: Value) -> str:
        """The leaf as i64 (sign-extended, as codegen extends a narrow index)."""
        if isinstance(v, Constant):
            return str(v.signed_value)
        text = self.value(v)
        return text if v.type.bits == 64 else self.emit(f"sext {llvm_type(v.type)} {text} to i64")

    # -- ranges over the local-id box -------------------------------------------------------------

    def bounds(self, form: Form) -> tuple[str, str]:
        """(lowest, highest) value of `form` over local ids in [0, local_size)."""
        sizes = self.function.local_size
        low = high = form.constant
        fixed, low_extra, high_extra = "0", "0", "0"
        for term, c in form.terms.items():
            if isinstance(term, tuple) and term[0] == "lid" and len(term) == 2:
                span = c * (sizes[term[1]] - 1)
                low, high = low + min(0, span), high + max(0, span)
            elif isinstance(term, tuple) and term[0] == "lid":  # c * lid * leaf: its sign is the leaf's
                span = self.emit(f"mul i64 {self.wide(term[2])}, {c * (sizes[term[1]] - 1)}")
                negative = self.emit(f"icmp slt i64 {span}, 0")
                low_extra = self.emit(f"add i64 {low_extra}, {self.emit(f'select i1 {negative}, i64 {span}, i64 0')}")
                high_extra = self.emit(f"add i64 {high_extra}, {self.emit(f'select i1 {negative}, i64 0, i64 {span}')}")
            else:
                value = self.wide(term) if not isinstance(term, tuple) else \
                    self.emit(f"mul i64 {self.wide(term[1])}, {self.wide(term[2])}")
                fixed = self.emit(f"add i64 {fixed}, {self.emit(f'mul i64 {value}, {c}')}")
        base_low, base_high = self.emit(f"add i64 {fixed}, {low}"), self.emit(f"add i64 {fixed}, {high}")
        return self.emit(f"add i64 {base_low}, {low_extra}"), self.emit(f"add i64 {base_high}, {high_extra}")

    def require(self, predicate: str, lhs: str, rhs) -> None:
        self.conditions.append(self.emit(f"icmp {predicate} i64 {lhs}, {rhs}"))

    def conditions_text(self) -> str:
        for leaf in self.test.leaves:
            self.require("sgt", self.wide(leaf), -MAX_LEAF)
            self.require("slt", self.wide(leaf), MAX_LEAF)
        for factor in self.test.factors:
            self.require("sgt", self.wide(factor), -MAX_FACTOR)
            self.require("slt", self.wide(factor), MAX_FACTOR)
        for proven in self.test.proven:
            check = proven.check
            extent = self.wide(check.extent)
            low, high = self.bounds(proven.offset)
            self.require("sge", extent, check.size)
            self.require("sge", low, 0)
            self.require("sle", high, self.emit(f"sub i64 {extent}, {check.size}"))
        for form, bits in self.test.narrow:
            low, high = self.bounds(form)
            self.require("sge", low, 0)
            self.require("slt", high, 1 << (bits - 1))
        ok = "true"
        for condition in self.conditions:
            ok = self.emit(f"and i1 {ok}, {condition}")
        return ok


def dispatcher_text(function: Function, test: GroupTest, symbol: str, fast: str, checked: str,
                    extra_params: tuple[str, ...]) -> str:
    """The body `symbol` that runs `fast` for a group the test proves, `checked` otherwise."""
    d = _Dispatcher(function, test)
    ok = d.conditions_text()
    params = [f"{llvm_type(p.type)} %param{i}" for i, p in enumerate(function.params)] + list(extra_params)
    args = ", ".join(_argument(p) for p in params)
    head = f"define internal void @{quote(symbol)}({', '.join(params)}) #0 {{"
    body = [head, "entry:", *d.lines, f"  br i1 {ok}, label %fast, label %checked",
            "fast:", f"  call void @{quote(fast)}({args})", "  ret void",
            "checked:", f"  call void @{quote(checked)}({args})", "  ret void", "}", ""]
    return "\n".join(body)


def _argument(param: str) -> str:
    """`ptr noalias %arena` -> `ptr %arena`: the type and the name of a parameter declaration."""
    words = param.split()
    return f"{words[0]} {words[-1]}"
