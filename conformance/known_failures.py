"""CTS tests that pass on the baseline implementation (PoCL) and not yet on loomcl, each with the
reason: the gate (cts.py --baseline) does not fail on these. An entry goes when its test passes.
All of them are OpenCL C that clang accepts and loomcl's front end does not yet (docs/compatibility.md)."""
from __future__ import annotations

KNOWN_FAILURES: dict[tuple[str, str], str] = {
    ("test_basic", "vstore_local"): "a cast of a cast, (char2)(char)0, does not parse",
    ("test_basic", "vstore_private"): "a cast of a cast, (char2)(char)0, does not parse",
    ("test_basic", "astype"): "as_typeN between 3- and 4-component vectors",
}
