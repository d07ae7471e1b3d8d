"""Program entry points: from source or from binaries, build, compile and link, and their info."""
from __future__ import annotations

import ctypes

from loomcl.errors import Error, LogicError, status_code
from loomcl.runtime.constants import program_build_info, program_info
from loomcl.runtime.program import Program

from .answer import answer, answer_query
from .callbacks import call_object_callback
from .handles import registry
from .info import write_scalar

_POINTER = ctypes.sizeof(ctypes.c_void_p)


def _strings(count, strings, lengths, routine: str) -> list[str]:
    if not count or not strings:
        raise LogicError(routine, status_code.INVALID_VALUE, "count is 0 or strings is NULL")
    pointers = (ctypes.c_void_p * count).from_address(strings)
    sizes = (ctypes.c_size_t * count).from_address(lengths) if lengths else [0] * count
    texts = []
    for i, (pointer, size) in enumerate(zip(pointers, sizes)):
        if not pointer:
            raise LogicError(routine, status_code.INVALID_VALUE, f"strings[{i}] is NULL")
        data = ctypes.string_at(pointer, size) if size else ctypes.string_at(pointer)
        texts.append(data.decode("utf-8", "replace"))
    return texts


def clCreateProgramWithSource(context, count, strings, lengths):
    routine = "clCreateProgramWithSource"
    found = registry.get(context, "context", routine)
    return registry.new(Program(found, "".join(_strings(count, strings, lengths, routine))), "program")


def clCreateProgramWithBinary(context, num_devices, devices, lengths, binaries, binary_status):
    routine = "clCreateProgramWithBinary"
    found = registry.get(context, "context", routine)
    listed = registry.get_list(num_devices, devices, "device", routine)
    if not lengths or not binaries:
        raise LogicError(routine, status_code.INVALID_VALUE, "lengths or binaries is NULL")
    sizes = (ctypes.c_size_t * num_devices).from_address(lengths)
    pointers = (ctypes.c_void_p * num_devices).from_address(binaries)
    for i, (pointer, size) in enumerate(zip(pointers, sizes)):
        if not pointer or not size:
            raise LogicError(routine, status_code.INVALID_VALUE, f"binary {i} is NULL or empty")
    blobs = [ctypes.string_at(pointer, size) for pointer, size in zip(pointers, sizes)]
    statuses = (ctypes.c_int32 * num_devices).from_address(binary_status) if binary_status else None
    try:
        program = Program(found, listed, blobs)
    except Error as error:
        if statuses is not None:
            for i in range(num_devices):
                statuses[i] = error.code if error.code == status_code.INVALID_BINARY else 0
        raise
    if statuses is not None:
        for i in range(num_devices):
            statuses[i] = 0
    return registry.new(program, "program")






def _options(address) -> str:
    return ctypes.string_at(address).decode("utf-8", "replace") if address else ""


def _devices(program, num_devices, devices, routine: str):
    if not devices and num_devices or devices and not num_devices:
        raise LogicError(routine, status_code.INVALID_VALUE, "num_devices and device_list disagree")
    return registry.get_list(num_devices, devices, "device", routine) if devices else None


def _notify_after(function, handle, user_data, run) -> None:
    """Runs the build step; a given pfn_notify is called when it is done, whatever the outcome."""
    try:
        run()
    finally:
        if function:
            call_object_callback(function, handle, user_data)


def _check_rebuild(program, notify, user_data, routine: str) -> None:
    """What clBuildProgram and clCompileProgram refuse before they start (API spec 5.8.2, 5.8.3)."""
    if not notify and user_data:
        raise LogicError(routine, status_code.INVALID_VALUE, "user_data given without pfn_notify")
    if any(kernel.program is program for kernel in list(registry.live["kernel"].values())):
        raise LogicError(routine, status_code.INVALID_OPERATION,
                         "kernel objects are attached to the program (release them before building it again)")


def clBuildProgram(handle, num_devices, devices, options, notify, user_data):
    routine = "clBuildProgram"
    program = registry.get(handle, "program", routine)
    _check_rebuild(program, notify, user_data, routine)
    chosen = _devices(program, num_devices, devices, routine)
    _notify_after(notify, handle, user_data, lambda: program.build(_options(options), devices=chosen, report_warnings=False))


def clCompileProgram(handle, num_devices, devices, options, num_headers, headers, header_names, notify, user_data):
    routine = "clCompileProgram"
    program = registry.get(handle, "program", routine)
    _check_rebuild(program, notify, user_data, routine)
    chosen = _devices(program, num_devices, devices, routine)
    if (num_headers == 0) != (not headers) or (num_headers == 0) != (not header_names):
        raise LogicError(routine, status_code.INVALID_VALUE, "num_input_headers disagrees with the header lists")
    named = []
    if num_headers:
        programs = registry.get_list(num_headers, headers, "program", routine)
        names = (ctypes.c_char_p * num_headers).from_address(header_names)
        named = [(name.decode(), header) for name, header in zip(names, programs)]
    _notify_after(notify, handle, user_data,
                  lambda: program.compile(_options(options), devices=chosen, headers=named, report_warnings=False))


def clLinkProgram(context, num_devices, devices, options, num_programs, programs, notify, user_data):
    from loomcl.runtime.program_link import link_program

    routine = "clLinkProgram"
    found = registry.get(context, "context", routine)
    chosen = _devices(None, num_devices, devices, routine)
    if not notify and user_data:
        raise LogicError(routine, status_code.INVALID_VALUE, "user_data given without pfn_notify")
    inputs = registry.get_list(num_programs, programs, "program", routine)
    if not inputs:
        raise LogicError(routine, status_code.INVALID_VALUE, "no input programs")
    try:
        linked = link_program(found, inputs, _options(options), devices=chosen, report_warnings=False)
    except Error as error:
        failed = getattr(error, "program", None)
        if failed is not None:  # a link that began and failed answers its program too, whose build
            error.result = registry.new(failed, "program")  # log says why (CL_LINK_PROGRAM_FAILURE)
            if notify:
                call_object_callback(notify, error.result, user_data)
        raise
    address = registry.new(linked, "program")
    if notify:
        call_object_callback(notify, address, user_data)
    return address


def clRetainProgram(handle):
    registry.retain(handle, "program", "clRetainProgram")


def clReleaseProgram(handle):
    registry.release(handle, "program", "clReleaseProgram")


def clGetProgramInfo(handle, param, size, out, size_ret):
    routine = "clGetProgramInfo"
    program = registry.get(handle, "program", routine)
    if param == program_info.BINARIES:  # an array of pointers to the caller's buffers
        binaries = program.binaries
        needed = len(binaries) * _POINTER
        if out:
            if size < needed:
                raise LogicError(routine, status_code.INVALID_VALUE, f"param_value_size {size} < {needed}")
            for i, binary in enumerate(binaries):
                target = ctypes.c_void_p.from_address(out + i * _POINTER).value
                if target:
                    ctypes.memmove(target, binary, len(binary))
        write_scalar(ctypes.c_size_t, size_ret, needed)
        return 0
    if param == program_info.SOURCE and getattr(program, "_binary_options", None) is not None:
        return answer("", program_info, param, size, out, size_ret, routine)
    return answer_query(handle, program, program_info, param, size, out, size_ret, routine)


def clGetProgramBuildInfo(handle, device, param, size, out, size_ret):
    routine = "clGetProgramBuildInfo"
    program = registry.get(handle, "program", routine)
    found = registry.get(device, "device", routine)
    value = program.get_build_info(found, param)
    return answer(value, program_build_info, param, size, out, size_ret, routine)






