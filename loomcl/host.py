"""What the host machine is (its cores, CPU, caches, memory), read once from the operating system: for
the device's info queries and the engine's choices (worker threads, streaming stores).

Everything here is best effort: a field that cannot be read gets a conservative default, because a
missing /proc or /sys entry must never stop a program from running.
"""
from __future__ import annotations

import functools
import os



def allowed_cpus() -> frozenset[int]:
    """The CPUs this process may run on (its affinity mask: taskset, a container's cpuset)."""
    try:
        return frozenset(os.sched_getaffinity(0)) or frozenset({0})
    except (AttributeError, OSError):
        return frozenset(range(max(1, os.cpu_count() or 1)))


def available_cores() -> int:
    """Cores this process may run on (the affinity mask, not the machine's count)."""
    return len(allowed_cpus())


def cpu_quota(proc_cgroup: str = "/proc/self/cgroup", cgroup_root: str = "/sys/fs/cgroup") -> float | None:
    """The CPU time per second this process's cgroups allow it (cgroup v2's cpu.max, v1's
    cpu.cfs_quota_us over cpu.cfs_period_us; the tightest of its cgroup and their ancestors), or None
    when unlimited or unknown. A container limited to 2 CPUs of 16 runs 2 cores' worth at most."""
    try:
        with open(proc_cgroup, encoding="utf-8") as file:
            lines = file.read().splitlines()
    except OSError:
        return None
    limits = []
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if controllers == "":  # v2: one hierarchy
            files = [("cpu.max",)]
            mounts = [cgroup_root]
        elif "cpu" in controllers.split(","):
            files = [("cpu.cfs_quota_us", "cpu.cfs_period_us")]
            mounts = [os.path.join(cgroup_root, controllers), os.path.join(cgroup_root, "cpu")]
        else:
            continue
        parts = [part for part in path.split("/") if part]
        for mount in mounts:
            for depth in range(len(parts), -1, -1):  # the cgroup, then its ancestors
                directory = os.path.join(mount, *parts[:depth])
                for names in files:
                    limit = _cgroup_limit(directory, names)
                    if limit is not None:
                        limits.append(limit)
    return min(limits) if limits else None


def _cgroup_limit(directory: str, names: tuple[str, ...]) -> float | None:
    try:
        texts = []
        for name in names:
            with open(os.path.join(directory, name), encoding="utf-8") as file:
                texts.append(file.read().split())
    except OSError:
        return None
    try:
        if len(texts) == 1:  # "QUOTA PERIOD" or "max PERIOD"
            quota, period = texts[0][0], texts[0][1]
        else:
            quota, period = texts[0][0], texts[1][0]
        if quota == "max" or int(quota) <= 0:
            return None
        return int(quota) / int(period)
    except (IndexError, ValueError, ZeroDivisionError):
        return None


@functools.lru_cache(maxsize=None)
def cpuinfo() -> dict[str, str]:
    """The first processor's fields of /proc/cpuinfo (empty where there is none)."""
    fields: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as file:
            for line in file:
                if not line.strip():
                    break
                key, _, value = line.partition(":")
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    return fields


def cpu_name() -> str:
    import platform

    return cpuinfo().get("model name") or platform.processor() or platform.machine() or "CPU"


def cpu_vendor() -> str:
    return cpuinfo().get("vendor_id") or "unknown"


def cpu_vendor_id() -> int:
    """PCI vendor id, as OpenCL CPU drivers report it."""
    return {"AuthenticAMD": 0x1022, "GenuineIntel": 0x8086}.get(cpu_vendor(), 0)


def cpu_mhz() -> int:
    try:
        return int(float(cpuinfo().get("cpu MHz", "0")))
    except ValueError:
        return 0


@functools.lru_cache(maxsize=None)
def cpu_flags() -> frozenset[str]:
    return frozenset(cpuinfo().get("flags", "").split())


def vector_bytes() -> int:
    """Width of the widest SIMD registers the code generator targets."""
    flags = cpu_flags()
    if "avx512f" in flags:
        return 64
    if "avx" in flags:
        return 32
    return 16


def physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 4 << 30


def _cache_size(text: str) -> int:
    text = text.strip().upper()
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
    digits = text.rstrip("KMG")
    return int(digits) * scale if digits.isdigit() else 0


@functools.lru_cache(maxsize=None)
def caches() -> tuple[int, int]:
    """(line size, size of the last-level cache) from sysfs; (64, 0) if unknown."""
    line, largest = 64, 0
    base = "/sys/devices/system/cpu/cpu0/cache"
    try:
        entries = sorted(os.listdir(base))
    except OSError:
        return line, largest
    for entry in entries:
        try:
            with open(f"{base}/{entry}/size") as file:
                largest = max(largest, _cache_size(file.read()))
            with open(f"{base}/{entry}/coherency_line_size") as file:
                line = int(file.read().strip())
        except (OSError, ValueError):
            continue
    return line, largest


def compute_units() -> int:
    return available_cores()
