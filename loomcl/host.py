"""What the host machine is (its cores, CPU, caches, memory), read once from the operating system: for
the device's info queries and the engine's choices (worker threads, streaming stores).

Everything here is best effort: a field that cannot be read gets a conservative default, because a
missing /proc or /sys entry must never stop a program from running.
"""
from __future__ import annotations

import functools
import os



def available_cores() -> int:
    """Cores this process may run on (the affinity mask, not the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


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
