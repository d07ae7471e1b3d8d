"""`@cl.func`: helpers that kernels call, and what helpers and kernels share (source, annotations).

A helper is inlined into the kernels that call it, as OpenCL C calls are (so it may contain
barriers), and specialized once per list of argument types (program.py). Its parameters may be
annotated like a kernel's; an annotated parameter converts its argument.
"""
from __future__ import annotations

import inspect

from ..frontend import types as T
from .types import annotation_type


class PythonFunction:
    """A @cl.func helper: inlined into the kernels that call it, specialized per argument types."""

    is_kernel = False

    def __init__(self, function) -> None:
        if not inspect.isfunction(function):
            raise TypeError(f"@cl.func decorates a Python function, not {function!r}")
        self.function = function
        self.name = function.__name__
        self.__doc__ = function.__doc__
        self._source = None
        self._annotations = _annotations(function)

    @property
    def source(self):
        if self._source is None:
            from .source import function_source

            self._source = function_source(self.function)
        return self._source

    def parameter_type(self, index: int) -> T.Type | None:
        return self._annotations[index] if index < len(self._annotations) else None

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.name} is a @cl.func helper: it runs only inside kernels")

    def __repr__(self) -> str:
        return f"<loomcl helper {self.name}>"


def _annotations(function) -> list:
    """Each positional parameter's OpenCL C type from its annotation (None where absent)."""
    result = []
    for name, param in inspect.signature(function).parameters.items():
        annotation = param.annotation
        if annotation is inspect.Parameter.empty:
            result.append(None)
            continue
        if isinstance(annotation, str):  # `from __future__ import annotations`
            annotation = _evaluate(annotation, function)
        t = annotation_type(annotation)
        if t is None:
            raise TypeError(f"{function.__qualname__}: the annotation of parameter '{name}' ({annotation!r}) is "
                            f"not a kernel type: use cl.global_ptr(dtype), cl.constant_ptr(dtype), "
                            f"cl.local_ptr(dtype), a numpy scalar type, int, float or a vector type")
        result.append(t)
    return result


def _evaluate(text: str, function):
    """A string annotation's value, in the function's globals and closure."""
    namespace = dict(function.__globals__)
    if function.__closure__:
        for name, cell in zip(function.__code__.co_freevars, function.__closure__):
            try:
                namespace[name] = cell.cell_contents
            except ValueError:
                pass
    try:
        return eval(text, namespace)  # noqa: S307 - the program's own annotation, as typing.get_type_hints does
    except Exception:  # noqa: BLE001 - reported as an annotation that is not a kernel type
        return text


def func(function):
    """Decorator: a helper that kernels call, inlined (it may contain barriers)."""
    return PythonFunction(function)
