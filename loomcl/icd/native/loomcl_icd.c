/* loomcl's ICD library: the native face that an OpenCL ICD loader (ocl-icd, Khronos') opens.

   The loader finds this library through a vendor file, asks it for clIcdGetPlatformIDsKHR by name
   and from then on calls through the dispatch table that every object handle points to. Everything
   behind that table is loomcl's Python runtime (loomcl/icd/): this file only brings Python up and
   asks it for the platform handle.

   The host may be a Python process (pyopencl, say), whose interpreter is used as it is, or a C
   program, in which this library starts an interpreter: libpython is opened at run time (never
   linked, so that a Python process whose interpreter is statically linked gets no second copy) and
   started as the Python that built this library (its executable path: the interpreter then finds its
   own standard library, a virtual environment's site-packages, and runs loomcl's helper processes
   with the right Python); that Python's site directories are added to its path if loomcl is not
   found there.

   Written for loomcl; no OpenCL or Python header is needed to build it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef LOOMCL_LIBPYTHON
#define LOOMCL_LIBPYTHON "libpython3.so"
#endif
#ifndef LOOMCL_PYTHON
#define LOOMCL_PYTHON ""
#endif
#ifndef LOOMCL_SITE_DIRS
#define LOOMCL_SITE_DIRS ""
#endif

#define EXPORT __attribute__((visibility("default")))

typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_ulong;
typedef void *cl_platform_id;

enum { CL_SUCCESS = 0, CL_OUT_OF_RESOURCES = -5, CL_INVALID_VALUE = -30, CL_PLATFORM_NOT_FOUND_KHR = -1001 };

/* The few Python C API functions used, found with dlsym. PyObject stays opaque. */
typedef struct PyObjectOpaque PyObject;
static struct {
    int (*IsInitialized)(void);
    void (*InitializeEx)(int);
    void (*SetProgramName)(const void *);
    void *(*DecodeLocale)(const char *, size_t *);
    int (*GILState_Ensure)(void);
    void (*GILState_Release)(int);
    void *(*Eval_SaveThread)(void);
    PyObject *(*Import_ImportModule)(const char *);
    PyObject *(*Object_CallMethod)(PyObject *, const char *, const char *, ...);
    PyObject *(*Unicode_FromString)(const char *);
    void *(*Long_AsVoidPtr)(PyObject *);
    void (*DecRef)(PyObject *);
    void (*Err_Print)(void);
    void (*Err_Clear)(void);
    PyObject *(*Object_GetAttrString)(PyObject *, const char *);
    PyObject *(*Object_Vectorcall)(PyObject *, PyObject *const *, size_t, PyObject *);
    PyObject *(*Long_FromLong)(long);
    PyObject *(*Long_FromUnsignedLong)(unsigned long);
    PyObject *(*Long_FromUnsignedLongLong)(unsigned long long);
    PyObject *(*Long_FromSize_t)(size_t);
    PyObject *(*Long_FromVoidPtr)(void *);
    long (*Long_AsLong)(PyObject *);
    void (*Err_Fetch)(PyObject **, PyObject **, PyObject **);
    void (*Err_Restore)(PyObject *, PyObject *, PyObject *);
    PyObject *(*Err_Occurred)(void);
    void (*IncRef)(PyObject *);
    PyObject *(*Tuple_GetItem)(PyObject *, ssize_t);
    ssize_t (*Tuple_Size)(PyObject *);
    int (*IsFinalizing)(void);  /* optional: _Py_IsFinalizing (3.11, 3.12), Py_IsFinalizing (3.13) */
    void (*Err_SetInterrupt)(void);
    PyObject *None;
} py;

static pthread_once_t started = PTHREAD_ONCE_INIT;
static cl_platform_id platform;  /* NULL when Python or loomcl could not be started */
static int embedded;             /* this library started the interpreter (a C host) */
static int remembering;          /* loomcl counts handle deaths: answers may be remembered here */

static void complain(const char *what, const char *detail) {
    fprintf(stderr, "loomcl ICD: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
}

static int find_python(void *library) {
#define FIND(field, symbol) \
    if (!(*(void **)&py.field = dlsym(library, symbol))) return 0;
    FIND(IsInitialized, "Py_IsInitialized")
    FIND(InitializeEx, "Py_InitializeEx")
    FIND(SetProgramName, "Py_SetProgramName")
    FIND(DecodeLocale, "Py_DecodeLocale")
    FIND(GILState_Ensure, "PyGILState_Ensure")
    FIND(GILState_Release, "PyGILState_Release")
    FIND(Eval_SaveThread, "PyEval_SaveThread")
    FIND(Import_ImportModule, "PyImport_ImportModule")
    FIND(Object_CallMethod, "PyObject_CallMethod")
    FIND(Unicode_FromString, "PyUnicode_FromString")
    FIND(Long_AsVoidPtr, "PyLong_AsVoidPtr")
    FIND(DecRef, "Py_DecRef")
    FIND(Err_Print, "PyErr_Print")
    FIND(Err_Clear, "PyErr_Clear")
    FIND(Object_GetAttrString, "PyObject_GetAttrString")
    FIND(Object_Vectorcall, "PyObject_Vectorcall")
    FIND(Long_FromLong, "PyLong_FromLong")
    FIND(Long_FromUnsignedLong, "PyLong_FromUnsignedLong")
    FIND(Long_FromUnsignedLongLong, "PyLong_FromUnsignedLongLong")
    FIND(Long_FromSize_t, "PyLong_FromSize_t")
    FIND(Long_FromVoidPtr, "PyLong_FromVoidPtr")
    FIND(Long_AsLong, "PyLong_AsLong")
    FIND(Err_Fetch, "PyErr_Fetch")
    FIND(Err_Restore, "PyErr_Restore")
    FIND(Err_Occurred, "PyErr_Occurred")
    FIND(IncRef, "Py_IncRef")
    FIND(Tuple_GetItem, "PyTuple_GetItem")
    FIND(Tuple_Size, "PyTuple_Size")
    FIND(Err_SetInterrupt, "PyErr_SetInterrupt")
    FIND(None, "_Py_NoneStruct")
#undef FIND
    *(void **)&py.IsFinalizing = dlsym(library, "Py_IsFinalizing");
    if (!py.IsFinalizing) *(void **)&py.IsFinalizing = dlsym(library, "_Py_IsFinalizing");
    return 1;
}

/* Importing Python's signal module (loomcl does, and so does much of the standard library) installs
   Python's SIGINT handler wherever SIGINT has its default disposition, even in an interpreter started
   without signal handlers: a C host's Ctrl-C would become a KeyboardInterrupt inside loomcl. So the
   module is imported now and SIGINT given back its default, in Python's record too (a host's own
   handler is left alone: Python records it as not its business). */
static void keep_default_sigint(void) {
    PyObject *module = py.Import_ImportModule("_signal");
    PyObject *dfl = module ? py.Object_GetAttrString(module, "SIG_DFL") : NULL;
    PyObject *result = dfl ? py.Object_CallMethod(module, "signal", "iO", SIGINT, dfl) : NULL;
    if (!result) {
        complain("cannot give SIGINT back its default disposition; Python's error follows", NULL);
        py.Err_Print();
    }
    if (result) py.DecRef(result);
    if (dfl) py.DecRef(dfl);
    if (module) py.DecRef(module);
}

/* A C host: open libpython, start an interpreter without its signal handlers (the host owns its
   signals) and let go of the GIL, which every call into loomcl then takes for itself. */
static int start_embedded_python(void) {
    const char *path = getenv("LOOMCL_LIBPYTHON");
    void *library = dlopen(path && *path ? path : LOOMCL_LIBPYTHON, RTLD_NOW | RTLD_GLOBAL);
    if (!library) {
        complain("cannot open libpython", dlerror());
        return 0;
    }
    if (!find_python(library)) {
        complain("libpython lacks a needed function", LOOMCL_LIBPYTHON);
        return 0;
    }
    if (!py.IsInitialized()) {
        const char *python = getenv("LOOMCL_PYTHON");
        python = python && *python ? python : LOOMCL_PYTHON;
        if (*python) py.SetProgramName(py.DecodeLocale(python, NULL));  /* kept: Python keeps the pointer */
        struct sigaction host_sigint;
        sigaction(SIGINT, NULL, &host_sigint);
        py.InitializeEx(0);
        if (host_sigint.sa_handler == SIG_DFL) keep_default_sigint();
        py.Eval_SaveThread();
        embedded = 1;
    }
    return 1;
}

EXPORT cl_int clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms);

/* The entry points (generated into loomcl_entries.h by native_entries.py) and what they share. Each
   takes the GIL, sets aside any exception the calling thread is raising (a Python host may call
   clRelease* from an object's destructor in the middle of one), calls its Python function with the
   arguments as Python ints (NULL pointers as None), converts the answer and puts the exception back. */
static PyObject *entry_functions[LOOMCL_ENTRY_COUNT];  /* the Python functions, in the table's order */

typedef struct { int gil; PyObject *type, *value, *traceback; } Entered;

/* Whether Python may run here. Not once the host's interpreter has finalized: a C++ library's
   static destructors run after Py_Finalize in a Python host, and taking the GIL then crashes. While
   it finalizes, only on the process's main thread, which is the one finalizing it (a Python host's
   objects released as its modules are torn down); any other thread that took the GIL would be ended
   on the spot. The generated entries then answer without Python (native_entries.py says what). */
static int python_usable(void) {
    if (!platform || !py.IsInitialized()) return 0;
    return !(py.IsFinalizing && py.IsFinalizing()) || syscall(SYS_gettid) == getpid();
}

/* Ctrl-C stopped the call in a Python host whose SIGINT means KeyboardInterrupt (dispatch.py says
   when): the interrupt goes back to the host, pending again, once the call has left loomcl's Python
   code, so that the host's next check raises it rather than loomcl's. */
static __thread int interrupt_to_hand_back;

static void hand_back_interrupt(void) {
    interrupt_to_hand_back = 1;
}

static Entered enter(void) {
    Entered entered;
    entered.gil = py.GILState_Ensure();
    py.Err_Fetch(&entered.type, &entered.value, &entered.traceback);
    return entered;
}

static PyObject *pointer_argument(void *pointer) {
    if (pointer) return py.Long_FromVoidPtr(pointer);
    py.IncRef(py.None);
    return py.None;
}

#define ARG_INT(x) py.Long_FromLong(x)
#define ARG_UINT(x) py.Long_FromUnsignedLong(x)
#define ARG_ULONG(x) py.Long_FromUnsignedLongLong(x)
#define ARG_SIZE(x) py.Long_FromSize_t(x)
#define ARG_POINTER(x) pointer_argument(x)

static PyObject *call_entry(int index, PyObject **args, size_t count) {
    PyObject *result = py.Object_Vectorcall(entry_functions[index], args, count, NULL);
    for (size_t i = 0; i < count; i++) py.DecRef(args[i]);
    return result;
}

/* A failure here is loomcl's bug (its Python functions answer every error themselves): reported. */
static void leave(Entered *entered, PyObject *result) {
    if (result) py.DecRef(result);
    if (py.Err_Occurred()) {
        complain("internal error in an entry point; Python's error follows", NULL);
        py.Err_Print();
    }
    py.Err_Restore(entered->type, entered->value, entered->traceback);
    if (interrupt_to_hand_back) {
        interrupt_to_hand_back = 0;
        if (!embedded) py.Err_SetInterrupt();
    }
    py.GILState_Release(entered->gil);
}

static cl_int leave_int(Entered *entered, PyObject *result) {
    cl_int status = CL_OUT_OF_RESOURCES;
    if (result) status = (cl_int)py.Long_AsLong(result);
    leave(entered, result);
    return status;
}

static void *leave_pointer(Entered *entered, PyObject *result) {
    void *pointer = result && result != py.None ? py.Long_AsVoidPtr(result) : NULL;
    leave(entered, result);
    return pointer;
}

static void leave_void(Entered *entered, PyObject *result) {
    leave(entered, result);
}

#include "loomcl_entries.h"

/* clSetKernelArg's memory. pyopencl sets every argument of a kernel before every launch, nearly all
   of them to what they already were (the same buffers, the same sizes): each such call would take
   the GIL and run loomcl's Python for nothing. So the arguments that Python accepted are remembered
   here, per kernel handle and index, as their bytes; the same bytes again are answered CL_SUCCESS
   at once. Python decided everything about those bytes the first time (its checks give the spec's
   codes), and nothing but clSetKernelArg changes a kernel's arguments (the spec leaves concurrent
   clSetKernelArg on one kernel to the caller), so the answer is the same, except where a handle
   died in between: a handle's second word counts its deaths (handles.py bumps it when a kernel,
   memory object or sampler handle is released for the last time, before its block is reused), and
   a remembered kernel or argument handle whose count moved is asked of Python again.

   A kernel's record is found by its handle's address in a table that only grows (it holds blocks
   that were kernels, and blocks are never freed); records are added with the GIL held and read
   without it, so each is complete before it is published. Only a handle found there is read: a
   forged one goes to Python, which answers INVALID_KERNEL. */
enum { KERNEL_BUCKETS = 4096, REMEMBERED_ARGS = 32, REMEMBERED_BYTES = 16 };
enum { UNSET, VALUE, HANDLE, LOCAL };  /* what an argument's remembered bytes are */

typedef struct {
    int state;
    size_t size;
    unsigned char bytes[REMEMBERED_BYTES];
    const size_t *target;      /* HANDLE: the argument's handle block, and its deaths then */
    size_t target_deaths;
} RememberedArg;

/* A handle the native library remembers something of: kept in a table by the handle's address. */
typedef struct Remembered {
    struct Remembered *next;
    const size_t *handle;
    size_t deaths;             /* the handle's deaths when it was remembered */
} Remembered;

typedef struct {
    Remembered head;
    RememberedArg args[REMEMBERED_ARGS];
} RememberedKernel;

static Remembered *kernel_buckets[KERNEL_BUCKETS], *memory_buckets[KERNEL_BUCKETS];

static size_t deaths_of(const size_t *handle) {
    return __atomic_load_n(&handle[1], __ATOMIC_ACQUIRE);
}

static Remembered **bucket_of(Remembered **buckets, const void *handle) {
    return &buckets[((uintptr_t)handle >> 4) % KERNEL_BUCKETS];
}

static Remembered *find_remembered(Remembered **buckets, const void *handle) {
    if (!remembering) return NULL;
    for (Remembered *r = __atomic_load_n(bucket_of(buckets, handle), __ATOMIC_ACQUIRE); r; r = r->next)
        if (r->handle == handle) return r;
    return NULL;
}

/* With the GIL held: the record of a live `handle` (made, of `bytes`, if it has none; emptied if
   the block now holds another object than when it was made), or NULL without memory. */
static Remembered *remembered_now(Remembered **buckets, const void *handle, size_t bytes) {
    Remembered *r = find_remembered(buckets, handle);
    if (!r) {
        if (!remembering || !(r = calloc(1, bytes))) return NULL;
        r->handle = handle;
        r->deaths = deaths_of(handle);
        r->next = *bucket_of(buckets, handle);
        __atomic_store_n(bucket_of(buckets, handle), r, __ATOMIC_RELEASE);
    } else if (r->deaths != deaths_of(r->handle)) {
        memset(r + 1, 0, bytes - sizeof *r);
        r->deaths = deaths_of(r->handle);
    }
    return r;
}

/* The record of `handle` while it holds the object it was made for, else NULL (without the GIL). */
static Remembered *remembered_live(Remembered **buckets, const void *handle) {
    Remembered *r = find_remembered(buckets, handle);
    return r && r->deaths == deaths_of(r->handle) ? r : NULL;
}

static int already_set(const void *kernel, cl_uint index, size_t size, const void *value) {
    RememberedKernel *k = index < REMEMBERED_ARGS ? (RememberedKernel *)remembered_live(kernel_buckets, kernel) : NULL;
    if (!k) return 0;
    const RememberedArg *arg = &k->args[index];
    if (arg->state == UNSET || arg->size != size) return 0;
    if (!value || arg->state == LOCAL) return !value && arg->state == LOCAL;
    if (memcmp(arg->bytes, value, size)) return 0;
    return arg->state != HANDLE || deaths_of(arg->target) == arg->target_deaths;
}

/* With the GIL held, after Python answered `status` (positive: SUCCESS, and the bytes name a live
   handle). A failure is not remembered (Python kept the previous value, but say nothing of it). */
static void remember_arg(const void *kernel, cl_uint index, size_t size, const void *value, cl_int status) {
    if (index >= REMEMBERED_ARGS || (value && size > REMEMBERED_BYTES)) return;
    RememberedKernel *k = (RememberedKernel *)(status >= 0 ? remembered_now(kernel_buckets, kernel, sizeof *k)
                                                           : remembered_live(kernel_buckets, kernel));
    if (!k) return;
    RememberedArg *arg = &k->args[index];
    arg->state = UNSET;
    if (status < 0) return;
    arg->size = size;
    if (value) memcpy(arg->bytes, value, size);
    arg->target = status > 0 ? *(const size_t *const *)value : NULL;
    arg->target_deaths = status > 0 ? deaths_of(arg->target) : 0;
    arg->state = !value ? LOCAL : status > 0 ? HANDLE : VALUE;
}

/* The GIL is taken once: Python's answer and its remembering are one step (python_clSetKernelArg's
   own taking of it nests). */
static cl_int entry_clSetKernelArg(void *kernel, cl_uint index, size_t size, void *value) {
    if (already_set(kernel, index, size, value)) return CL_SUCCESS;
    if (!python_usable()) return python_clSetKernelArg(kernel, index, size, value);
    int gil = py.GILState_Ensure();
    cl_int status = python_clSetKernelArg(kernel, index, size, value);
    remember_arg(kernel, index, size, value, status);
    py.GILState_Release(gil);
    return status > 0 ? CL_SUCCESS : status;
}

/* clGetMemObjectInfo's answers that never change for a memory object (its type, flags, size, host
   pointer, offset: pyopencl asks on every Array.get), remembered as Python gave them, as arguments
   are, and answered without Python while the handle holds that object. */
enum { MEM_TYPE = 0x1100, MEM_OFFSET = 0x1108, MEM_ANSWERS = MEM_OFFSET - MEM_TYPE + 1 };
static const size_t mem_answer_size[MEM_ANSWERS] = {4, 8, sizeof(size_t), sizeof(void *), 0, 0, 0, 0, sizeof(size_t)};

typedef struct {
    Remembered head;
    unsigned known;            /* bit i: answers[i] (param MEM_TYPE + i) is Python's */
    uint64_t answers[MEM_ANSWERS];
} RememberedMemory;

static size_t fixed_mem_answer(cl_uint param) {
    return param >= MEM_TYPE && param <= MEM_OFFSET ? mem_answer_size[param - MEM_TYPE] : 0;
}

static cl_int entry_clGetMemObjectInfo(void *memory, cl_uint param, size_t size, void *out, void *size_ret) {
    size_t bytes = fixed_mem_answer(param);
    RememberedMemory *m = bytes ? (RememberedMemory *)remembered_live(memory_buckets, memory) : NULL;
    if (m && (__atomic_load_n(&m->known, __ATOMIC_ACQUIRE) >> (param - MEM_TYPE) & 1) && (!out || size >= bytes)) {
        if (out) memcpy(out, &m->answers[param - MEM_TYPE], bytes);
        if (size_ret) *(size_t *)size_ret = bytes;
        return CL_SUCCESS;
    }
    if (!bytes || !out || size < bytes || !python_usable())
        return python_clGetMemObjectInfo(memory, param, size, out, size_ret);
    int gil = py.GILState_Ensure();
    cl_int status = python_clGetMemObjectInfo(memory, param, size, out, size_ret);
    if (status == CL_SUCCESS && (m = (RememberedMemory *)remembered_now(memory_buckets, memory, sizeof *m))) {
        memcpy(&m->answers[param - MEM_TYPE], out, bytes);
        __atomic_or_fetch(&m->known, 1u << (param - MEM_TYPE), __ATOMIC_RELEASE);
    }
    py.GILState_Release(gil);
    return status;
}

/* Adds the building Python's site directories (a virtual environment's, an editable install's: their
   .pth files too) to sys.path; with `loomcl_first`, the first of them (the parent of the loomcl
   package this library was built from) goes in front, so that it is the loomcl imported. */
static void add_site_dirs(int loomcl_first) {
    PyObject *site = py.Import_ImportModule("site"), *sys = py.Import_ImportModule("sys");
    PyObject *path = sys ? py.Object_GetAttrString(sys, "path") : NULL;
    if (site && path) {
        char *dirs = strdup(LOOMCL_SITE_DIRS), *save = NULL;
        int first = 1;
        for (char *dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save), first = 0) {
            PyObject *result = first && loomcl_first ? py.Object_CallMethod(path, "insert", "is", 0, dir)
                                                     : py.Object_CallMethod(site, "addsitedir", "s", dir);
            if (result) py.DecRef(result);
        }
        free(dirs);
    }
    if (path) py.DecRef(path);
    if (sys) py.DecRef(sys);
    if (site) py.DecRef(site);
    py.Err_Clear();
}

/* Connects to loomcl.icd.entry: gives it this library's dispatch table and clIcdGetPlatformIDsKHR (an
   extension function the platform must answer) and says that it remembers kernels' arguments
   (entry_clSetKernelArg), and takes the platform's handle and the Python
   functions behind the table. In a C host, the loomcl this library was built from is imported; a
   Python host's own loomcl is used if it has one. Runs with the GIL held. */
static void *platform_from_python(void) {
    void *address = NULL;
    if (embedded) add_site_dirs(1);
    PyObject *entry = py.Import_ImportModule("loomcl.icd.entry");
    if (!entry && !embedded) {
        py.Err_Clear();
        add_site_dirs(0);
        entry = py.Import_ImportModule("loomcl.icd.entry");
    }
    if (entry) {
        PyObject *result = py.Object_CallMethod(entry, "connect", "nnin", (intptr_t)dispatch_table,
                                                (intptr_t)clIcdGetPlatformIDsKHR, 1, (intptr_t)hand_back_interrupt);
        remembering = result != NULL;
        if (!result) {  /* an older loomcl (a Python host's own): it counts no deaths, nothing is remembered */
            py.Err_Clear();
            result = py.Object_CallMethod(entry, "connect", "nn", (intptr_t)dispatch_table,
                                          (intptr_t)clIcdGetPlatformIDsKHR);
        }
        PyObject *functions = result ? py.Tuple_GetItem(result, 1) : NULL;
        if (functions && py.Tuple_Size(functions) == ENTRY_COUNT) {
            for (int i = 0; i < ENTRY_COUNT; i++) {
                entry_functions[i] = py.Tuple_GetItem(functions, i);
                py.IncRef(entry_functions[i]);  /* kept for the life of the process */
            }
            address = py.Long_AsVoidPtr(py.Tuple_GetItem(result, 0));
        }
        if (result) py.DecRef(result);
        py.DecRef(entry);
    }
    if (!address) {
        complain("loomcl could not be started; Python's error follows", NULL);
        py.Err_Print();
    }
    return address;
}

static void start(void) {
    if (!(find_python(RTLD_DEFAULT) && py.IsInitialized()) && !start_embedded_python()) return;
    int gil = py.GILState_Ensure();
    platform = platform_from_python();
    py.GILState_Release(gil);
}

EXPORT cl_int clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
    if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return CL_INVALID_VALUE;
    pthread_once(&started, start);
    if (num_platforms) *num_platforms = platform ? 1 : 0;
    if (!platform) return CL_PLATFORM_NOT_FOUND_KHR;
    if (platforms) platforms[0] = platform;
    return CL_SUCCESS;
}

/* The loader looks up clIcdGetPlatformIDsKHR here before anything else exists; every other name is
   answered by loomcl (through the platform's dispatch table, entry clGetExtensionFunctionAddress). */
typedef void *(*address_lookup)(const char *);
enum { DISPATCH_GET_EXTENSION_FUNCTION_ADDRESS = 65 };

EXPORT void *clGetExtensionFunctionAddress(const char *name) {
    if (!name) return NULL;
    if (!strcmp(name, "clIcdGetPlatformIDsKHR")) return (void *)clIcdGetPlatformIDsKHR;
    pthread_once(&started, start);
    if (!platform) return NULL;
    void **dispatch = *(void ***)platform;
    return ((address_lookup)dispatch[DISPATCH_GET_EXTENSION_FUNCTION_ADDRESS])(name);
}
