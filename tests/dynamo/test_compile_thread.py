"""compiled.on_compile_thread: a partition's Numba compile runs on the backend's own compile thread (a shallow
stack: see its docstring), and what happens there reaches the caller as if it had run in place."""

import threading

import pytest

torch = pytest.importorskip("torch")
event = pytest.importorskip("numba.core.event")

from cuvil.dynamo import compiled as C  # noqa: E402


class _Threads(event.Listener):
    def __init__(self):
        self.names = []

    def on_start(self, e):
        self.names.append((e.data["dispatcher"].py_func.__name__, threading.current_thread().name))

    def on_end(self, e):
        pass


def test_the_kernel_compiles_on_the_compile_thread_and_computes_the_same(new_process):
    x = torch.randn(7, 40, generator=torch.Generator().manual_seed(3))
    compiled = torch.compile(lambda t: torch.softmax(t * 2, -1), backend="cuvil", dynamic=False)
    threads = _Threads()
    with torch.no_grad(), event.install_listener("numba:compile", threads):
        out = compiled(x)
    kernels = [name for fn, name in threads.names if fn == "kernel"]
    assert kernels == ["cuvil-dynamo-numba_0"]
    expected = torch.softmax(x * 2, -1)
    assert out.dtype == expected.dtype == torch.float32 and out.shape == expected.shape == (7, 40)
    torch.testing.assert_close(out, expected, atol=1e-6, rtol=1e-5)


def test_an_error_on_the_compile_thread_reaches_the_caller_unchanged():
    class Refused(Exception):
        pass

    def fails(why):
        raise Refused(why)

    with pytest.raises(Refused, match="^no kernel$"):
        C.on_compile_thread(fails, "no kernel")
    assert C.on_compile_thread(lambda a, b: (a, b, threading.current_thread().name), 1, "x") == (
        1, "x", "cuvil-dynamo-numba_0")


def test_a_call_from_the_compile_thread_itself_runs_in_place():
    """Waiting for its own queue would never return."""
    inner = C.on_compile_thread(lambda: C.on_compile_thread(threading.current_thread))
    assert inner.name == "cuvil-dynamo-numba_0"


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="os.fork is POSIX only")
def test_a_forked_child_compiles_and_splits_on_threads_of_its_own(new_process):
    """A DataLoader worker forked after the parent compiled, while another thread of the parent compiles (holds
    Numba's compiler lock, as the prelude does): the fork waits for the lock, and the child makes new threads."""
    import os
    import time

    from numba.core.compiler_lock import global_compiler_lock

    x = torch.randn(64, 1024, generator=torch.Generator().manual_seed(6))  # 64K elements: split at 2 threads
    with torch.no_grad():
        torch.compile(lambda t: torch.softmax(t, -1), backend="cuvil", dynamic=False)(x)
    expected = torch.tanh(x) * 3
    held = threading.Event()

    def compiling():
        with global_compiler_lock:
            held.set()
            time.sleep(0.3)

    other = threading.Thread(target=compiling)
    other.start()
    held.wait()
    pid = os.fork()
    if pid == 0:  # the child: a new graph (a compile) and a split call, then exit without pytest's teardown
        code = 1
        try:
            torch.set_num_threads(2)  # torch's own ops stay out of the child: OpenMP hangs after a fork
            with torch.no_grad():
                out = torch.compile(lambda t: torch.tanh(t) * 3, backend="cuvil", dynamic=False)(x)
            torch.set_num_threads(1)
            code = 0 if torch.allclose(out, expected, atol=1e-6) else 2
        finally:
            os._exit(code)
    other.join()
    deadline = time.monotonic() + 120
    while (done := os.waitpid(pid, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    if done[0] == 0:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        pytest.fail("the forked child hung")
    assert os.waitstatus_to_exitcode(done[1]) == 0
