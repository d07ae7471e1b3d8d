"""CTS tests that pass on the baseline implementation (PoCL) and not yet on loomcl, each with the
reason: the gate (cts.py --baseline) does not fail on these. An entry goes when its test passes.
Empty since the language gaps the CTS showed were closed (docs/compatibility.md)."""
from __future__ import annotations

KNOWN_FAILURES: dict[tuple[str, str], str] = {}
