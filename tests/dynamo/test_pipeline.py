"""pipeline.py: the kernels' Numba pipeline drops passes a generated kernel never needs (the optimized code is
the same as with Numba's default pipeline), and their LLVM runs at -O1 for that compile alone, still vectorized."""

import importlib.util
import re
import sys

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional
numba = pytest.importorskip("numba")

import cuvil.dynamo as cd  # noqa: E402
from cuvil.dynamo import compiled as C  # noqa: E402
from cuvil.dynamo import pipeline  # noqa: E402


def many_ops(x, b):
    """A row nest (softmax, a mean) and elementwise ops of several kinds, where, clamp and pow among them."""
    y = torch.where(x > 0, F.gelu(x + b), torch.clamp(x, -1.0, 1.0) ** 2)
    return torch.softmax(y, -1) - y.mean(-1, keepdim=True)


def _kernel(tmp_path):
    x, b = torch.randn(6, 70, generator=torch.Generator().manual_seed(4)), torch.randn(70)
    with torch.no_grad():
        out = torch.compile(many_ops, backend="cuvil", dynamic=False)(x, b)
    expected = many_ops(x, b)
    assert out.dtype == expected.dtype == torch.float32 and out.shape == expected.shape == (6, 70)
    torch.testing.assert_close(out, expected, atol=1e-5, rtol=1e-5)
    (fused,) = cd.explain().fused
    return fused.source, list(C._COMPILED.values())[-1].spec.signature()


def _module(tmp_path, name, text):
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module.kernel


def _ir(kernel, signature, name):
    text = kernel.inspect_llvm(signature).replace(name, "M")
    return re.sub(r"B[0-9]+v[0-9]+B", "BvB", re.sub(r"^(source_filename|; ModuleID).*$", "", text, flags=re.M))


def test_the_pruned_pipeline_gives_the_default_pipelines_code(new_process, tmp_path):
    source, signature = _kernel(tmp_path)
    assert "pipeline_class=KernelCompiler" in source
    pruned = _module(tmp_path, "kernel_a", source)  # names of one length: they are in the mangled symbols
    default = _module(tmp_path, "kernel_b", source.replace(",\n             pipeline_class=KernelCompiler", ""))
    assert default.targetoptions.get("pipeline_class") is None
    pruned.compile(signature)
    default.compile(signature)
    assert _ir(pruned, signature, "kernel_a") == _ir(default, signature, "kernel_b")


def test_llvm_at_o1_for_the_kernel_alone_and_its_loops_still_vectorized(new_process, tmp_path):
    from numba.core import config

    before = config.OPT
    levels = []
    real = pipeline.KernelCompiler.define_pipelines

    def seen(self):
        if self.state.func_id.func_name == "kernel":  # not the vector math the prelude compiles meanwhile
            levels.append(int(config.OPT))
        return real(self)

    pipeline.KernelCompiler.define_pipelines = seen
    try:
        source, signature = _kernel(tmp_path)
    finally:
        pipeline.KernelCompiler.define_pipelines = real
    assert levels == [pipeline.LLVM_OPT] == [1]
    assert config.OPT == before and type(config.OPT) is type(before)
    kernel = list(C._COMPILED.values())[-1].fn
    assert re.search(r"<(4|8|16) x float>", kernel.inspect_llvm(signature))  # the vectorizers ran at -O1


def test_the_level_is_restored_when_the_compile_fails():
    from numba.core import config

    before = config.OPT

    class Fails:
        def compile(self, signature):
            assert int(config.OPT) == pipeline.LLVM_OPT
            raise ValueError("no kernel")

    with pytest.raises(ValueError, match="^no kernel$"):
        pipeline.compile_kernel(Fails(), ())
    assert config.OPT == before and type(config.OPT) is type(before)
