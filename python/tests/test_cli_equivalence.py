"""The Python module and `barracuda run` give the same numbers, bit for bit, for the same
case and steps: both drive sim::Simulation; only the loop around it differs."""
import pathlib
import tomllib

import numpy as np
import pytest

import barracuda
from conftest import BACKENDS, SOURCE, channel, run_cli


def cli_fields(tmp_path, case_file, steps, backend, overrides=()):
    out = tmp_path / "cli-out"
    args = ["run", str(case_file), "--backend", backend, "--out", str(out), "--quiet"]
    for o in overrides:
        args += ["--set", o]
    run_cli(*args)
    return barracuda.read_vti(out / f"fields_{steps:08d}.vti")


def case_for_steps(tmp_path, case, steps):
    """The case as a file that runs `steps` steps with output at the end only (an SI
    case's run.time replaced by run.steps)."""
    data = tomllib.loads(case.read_text()) if isinstance(case, pathlib.Path) else case
    run = data.setdefault("run", {})
    run.pop("time", None)
    run["steps"] = steps
    run["steady_tolerance"] = 0
    out = data.setdefault("output", {})
    out.pop("period", None)
    out["interval"] = 0
    data.pop("average", None)
    f = tmp_path / "case.toml"
    f.write_text(barracuda.case_toml(data))
    return f


CASES = [
    # (case file or dict, steps, overrides): FP64 TRT with an obstacle, FP32 MRT 3D,
    # FP16 storage in place, a thermal case in SI units (temperature, m/s, kg/m^3).
    ("channel", 120, ()),
    (SOURCE / "cases" / "sphere3d.toml", 40, ("domain.size=[48, 24, 24]", "obstacle[0].center=[12, 12, 12]",
                                              "obstacle[0].radius=4", "model.collision=mrt")),
    (SOURCE / "cases" / "cavity2d_re100.toml", 200, ("model.precision=fp16", "model.streaming=in-place")),
    (SOURCE / "cases" / "heated_cavity.toml", 60, ("domain.size=[24, 24]",)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case,steps,overrides", CASES, ids=["channel-fp64", "sphere-mrt-fp32", "cavity-fp16",
                                                             "heated-cavity"])
def test_python_equals_cli(tmp_path, backend, case, steps, overrides):
    case = case_for_steps(tmp_path, channel() if case == "channel" else case, steps)
    ref = cli_fields(tmp_path, case, steps, backend, overrides)
    o = dict(x.split("=", 1) for x in overrides)
    sim = barracuda.Simulation.from_file(case, {k: _value(v) for k, v in o.items()}, backend=backend)
    sim.step(steps)
    # The CLI writes float64; an FP32/FP16 engine's float32 values convert exactly.
    assert np.array_equal(sim.density().astype(np.float64), ref["density"])
    assert np.array_equal(sim.velocity().astype(np.float64), ref["velocity"])
    assert np.array_equal(sim.node_kinds(), ref["node_kind"])
    if "temperature" in ref:
        assert np.array_equal(sim.temperature(), ref["temperature"])


def _value(text):
    try:
        return tomllib.loads("x = " + text)["x"]
    except Exception:
        return text
