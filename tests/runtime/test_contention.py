"""The pool yields to other processes (engine/contention.py): the estimate of the cores they use
(from /proc/stat's lines for the CPUs of the affinity mask, less this process's own CPU time; a
cgroup's CPU quota), the participants a launch then runs on, and a
launch that runs correctly on the cores left, with workers that sleep instead of spinning."""
import numpy as np
import pytest

import loomcl as cl
from loomcl import host
from loomcl.engine import contention, native_pool, pool


def _stat(path, per_cpu):
    """A /proc/stat whose CPU i has used `per_cpu[i]` = (user, idle) ticks."""
    total_user, total_idle = sum(u for u, _ in per_cpu), sum(i for _, i in per_cpu)
    lines = [f"cpu  {total_user} 0 0 {total_idle} 0 0 0 0 0 0"]
    lines += [f"cpu{n} {user} 0 0 {idle} 0 0 0 0 0 0" for n, (user, idle) in enumerate(per_cpu)]
    path.write_text("\n".join(lines) + "\nintr 0\nctxt 0\n")


@pytest.fixture
def clocks(monkeypatch):
    """[wall, own CPU] seconds as CoreShare reads them; 100 ticks a second."""
    clock = [100.0, 5.0]
    monkeypatch.setattr(contention.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(contention.time, "process_time", lambda: clock[1])
    monkeypatch.setattr(contention.os, "sysconf", lambda name: 100)
    return clock


def test_others_are_the_busy_time_of_our_cores_less_our_own(tmp_path, clocks):
    stat = tmp_path / "stat"
    _stat(stat, [(0, 0), (0, 0)])
    share = contention.CoreShare({0, 1}, str(stat))
    # one second: 2 cores busy (200 ticks), 0.5 s of them ours -> the others used 1.5 cores
    clocks[:] = [101.0, 5.5]
    _stat(stat, [(100, 0), (100, 0)])
    assert share.others() == 1.5
    # the next second: one core busy, all of it ours (spinning workers are not contention)
    clocks[:] = [102.0, 6.5]
    _stat(stat, [(200, 0), (100, 100)])
    assert share.others() == 0.0
    assert share.next_due == 102.0 + contention.INTERVAL_S


def test_cores_outside_the_affinity_mask_are_not_contention(tmp_path, clocks):
    """taskset put the process on CPUs 2 and 3 of 4, which are idle while 0 and 1 are busy."""
    stat = tmp_path / "stat"
    _stat(stat, [(0, 0)] * 4)
    share = contention.CoreShare({2, 3}, str(stat))
    assert share.cores == 2
    clocks[:] = [101.0, 5.0]
    _stat(stat, [(100, 0), (100, 0), (0, 100), (0, 100)])
    assert share.others() == 0.0  # machine-wide, 2 of 4 cores were busy
    clocks[:] = [102.0, 5.5]  # ours ran half a second on CPU 2, another process a second on CPU 3
    _stat(stat, [(200, 0), (200, 0), (50, 150), (100, 100)])
    assert share.others() == 1.0
    assert contention.participants(2, share.cores, 1.0) == 1


def test_unreadable_stat_means_unknown(tmp_path):
    assert contention.CoreShare({0, 1}, str(tmp_path / "absent")).others() is None


def test_participants_are_the_cores_the_others_leave():
    assert contention.participants(2, 2, 1.6) == 1
    assert contention.participants(2, 2, 0.3) == 2
    assert contention.participants(16, 16, 4.2) == 12
    assert contention.participants(4, 16, 0.0) == 4  # never above the pool's size
    assert contention.participants(8, 8, 8.0) == 1  # the caller always runs
    assert contention.participants(16, 16, 0.0, quota=2.0) == 2  # a container's --cpus=2
    assert contention.participants(16, 16, 0.0, quota=1.5) == 2  # half a core still runs a thread
    assert contention.participants(16, 16, 15.0, quota=4.0) == 1


def _cgroups(tmp_path, proc_cgroup, files):
    tmp_path.mkdir()
    (tmp_path / "proc_cgroup").write_text(proc_cgroup)
    for name, text in files.items():
        path = tmp_path / "fs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return str(tmp_path / "proc_cgroup"), str(tmp_path / "fs")


def test_the_cgroup_quota_is_the_tightest_of_the_cgroup_and_its_ancestors(tmp_path):
    v2 = _cgroups(tmp_path / "v2", "0::/user/job\n", {"user/job/cpu.max": "max 100000\n",
                                                        "user/cpu.max": "250000 100000\n"})
    assert host.cpu_quota(*v2) == 2.5
    v1 = _cgroups(tmp_path / "v1", "4:memory:/x\n1:cpu,cpuacct:/docker/abc\n0::/\n",
                  {"cpu,cpuacct/docker/abc/cpu.cfs_quota_us": "150000\n",
                   "cpu,cpuacct/docker/abc/cpu.cfs_period_us": "100000\n"})
    assert host.cpu_quota(*v1) == 1.5
    unlimited = _cgroups(tmp_path / "none", "1:cpu:/\n0::/\n", {"cpu/cpu.cfs_quota_us": "-1\n",
                                                                "cpu/cpu.cfs_period_us": "100000\n"})
    assert host.cpu_quota(*unlimited) is None
    assert host.cpu_quota(str(tmp_path / "absent"), str(tmp_path)) is None


class _Busy:
    """A CoreShare whose others always use `cores - 1` cores."""

    def __init__(self, cores):
        self.cores, self.quota, self.next_due = cores, None, 0.0

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
