"""OpenCL C printf: the format grammar (format_spec), the buffer records that carry a call's
arguments from native code to the host (record), and C's conversions in Python (render). The
front end checks calls against format_spec, code generation writes records, the runtime reads them
after a launch and renders the text."""
from .format_spec import Conversion, FormatError, Storage, parse_format
from .render import render

__all__ = ["Conversion", "FormatError", "Storage", "parse_format", "render"]
