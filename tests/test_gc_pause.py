"""The collector is paused while the compiler builds its object graphs, and runs again after."""
import gc
import threading

from loomcl.driver.gc_pause import collector_paused


def test_pauses_nest_and_restore_the_collector():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_overlapping_pauses_on_two_threads_end_with_the_last():
    entered, release = threading.Event(), threading.Event()

    def other():
        with collector_paused():
            entered.set()
            release.wait(10)

    thread = threading.Thread(target=other)
    thread.start()
    entered.wait(10)
    with collector_paused():
        pass
    assert not gc.isenabled()  # the other thread's pause still holds
    release.set()
    thread.join()
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
