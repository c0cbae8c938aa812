#!/usr/bin/env python3
"""What stepping from Python costs against the command line, and what fetching a field
costs against one device-to-host copy of its bytes (docs/python.md, issue 24).

    PYTHONPATH=build/python python3 python/benchmarks/step_overhead.py --size 256 --exe build/src/barracuda

1. `barracuda bench --size N --json` (the engine stepped alone, median of repetitions);
2. the same periodic box from Python: step(n) in one call, and loops of step(k), each
   timed as MLUPS (median of repetitions), against 1;
3. velocity() and density() of the box, against `cudaMemcpy` of the same bytes from
   device to pageable host memory, timed by bench_copy below through numpy (the
   copy the module makes, without the kernel before it).
"""
import argparse
import json
import statistics
import subprocess
import time

import numpy as np

import barracuda


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--size", type=int, default=256)
    p.add_argument("--precision", default="fp32")
    p.add_argument("--streaming", default="two-copy")
    p.add_argument("--steps", type=int, default=1000)
    p.add_argument("--repetitions", type=int, default=5)
    p.add_argument("--exe", default="barracuda")
    p.add_argument("--backend", default="auto")
    a = p.parse_args()
    n = a.size

    cli = json.loads(subprocess.run(
        [a.exe, "bench", "--size", str(n), "--precision", a.precision, "--streaming", a.streaming,
         "--backend", a.backend, "--steps", str(a.steps), "--repetitions", str(a.repetitions), "--json"],
        check=True, capture_output=True, text=True).stdout)
    row = cli["results"][0] if "results" in cli else cli["configurations"][0]
    cli_mlups = row.get("mlups") or row.get("mlups_median")
    print(f"CLI bench: {cli_mlups:.0f} MLUPS ({row.get('engine', '')})")

    case = {"title": "python step overhead", "domain": {"size": [n, n, n], "periodic": [True] * 3},
            "model": {"lattice": "D3Q19", "precision": a.precision, "streaming": a.streaming, "tau": 0.6},
            "initial": {"velocity": [0.05, 0.02, 0.01]}, "run": {"check_interval": 100}}
    sim = barracuda.Simulation(case, backend=a.backend)
    print(sim)
    cells = n ** 3
    sim.step(a.steps // 4)  # warm-up
    results = {}
    for k in (a.steps, 100, 10, 1):
        rates = []
        for _ in range(a.repetitions):
            sim.observe()  # the device idle before the clock starts
            t0 = time.perf_counter()
            for _ in range(a.steps // k):
                sim.step(k)
            sim.observe()  # waits for the device; one reduction, excluded below
            t1 = time.perf_counter()
            t_obs0 = time.perf_counter()
            sim.observe()
            t_obs = time.perf_counter() - t_obs0
            rates.append(cells * a.steps / max(t1 - t0 - t_obs, 1e-9) / 1e6)
        results[k] = statistics.median(rates)
        print(f"python step({k}) x {a.steps // k}: {results[k]:.0f} MLUPS = {results[k] / cli_mlups:.4f} of the CLI's")

    # Fetching: velocity() (kernel + one copy into numpy) against a plain copy of the bytes.
    times_u, times_rho = [], []
    for _ in range(a.repetitions):
        t0 = time.perf_counter()
        u = sim.velocity()
        times_u.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        r = sim.density()
        times_rho.append(time.perf_counter() - t0)
    mb = u.nbytes / 1e6
    print(f"velocity(): {statistics.median(times_u) * 1e3:.1f} ms for {mb:.0f} MB "
          f"({mb / 1e3 / statistics.median(times_u):.1f} GB/s); density(): {statistics.median(times_rho) * 1e3:.1f} ms")
    if sim.info["backend"] == "cuda":
        copy = barracuda._core.download_seconds(u.nbytes, a.repetitions)
        print(f"cudaMemcpy device-to-host of {mb:.0f} MB into fresh pageable memory: {copy * 1e3:.1f} ms "
              f"({mb / 1e3 / copy:.1f} GB/s); velocity() / copy = {statistics.median(times_u) / copy:.2f}")
    assert np.isfinite(r).all()


if __name__ == "__main__":
    main()
