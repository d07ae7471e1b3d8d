"""conformance/hashcat_client.py: what a `hashcat -b` run's output says (self-test, speed, the first
problem) and the table of both vendors. The outputs are hashcat 6.2.6's own wording."""
import os
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
    found = {"loomcl": {"modes": {0: {"self-test": "pass", "speed": "17.5 MH/s", "first_build_s": 92.0,
                                      "warm_s": 40.5},
                                  3200: {"self-test": "fail", "speed": None}},
                        "crack": {"cracked": True, "seconds": 31.0}},
             "pocl": {"modes": {0: {"self-test": "pass", "speed": "15.6 MH/s", "first_build_s": 120.5}},
                      "crack": {"cracked": False, "seconds": 9.0}}}
    lines = hashcat_client.table(found).splitlines()
    assert lines[0] == ("| mode | loomcl self-test | loomcl speed | loomcl first build | loomcl warm run "
                        "| pocl self-test | pocl speed | pocl first build | pocl warm run |")
    assert lines[1] == "|---|---|---|---|---|---|---|---|---|"
    assert lines[2] == "| 0 MD5 | pass | 17.5 MH/s | 92 s | 40.5 s | pass | 15.6 MH/s | 120.5 s | - |"
    assert lines[3] == "| 3200 bcrypt | fail | - | - | - | - | - | - | - |"
    assert lines[4] == "| crack MD5 `-a 3 ?l?l?l?l?l` | found | 31 s |  |  | not found | 9 s |  |  |"


FAKE_HASHCAT = """#!/bin/sh
# A stand-in: records its arguments and environment, then answers as hashcat 6.2.6 does.
echo "$* HOME=$HOME XDG_CACHE_HOME=$XDG_CACHE_HOME OCL_ICD_VENDORS=$OCL_ICD_VENDORS" >> "$HOME/calls"
case " $* " in
    *" -b "*) echo "Speed.#1.........: 15.5 MH/s (1.00ms) @ Accel:1 Loops:1 Thr:1 Vec:1";;
    *" -a 3 "*) echo "5d41402abc4b2a76b9719d911017c592:hello";;
esac
"""


def test_each_run_has_its_own_home_caches_and_session(tmp_path, monkeypatch):
    (tmp_path / "bin").mkdir()
    fake = tmp_path / "bin" / "hashcat"
    fake.write_text(FAKE_HASHCAT)
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    home = tmp_path / "mode-0"
    found = hashcat_client.bench_mode(0, Path("/x/vendor.icd"), home, timeout=60)
    assert (found["self-test"], found["speed"]) == ("pass", "15.5 MH/s")
    assert found["first_build_s"] >= 0 and found["warm_s"] >= 0
    calls = (home / "calls").read_text().splitlines()
    assert len(calls) == 2  # cold, then warm
    assert calls[0].startswith(f"-b -m 0 -D 1 --session=conformance-{os.getpid()}-mode-0 HOME={home} "
                               f"XDG_CACHE_HOME={home / '.cache'} OCL_ICD_VENDORS=/x/vendor.icd")
    assert hashcat_client.crack(Path("/x/vendor.icd"), home, timeout=60)["cracked"] is True
