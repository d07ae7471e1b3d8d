"""The ICD dispatch table: every entry point of the OpenCL API in the order of the ICD loader's ABI.

An object handed to the loader points to a struct whose first member is the address of this table;
the loader calls `handle->dispatch->clFoo(...)`. The order below is that ABI (Khronos' `cl_icd.h`,
which grows only at the end), so it must never be rearranged.

Each row: name, return type, argument types, one letter each:
    i cl_int   u cl_uint (also cl_bool, enums)   l cl_ulong (bitfields)   z size_t
    p a pointer or handle   v void (return only)
"""
from __future__ import annotations

_ROWS = """
clGetPlatformIDs i upp
clGetPlatformInfo i puzpp
clGetDeviceIDs i plupp
clGetDeviceInfo i puzpp
clCreateContext p pupppp
clCreateContextFromType p plppp
clRetainContext i p
clReleaseContext i p
clGetContextInfo i puzpp
clCreateCommandQueue p pplp
clRetainCommandQueue i p
clReleaseCommandQueue i p
clGetCommandQueueInfo i puzpp
clSetCommandQueueProperty i plup
clCreateBuffer p plzpp
clCreateImage2D p plpzzzpp
clCreateImage3D p plpzzzzzpp
clRetainMemObject i p
clReleaseMemObject i p
clGetSupportedImageFormats i pluupp
clGetMemObjectInfo i puzpp
clGetImageInfo i puzpp
clCreateSampler p puuup
clRetainSampler i p
clReleaseSampler i p
clGetSamplerInfo i puzpp
clCreateProgramWithSource p puppp
clCreateProgramWithBinary p puppppp
clRetainProgram i p
clReleaseProgram i p
clBuildProgram i pupppp
clUnloadCompiler i
clGetProgramInfo i puzpp
clGetProgramBuildInfo i ppuzpp
clCreateKernel p ppp
clCreateKernelsInProgram i pupp
clRetainKernel i p
clReleaseKernel i p
clSetKernelArg i puzp
clGetKernelInfo i puzpp
clGetKernelWorkGroupInfo i ppuzpp
clWaitForEvents i up
clGetEventInfo i puzpp
clRetainEvent i p
clReleaseEvent i p
clGetEventProfilingInfo i puzpp
clFlush i p
clFinish i p
clEnqueueReadBuffer i ppuzzpupp
clEnqueueWriteBuffer i ppuzzpupp
clEnqueueCopyBuffer i pppzzzupp
clEnqueueReadImage i ppuppzzpupp
clEnqueueWriteImage i ppuppzzpupp
clEnqueueCopyImage i ppppppupp
clEnqueueCopyImageToBuffer i pppppzupp
clEnqueueCopyBufferToImage i pppzppupp
clEnqueueMapBuffer p ppulzzuppp
clEnqueueMapImage p ppulppppuppp
clEnqueueUnmapMemObject i pppupp
clEnqueueNDRangeKernel i ppupppupp
clEnqueueTask i ppupp
clEnqueueNativeKernel i pppzuppupp
clEnqueueMarker i pp
clEnqueueWaitForEvents i pup
clEnqueueBarrier i p
clGetExtensionFunctionAddress p p
clCreateFromGLBuffer p plup
clCreateFromGLTexture2D p pluiup
clCreateFromGLTexture3D p pluiup
clCreateFromGLRenderbuffer p plup
clGetGLObjectInfo i ppp
clGetGLTextureInfo i puzpp
clEnqueueAcquireGLObjects i pupupp
clEnqueueReleaseGLObjects i pupupp
clGetGLContextInfoKHR i puzpp
clGetDeviceIDsFromD3D10KHR i pupuupp
clCreateFromD3D10BufferKHR p plpp
clCreateFromD3D10Texture2DKHR p plpup
clCreateFromD3D10Texture3DKHR p plpup
clEnqueueAcquireD3D10ObjectsKHR i pupupp
clEnqueueReleaseD3D10ObjectsKHR i pupupp
clSetEventCallback i pipp
clCreateSubBuffer p plupp
clSetMemObjectDestructorCallback i ppp
clCreateUserEvent p pp
clSetUserEventStatus i pi
clEnqueueReadBufferRect i ppupppzzzzpupp
clEnqueueWriteBufferRect i ppupppzzzzpupp
clEnqueueCopyBufferRect i ppppppzzzzupp
clCreateSubDevicesEXT i ppupp
clRetainDeviceEXT i p
clReleaseDeviceEXT i p
clCreateEventFromGLsyncKHR p ppp
clCreateSubDevices i ppupp
clRetainDevice i p
clReleaseDevice i p
clCreateImage p plpppp
clCreateProgramWithBuiltInKernels p puppp
clCompileProgram i puppupppp
clLinkProgram p puppupppp
clUnloadPlatformCompiler i p
clGetKernelArgInfo i puuzpp
clEnqueueFillBuffer i pppzzzupp
clEnqueueFillImage i pppppupp
clEnqueueMigrateMemObjects i puplupp
clEnqueueMarkerWithWaitList i pupp
clEnqueueBarrierWithWaitList i pupp
clGetExtensionFunctionAddressForPlatform p pp
clCreateFromGLTexture p pluiup
clGetDeviceIDsFromD3D11KHR i pupuupp
clCreateFromD3D11BufferKHR p plpp
clCreateFromD3D11Texture2DKHR p plpup
clCreateFromD3D11Texture3DKHR p plpup
clCreateFromDX9MediaSurfaceKHR p plupup
clEnqueueAcquireD3D11ObjectsKHR i pupupp
clEnqueueReleaseD3D11ObjectsKHR i pupupp
clGetDeviceIDsFromDX9MediaAdapterKHR i puppuupp
clEnqueueAcquireDX9MediaSurfacesKHR i pupupp
clEnqueueReleaseDX9MediaSurfacesKHR i pupupp
clCreateFromEGLImageKHR p ppplpp
clEnqueueAcquireEGLObjectsKHR i pupupp
clEnqueueReleaseEGLObjectsKHR i pupupp
clCreateEventFromEGLSyncKHR p pppp
clCreateCommandQueueWithProperties p pppp
clCreatePipe p pluupp
clGetPipeInfo i puzpp
clSVMAlloc p plzu
clSVMFree v pp
clEnqueueSVMFree i pupppupp
clEnqueueSVMMemcpy i puppzupp
clEnqueueSVMMemFill i pppzzupp
clEnqueueSVMMap i pulpzupp
clEnqueueSVMUnmap i ppupp
clCreateSamplerWithProperties p ppp
clSetKernelArgSVMPointer i pup
clSetKernelExecInfo i puzp
clGetKernelSubGroupInfoKHR i ppuzpzpp
clCloneKernel p pp
clCreateProgramWithIL p ppzp
clEnqueueSVMMigrateMem i pupplupp
clGetDeviceAndHostTimer i ppp
clGetHostTimer i pp
clGetKernelSubGroupInfo i ppuzpzpp
clSetDefaultDeviceCommandQueue i ppp
clSetProgramReleaseCallback i ppp
clSetProgramSpecializationConstant i puzp
clCreateBufferWithProperties p pplzpp
clCreateImageWithProperties p pplpppp
clSetContextDestructorCallback i ppp
"""


class Entry:
    """One entry point: its name, return letter and argument letters (see the module docstring)."""

    __slots__ = ("name", "returns", "arguments")

    def __init__(self, name: str, returns: str, arguments: str) -> None:
        self.name, self.returns, self.arguments = name, returns, arguments

    @property
    def reports_error_by_pointer(self) -> bool:
        """Functions returning an object report errors through a last `cl_int *errcode_ret`."""
        return self.returns == "p" and self.name not in _NO_ERRCODE


_NO_ERRCODE = {"clGetExtensionFunctionAddress", "clGetExtensionFunctionAddressForPlatform", "clSVMAlloc"}


def _parse() -> tuple[Entry, ...]:
    entries = []
    for line in _ROWS.strip().splitlines():
        name, returns, *arguments = line.split()
        entries.append(Entry(name, returns, arguments[0] if arguments else ""))
    return tuple(entries)


ENTRIES = _parse()
INDEX = {entry.name: i for i, entry in enumerate(ENTRIES)}
