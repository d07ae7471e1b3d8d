"""The implementations under test: a pyopencl-like module with a context and a profiling queue.

`loomcl` (imported lazily: it may not import, or have no working compiler yet) and `pyopencl` on its PoCL
platform. Opening one returns an `Implementation`, or a string that says why it is not available. Only
the common pyopencl API is used, so both are driven by the same code.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np

from .configs import POCL_THREADS_ENV, Config

PROBE = "kernel void probe(global const float *a, global float *b) { b[get_global_id(0)] = 2.0f * a[get_global_id(0)]; }"


@dataclass
class Implementation:
    name: str                 # "loomcl", "loomcl[novec]", "PoCL"
    kind: str                 # "loomcl", "pocl" or "intel"
    cl: ModuleType
    context: object
    queue: object
    device_name: str
    options: str = ""         # extra build options (a loomcl config)
    threads: int | None = None  # loomcl worker threads for this variant (None: the pool's default)

    def activate(self) -> None:
        """Configs share one loomcl worker pool, so each sets its thread count before it runs."""
        if self.kind == "loomcl":
            from loomcl.engine import pool

            pool.set_thread_count(self.threads or pool.default_thread_count())

    def build(self, source: str, options: str = ""):
        flags = " ".join(o for o in (options, self.options) if o)
        return self.cl.Program(self.context, source).build(options=flags)

    def build_python(self, path: Path, options: str = ""):
        """A program of the Python kernels in a file (loomcl only: loomcl/pyfront/)."""
        from loomcl.pyfront.cli import file_program

        flags = " ".join(o for o in (options, self.options) if o)
        return file_program(self.context, str(path), flags)

    def buffer(self, host: np.ndarray):
        mf = self.cl.mem_flags
        return self.cl.Buffer(self.context, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)

    def local(self, nbytes: int):
        return self.cl.LocalMemory(nbytes)


def set_pocl_threads(threads: int | None) -> None:
    """Must run before pyopencl first lists the platforms: PoCL reads it once."""
    if threads:
        for var in POCL_THREADS_ENV:
            os.environ[var] = str(threads)


INSTALL_POCL = ("; to compare with PoCL, install it: apt-get install -y pocl-opencl-icd && "
                "python3 -m pip install pyopencl")


def names_loomcls_icd(vendors: str | None) -> bool:
    """Whether OCL_ICD_VENDORS names loomcl's vendor file (a shell set up for pyopencl on loomcl, as the
    README says): the loader then lists loomcl alone, and PoCL is hidden."""
    return bool(vendors) and Path(vendors).name == "loomcl.icd"


INTEL_ICD_ENV = "LOOMCL_INTEL_ICD"
INTEL_ICD_DEFAULT = Path.home() / ".local/share/loomcl/intel-opencl/intel.icd"
SYSTEM_VENDORS = Path("/etc/OpenCL/vendors")
INSTALL_INTEL = "; to compare with it, run scripts/install_intel_opencl.sh"


def intel_vendor_file() -> Path | None:
    """Intel's vendor file: LOOMCL_INTEL_ICD, else where scripts/install_intel_opencl.sh writes it."""
    named = os.environ.get(INTEL_ICD_ENV)
    path = Path(named) if named else INTEL_ICD_DEFAULT
    return path if path.is_file() else None


def show_intel_to_the_loader() -> None:
    """Before pyopencl first lists the platforms: when Intel's vendor file exists and OCL_ICD_VENDORS
    does not choose the vendors already, point the ICD loader at a folder holding the system's vendor
    files and Intel's, so that PoCL and Intel are both listed (nothing system-wide is written)."""
    intel = intel_vendor_file()
    if intel is None or os.environ.get("OCL_ICD_VENDORS"):
        return
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="loomcl-vendors-"))
    system = sorted(SYSTEM_VENDORS.glob("*.icd")) if SYSTEM_VENDORS.is_dir() else []
    for vendor in [*system, intel]:
        target = folder / vendor.name
        if not target.exists():
            target.symlink_to(vendor.resolve())
    os.environ["OCL_ICD_VENDORS"] = str(folder)


def open_intel() -> Implementation | str:
    """Intel's OpenCL CPU runtime through pyopencl (its vendor file: see intel_vendor_file)."""
    if intel_vendor_file() is None:
        return f"Intel not available: no vendor file at ${INTEL_ICD_ENV} or {INTEL_ICD_DEFAULT}" + INSTALL_INTEL
    try:
        import pyopencl as cl
        platforms = cl.get_platforms()
    except Exception as exc:  # noqa: BLE001 - any failure means "not available"
        return f"Intel not available: {first_line(str(exc)) or type(exc).__name__}"
    for platform in platforms:
        if "intel" in platform.vendor.lower() and "pocl" not in platform.name.lower():
            devices = platform.get_devices()
            if devices:
                return open_device("Intel", "intel", cl, devices[0], "")
    return "Intel not available: its vendor file is there, but the ICD loader lists no Intel platform"


def open_pocl() -> Implementation | str:
    if names_loomcls_icd(os.environ.get("OCL_ICD_VENDORS")):
        del os.environ["OCL_ICD_VENDORS"]   # read when pyopencl first lists the platforms, just below
    show_intel_to_the_loader()
    try:
        import pyopencl as cl
    except Exception as exc:  # noqa: BLE001 - any import failure means "not available"
        return f"PoCL not available: pyopencl does not import ({exc})" + INSTALL_POCL
    try:
        platforms = cl.get_platforms()
    except Exception as exc:  # noqa: BLE001
        return f"PoCL not available: no OpenCL platform ({exc})" + INSTALL_POCL
    for platform in platforms:
        if "portable computing language" in platform.name.lower() or "pocl" in platform.vendor.lower():
            devices = platform.get_devices()
            if devices:
                return open_device("PoCL", "pocl", cl, devices[0], "")
    return "PoCL not available: pyopencl has no PoCL platform" + INSTALL_POCL


def open_loomcl(config: Config, threads: int | None) -> Implementation | str:
    count = config.threads or threads
    name = config.label
    try:
        import loomcl as cl
        device = cl.get_platforms()[0].get_devices()[0]
        impl = open_device(name, "loomcl", cl, device, config.options)
        impl.threads = count
        _probe(impl)
        return impl
    except Exception as exc:  # noqa: BLE001 - a compiler in progress may fail in any way
        return f"{name} not available: {type(exc).__name__}: {first_line(str(exc))}"


def open_device(name, kind, cl, device, options) -> Implementation:
    context = cl.Context([device])
    queue = cl.CommandQueue(context, properties=cl.command_queue_properties.PROFILING_ENABLE)
    return Implementation(name, kind, cl, context, queue, device.name.strip(), options)


def _probe(impl: Implementation) -> None:
    """Build and run a trivial kernel; raise if the implementation cannot."""
    a = np.arange(64, dtype=np.float32)
    b = np.zeros_like(a)
    a_buf, b_buf = impl.buffer(a), impl.buffer(b)
    impl.build(PROBE).probe(impl.queue, (64,), None, a_buf, b_buf)
    impl.cl.enqueue_copy(impl.queue, b, b_buf)
    impl.queue.finish()
    if not np.array_equal(b, 2 * a):
        raise RuntimeError("probe kernel computed a wrong result")


def first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def build_log_line(exc: Exception) -> str:
    """First line of the build log in a build error; pyopencl (and loomcl) put the log after a line that
    ends 'Build on <device>:'."""
    lines = [line.strip() for line in str(exc).splitlines()]
    for i, line in enumerate(lines):
        if "Build on" in line:
            rest = [entry for entry in lines[i + 1:] if entry]
            if rest:
                return rest[0]
    return first_line(str(exc)) or type(exc).__name__
