"""bench(), validate() and the example script from Python."""
import os
import pathlib
import subprocess
import sys

import pytest

import barracuda
from conftest import SOURCE


def test_bench_reports_speed_and_bandwidth():
    r = barracuda.bench(24, precision="fp32", steps=20, warmup=2, backend="cpu")
    assert r["backend"] == "cpu" and r["size"] == [24, 24, 24]
    assert r["mlups"] > 0 and r["bytes_per_cell_update"] >= 2 * 19 * 4
    # GB/s is MLUPS times the bytes the engine moves per cell update.
    assert r["gbps"] == pytest.approx(r["mlups"] * r["bytes_per_cell_update"] / 1e3)
    assert r["copy_gbps"] > 0 and 0 < r["percent_of_copy"] < 1000
    with pytest.raises(ValueError, match="precision"):
        barracuda.bench(8, precision="fp8", backend="cpu", copy=False)


def test_validation_cases_and_one_run():
    names = [c["name"] for c in barracuda.validation_cases()]
    assert "cavity2d-re100" in names and "schafer-turek-2d1" in names
    r = barracuda.validate("natural-convection-ra1e3", backend="cpu")
    assert r["passed"], r
    assert r["comparisons"] and all(c["passed"] for c in r["comparisons"])
    assert all(abs(c["error"]) <= c["tolerance"] for c in r["comparisons"])
    with pytest.raises(ValueError, match="no case named"):
        barracuda.validate("no-such-case")


def test_example_script_writes_its_plots(tmp_path):
    pytest.importorskip("matplotlib")
    env = dict(os.environ)
    r = subprocess.run([sys.executable, str(SOURCE / "examples" / "cylinder.py"), "--steps", "600", "--every", "100",
                        "--backend", "cpu", "--out", str(tmp_path)], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert "C_d =" in r.stdout
    for name in ("vorticity.png", "drag.png"):
        data = (tmp_path / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000, name
