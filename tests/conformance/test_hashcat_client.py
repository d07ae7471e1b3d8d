"""conformance/hashcat_client.py: what a `hashcat -b` run's output says (self-test, speed, the first
problem) and the table of both vendors. The outputs are hashcat 6.2.6's own wording."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "conformance"))

import hashcat_client  # noqa: E402

PASSED = """* Device #1: AMD EPYC, 12020/24105 MB (6026 MB allocatable), 2MCU

-------------------
* Hash-Mode 0 (MD5)
-------------------

Speed.#1.........: 17477.1 kH/s (102.06ms) @ Accel:1024 Loops:1024 Thr:1 Vec:16

Started: Sat Nov 28 20:43:19 2026
"""
SELF_TEST_FAILED = """* Hash-Mode 100 (SHA1)
-------------------

* Device #1: ATTENTION! OpenCL kernel self-test failed.

Your device driver installation is probably broken.
"""
BUILD_FAILED = """* Device #1: Kernel /usr/share/hashcat/OpenCL/shared.cl build failed.
"""


def test_a_speed_means_the_self_test_passed():
    assert hashcat_client.read_bench(PASSED, False) == {
        "self-test": "pass", "speed": "17477.1 kH/s", "timed out": False, "problem": ""}


def test_a_failed_self_test_is_a_failure_with_its_line():
    found = hashcat_client.read_bench(SELF_TEST_FAILED, False)
    assert (found["self-test"], found["speed"]) == ("fail", None)
    assert found["problem"] == "* Device #1: ATTENTION! OpenCL kernel self-test failed."


def test_no_speed_is_no_result_or_a_timeout():
    assert hashcat_client.read_bench(BUILD_FAILED, False)["self-test"] == "no result"
    assert hashcat_client.read_bench(BUILD_FAILED, False)["problem"].endswith("shared.cl build failed.")
    assert hashcat_client.read_bench("* Hash-Mode 0 (MD5)\n", True)["self-test"] == "timed out"


def test_the_table_has_a_row_per_mode_and_the_crack():
    found = {"loomcl": {"modes": {0: {"self-test": "pass", "speed": "17.5 MH/s", "first_build_s": 92.0},
                                  3200: {"self-test": "fail", "speed": None}},
                        "crack": {"cracked": True, "seconds": 31.0}},
             "pocl": {"modes": {0: {"self-test": "pass", "speed": "15.6 MH/s", "first_build_s": 120.5}},
                      "crack": {"cracked": False, "seconds": 9.0}}}
    lines = hashcat_client.table(found).splitlines()
    assert lines[0] == ("| mode | loomcl self-test | loomcl speed | loomcl first build "
                        "| pocl self-test | pocl speed | pocl first build |")
    assert lines[2] == "| 0 MD5 | pass | 17.5 MH/s | 92 s | pass | 15.6 MH/s | 120.5 s |"
    assert lines[3] == "| 3200 bcrypt | fail | - | - | - | - | - |"
    assert lines[4] == "| crack MD5 `-a 3 ?l?l?l?l?l` | found | 31.0 s |  | not found | 9.0 s |  |"
