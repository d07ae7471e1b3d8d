"""What a missing prerequisite does to an ICD test: a skip with its reason, remembered so that the
run's summary repeats it (conftest.py), or a failure under LOOMCL_ICD_REQUIRED=1."""
from __future__ import annotations

import pytest

import icd_vendor

reasons: dict[str, None] = {}   # each reason once, in the order met


def unavailable(reason: str):
    reasons[reason] = None
    if icd_vendor.required():
        pytest.fail(f"{reason} (and {icd_vendor.REQUIRED_VARIABLE} is set)", pytrace=False)
    pytest.skip(reason)
