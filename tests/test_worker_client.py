"""The notebook workers' kernel clients: ready once the kernel answered on shell and iopub.

:func:`pqlab.pipeline._notebook_worker._wait_for_ready` replaces jupyter_client's wait, which
ends only after 0.2 s without an iopub message; these tests check what the wait must still give:
a kernel that answers (its reply handled, iopub flushed up to this request) and a clear error for
a kernel that died.
"""

from __future__ import annotations

import os

import pytest

from pqlab.pipeline import _notebook_worker as worker


@pytest.fixture
def kernel(tmp_path):
    worker.IPCKernelManager.root = str(tmp_path)
    fd = os.open(tmp_path / "kernel.log", os.O_WRONLY | os.O_CREAT, 0o644)
    km = worker._start_kernel("python3", fd)
    yield km
    km.shutdown_kernel(now=True)
    os.close(fd)
    worker.IPCKernelManager.root = None


def _client(km):
    kc = worker.ReadyBlockingKernelClient(
        **km.get_connection_info(session=True), connection_file=km.connection_file, parent=km
    )
    kc.start_channels()
    return kc


def test_a_ready_client_has_the_kernel_info_and_nothing_left_on_iopub(kernel, monkeypatch):
    handled = []
    monkeypatch.setattr(
        worker.ReadyBlockingKernelClient,
        "_handle_kernel_info_reply",
        lambda self, msg: handled.append(msg["msg_type"]),
    )
    for n in (1, 2):  # a starting kernel, then the kept kernel a second client meets
        kc = _client(kernel)
        try:
            kc.wait_for_ready(timeout=60)
            assert handled == ["kernel_info_reply"] * n  # the reply handled, once per wait
            assert not kc.iopub_channel.msg_ready()  # flushed up to this request's idle status
            reply = kc.execute_interactive(
                "6 * 7", store_history=False, timeout=30, output_hook=lambda msg: None
            )
            assert reply["content"]["status"] == "ok"
        finally:
            kc.stop_channels()


def test_the_papermill_client_of_a_worker_kernel_is_the_quick_one(kernel):
    assert isinstance(kernel.client(), worker.ReadyAsyncKernelClient)


def test_a_dead_kernel_is_an_error_not_a_wait(kernel):
    kernel.shutdown_kernel(now=True)
    kc = _client(kernel)
    try:
        with pytest.raises(RuntimeError, match="died"):
            kc.wait_for_ready(timeout=30)
    finally:
        kc.stop_channels()


def _run(km, code: str) -> str:
    """Run ``code`` in ``km``'s kernel with a client of its own (one client at a time, as the
    worker uses them); its printed output."""
    kc = _client(km)
    out = []
    try:
        kc.wait_for_ready(timeout=60)
        reply = kc.execute_interactive(
            code,
            store_history=False,
            timeout=60,
            output_hook=lambda m: out.append(m["content"].get("text", "")),
        )
        assert reply["content"]["status"] == "ok"
    finally:
        kc.stop_channels()
    return "".join(out).strip()


def test_the_reset_empties_the_namespace_and_freezes_what_survives(kernel, tmp_path):
    """Between notebooks: a name of the last notebook is gone, the folder is the next one's, and
    what survived the reset's collection is frozen (no later collection scans it again)."""
    _run(kernel, "left_by_the_last_notebook = 1")
    worker._reset(kernel, str(tmp_path))
    assert _run(kernel, "print('left_by_the_last_notebook' in dir())") == "False"
    assert _run(kernel, "import os; print(os.getcwd())") == str(tmp_path)
    assert int(_run(kernel, "import gc; print(gc.get_freeze_count())")) > 1000
