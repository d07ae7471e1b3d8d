"""The pool yields to other processes (engine/contention.py): the estimate of the cores they use
(from /proc/stat, less this process's own CPU time), the participants a launch then runs on, and a
launch that runs correctly on the cores left, with workers that sleep instead of spinning."""
import numpy as np

import loomcl as cl
from loomcl.engine import contention, native_pool, pool


def _stat(path, user, idle):
    path.write_text(f"cpu  {user} 0 0 {idle} 0 0 0 0 0 0\ncpu0 0 0 0 0 0 0 0 0 0 0\n")


def test_others_are_the_machines_busy_time_less_our_own(tmp_path, monkeypatch):
    stat = tmp_path / "stat"
    clock, own = [100.0], [5.0]
    monkeypatch.setattr(contention.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(contention.time, "process_time", lambda: own[0])
    monkeypatch.setattr(contention.os, "sysconf", lambda name: 100)
    _stat(stat, 0, 0)
    share = contention.CoreShare(2, str(stat))
    # one second: 2 cores busy (200 ticks), 0.5 s of them ours -> the others used 1.5 cores
    clock[0], own[0] = 101.0, 5.5
    _stat(stat, 200, 0)
    assert share.others() == 1.5
    # the next second: one core busy, all of it ours (spinning workers are not contention)
    clock[0], own[0] = 102.0, 6.5
    _stat(stat, 300, 100)
    assert share.others() == 0.0
    assert share.next_due == 102.0 + contention.INTERVAL_S


def test_unreadable_stat_means_unknown(tmp_path):
    assert contention.CoreShare(2, str(tmp_path / "absent")).others() is None


def test_participants_are_the_cores_the_others_leave():
    assert contention.participants(2, 2, 1.6) == 1
    assert contention.participants(2, 2, 0.3) == 2
    assert contention.participants(16, 16, 4.2) == 12
    assert contention.participants(4, 16, 0.0) == 4  # never above the pool's size
    assert contention.participants(8, 8, 8.0) == 1  # the caller always runs


class _Busy:
    """A CoreShare whose others always use `cores - 1` cores."""

    def __init__(self, cores):
        self.cores, self.next_due = cores, 0.0

    def others(self):
        return self.cores - 1.0


def test_a_busy_machine_runs_launches_on_the_cores_left_without_spinning(ctx, queue, prg, monkeypatch):
    busy = pool.WorkerPool(4, adaptive=True)
    monkeypatch.setattr(busy, "_share", _Busy(4))
    monkeypatch.setattr(pool, "_pool", busy)
    n = 1 << 14
    count = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * n)
    scratch = [cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 12 * n) for _ in range(3)]
    try:
        for _ in range(5):
            prg.record(queue, (n,), (8,), count, *scratch)
        queue.finish()
        assert busy.participants == 1 and busy.thread_count == 4
        assert busy._spin == native_pool.SPIN_BUSY
    finally:
        busy.shutdown()
    got = np.empty(n, np.int32)
    cl.enqueue_copy(queue, got, count)
    assert (got == 5).all()
