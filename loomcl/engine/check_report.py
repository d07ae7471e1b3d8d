"""Checked mode, after a launch: the violation native code recorded, as a loomcl exception.

The record (abi/kernel.py `CheckRecord`) holds a site index, two numbers and the ids of the
offending work-item; the site table of the region's work-group function (ir/check_sites.py) holds the
rest. The message reads like a compiler diagnostic, with the work-item's ids added:

    k.cl:6:5: error: out-of-bounds write in kernel 'k': index 64 (byte offset 256) of argument 'out',
    which holds 64 elements of 4 bytes (256 bytes)
        out[i] = a[i] * 2.0f;
        ^
    work-item: global id (64, 0, 0), local id (0, 0, 0), group id (4, 0, 0)
"""
from __future__ import annotations

from loomcl import errors
from loomcl.abi.kernel import CheckRecord, ParamKind
from loomcl.errors import status_code

ROUTINE = "clEnqueueNDRangeKernel"
_BUFFER_KINDS = (ParamKind.GLOBAL_POINTER, ParamKind.CONSTANT_POINTER)


class Violation:
    """What one record says, with the ids completed (global id = group * enqueued size + local + offset)."""

    def __init__(self, record: CheckRecord, local_size, offset) -> None:
        self.site = record.site
        self.a, self.b = record.a, record.b
        self.group = (record.group_x, record.group_y, record.group_z)
        self.local = (record.local_x, record.local_y, record.local_z)
        size, off = _pad(local_size, 1), _pad(offset, 0)
        self.global_ = tuple(g * s + l + o for g, s, l, o in zip(self.group, size, self.local, off))

    def work_item(self) -> str:
        return (f"work-item: global id {_ids(self.global_)}, local id {_ids(self.local)}, "
                f"group id {_ids(self.group)}")


def violation_error(kernel_name: str, record: CheckRecord, plan, args) -> errors.KernelCheckError:
    """The exception for the violation in `record`, found by a launch of `plan` with `args`."""
    found = Violation(record, plan.local_size, plan.offset)
    sites = _sites_for_group(plan, found.group)
    if not 0 <= found.site < len(sites):
        return errors.KernelCheckError(ROUTINE, status_code.OUT_OF_RESOURCES,
                                       f"kernel '{kernel_name}' failed check {found.site}\n{found.work_item()}")
    site = sites[found.site]
    from loomcl.ir.check_sites import AccessSite  # (a checked program was built: the compiler is loaded)

    if isinstance(site, AccessSite):
        return _access_error(kernel_name, site, found, args)
    return _barrier_error(kernel_name, site, found)


def _sites_for_group(plan, group) -> tuple:
    """The site table of the region that holds `group` (regions of other local sizes have their own)."""
    for region, function in plan.regions:
        if all(o <= g < o + n for g, o, n in zip(group, region.origin, region.groups)):
            return function.check_sites
    return plan.regions[0][1].check_sites


def _access_error(kernel_name: str, site, found: Violation, args) -> errors.KernelCheckError:
    target = " or ".join(o.description for o in site.objects)
    null = _null_argument(site, args)
    if null is not None:
        headline = (f"{site.access} through a null buffer in kernel '{kernel_name}': argument '{null}' "
                    f"was None")
        return errors.NullBufferError(ROUTINE, status_code.OUT_OF_RESOURCES, _render(site.location, headline, found))
    if not site.traced:
        headline = (f"out-of-bounds {site.access} in kernel '{kernel_name}': the pointer (loaded from memory or "
                    f"made from an integer) points into none of {target}")
        return errors.OutOfBoundsError(ROUTINE, status_code.OUT_OF_RESOURCES, _render(site.location, headline, found))
    offset, extent, size = found.a, found.b, site.size
    index = f"index {offset // size} (byte offset {offset})" if offset % size == 0 else f"byte offset {offset}"
    holds = f"{extent // size} elements of {size} bytes ({extent} bytes)" if extent % size == 0 else f"{extent} bytes"
    headline = (f"out-of-bounds {site.access} in kernel '{kernel_name}': {index} of {target}, "
                f"which holds {holds}")
    return errors.OutOfBoundsError(ROUTINE, status_code.OUT_OF_RESOURCES, _render(site.location, headline, found))


def _null_argument(site, args) -> str | None:
    """The name of the buffer argument the access went through if that argument was None."""
    if len(site.objects) != 1 or site.objects[0].param is None:
        return None
    index = site.objects[0].param
    param = args.params[index]
    if param.kind in _BUFFER_KINDS and args.slots[index] == 0:
        return param.name
    return None


def _barrier_error(kernel_name: str, site, found: Violation) -> errors.BarrierDivergenceError:
    mine, theirs = site.targets.get(found.a, ("?", None)), site.targets.get(found.b, ("?", None))
    headline = (f"barrier divergence in kernel '{kernel_name}': this work-item went on to {mine[0]}, "
                f"but another work-item of its group went on to {theirs[0]}; OpenCL requires every "
                f"work-item of a group to reach the same barriers")
    location = mine[1] if mine[1] is not None else theirs[1]
    return errors.BarrierDivergenceError(ROUTINE, status_code.OUT_OF_RESOURCES, _render(location, headline, found))


def _render(location, headline: str, found: Violation) -> str:
    if location is None:
        return f"{headline}\n{found.work_item()}"
    from loomcl.frontend.diagnostics import Diagnostic, Severity  # (the location is the front-end's)

    return f"{Diagnostic(Severity.ERROR, location, headline).render()}\n{found.work_item()}"


def _pad(values, fill: int) -> tuple:
    values = tuple(values) if values is not None else ()
    return values + (fill,) * (3 - len(values))


def _ids(values) -> str:
    return f"({', '.join(str(v) for v in values)})"
