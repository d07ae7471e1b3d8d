"""loomcl's benchmark suite: the same OpenCL C kernels on loomcl and on PoCL in one run, each checked
against numpy, with the machine's measured copy bandwidth and fma peak as the roofline.

    python -m loomcl.bench [--quick] [--only NAME|icd] [--no-icd] [--config novec] [--plot out.png]

Layout: case.py (what a row is), suite/ (the cases, by family) with kernels/*.cl, impls.py (loomcl and
PoCL behind the pyopencl API), machine.py (limits), runner.py (agreement and interleaved timing),
report.py (table, geometric mean, JSON), plot.py (PNG), configs.py (named compiler option sets),
command.py (the command). The ICD section (calls through pyopencl on loomcl's ICD beside PoCL):
icd_ops.py (the calls), icd_section.py (rounds over the targets), icd_worker.py and icd_child.py (a
process per target, and the parent's end of it), icd_report.py (its table and JSON).
"""


def main(argv=None) -> int:
    from .command import main as run
    return run(argv)
