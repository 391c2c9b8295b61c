"""The CUDA parts of the cache key (runtime/cache_key.py): the toolkit and libNVVM versions, for target="cuda"
only; the compute capability keys the machine code inside the entry (tests/cuda/test_ptx.py checks that each
kernel's numba-cuda cache lies in its entry)."""

from cuvil.options import Options
from cuvil.runtime import cache_key


def kernel(x):
    return x + 1


def test_the_toolkit_and_nvvm_versions_are_parts_of_a_cuda_key_only(monkeypatch):
    cuda, cpu = Options(target="cuda"), Options(target="cpu")
    before = cache_key.key(kernel, cuda), cache_key.key(kernel, cpu)
    for part, value in (("cuda_toolkit", [12, 9]), ("nvvm", [2, 1]), ("nvvm_ir", [2, 0, 3, 3])):
        versions = {**cache_key._cuda_versions(), part: value}
        monkeypatch.setattr(cache_key, "_cuda_versions", lambda versions=versions: versions)
        assert cache_key.key(kernel, cuda) != before[0], part
        assert cache_key.key(kernel, cpu) == before[1], part
        monkeypatch.undo()
    assert cache_key.key(kernel, cuda) == before[0]


def test_the_cuda_versions_are_read_once_and_named():
    found = cache_key._cuda_versions()
    assert sorted(found) == ["cuda_toolkit", "nvvm", "nvvm_ir"]
    assert cache_key._cuda_versions() is found
