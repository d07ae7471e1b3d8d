"""Driving loomcl's ICD as a C program does: through the system's ICD loader (libOpenCL.so.1), in a
subprocess whose OCL_ICD_VENDORS names loomcl alone.

`run(snippet)` runs a Python snippet after PRELUDE (the loader opened with ctypes, every entry point
used given its C prototype, a few helpers) and returns the dict the snippet filled in `out`. The
prototypes below are written from the OpenCL headers' declarations, independently of loomcl's
dispatch table, so that a wrong signature there shows up here. Anything loomcl reports on stderr as
an internal error fails the test: a C caller gets OUT_OF_RESOURCES then, which hides a bug.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOADER = "libOpenCL.so.1"

PRELUDE = r'''
import ctypes, json, struct, sys
from ctypes import byref, c_char_p, c_int32, c_size_t, c_uint32, c_uint64, c_void_p, sizeof
from loomcl.errors import status_code as S

cl = ctypes.CDLL("libOpenCL.so.1")
_LETTERS = {"i": c_int32, "u": c_uint32, "l": c_uint64, "z": c_size_t, "p": c_void_p, "s": c_char_p, "v": None}
PROTOTYPES = """
clGetPlatformIDs i upp
clGetPlatformInfo i puzpp
clGetDeviceIDs i plupp
clGetDeviceInfo i puzpp
clRetainDevice i p
clReleaseDevice i p
clCreateContext p pupppp
clCreateContextFromType p plppp
clRetainContext i p
clReleaseContext i p
clGetContextInfo i puzpp
clSetContextDestructorCallback i ppp
clCreateCommandQueue p pplp
clCreateCommandQueueWithProperties p pppp
clRetainCommandQueue i p
clReleaseCommandQueue i p
clGetCommandQueueInfo i puzpp
clCreateBuffer p plzpp
clCreateBufferWithProperties p pplzpp
clCreateSubBuffer p plupp
clRetainMemObject i p
clReleaseMemObject i p
clGetMemObjectInfo i puzpp
clSetMemObjectDestructorCallback i ppp
clCreateProgramWithSource p puppp
clCreateProgramWithBinary p puppppp
clCreateProgramWithIL p ppzp
clRetainProgram i p
clReleaseProgram i p
clBuildProgram i pupppp
clCompileProgram i puppupppp
clLinkProgram p puppupppp
clGetProgramInfo i puzpp
clGetProgramBuildInfo i ppuzpp
clCreateKernel p psp
clCreateKernelsInProgram i pupp
clCloneKernel p pp
clRetainKernel i p
clReleaseKernel i p
clSetKernelArg i puzp
clSetKernelArgSVMPointer i pup
clGetKernelInfo i puzpp
clGetKernelArgInfo i puuzpp
clGetKernelWorkGroupInfo i ppuzpp
clEnqueueNDRangeKernel i ppupppupp
clEnqueueTask i ppupp
clEnqueueNativeKernel i pppzuppupp
clEnqueueReadBuffer i ppuzzpupp
clEnqueueWriteBuffer i ppuzzpupp
clEnqueueCopyBuffer i pppzzzupp
clEnqueueReadBufferRect i ppupppzzzzpupp
clEnqueueWriteBufferRect i ppupppzzzzpupp
clEnqueueCopyBufferRect i ppppppzzzzupp
clEnqueueFillBuffer i pppzzzupp
clEnqueueMapBuffer p ppulzzuppp
clEnqueueUnmapMemObject i pppupp
clEnqueueMigrateMemObjects i puplupp
clEnqueueMarkerWithWaitList i pupp
clEnqueueBarrierWithWaitList i pupp
clEnqueueMarker i pp
clEnqueueBarrier i p
clEnqueueWaitForEvents i pup
clWaitForEvents i up
clGetEventInfo i puzpp
clGetEventProfilingInfo i puzpp
clRetainEvent i p
clReleaseEvent i p
clCreateUserEvent p pp
clSetUserEventStatus i pi
clSetEventCallback i pipp
clFlush i p
clFinish i p
clGetExtensionFunctionAddress p s
clGetExtensionFunctionAddressForPlatform p ps
clSVMAlloc p plzu
clSVMFree v pp
clCreatePipe p pluupp
clGetHostTimer i pp
clGetDeviceAndHostTimer i ppp
"""
for _row in PROTOTYPES.split("\n"):
    if _row:
        _name, _returns, _arguments = (_row.split() + [""])[:3]
        _function = getattr(cl, _name)
        _function.restype = _LETTERS[_returns]
        _function.argtypes = [_LETTERS[letter] for letter in _arguments]

out = {}


def ptrs(*handles):
    return (c_void_p * len(handles))(*handles)


def info(function, *handle_and_param):
    """An info query's bytes, asked the C way: the size first, then the value."""
    size = c_size_t()
    code = function(*handle_and_param, 0, None, byref(size))
    assert code == 0, (function.__name__, [hex(a) if isinstance(a, int) else a for a in handle_and_param], code)
    buffer = ctypes.create_string_buffer(size.value)
    code = function(*handle_and_param, size.value, buffer, None)
    assert code == 0, (function.__name__, [hex(a) if isinstance(a, int) else a for a in handle_and_param], code)
    return buffer.raw


def uint_info(function, *handle_and_param):
    return struct.unpack("I", info(function, *handle_and_param))[0]


def pointer_info(function, *handle_and_param):
    return struct.unpack("P", info(function, *handle_and_param))[0]


def make(function, *args):
    """A creator's result and its errcode_ret."""
    code = c_int32(12345)
    result = function(*args, byref(code))
    return result, code.value


PLATFORM = (c_void_p * 1)()
assert cl.clGetPlatformIDs(1, PLATFORM, None) == 0
PLATFORM = PLATFORM[0]
DEVICE = (c_void_p * 1)()
assert cl.clGetDeviceIDs(PLATFORM, 0xFFFFFFFF, 1, DEVICE, None) == 0
DEVICE = DEVICE[0]
# A forged handle: a block whose first word is loomcl's dispatch table (so that the loader calls
# loomcl with it) but that loomcl never handed out. Any handle argument may be one.
_FORGED = (c_void_p * 4)(c_void_p.from_address(PLATFORM).value, 0xDEADBEEF, 0, 0)
FORGED = ctypes.addressof(_FORGED)


def new_context():
    context, code = make(cl.clCreateContext, None, 1, ptrs(DEVICE), None, None)
    assert code == 0 and context, code
    return context


def new_queue(context, properties=0):
    queue, code = make(cl.clCreateCommandQueue, context, DEVICE, properties)
    assert code == 0 and queue, code
    return queue


def new_program(context, source, options=b"", build=True):
    text = c_char_p(source.encode())
    program, code = make(cl.clCreateProgramWithSource, context, 1, byref(text), None)
    assert code == 0 and program, code
    if build:
        code = cl.clBuildProgram(program, 1, ptrs(DEVICE), options, None, None)
        assert code == 0, code
    return program


def new_buffer(context, size, flags=1, host=None):  # flags 1: READ_WRITE
    buffer, code = make(cl.clCreateBuffer, context, flags, size, host)
    assert code == 0 and buffer, code
    return buffer


def set_mem_arg(kernel, index, buffer):
    handle = c_void_p(buffer)
    return cl.clSetKernelArg(kernel, index, sizeof(c_void_p), byref(handle))


def read_floats(queue, buffer, count):
    host = (ctypes.c_float * count)()
    assert cl.clEnqueueReadBuffer(queue, buffer, 1, 0, 4 * count, host, 0, None, None) == 0
    return list(host)
'''

EPILOGUE = "\nprint('\\nRESULT ' + json.dumps(out))\n"


@cache
def vendor_file() -> Path:
    """loomcl's vendor file, built once per test session into a directory of its own; another
    implementation's with LOOMCL_C_API_VENDOR=<vendor file> (to compare, e.g. with PoCL)."""
    other = os.environ.get("LOOMCL_C_API_VENDOR")
    if other:
        return Path(other)
    from loomcl.icd.build import IcdUnavailable, build_library, write_vendor_file

    try:
        library = build_library()
    except IcdUnavailable as reason:
        pytest.skip(f"loomcl's ICD library cannot be built here: {reason}")
    return write_vendor_file(library, library.parent / "vendors-c-api-tests")


def _loader_present() -> bool:
    import ctypes.util

    return bool(ctypes.util.find_library("OpenCL"))


def run(snippet: str, allow_stderr: bool = False) -> dict:
    """Runs PRELUDE + `snippet` in a fresh process that sees loomcl alone; returns its `out` dict."""
    if not _loader_present():
        pytest.skip("no OpenCL ICD loader (libOpenCL.so.1) on this machine")
    environment = {**os.environ, "OCL_ICD_VENDORS": str(vendor_file()),
                   "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    code = PRELUDE + textwrap.dedent(snippet) + EPILOGUE
    done = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, f"the C-API snippet failed (status {done.returncode}):\n{done.stderr[-4000:]}"
    if not allow_stderr:
        assert "internal error" not in done.stderr, done.stderr[-4000:]
    marker = done.stdout.rfind("RESULT ")
    assert marker >= 0, done.stdout[-2000:]
    return json.loads(done.stdout[marker + len("RESULT "):])
