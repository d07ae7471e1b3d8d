"""What a missing prerequisite does to an ICD test: a skip with its reason, remembered so that the
run's summary repeats it (conftest.py), or a failure under LOOMCL_ICD_REQUIRED=1."""
from __future__ import annotations

import pytest

import icd_vendor

reasons: dict[str, int] = {}   # reason -> how many tests it stopped


def unavailable(reason: str):
    reasons[reason] = reasons.get(reason, 0) + 1
    if icd_vendor.required():
        pytest.fail(f"{reason} (and {icd_vendor.REQUIRED_VARIABLE} is set)", pytrace=False)
    pytest.skip(reason)
