"""The Python API: cases in, numpy out, changes between steps, errors as exceptions."""
import os
import signal
import threading
import time

import numpy as np
import pytest

import barracuda
from conftest import BACKENDS, SOURCE, channel, run_cli


def test_default_case_and_info():
    sim = barracuda.Simulation(backend="cpu")  # the built-in 48^3 cavity
    info = sim.info
    assert info["size"] == (48, 48, 48) or list(info["size"]) == [48, 48, 48]
    assert info["lattice"] == "D3Q19" and info["backend"] == "cpu" and info["dtype"] == "float32"
    assert info["memory_bytes"] > 48**3 * 19 * 4  # two copies of 19 float populations at least
    assert sim.time == 0
    assert "Lid-driven cavity" in repr(sim)


@pytest.mark.parametrize("backend", BACKENDS)
def test_fields_shape_dtype_and_order(backend):
    sim = barracuda.Simulation(channel(), backend=backend)
    assert sim.step(30) == 30
    rho, u, kinds = sim.density(), sim.velocity(), sim.node_kinds()
    assert rho.shape == (48, 20, 1) and rho.dtype == np.float64
    assert u.shape == (48, 20, 1, 3) and u.dtype == np.float64
    assert kinds.shape == (48, 20, 1) and kinds.dtype == np.uint8
    # (x, y, z) order: the inlet column is the velocity face, the disc solid at its centre.
    assert (kinds[0, 1:-1, 0] == 3).all() and (kinds[-1, 1:-1, 0] == 4).all()
    assert kinds[12, 9, 0] == 1 and rho[12, 9, 0] == 1.0 and (u[12, 9, 0] == 0).all()
    # The inflow: ux = 0.04 on the inlet's inner nodes (Zou-He imposes it exactly).
    assert np.allclose(u[0, 5:15, 0, 0], 0.04, rtol=0, atol=1e-12)
    # FP32 storage gives float32 fields.
    s32 = barracuda.Simulation(channel(precision="fp32"), backend=backend)
    assert s32.velocity().dtype == np.float32 and s32.density().dtype == np.float32


def test_case_from_file_with_overrides():
    sim = barracuda.Simulation.from_file(SOURCE / "cases" / "cavity2d_re100.toml",
                                         {"model.collision": "mrt", "domain.size": [32, 32]}, backend="cpu")
    assert "mrt" in sim.info["description"] and list(sim.info["size"])[:2] == [32, 32]
    sim.step(10)
    assert np.isfinite(sim.velocity()).all()


def test_bad_case_is_a_value_error_with_the_cli_message(tmp_path):
    case = channel()
    case["model"]["collision"] = "bgkk"
    with pytest.raises(ValueError) as e:
        barracuda.Simulation(case, backend="cpu")
    assert isinstance(e.value, barracuda.CaseError)
    assert "model.collision" in str(e.value) and "bgkk" in str(e.value)
    # The CLI says the same about the same file.
    f = tmp_path / "bad.toml"
    f.write_text(barracuda.case_toml(case))
    r = run_cli("run", str(f), "--backend", "cpu", "--out", str(tmp_path / "out"), check=False)
    assert r.returncode != 0
    with pytest.raises(ValueError) as e2:
        barracuda.Simulation.from_file(f, backend="cpu")
    assert f"error: {e2.value}" in r.stderr
    with pytest.raises(ValueError, match="backend"):
        barracuda.Simulation(channel(), backend="gpu")
    with pytest.raises(ValueError, match="nonsense"):
        barracuda.Simulation(channel(), overrides={"model.nonsense": 1}, backend="cpu")


def test_divergence_error_names_step_cell_and_field():
    case = channel(collision="bgk", viscosity=0.0005)  # tau = 0.5015: BGK blows up
    case["boundary"]["x_min"]["velocity"] = [0.3, 0.0]
    sim = barracuda.Simulation(case, backend="cpu")
    with pytest.raises(barracuda.DivergenceError) as e:
        sim.run(5000, every=50)
    err = e.value
    assert isinstance(err, RuntimeError)
    assert err.step % 50 == 0 and 0 < err.step <= 5000
    assert len(err.cell) == 3 and 0 <= err.cell[0] < 48 and 0 <= err.cell[1] < 20
    assert err.field in ("density", "velocity")
    assert f"step {err.step}" in str(err) and f"cell ({err.cell[0]}, {err.cell[1]}, 0)" in str(err)


def test_run_calls_back_every_n_steps():
    sim = barracuda.Simulation(channel(), backend="cpu")
    seen = []
    sim.run(100, callback=lambda s: seen.append(s.time), every=25)
    assert seen == [25, 50, 75, 100]
    # A callback that raises stops the run where it is.
    def stop(s):
        if s.time >= 150:
            raise StopIteration
    with pytest.raises(StopIteration):
        sim.run(1000, callback=stop, every=25)
    assert sim.time == 150


def test_set_solid_from_a_mask():
    case = channel()
    del case["obstacle"], case["forces"]
    x, y = np.meshgrid(np.arange(48), np.arange(20), indexing="ij")
    mask = ((x - 12) ** 2 + (y - 9.5) ** 2 <= 9)[:, :, None]
    case["forces"] = {"obstacles": ["blob"], "reference_velocity": 0.04, "reference_area": 6}
    sim = barracuda.Simulation(case, backend="cpu", solid=mask, solid_name="blob")
    assert ((sim.node_kinds() == 1) == mask).all()
    # The same disc as the case's cylinder obstacle: the same flow, bit for bit.
    ref = barracuda.Simulation(channel(), backend="cpu")
    sim.step(40), ref.step(40)
    assert np.array_equal(sim.velocity(), ref.velocity())
    assert np.array_equal(sim.forces()["blob"], ref.forces()["disc"])
    with pytest.raises(ValueError, match="before the first step"):
        sim.set_solid(mask)
    with pytest.raises(ValueError, match="shape"):
        barracuda.Simulation(case, backend="cpu", solid=mask[:10], solid_name="blob")


@pytest.mark.parametrize("backend", BACKENDS)
def test_boundary_values_change_between_steps(backend):
    sim = barracuda.Simulation(channel(), backend=backend)
    sim.step(50)
    before = sim.velocity().copy()
    sim.set_boundary_value("x_min", velocity=[0.06, 0.0])
    # The state carries on: inside, the fields are those of step 50 until the next step
    # (the inlet's nodes report the face's new velocity at once).
    assert np.array_equal(sim.velocity()[1:], before[1:]) and sim.time == 50
    sim.step(1)
    assert np.allclose(sim.velocity()[0, 5:15, 0, 0], 0.06, atol=1e-12)
    # As a case that had 0.06 from step 50 on would give: checkpoint, restart, change.
    sim.update({"boundary.x_max.density": 1.001, "force.body": [1e-6, 0]})
    sim.step(5)
    with pytest.raises(ValueError, match=r"\[model\]"):
        sim.update({"model.collision": "bgk"})
    with pytest.raises(ValueError, match="types or methods"):
        sim.update({"boundary.y_min.type": "free_slip"})
    with pytest.raises(ValueError, match="face"):
        sim.set_boundary_value("left", velocity=[0.1, 0])
    assert sim.time == 56  # refusals change nothing
    sim.step(1)


def test_update_is_the_same_as_the_case_with_the_new_value_from_the_start_of_the_change(tmp_path):
    # Steering keeps the state bit for bit: run A changes the inflow at step 30; run B
    # restarts A's checkpoint of step 30 with the new inflow in its case.
    a = barracuda.Simulation(channel(), backend="cpu")
    a.step(30)
    a.checkpoint(tmp_path / "a.ckpt")
    a.set_boundary_value("x_min", velocity=[0.05, 0.0])
    a.step(20)
    b = barracuda.Simulation.restart(tmp_path / "a.ckpt", backend="cpu")
    assert b.time == 30
    b.update({"boundary.x_min.velocity": [0.05, 0.0]})
    b.step(20)
    assert np.array_equal(a.velocity(), b.velocity()) and np.array_equal(a.density(), b.density())


@pytest.mark.parametrize("backend", BACKENDS)
def test_checkpoint_and_restart_bit_for_bit(tmp_path, backend):
    case = channel(precision="fp16", collision="bgk")
    case["model"]["lattice"] = "D2Q9"
    x, y = np.meshgrid(np.arange(48), np.arange(20), indexing="ij")
    mask = ((x > 30) & (x < 34) & (y > 4) & (y < 9))[:, :, None]
    whole = barracuda.Simulation(case, backend=backend, solid=mask)
    whole.step(60)
    half = barracuda.Simulation(case, backend=backend, solid=mask)
    half.step(25)
    half.checkpoint(tmp_path / "c.ckpt")
    del half
    again = barracuda.Simulation.restart(tmp_path / "c.ckpt", backend=backend)
    assert again.time == 25 and (again.node_kinds() == whole.node_kinds()).all()
    again.step(35)
    assert np.array_equal(again.velocity(), whole.velocity())
    with pytest.raises(ValueError, match="does not exist"):
        barracuda.Simulation.restart(tmp_path / "none.ckpt")


def test_forces_and_observe():
    sim = barracuda.Simulation(channel(), backend="cpu")
    sim.step(200)
    f = sim.forces()
    assert list(f) == ["disc"] and f["disc"].shape == (3,)
    assert f["disc"][0] > 0  # drag along the flow
    o = sim.observe()
    assert 0.03 < o["u_max"] < 0.2 and o["rho_min"] <= o["mean_density"] <= o["rho_max"]


def test_ctrl_c_interrupts_a_long_step_cleanly():
    sim = barracuda.Simulation(backend="cpu")  # 48^3: about 100 ms a step on 2 cores or less
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        sim.step(100000)
    took = time.monotonic() - t0
    timer.join()
    assert took < 5, f"the interrupt took {took:.1f} s"
    t = sim.time
    assert 0 < t < 100000
    sim.step(1)  # it goes on from a whole step
    assert sim.time == t + 1


def test_the_gil_is_released_while_stepping():
    sim = barracuda.Simulation(backend="cpu")
    count = 0
    done = threading.Event()

    def spin():
        nonlocal count
        while not done.is_set():
            count += 1

    t = threading.Thread(target=spin)
    t.start()
    before = count
    sim.step(5)
    progressed = count - before
    done.set()
    t.join()
    assert progressed > 1000, "another Python thread could not run while the engine stepped"


def test_help_is_useful():
    doc = barracuda.Simulation.__doc__
    assert "case" in doc and "backend" in doc
    for m in ("step", "run", "density", "velocity", "node_kinds", "set_solid", "set_boundary_value", "forces",
              "checkpoint", "restart", "update"):
        assert getattr(barracuda.Simulation, m).__doc__, m


def test_one_call_at_a_time_across_threads():
    sim = barracuda.Simulation(backend="cpu")
    errors = []

    def long_step():
        sim.step(300)

    t = threading.Thread(target=long_step)
    t.start()
    time.sleep(0.2)  # the other thread is stepping, the GIL released
    try:
        sim.velocity()
    except RuntimeError as e:
        errors.append(str(e))
    t.join()
    assert errors and "another thread" in errors[0]
    assert sim.time == 300 and sim.velocity().shape == (48, 48, 48, 3)


def test_a_checkpoint_holds_the_case_text(tmp_path):
    f = tmp_path / "case.toml"
    f.write_text(barracuda.case_toml(channel()))
    sim = barracuda.Simulation.from_file(f, backend="cpu")
    sim.step(10)
    sim.checkpoint(tmp_path / "c.ckpt")
    f.write_text("this is no longer the case")  # the restart does not read the file again
    again = barracuda.Simulation.restart(tmp_path / "c.ckpt", backend="cpu")
    sim.step(10), again.step(10)
    assert np.array_equal(sim.velocity(), again.velocity())


def test_case_toml_reads_back_as_the_dict():
    import tomllib
    case = {
        "title": 'quotes " and \\ and\ttabs',
        "model": {"lattice": "D3Q19", "tau": 0.5 + 1e-12, "mrt": {"s_e": 1.19}},
        "domain": {"size": [8, 9, 10], "periodic": [True, False, False]},
        "obstacle": [{"name": "a", "shape": "sphere", "center": [1.5, 2, 3], "radius": 2},
                     {"name": "b", "shape": "box", "min": [0, 0, 0], "max": [1, 1, 1], "velocity": [0.0, 1e-3, -2.5e-7]}],
        "boundary": {"x_min": {"type": "velocity", "velocity": ["0.05 * sin(t / 100)", 0, 0]}},
        "run": {"steps": np.int64(10), "check_interval": 5},
    }
    back = tomllib.loads(barracuda.case_toml(case))
    case["run"]["steps"] = 10
    assert back == case
    with pytest.raises(TypeError, match="run.x"):
        barracuda.case_toml({"run": {"x": object()}})


def test_a_failed_set_solid_leaves_the_simulation_usable():
    sim = barracuda.Simulation(channel(), backend="cpu")
    with pytest.raises(ValueError, match="no fluid"):
        sim.set_solid(np.ones((48, 20), dtype=bool))  # every node solid
    sim.step(3)  # the simulation as it was
    assert sim.time == 3 and (sim.node_kinds()[12, 9, 0] == 1)


def test_ctrl_c_is_seen_between_checks_of_run():
    sim = barracuda.Simulation(channel(), backend="cpu")  # a small case: every segment is one chunk
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        sim.run(10_000_000, every=1)
    timer.join()
    assert time.monotonic() - t0 < 5 and sim.time < 10_000_000


def test_a_bad_expression_raises_a_divergence_without_a_cell():
    case = channel()
    case["boundary"]["x_min"]["velocity"] = ["0.01 / (t - 3)", 0]  # infinite at t = 3
    sim = barracuda.Simulation(case, backend="cpu")
    with pytest.raises(barracuda.DivergenceError) as e:
        sim.step(10)
    assert e.value.field == "expression" and e.value.cell is None and e.value.step == 3
    assert "boundary.x_min.velocity" in str(e.value)


def test_case_toml_numpy_bools_and_unicode_keys():
    import tomllib
    case = {"model": {"flag": np.True_}, "é": {"x": [np.False_, True]}}
    assert tomllib.loads(barracuda.case_toml(case)) == {"model": {"flag": True}, "é": {"x": [False, True]}}
