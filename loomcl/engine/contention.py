"""How many cores other processes keep busy, so that the pool neither spins against them nor runs
more participants than there are cores left for it.

Users' machines are rarely idle. A worker that spins while another process wants the core takes
that process's time, and a participant that the scheduler preempts makes the whole launch wait for
it (the caller drains every worker that got in): a BLAS library's many small launches ran 10-400x
slower through loomcl than through PoCL on a busy 2-core machine. So the pool asks, between
launches, how many cores the others use, and runs on the rest, with workers that sleep at once
instead of spinning when the others use any.

The estimate, over the interval since the last sample: the busy time of the cores this process may
run on (the per-CPU lines of /proc/stat for the CPUs of its affinity mask: a process that taskset
put on idle cores is not crowded by the busy others) minus this process's own CPU time (its
spinning workers included: the pool never counts itself as contention, which the load average
would: a 1-minute average that lags, and counts our own threads, so the pool would shrink itself
away). A cgroup's CPU quota (a container's `--cpus`) caps the participants too: more threads than
the quota allows would only be throttled in turn. A sample is taken at most every INTERVAL_S, by the
launch that finds the last one old: one file read, about 10 µs on a few cores.
"""
from __future__ import annotations

import math
import os
import time

INTERVAL_S = 0.2
BUSY_THRESHOLD = 0.5  # cores the others use before the pool stops spinning and gives cores back


class CoreShare:
    """Samples the cores other processes use on `cpus` (`others()`); None where /proc/stat cannot be
    read. `quota`: the cores' worth of CPU time the process's cgroup allows (None: no limit)."""

    def __init__(self, cpus, stat_path: str = "/proc/stat", quota: float | None = None) -> None:
        self.cpus = frozenset(cpus)
        self.cores = len(self.cpus)
        self.quota = quota
        self._stat_path = stat_path
        self._names = {b"cpu%d" % cpu for cpu in self.cpus}
        self._ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        self._last = self._sample()
        self.next_due = time.monotonic() + INTERVAL_S

    def _sample(self) -> tuple[float, float, float] | None:
        """(wall s, busy CPU-s of our cores, own CPU-s) now, or None."""
        busy, seen = 0, 0
        try:
            with open(self._stat_path, "rb") as stat:
                stat.readline()  # the machine's total
                for line in stat:
                    if not line.startswith(b"cpu"):
                        break
                    fields = line.split()
                    if fields[0] in self._names and len(fields) >= 5:
                        ticks = [int(f) for f in fields[1:9]]
                        busy += sum(ticks) - ticks[3] - ticks[4]  # less idle and iowait
                        seen += 1
        except (OSError, ValueError):
            return None
        if not seen:
            return None
        return time.monotonic(), busy / self._ticks, time.process_time()

    def others(self) -> float | None:
        """Cores other processes used on ours since the last call (0 .. cores), or None when unknown."""
        now = self._sample()
        last, self._last = self._last, now
        self.next_due = time.monotonic() + INTERVAL_S
        if now is None or last is None or now[0] - last[0] <= 0:
            return None
        wall = now[0] - last[0]
        others = ((now[1] - last[1]) - (now[2] - last[2])) / wall
        return min(float(self.cores), max(0.0, others))


def participants(ceiling: int, cores: int, others: float, quota: float | None = None) -> int:
    """Threads to run a launch on: the cores the others leave (rounded to the nearest), at most the
    cgroup's `quota` (rounded up: a fraction of a core still runs a thread) and `ceiling`, at least
    1 (the caller)."""
    free = cores - others + 0.5
    if quota is not None:
        free = min(free, math.ceil(quota))
    return max(1, min(ceiling, int(free)))
