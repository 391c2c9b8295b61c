"""`cuvil inspect FILE.py:FN`: the file runs as `python FILE.py` would (its folder first on sys.path), and what
cannot be loaded is said in one line with exit status 2, never a traceback through Cuvil or importlib."""

import os
import subprocess
import sys
import textwrap

import pytest

KERNEL = """\
from helper import SCALE
LIMIT = 3


def double(x, out):
    for i in range(len(x)):
        out[i] = SCALE * x[i]
    return out
"""


@pytest.fixture
def project(tmp_path):
    """A file importing its neighbour, as scripts next to each other do; run from another folder."""
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "helper.py").write_text("SCALE = 2.0\n")
    (folder / "kern.py").write_text(KERNEL)
    (folder / "broken.py").write_text("import helper\n\nhelper.missing_name\n")
    (folder / "typo.py").write_text("def f(x)\n    return x\n")
    (folder / "unsupported.py").write_text(textwrap.dedent("""\
        def f(x):
            try:
                return x
            except ValueError:
                return 0
        """))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    return elsewhere


def _cli(cwd, *argv):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    return subprocess.run([sys.executable, "-m", "cuvil.cli", *argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_inspect_puts_the_files_folder_on_sys_path(project):
    done = _cli(project, "inspect", "../project/kern.py:double", "--stage", "normalized")
    assert done.returncode == 0, done.stderr
    assert "        out[i] = SCALE * x[i]  # L7" in done.stdout.splitlines()


@pytest.mark.parametrize("target, message", [
    ("../project/nothere.py:f", "cuvil inspect: no such file: ../project/nothere.py"),
    ("../project/kern.py:triple", "cuvil inspect: ../project/kern.py has no function 'triple' (it defines: double)"),
    ("../project/kern.py:LIMIT", "cuvil inspect: ../project/kern.py:LIMIT is not a function (int)"),
    ("../project/kern.py", "cuvil inspect: expected FILE.py:FUNCTION, got '../project/kern.py'"),
    ("../project/typo.py:f", "cuvil inspect: ../project/typo.py:1: expected ':'"),
])
def test_inspect_says_what_cannot_be_loaded_in_one_line(project, target, message):
    done = _cli(project, "inspect", target)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", message + "\n")


def test_inspect_shows_only_the_files_own_frames_when_running_it_fails(project):
    done = _cli(project, "inspect", "../project/broken.py:f")
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert lines[0] == "cuvil inspect: running ../project/broken.py failed:"
    assert lines[-1] == "AttributeError: module 'helper' has no attribute 'missing_name'"
    assert "    helper.missing_name" in lines
    frames = [line for line in lines if line.lstrip().startswith("File ")]
    assert len(frames) == 1 and f"project{os.sep}broken.py\", line 3" in frames[0]


def test_inspect_reports_unsupported_code_at_the_users_line(project):
    done = _cli(project, "inspect", "../project/unsupported.py:f")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    first = done.stderr.splitlines()[0]
    assert first.startswith("cuvil inspect: ") and first.endswith(
        "unsupported.py:2:5: 'try' is not supported; check the condition with an if and return an error code "
        "instead")


def test_inspect_runs_the_files_top_level_code_but_not_its_main_block(tmp_path):
    """What --help says: imported as a module, so top-level code runs and `if __name__ == "__main__":` does not."""
    (tmp_path / "script.py").write_text(textwrap.dedent("""\
        print("top level ran")

        def f(x):
            return x + 1

        if __name__ == "__main__":
            print("main block ran")
        """))
    done = _cli(tmp_path, "inspect", "script.py:f")
    assert done.returncode == 0, done.stderr
    assert "top level ran" in done.stdout and "main block ran" not in done.stdout
    shown = _cli(tmp_path, "inspect", "--help").stdout
    assert "imported as a module" in " ".join(shown.split())
    for stage in ("normalized:", "cfg:", "plan:", "kernel (default):"):
        assert stage in shown
