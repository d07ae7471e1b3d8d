"""insert-checks (checked mode): a bounds check before every load, store and atomic.

Every pointer the kernel dereferences is traced back to the object it points into (its *base*):
a pointer parameter (a buffer, a sub-buffer or a LocalMemory; its extent comes with the launch,
`ArgumentExtent`), a `__local` or `__constant` variable, or a private allocation (extents known
here). Element and field addresses and address-space casts keep their operand's base; a phi or
select of pointers gets a phi or select of bases and extents next to it, so a pointer that walks
an array in a loop, or picks one of two buffers, is checked against the object it really points
into. A null pointer constant is its own base with extent 0: every access through it fails.

Before the access goes `check_access site, size, pointer, base, extent, lid0, lid1, lid2`
(ir/ops/checks.py): codegen makes it `0 <= pointer - base <= extent - size`, a compare and a branch
to a cold path that records the first violation and leaves the work-group. The site table
(`function.check_sites`) keeps the source location and what was accessed, for the message.

A pointer that cannot be traced (loaded from memory, made from an integer) is checked against the
union of the objects of its address space: a chain of selects picks the one it lies in (the first
candidate if none), and the check then fails exactly when it lies in none (always, where the space
has no object). So every access is checked.

Runs after inline (one CFG holds every access) and mem2reg (promoted variables need no check),
before anything that reasons about barriers or uniformity: the checks' operands are ordinary values
that sub-CFG formation carries across barriers like any other.
"""
from __future__ import annotations

from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.builder import Builder
from ..ir.check_sites import AccessSite, MemoryObject
from ..ir.function import Function
from ..ir.values import Argument, Constant, GlobalVariable, Value
from .passes import PassContext

NAME = "insert-checks"



def run(function: Function, analyses: PassContext) -> bool:
    accesses = [i for i in function.instructions() if i.address is not None]  # loads, stores, atomics
    if not accesses:
        return False
    _Inserter(function).check_all(accesses)
    return True


def access_size(t: ty.Type) -> int:
    """Bytes a load or store of `t` touches: a 3-vector touches 3 elements, not the 4 it occupies."""
    if isinstance(t, ty.VectorType) and t.count == 3:
        return 3 * t.element.size
    return t.size


def _access_word(inst: ins.Instruction) -> str:
    if not inst.writes_memory:
        return "read"
    return "atomic access" if inst.reads_memory else "write"


class _Inserter:
    def __init__(self, function: Function) -> None:
        self.function = function
        self.entry = function.entry
        self.traced: dict[Value, tuple[Value, Value, tuple[MemoryObject, ...]] | None] = {}
        self.local_ids = [self._at_entry(ins.WorkItemQuery(ins.Query.LOCAL_ID, d, f"check.lid{d}")) for d in range(3)]

    def _at_entry(self, inst: ins.Instruction) -> ins.Instruction:
        """After the allocas of the entry block, so every block sees it."""
        at = next((i for i, x in enumerate(self.entry.instructions) if not isinstance(x, ins.Alloca)),
                  len(self.entry.instructions))
        return self.entry.insert(at, inst)

    def check_all(self, accesses) -> None:
        for inst in accesses:
            base, extent, objects = self.trace(inst.address) or self.any_object(inst)
            t = inst.accessed_type
            site = len(self.function.check_sites)
            self.function.check_sites.append(
                AccessSite(inst.loc, _access_word(inst), access_size(t), str(t), objects,
                           traced=self.trace(inst.address) is not None))
            check = ins.CheckAccess(site, access_size(t), inst.address, base, extent, self.local_ids)
            check.loc = inst.loc
            inst.block.insert_before(inst, check)

    # -- pointers that cannot be traced: the union of the objects of their address space ----------

    def any_object(self, inst: ins.Instruction):
        """(base, extent, candidates) of the object of the pointer's address space that the pointer
        lies in, chosen at run time, before `inst`."""
        space = inst.address.type.address_space
        candidates = [self.trace(v) for v in self.objects_in(space)]
        b = Builder()
        b.position_before(inst)
        b.loc = inst.loc
        candidates = [(self._as(b, base, inst.address.type), extent, objects) for base, extent, objects in candidates]
        if not candidates:
            null = Constant(inst.address.type, 0)
            return null, Constant(ty.i64, 0), (MemoryObject(f"the objects of {space.spelling} memory (there are none)"),)
        size = Constant(ty.i64, access_size(inst.accessed_type))
        address = b.cast(ins.CastOpcode.PTRTOINT, inst.address, ty.i64)
        base, extent, objects = candidates[0]
        for other_base, other_extent, other_objects in candidates[1:]:
            offset = b.sub(address, b.cast(ins.CastOpcode.PTRTOINT, other_base, ty.i64))
            fits = b.compare(ins.Predicate.UGE, other_extent, size)
            within = b.compare(ins.Predicate.ULE, offset, b.sub(other_extent, size))
            inside = b.binary(ins.BinaryOpcode.AND, fits, within)
            base, extent = b.select(inside, other_base, base), b.select(inside, other_extent, extent)
            objects += other_objects
        return base, extent, objects

    @staticmethod
    def _as(b: Builder, base: Value, t: ty.Type) -> Value:
        """`base` as a pointer of type `t` (a generic pointer's candidates come from every space)."""
        return base if base.type is t else b.cast(ins.CastOpcode.ADDRSPACECAST, base, t)

    def objects_in(self, space: ty.AddressSpace) -> list[Value]:
        """The pointer parameters, the private allocations, and the `__local` and `__constant`
        variables the kernel names (a pointer to one was made from its name), of `space`."""
        generic = space is ty.AddressSpace.GENERIC  # OpenCL C 2.0: may point into any of them

        def wanted(t) -> bool:
            return isinstance(t, ty.PointerType) and (generic or t.address_space is space)

        allocas = [i for i in self.entry.instructions if isinstance(i, ins.Alloca) and wanted(i.type)]
        params = [p for p in self.function.params if wanted(p.type)]
        named = dict.fromkeys(v for i in self.function.instructions() for v in i.operands
                              if isinstance(v, GlobalVariable) and wanted(v.type))
        return params + list(named) + allocas

    # -- tracing pointers to their base ---------------------------------------------------------

    def trace(self, pointer: Value):
        """(base, extent in bytes as i64, candidate objects) of what `pointer` points into, or None."""
        if pointer in self.traced:
            return self.traced[pointer]
        if not self.traceable(pointer, set()):
            self.traced[pointer] = None
            return None
        return self._build(pointer)

    def traceable(self, v: Value, seen: set) -> bool:
        if v in seen or v in self.traced:
            return v in seen or self.traced[v] is not None
        seen.add(v)
        if isinstance(v, (Argument, GlobalVariable, ins.Alloca)) or _is_null(v):
            return True
        if ins.origin_of(v) is not None:  # address arithmetic, pointer casts
            return self.traceable(ins.origin_of(v), seen)
        if isinstance(v, ins.Select):
            return self.traceable(v.if_true, seen) and self.traceable(v.if_false, seen)
        if isinstance(v, ins.Phi):
            return all(self.traceable(x, seen) for x in v.operands)
        return False

    def _build(self, v: Value):
        if v in self.traced:
            return self.traced[v]
        if ins.origin_of(v) is not None:
            found = self._build(ins.origin_of(v))
        elif isinstance(v, ins.Phi):
            return self._build_phi(v)
        elif isinstance(v, ins.Select):
            found = self._build_select(v)
        else:
            found = self._object(v)
        self.traced[v] = found
        return found

    def _object(self, v: Value):
        if isinstance(v, Argument):
            extent = self._at_entry(ins.ArgumentExtent(v.index, f"extent.{v.name}"))
            return v, extent, (MemoryObject(f"argument '{v.name}'", v.index),)
        if _is_null(v):
            return v, Constant(ty.i64, 0), (MemoryObject("a null pointer"),)
        if isinstance(v, GlobalVariable):
            space = "__local" if v.address_space is ty.AddressSpace.LOCAL else "__constant"
            return v, Constant(ty.i64, v.value_type.size), (MemoryObject(f"{space} {_noun(v.value_type)} '{v.name}'"),)
        return v, Constant(ty.i64, v.allocated_type.size), (MemoryObject(f"private {_noun(v.allocated_type)} '{v.name}'"),)

    def _build_phi(self, phi: ins.Phi):
        """Phis of bases and extents beside `phi`; made before their incoming values are traced, so
        a pointer carried around a loop refers to itself."""
        base, extent = ins.Phi(phi.type, f"{phi.name}.base"), ins.Phi(ty.i64, f"{phi.name}.extent")
        phi.block.insert(0, extent)
        phi.block.insert(0, base)
        objects: list[MemoryObject] = []
        self.traced[phi] = (base, extent, ())
        for value, block in phi.incoming:
            b, e, o = self._build(value)
            base.add_incoming(b, block)
            extent.add_incoming(e, block)
            objects += [x for x in o if x not in objects]
        self.traced[phi] = (base, extent, tuple(objects))
        return self.traced[phi]

    def _build_select(self, select: ins.Select):
        (b1, e1, o1), (b2, e2, o2) = self._build(select.if_true), self._build(select.if_false)
        at = select.block.instructions.index(select) + 1
        base = select.block.insert(at, ins.Select(select.condition, b1, b2, f"{select.name}.base"))
        extent = select.block.insert(at + 1, ins.Select(select.condition, e1, e2, f"{select.name}.extent"))
        return base, extent, o1 + tuple(x for x in o2 if x not in o1)


def _is_null(v: Value) -> bool:
    return isinstance(v, Constant) and isinstance(v.type, ty.PointerType) and v.value == 0


def _noun(t: ty.Type) -> str:
    return "array" if isinstance(t, ty.ArrayType) else "variable"
