"""loomcl's known gaps, each with what it fails: the tests that meet one are strict expected
failures on loomcl (and only on loomcl), so the run stays green while the gap is open and turns red
(XPASS(strict)) the day it closes, naming the entry here to delete.

None open now: image_blur (no image types in kernels) and events_profiling (no clSetEventCallback)
were, from main at c29fbf2 until f663d83.
"""
from __future__ import annotations

import pytest

C_PROGRAMS: dict[str, str] = {}       # a C program of tests/icd/c -> why it fails on loomcl
PYOPENCL_FILES: dict[str, str] = {}   # a file of CI_SUBSET whose run hangs or crashes -> why


def expect_gap(request, vendor, gaps: dict[str, str], key: str) -> None:
    if vendor.label == "loomcl" and key in gaps:
        request.applymarker(pytest.mark.xfail(reason=f"known loomcl gap: {gaps[key]}", strict=True))
