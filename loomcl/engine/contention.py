"""How many cores other processes keep busy, so that the pool neither spins against them nor runs
more participants than there are cores left for it.

Users' machines are rarely idle. A worker that spins while another process wants the core takes
that process's time, and a participant that the scheduler preempts makes the whole launch wait for
it (the caller drains every worker that got in): a BLAS library's many small launches ran 10-400x
slower through loomcl than through PoCL on a busy 2-core machine. So the pool asks, between
launches, how many cores the others use, and runs on the rest, with workers that sleep at once
instead of spinning when the others use any.

The estimate, over the interval since the last sample: the machine's busy time (the first line of
/proc/stat, all cores) minus this process's own CPU time (its spinning workers included: the pool
never counts itself as contention, which the load average would: a 1-minute average that lags,
and counts our own threads, so the pool would shrink itself away). A sample is taken at most every
INTERVAL_S, by the launch that finds the last one old: one file read, about 10 µs.
"""
from __future__ import annotations

import os
import time

INTERVAL_S = 0.2
BUSY_THRESHOLD = 0.5  # cores the others use before the pool stops spinning and gives cores back


class CoreShare:
    """Samples the cores other processes use (`others()`); None where /proc/stat cannot be read."""

    def __init__(self, cores: int, stat_path: str = "/proc/stat") -> None:
        self.cores = cores
        self._stat_path = stat_path
        self._ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        self._last = self._sample()
        self.next_due = time.monotonic() + INTERVAL_S

    def _sample(self) -> tuple[float, float, float] | None:
        """(wall s, machine busy CPU-s, own CPU-s) now, or None."""
        try:
            with open(self._stat_path, "rb") as stat:
                fields = stat.readline().split()[1:]
        except OSError:
            return None
        if len(fields) < 5:
            return None
        ticks = [int(f) for f in fields[:8]]
        idle = ticks[3] + ticks[4]  # idle + iowait
        busy = (sum(ticks) - idle) / self._ticks
        return time.monotonic(), busy, time.process_time()

    def others(self) -> float | None:
        """Cores other processes used since the last call (0 .. cores), or None when unknown."""
        now = self._sample()
        last, self._last = self._last, now
        self.next_due = time.monotonic() + INTERVAL_S
        if now is None or last is None or now[0] - last[0] <= 0:
            return None
        wall = now[0] - last[0]
        others = ((now[1] - last[1]) - (now[2] - last[2])) / wall
        return min(float(self.cores), max(0.0, others))


def participants(ceiling: int, cores: int, others: float) -> int:
    """Threads to run a launch on: the cores the others leave (rounded to the nearest), at most
    `ceiling`, at least 1 (the caller)."""
    return max(1, min(ceiling, int(cores - others + 0.5)))
