"""bench/run.py --quick is a smoke test of about a minute (issue 41: it took 22.6): fewer runs, no waiting for
quiet, torch.compile and fresh-process first calls on one kernel; the full run measures what it always did, and
the smoke test fails when a system fails or disagrees."""

from bench import run


def test_quick_run_is_small_and_the_full_run_keeps_its_settings():
    quick, full = run.options(["--quick"]), run.options([])
    assert (quick.repeat, quick.busy_retries, quick.compile_repeat, quick.scale) == (2, 0, 1, 0.05)
    assert (full.repeat, full.busy_retries, full.compile_repeat, full.scale) == (5, 2, 3, 1.0)
    assert run.options(["--quick", "--repeat", "4"]).repeat == 4


def test_smoke_verdict_fails_on_a_mismatch_or_an_error_not_on_a_missing_form():
    ok = {"name": "gelu", "steady": {"numba": {"ms": 1.0}, "numpy": {"status": "n/a: no NumPy form"}},
          "compile": {"torch_compile": {"timeout_s": 60}}}
    assert run.smoke_verdict({"kernels": [ok]}) == 0
    wrong = {"name": "dot", "steady": {"cuvil": {"mismatch": "max error 3× the tolerance"}}}
    assert run.smoke_verdict({"kernels": [ok, wrong]}) == 1
    failed = {"name": "total", "steady": {}, "compile": {"cuvil": {"error": "TypeError: x"}}}
    assert run.smoke_verdict({"kernels": [ok, failed]}) == 1
