"""The machine's probes run each variant with its own thread count (--threads, the 1thread config)."""
from loomcl.bench import machine


class FakeImpl:
    def __init__(self, name, log):
        self.name, self.log = name, log

    def activate(self):
        self.log.append(("activate", self.name))


def test_each_variant_is_activated_before_its_probes(monkeypatch):
    log = []
    monkeypatch.setattr(machine, "kernel_limits", lambda impl, *args: log.append(("probe", impl.name)) or (1.0, 2.0))
    monkeypatch.setattr(machine, "launch_costs", lambda impl: (3.0, 4.0))
    monkeypatch.setattr(machine.native_peak, "fma_peak_gflops", lambda *args: 5.0)
    limits = machine.measure([FakeImpl("loomcl", log), FakeImpl("loomcl[1thread]", log)], 1024, 1, 1, 2)
    assert log == [("activate", "loomcl"), ("probe", "loomcl"),
                   ("activate", "loomcl[1thread]"), ("probe", "loomcl[1thread]")]
    assert limits.fma_gflops == {machine.MACHINE: 5.0, "loomcl": 2.0, "loomcl[1thread]": 2.0}
