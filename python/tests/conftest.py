"""Shared pieces of the Python module's tests (run by ctest: python/CMakeLists.txt sets
PYTHONPATH to the build tree's package and BARRACUDA_EXE to the command line)."""
import os
import pathlib
import shutil
import subprocess

import pytest

import barracuda

SOURCE = pathlib.Path(os.environ.get("BARRACUDA_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


def cli() -> str:
    exe = os.environ.get("BARRACUDA_EXE") or shutil.which("barracuda")
    if not exe:
        pytest.skip("no barracuda executable (set BARRACUDA_EXE)")
    return exe


def run_cli(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    r = subprocess.run([cli(), *args], capture_output=True, text=True)
    if check and r.returncode != 0:
        raise AssertionError(f"barracuda {' '.join(args)} failed ({r.returncode}):\n{r.stderr}")
    return r


# The backends to test: the CPU always, the GPU where there is one (the device machine).
BACKENDS = ["cpu"] + (["cuda"] if barracuda.gpus() else [])


def channel(**model) -> dict:
    """A small 2D channel: Zou-He velocity inlet, pressure outlet, walls, a disc."""
    m = {"lattice": "D2Q9", "collision": "trt", "precision": "fp64", "viscosity": 0.04}
    m.update(model)
    return {
        "title": "channel",
        "model": m,
        "domain": {"size": [48, 20]},
        "boundary": {"x_min": {"type": "velocity", "velocity": [0.04, 0.0]},
                     "x_max": {"type": "pressure", "density": 1.0}},
        "obstacle": [{"name": "disc", "shape": "cylinder", "axis": "z", "center": [12, 9.5], "radius": 3}],
        "forces": {"obstacles": ["disc"], "reference_velocity": 0.04, "reference_area": 6},
        "run": {"steps": 100},
    }
