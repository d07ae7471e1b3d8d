"""loomcl's benchmark suite: the same OpenCL C kernels on loomcl and on PoCL in one run, each checked
against numpy, with the machine's measured copy bandwidth and fma peak as the roofline.

    python -m loomcl.bench [--quick] [--only NAME] [--config novec] [--plot out.png]

Layout: case.py (what a row is), suite/ (the cases, by family) with kernels/*.cl, impls.py (loomcl and
PoCL behind the pyopencl API), machine.py (limits), runner.py (agreement and interleaved timing),
report.py (table, geometric mean, JSON), plot.py (PNG), configs.py (named compiler option sets),
command.py (the command).
"""


def main(argv=None) -> int:
    from .command import main as run
    return run(argv)
