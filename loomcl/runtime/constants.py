"""OpenCL's enumerations with pyopencl's names: lowercase classes, uppercase int members (cl.h values).

Members are plain ints, as in pyopencl, so `mem_flags.READ_ONLY | mem_flags.COPY_HOST_PTR` is an int
and values coming from other code compare equal. Only the enumerations the runtime uses or reports
are here; the `*_info` classes drive the `get_info` methods (an info value maps to the lowercase
property of the same name).
"""
from __future__ import annotations

from loomcl.errors import IntConstants, LogicError, status_code


class platform_info(IntConstants):  # noqa: N801
    PROFILE = 0x0900
    VERSION = 0x0901
    NAME = 0x0902
    VENDOR = 0x0903
    EXTENSIONS = 0x0904
    HOST_TIMER_RESOLUTION = 0x0905
    NUMERIC_VERSION = 0x0906
    EXTENSIONS_WITH_VERSION = 0x0907
    ICD_SUFFIX_KHR = 0x0920  # cl_khr_icd: the loader's name for the platform's entry points


class device_type(IntConstants):  # noqa: N801
    DEFAULT = 1 << 0
    CPU = 1 << 1
    GPU = 1 << 2
    ACCELERATOR = 1 << 3
    CUSTOM = 1 << 4
    ALL = 0xFFFFFFFF


class device_info(IntConstants):  # noqa: N801
    """clGetDeviceInfo's params: OpenCL 1.2, 2.x and 3.0 (cl.h values; QUEUE_PROPERTIES is 3.0's
    QUEUE_ON_HOST_PROPERTIES, one value under both names): 1.2's partitioning queries and those of
    2.x and 3.0 first, then the queries of OpenCL 1.0-1.2."""

    QUEUE_ON_HOST_PROPERTIES = 0x102A
    PARENT_DEVICE = 0x1042
    PARTITION_MAX_SUB_DEVICES = 0x1043
    PARTITION_PROPERTIES = 0x1044
    PARTITION_AFFINITY_DOMAIN = 0x1045
    PARTITION_TYPE = 0x1046
    PREFERRED_INTEROP_USER_SYNC = 0x1048
    MAX_READ_WRITE_IMAGE_ARGS = 0x104C
    MAX_GLOBAL_VARIABLE_SIZE = 0x104D
    QUEUE_ON_DEVICE_PROPERTIES = 0x104E
    QUEUE_ON_DEVICE_PREFERRED_SIZE = 0x104F
    QUEUE_ON_DEVICE_MAX_SIZE = 0x1050
    MAX_ON_DEVICE_QUEUES = 0x1051
    MAX_ON_DEVICE_EVENTS = 0x1052
    SVM_CAPABILITIES = 0x1053
    GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE = 0x1054
    MAX_PIPE_ARGS = 0x1055
    PIPE_MAX_ACTIVE_RESERVATIONS = 0x1056
    PIPE_MAX_PACKET_SIZE = 0x1057
    PREFERRED_PLATFORM_ATOMIC_ALIGNMENT = 0x1058
    PREFERRED_GLOBAL_ATOMIC_ALIGNMENT = 0x1059
    PREFERRED_LOCAL_ATOMIC_ALIGNMENT = 0x105A
    IL_VERSION = 0x105B
    MAX_NUM_SUB_GROUPS = 0x105C
    SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS = 0x105D
    NUMERIC_VERSION = 0x105E
    EXTENSIONS_WITH_VERSION = 0x1060
    ILS_WITH_VERSION = 0x1061
    BUILT_IN_KERNELS_WITH_VERSION = 0x1062
    ATOMIC_MEMORY_CAPABILITIES = 0x1063
    ATOMIC_FENCE_CAPABILITIES = 0x1064
    NON_UNIFORM_WORK_GROUP_SUPPORT = 0x1065
    OPENCL_C_ALL_VERSIONS = 0x1066
    PREFERRED_WORK_GROUP_SIZE_MULTIPLE = 0x1067
    WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT = 0x1068
    GENERIC_ADDRESS_SPACE_SUPPORT = 0x1069
    OPENCL_C_FEATURES = 0x106F
    DEVICE_ENQUEUE_CAPABILITIES = 0x1070
    PIPE_SUPPORT = 0x1071
    LATEST_CONFORMANCE_VERSION_PASSED = 0x1072

    TYPE = 0x1000
    VENDOR_ID = 0x1001
    MAX_COMPUTE_UNITS = 0x1002
    MAX_WORK_ITEM_DIMENSIONS = 0x1003
    MAX_WORK_GROUP_SIZE = 0x1004
    MAX_WORK_ITEM_SIZES = 0x1005
    PREFERRED_VECTOR_WIDTH_CHAR = 0x1006
    PREFERRED_VECTOR_WIDTH_SHORT = 0x1007
    PREFERRED_VECTOR_WIDTH_INT = 0x1008
    PREFERRED_VECTOR_WIDTH_LONG = 0x1009
    PREFERRED_VECTOR_WIDTH_FLOAT = 0x100A
    PREFERRED_VECTOR_WIDTH_DOUBLE = 0x100B
    MAX_CLOCK_FREQUENCY = 0x100C
    ADDRESS_BITS = 0x100D
    MAX_READ_IMAGE_ARGS = 0x100E
    MAX_WRITE_IMAGE_ARGS = 0x100F
    MAX_MEM_ALLOC_SIZE = 0x1010
    IMAGE2D_MAX_WIDTH = 0x1011
    IMAGE2D_MAX_HEIGHT = 0x1012
    IMAGE3D_MAX_WIDTH = 0x1013
    IMAGE3D_MAX_HEIGHT = 0x1014
    IMAGE3D_MAX_DEPTH = 0x1015
    IMAGE_SUPPORT = 0x1016
    MAX_PARAMETER_SIZE = 0x1017
    MAX_SAMPLERS = 0x1018
    MEM_BASE_ADDR_ALIGN = 0x1019
    MIN_DATA_TYPE_ALIGN_SIZE = 0x101A
    SINGLE_FP_CONFIG = 0x101B
    GLOBAL_MEM_CACHE_TYPE = 0x101C
    GLOBAL_MEM_CACHELINE_SIZE = 0x101D
    GLOBAL_MEM_CACHE_SIZE = 0x101E
    GLOBAL_MEM_SIZE = 0x101F
    MAX_CONSTANT_BUFFER_SIZE = 0x1020
    MAX_CONSTANT_ARGS = 0x1021
    LOCAL_MEM_TYPE = 0x1022
    LOCAL_MEM_SIZE = 0x1023
    ERROR_CORRECTION_SUPPORT = 0x1024
    PROFILING_TIMER_RESOLUTION = 0x1025
    ENDIAN_LITTLE = 0x1026
    AVAILABLE = 0x1027
    COMPILER_AVAILABLE = 0x1028
    EXECUTION_CAPABILITIES = 0x1029
    QUEUE_PROPERTIES = 0x102A
    NAME = 0x102B
    VENDOR = 0x102C
    DRIVER_VERSION = 0x102D
    PROFILE = 0x102E
    VERSION = 0x102F
    EXTENSIONS = 0x1030
    PLATFORM = 0x1031
    DOUBLE_FP_CONFIG = 0x1032
    HALF_FP_CONFIG = 0x1033
    PREFERRED_VECTOR_WIDTH_HALF = 0x1034
    HOST_UNIFIED_MEMORY = 0x1035
    NATIVE_VECTOR_WIDTH_CHAR = 0x1036
    NATIVE_VECTOR_WIDTH_SHORT = 0x1037
    NATIVE_VECTOR_WIDTH_INT = 0x1038
    NATIVE_VECTOR_WIDTH_LONG = 0x1039
    NATIVE_VECTOR_WIDTH_FLOAT = 0x103A
    NATIVE_VECTOR_WIDTH_DOUBLE = 0x103B
    NATIVE_VECTOR_WIDTH_HALF = 0x103C
    OPENCL_C_VERSION = 0x103D
    LINKER_AVAILABLE = 0x103E
    BUILT_IN_KERNELS = 0x103F
    IMAGE_MAX_BUFFER_SIZE = 0x1040
    IMAGE_MAX_ARRAY_SIZE = 0x1041
    REFERENCE_COUNT = 0x1047
    PRINTF_BUFFER_SIZE = 0x1049
    IMAGE_PITCH_ALIGNMENT = 0x104A
    IMAGE_BASE_ADDRESS_ALIGNMENT = 0x104B


class device_fp_config(IntConstants):  # noqa: N801
    DENORM = 1 << 0
    INF_NAN = 1 << 1
    ROUND_TO_NEAREST = 1 << 2
    ROUND_TO_ZERO = 1 << 3
    ROUND_TO_INF = 1 << 4
    FMA = 1 << 5
    SOFT_FLOAT = 1 << 6
    CORRECTLY_ROUNDED_DIVIDE_SQRT = 1 << 7


class device_mem_cache_type(IntConstants):  # noqa: N801
    NONE = 0
    READ_ONLY_CACHE = 1
    READ_WRITE_CACHE = 2


class device_local_mem_type(IntConstants):  # noqa: N801
    LOCAL = 1
    GLOBAL = 2


class device_exec_capabilities(IntConstants):  # noqa: N801
    KERNEL = 1 << 0
    NATIVE_KERNEL = 1 << 1


class device_partition_property(IntConstants):  # noqa: N801
    EQUALLY = 0x1086
    BY_COUNTS = 0x1087
    BY_COUNTS_LIST_END = 0x0
    BY_AFFINITY_DOMAIN = 0x1088


class device_affinity_domain(IntConstants):  # noqa: N801
    NUMA = 1 << 0
    L4_CACHE = 1 << 1
    L3_CACHE = 1 << 2
    L2_CACHE = 1 << 3
    L1_CACHE = 1 << 4
    NEXT_PARTITIONABLE = 1 << 5


class device_svm_capabilities(IntConstants):  # noqa: N801
    COARSE_GRAIN_BUFFER = 1 << 0
    FINE_GRAIN_BUFFER = 1 << 1
    FINE_GRAIN_SYSTEM = 1 << 2
    ATOMICS = 1 << 3


class device_atomic_capabilities(IntConstants):  # noqa: N801
    ORDER_RELAXED = 1 << 0
    ORDER_ACQ_REL = 1 << 1
    ORDER_SEQ_CST = 1 << 2
    SCOPE_WORK_ITEM = 1 << 3
    SCOPE_WORK_GROUP = 1 << 4
    SCOPE_DEVICE = 1 << 5
    SCOPE_ALL_DEVICES = 1 << 6


class device_device_enqueue_capabilities(IntConstants):  # noqa: N801
    SUPPORTED = 1 << 0
    REPLACEABLE_DEFAULT = 1 << 1


class version_bits(IntConstants):  # noqa: N801
    """cl_version's layout: major (10 bits), minor (10), patch (12), from the top."""

    MAJOR_BITS = 10
    MINOR_BITS = 10
    PATCH_BITS = 12
    MAJOR_MASK = (1 << 10) - 1
    MINOR_MASK = (1 << 10) - 1
    PATCH_MASK = (1 << 12) - 1


class command_queue_properties(IntConstants):  # noqa: N801
    OUT_OF_ORDER_EXEC_MODE_ENABLE = 1 << 0
    PROFILING_ENABLE = 1 << 1
    ON_DEVICE = 1 << 2
    ON_DEVICE_DEFAULT = 1 << 3


class context_info(IntConstants):  # noqa: N801
    REFERENCE_COUNT = 0x1080
    DEVICES = 0x1081
    PROPERTIES = 0x1082
    NUM_DEVICES = 0x1083


class command_queue_info(IntConstants):  # noqa: N801
    CONTEXT = 0x1090
    DEVICE = 0x1091
    REFERENCE_COUNT = 0x1092
    PROPERTIES = 0x1093
    DEVICE_DEFAULT = 0x1095  # OpenCL 2.1: the device's default device queue (loomcl has none: NULL)
    PROPERTIES_ARRAY = 0x1098  # OpenCL 3.0: the properties list given at creation (the C API answers it)


class mem_flags(IntConstants):  # noqa: N801
    READ_WRITE = 1 << 0
    WRITE_ONLY = 1 << 1
    READ_ONLY = 1 << 2
    USE_HOST_PTR = 1 << 3
    ALLOC_HOST_PTR = 1 << 4
    COPY_HOST_PTR = 1 << 5
    HOST_WRITE_ONLY = 1 << 7
    HOST_READ_ONLY = 1 << 8
    HOST_NO_ACCESS = 1 << 9
    KERNEL_READ_AND_WRITE = 1 << 12


class map_flags(IntConstants):  # noqa: N801
    READ = 1 << 0
    WRITE = 1 << 1
    WRITE_INVALIDATE_REGION = 1 << 2


class mem_object_type(IntConstants):  # noqa: N801
    BUFFER = 0x10F0
    IMAGE2D = 0x10F1
    IMAGE3D = 0x10F2
    IMAGE2D_ARRAY = 0x10F3
    IMAGE1D = 0x10F4
    IMAGE1D_ARRAY = 0x10F5
    IMAGE1D_BUFFER = 0x10F6


class mem_info(IntConstants):  # noqa: N801
    TYPE = 0x1100
    FLAGS = 0x1101
    SIZE = 0x1102
    HOST_PTR = 0x1103
    MAP_COUNT = 0x1104
    REFERENCE_COUNT = 0x1105
    CONTEXT = 0x1106
    ASSOCIATED_MEMOBJECT = 0x1107
    OFFSET = 0x1108
    USES_SVM_POINTER = 0x1109
    PROPERTIES = 0x110A


class program_info(IntConstants):  # noqa: N801
    REFERENCE_COUNT = 0x1160
    CONTEXT = 0x1161
    NUM_DEVICES = 0x1162
    DEVICES = 0x1163
    SOURCE = 0x1164
    BINARY_SIZES = 0x1165
    BINARIES = 0x1166
    NUM_KERNELS = 0x1167
    KERNEL_NAMES = 0x1168
    IL = 0x1169
    SCOPE_GLOBAL_CTORS_PRESENT = 0x116A
    SCOPE_GLOBAL_DTORS_PRESENT = 0x116B


class program_build_info(IntConstants):  # noqa: N801
    STATUS = 0x1181
    OPTIONS = 0x1182
    LOG = 0x1183
    BINARY_TYPE = 0x1184
    GLOBAL_VARIABLE_TOTAL_SIZE = 0x1185


class program_binary_type(IntConstants):  # noqa: N801
    NONE = 0x0
    COMPILED_OBJECT = 0x1
    LIBRARY = 0x2
    EXECUTABLE = 0x4


class build_status(IntConstants):  # noqa: N801
    SUCCESS = 0
    NONE = -1
    ERROR = -2
    IN_PROGRESS = -3


class kernel_info(IntConstants):  # noqa: N801
    FUNCTION_NAME = 0x1190
    NUM_ARGS = 0x1191
    REFERENCE_COUNT = 0x1192
    CONTEXT = 0x1193
    PROGRAM = 0x1194
    ATTRIBUTES = 0x1195


class kernel_arg_info(IntConstants):  # noqa: N801
    ADDRESS_QUALIFIER = 0x1196
    ACCESS_QUALIFIER = 0x1197
    TYPE_NAME = 0x1198
    TYPE_QUALIFIER = 0x1199
    NAME = 0x119A


class kernel_arg_address_qualifier(IntConstants):  # noqa: N801
    GLOBAL = 0x119B
    LOCAL = 0x119C
    CONSTANT = 0x119D
    PRIVATE = 0x119E


class kernel_arg_access_qualifier(IntConstants):  # noqa: N801
    READ_ONLY = 0x11A0
    WRITE_ONLY = 0x11A1
    READ_WRITE = 0x11A2
    NONE = 0x11A3


class kernel_arg_type_qualifier(IntConstants):  # noqa: N801
    NONE = 0
    CONST = 1 << 0
    RESTRICT = 1 << 1
    VOLATILE = 1 << 2
    PIPE = 1 << 3


class kernel_work_group_info(IntConstants):  # noqa: N801
    WORK_GROUP_SIZE = 0x11B0
    COMPILE_WORK_GROUP_SIZE = 0x11B1
    LOCAL_MEM_SIZE = 0x11B2
    PREFERRED_WORK_GROUP_SIZE_MULTIPLE = 0x11B3
    PRIVATE_MEM_SIZE = 0x11B4


class event_info(IntConstants):  # noqa: N801
    COMMAND_QUEUE = 0x11D0
    COMMAND_TYPE = 0x11D1
    REFERENCE_COUNT = 0x11D2
    COMMAND_EXECUTION_STATUS = 0x11D3
    CONTEXT = 0x11D4


class command_type(IntConstants):  # noqa: N801
    NDRANGE_KERNEL = 0x11F0
    TASK = 0x11F1
    NATIVE_KERNEL = 0x11F2
    READ_BUFFER = 0x11F3
    WRITE_BUFFER = 0x11F4
    COPY_BUFFER = 0x11F5
    READ_IMAGE = 0x11F6
    WRITE_IMAGE = 0x11F7
    COPY_IMAGE = 0x11F8
    COPY_IMAGE_TO_BUFFER = 0x11F9
    COPY_BUFFER_TO_IMAGE = 0x11FA
    MAP_BUFFER = 0x11FB
    MAP_IMAGE = 0x11FC
    UNMAP_MEM_OBJECT = 0x11FD
    MARKER = 0x11FE
    READ_BUFFER_RECT = 0x1201
    WRITE_BUFFER_RECT = 0x1202
    COPY_BUFFER_RECT = 0x1203
    USER = 0x1204
    BARRIER = 0x1205
    FILL_BUFFER = 0x1207
    FILL_IMAGE = 0x1208


class command_execution_status(IntConstants):  # noqa: N801
    COMPLETE = 0
    RUNNING = 1
    SUBMITTED = 2
    QUEUED = 3


class profiling_info(IntConstants):  # noqa: N801
    QUEUED = 0x1280
    SUBMIT = 0x1281
    START = 0x1282
    END = 0x1283
    COMPLETE = 0x1284


def info_attribute(info_class: type, param: int, routine: str) -> str:
    """The property name that answers `get_info(param)`, or LogicError INVALID_VALUE."""
    try:
        return info_class.to_string(param).lower()
    except ValueError:
        raise LogicError(
            routine,
            status_code.INVALID_VALUE,
            f"{param!r} is not a {info_class.__name__} value loomcl answers",
        ) from None
