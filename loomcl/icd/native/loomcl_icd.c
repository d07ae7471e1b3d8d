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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
typedef void *cl_platform_id;

enum { CL_SUCCESS = 0, CL_INVALID_VALUE = -30, CL_PLATFORM_NOT_FOUND_KHR = -1001 };

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
} py;

static pthread_once_t started = PTHREAD_ONCE_INIT;
static cl_platform_id platform;  /* NULL when Python or loomcl could not be started */
static int embedded;             /* this library started the interpreter (a C host) */

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
#undef FIND
    return 1;
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
        py.InitializeEx(0);
        py.Eval_SaveThread();
        embedded = 1;
    }
    return 1;
}

EXPORT cl_int clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms);

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

/* Asks loomcl.icd.entry for the platform handle, telling it where this library's
   clIcdGetPlatformIDsKHR is (an extension function the platform must answer). In a C host, the
   loomcl this library was built from is imported; a Python host's own loomcl is used if it has one.
   Runs with the GIL held. */
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
        PyObject *result = py.Object_CallMethod(entry, "platform_address", "n", (intptr_t)clIcdGetPlatformIDsKHR);
        if (result) {
            address = py.Long_AsVoidPtr(result);
            py.DecRef(result);
        }
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
