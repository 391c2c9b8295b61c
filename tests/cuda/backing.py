"""Memory a kernel can reach, behind the stand-ins these tests make for other libraries' GPU arrays: the host's
on the simulator (whose device memory it is), the device's on a real GPU (CUVIL_GPU=1, bench/gpu_check.sh),
where a pointer into host memory would fault the kernel and every test after it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

GPU = os.environ.get("CUVIL_GPU") == "1"
ROOT = Path(__file__).resolve().parents[2]


def no_simulator_env() -> dict[str, str]:
    """A subprocess's environment where numba.cuda is the real one (compile_ptx, the no-device error): numba
    reads NUMBA_ENABLE_CUDASIM once per process, and this one simulates. Cuvil from this checkout's src/."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), str(ROOT)])
    return env


class Interface:
    """Another library's GPU array, as far as `__cuda_array_interface__` (version 3) goes: over a NumPy array's
    memory on the simulator, over a device copy of it on a GPU. `read()` gives its values as NumPy."""

    def __init__(self, array: np.ndarray, device: Any = None):
        self.array = array
        self.shape, self.dtype = array.shape, array.dtype  # what every such library has beside the interface
        if GPU and device is None:
            from numba import cuda

            device = cuda.to_device(array)
        self.device = device

    def view(self, key: Any) -> Interface:
        """`self[key]` over the same memory (a reversed view, say)."""
        return Interface(self.array[key], None if self.device is None else self.device[key])

    def read(self) -> np.ndarray:
        return self.array if self.device is None else self.device.copy_to_host()

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        if self.device is not None:
            return dict(self.device.__cuda_array_interface__)
        a = self.array
        return {"version": 3, "shape": a.shape, "typestr": a.dtype.str, "data": (a.ctypes.data, False),
                "strides": None if a.flags.c_contiguous else a.strides, "stream": None}


class DLPackOnly:
    """A GPU array that speaks only DLPack (JAX's kind): NumPy's capsule over host memory on the simulator, a
    torch CUDA tensor's on a GPU. It says it lives on CUDA device 0 either way, and counts the capsules taken."""

    def __init__(self, array: np.ndarray):
        self.array = array
        self.capsules = 0
        self.tensor = None
        if GPU:
            import torch

            self.tensor = torch.as_tensor(array).cuda()

    def __dlpack_device__(self) -> tuple[int, int]:
        return (2, 0)  # kDLCUDA, device 0

    def __dlpack__(self, stream: Any = None, **kwargs: Any) -> Any:
        self.capsules += 1
        if self.tensor is not None:
            return self.tensor.__dlpack__(stream=stream, **kwargs)
        kwargs.pop("max_version", None)
        return self.array.__dlpack__(**kwargs)

    def read(self) -> np.ndarray:
        return self.array if self.tensor is None else self.tensor.cpu().numpy()
