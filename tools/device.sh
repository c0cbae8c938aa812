#!/usr/bin/env bash
# Everything the GPU machine runs, in one script (through the device tool, with
# .deps/ from tools/stage-device-deps.sh carried when the machine lacks Debian's
# packages). Give one or more modes; each builds what it needs once into
# build-device/ (kept while the machine stays warm) and writes logs to $OUT
# (or ./device-out):
#
#   build     configure and build every target, as the README's build command does
#             (-j$(nproc), sm_90); build.log with the build's wall time and binary sizes
#   tests     the GPU-vs-CPU oracle tests (gpu_tests.txt; the largest difference per
#             precision) and the default case on the GPU (info.txt)
#   bench     `barracuda bench` sets, each with its copy-bandwidth probe:
#             BENCH="..." one set of bench options, else the sets behind
#             docs/performance.md (bench_*.json, summarised)
#   validate  `barracuda validate --full --backend cuda` for the cases after `--`
#             (report.md, report.json, validation.tar.gz with the plots)
#   scaling   two GPUs (nvidia-h200-x2): MPI decomposition tests (CPU backend on 1/2/4
#             ranks, and on the GPUs one rank each), 2-rank GPU runs against 1 rank bit
#             for bit (a sphere's forces; a sparse sphere pack's permeability and probes),
#             weak and strong scaling (SCALING_SIZE, 512)
#   multiphase  two GPUs: the multiphase models' decomposition tests (CPU backend, 1/2
#             ranks) and their cases on 1 and 2 GPUs, multiphase.csv compared bit for bit
#   perf      the compiler's register and spill report of the stream-collide
#             kernels and, with NCU="<barracuda command>", an Nsight Compute profile
#   live      the live view (barracuda run --serve): its tests (the CUDA slice against
#             the CPU's) and tools/live_overhead.py (the solver with and without viewers)
#   python    the Python module (python3 there has nanobind, numpy, pytest): its
#             tests on the GPU and the CPU (pytest.txt) and the benchmark of stepping
#             and fetching against the CLI at 256^3 (docs/performance.md#python)
#
# Environment: BARRACUDA_CUDA_UNITS (a subset of the CUDA engines, CMake's option),
# BARRACUDA_COMMIT (the commit reports name), BENCH, NCU, SCALING_SIZE.
#   bash tools/device.sh build tests bench
#   bash tools/device.sh validate -- kida-vortex cavity3d-re1000
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-out}
mkdir -p "$out"
modes=() cases=()
while [ $# -gt 0 ]; do
  case $1 in
    --) shift; cases=("$@"); break ;;
    build|tests|bench|validate|scaling|multiphase|perf|python|live) modes+=("$1") ;;
    *) echo "usage: $0 MODE... [-- CASE...]  (modes: build tests bench validate scaling multiphase perf python live)" >&2; exit 2 ;;
  esac
  shift
done
[ ${#modes[@]} -gt 0 ] || { echo "usage: $0 MODE... [-- CASE...]" >&2; exit 2; }
has() { local m; for m in "${modes[@]}"; do [ "$m" = "$1" ] && return 0; done; return 1; }

# CMake options for the packages staged in .deps/ where the machine lacks them.
extra=()
source tools/device-deps.sh
[ -n "${BARRACUDA_CUDA_UNITS:-}" ] && extra+=(-DBARRACUDA_CUDA_UNITS="$BARRACUDA_CUDA_UNITS")
has perf && extra+=(-DCMAKE_CUDA_FLAGS="-Xptxas -v" -DBARRACUDA_LINEINFO=ON)
{ has scaling || has multiphase; } || extra+=(-DBARRACUDA_MPI=OFF)
# The module is linked by the system's g++ when there is one: the machine's default
# compiler (/opt/gcc) has only a static libstdc++ in its link path.
if has python; then
  extra+=(-DBARRACUDA_PYTHON=ON)
  [ -x /usr/bin/g++-13 ] && extra+=(-DCMAKE_CXX_COMPILER=/usr/bin/g++-13)
fi

targets=(barracuda)
{ has tests || has scaling || has perf; } && targets+=(barracuda_gpu_tests)
{ has scaling || has multiphase; } && targets+=(barracuda_mpi_tests)
has python && targets+=(_core)
has live && targets+=(barracuda_live_tests)
has build && targets=(all)
{
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
  git log -1 --format='commit %H %s' 2>/dev/null
  nproc
  cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DBARRACUDA_COMMIT="${BARRACUDA_COMMIT:-}" "${extra[@]}"
  start=$(date +%s)
  cmake --build build-device -j"$(nproc)" --target "${targets[@]}"
  echo "build wall time: $(( $(date +%s) - start )) s on $(nproc) cores"
  ls -l build-device/src/barracuda build-device/tests/barracuda_gpu_tests 2>/dev/null || true  # the tests only when built
} > "$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
grep -E "configurations offered|CUDA engines of|build wall time" "$out/build.log"
# Per-target compile times (ninja's log: start and end in ms), the slowest first.
awk 'NR > 1 { printf "%8.1f s  %s\n", ($2 - $1) / 1000, $4 }' build-device/.ninja_log | sort -rn > "$out/compile_times.txt"
head -5 "$out/compile_times.txt"
ls -l build-device/src/barracuda | awk '{printf "barracuda: %.1f MB\n", $5 / 1e6}'
bin=$PWD/build-device/src/barracuda
# The live view's library needs OpenSSL and brotli; where the machine lacks them, the
# staged ones (tools/stage-device-deps.sh).
if ldd "$bin" | grep -q "not found"; then
  export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "staged libraries on LD_LIBRARY_PATH: $(ldd "$bin" | grep -c 'not found') still missing"
fi

if has multiphase; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  echo "== multiphase decomposition tests (CPU backend), 1/2 ranks"
  for n in 1 2; do
    OMP_NUM_THREADS=4 mpirun -np $n --oversubscribe build-device/tests/barracuda_mpi_tests --gtest_color=no \
      --gtest_filter='*FreeEnergy*:*ShanChen*' > "$out/mpi_multiphase_$n.txt" 2>&1
    echo "  $n ranks: $(grep -E '^\[  (PASSED|FAILED)' "$out/mpi_multiphase_$n.txt" | tr '\n' ' ')"
  done
  echo "== multiphase cases on 1 and 2 GPUs (200 steps; multiphase.csv compared)"
  for c in free_energy_sessile_drop free_energy_drop3d binary_drop3d droplet3d spinodal2d; do
    for n in 1 2; do
      (cd /tmp && mpirun -np $n $bin run "$OLDPWD/cases/$c.toml" --backend cuda -q --set run.steps=200 \
        --set output.interval=100 --out /tmp/mp-$c-$n) > "$out/mp_${c}_$n.txt" 2>&1 || echo "  $c on $n GPU(s): exit $?"
    done
    if cmp -s /tmp/mp-$c-1/multiphase.csv /tmp/mp-$c-2/multiphase.csv; then echo "  $c: 1 and 2 GPUs agree"
    else echo "  $c: 1 and 2 GPUs DIFFER"; diff /tmp/mp-$c-1/multiphase.csv /tmp/mp-$c-2/multiphase.csv | head -6; fi
    cp /tmp/mp-$c-2/multiphase.csv "$out/mp_${c}_2gpu.csv" 2>/dev/null
  done
fi

if has perf; then
  echo "== registers and spills of the stream-collide kernels"
  grep -A2 "bulk_kernel\|boundary_kernel\|record_warp_kernel\|reflecting_kernel" "$out/build.log" | grep -E "registers|spill" | sort | uniq -c | sort -rn | head -8
fi

if has tests; then
  echo "== GPU oracle tests"
  build-device/tests/barracuda_gpu_tests > "$out/gpu_tests.txt" 2>&1
  echo "exit code $?"
  grep -E "^\[  (PASSED|FAILED)|FAILED  \]|combinations" "$out/gpu_tests.txt" | tail -12
  for p in fp64 fp32 fp16; do
    echo -n "  $p max rel diff: "
    grep " $p .*max rel diff" "$out/gpu_tests.txt" | awk '{for(i=1;i<=NF;i++) if($i=="diff") print $(i+1)}' | sort -g | tail -1
  done
  { $bin info; echo "== default case"; (cd /tmp && time $bin run -q --out /tmp/default-run) 2>&1 | tail -6; } > "$out/info.txt" 2>&1
  tail -8 "$out/info.txt"
fi

summarise() {
  python3 - "$@" <<'PY'
import json, sys
for path in sys.argv[1:]:
    d = json.load(open(path))
    c = d["copy_bandwidth"]
    print(f'{path.split("/")[-1]}: {d.get("device", "")} commit {d.get("commit", "?")}; copy {c["kernel_gbps"]:.0f} GB/s kernel, {c["memcpy_gbps"]:.0f} GB/s cudaMemcpy')
    for r in d["results"]:
        if "mlups" not in r:
            print("  ", r.get("lattice"), r.get("collision"), r.get("precision"), r.get("streaming"), r.get("size"), r.get("reason", r.get("failed")))
            continue
        extra = (" + " + r["scalar"] if r.get("scalar", "none") != "none" else "") + \
                (f' LES {r["smagorinsky"]:g}' if r.get("smagorinsky", 0) else "")
        print(f'   {r["lattice"]} {r["collision"]} {r["precision"]} {r["streaming"]:9} {r["size"]:5} {r["mlups"]:9.0f} MLUPS'
              f' {r["effective_gbps"]:6.0f} GB/s {r["percent_of_copy"]:5.1f}% {r["bytes_per_cell"]:4.0f} B/update'
              f' {r["memory_bytes_per_cell"]:5.1f} B/cell{extra}')
PY
}

if has bench; then
  echo "== bench"
  if [ -n "${BENCH:-}" ]; then
    # shellcheck disable=SC2086  # BENCH is a list of options
    $bin bench --json $BENCH > "$out/bench.json" 2> "$out/bench.err"
    summarise "$out/bench.json"
  else
    $bin bench --json --lattice D3Q19 --precision fp32,fp16,fp64 --streaming two-copy,in-place \
      --size 64,128,256,384 > "$out/bench_d3q19.json" 2> "$out/bench.err"
    $bin bench --json --lattice D3Q15,D3Q19,D3Q27 --collision bgk,trt,mrt --precision fp32 \
      --streaming two-copy,in-place --size 256 > "$out/bench_models.json" 2>> "$out/bench.err"
    $bin bench --json --lattice D2Q9 --precision fp32,fp16,fp64 --streaming two-copy,in-place \
      --size 4096 > "$out/bench_d2q9.json" 2>> "$out/bench.err"
    summarise "$out"/bench_*.json
  fi
  tail -3 "$out/bench.err"
fi

if has validate; then
  echo "== validate --full ${cases[*]}"
  rm -rf /tmp/validation
  rc=0
  $bin validate --full --backend cuda --out /tmp/validation "${cases[@]}" > "$out/validate.log" 2>&1 || rc=$?
  grep -v '^  ' "$out/validate.log"
  cp /tmp/validation/report.md /tmp/validation/report.json "$out/" 2>/dev/null
  tar -C /tmp -czf "$out/validation.tar.gz" validation
  echo "validate exit code $rc"
fi

if has scaling; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  size=${SCALING_SIZE:-512}
  echo "== MPI decomposition tests (CPU backend), 1/2/4 ranks"
  for n in 1 2 4; do
    OMP_NUM_THREADS=4 mpirun -np $n --oversubscribe build-device/tests/barracuda_mpi_tests --gtest_color=no > "$out/mpi_tests_$n.txt" 2>&1
    echo "  $n ranks: $(grep -E '^\[  (PASSED|FAILED)' "$out/mpi_tests_$n.txt" | tr '\n' ' ')"
  done
  gpus=$(nvidia-smi -L | wc -l)
  echo "== MPI decomposition tests on the GPUs ($gpus ranks, one GPU each; rank 0's whole box on its GPU)"
  BARRACUDA_TEST_BACKEND=cuda timeout 300 mpirun -np "$gpus" build-device/tests/barracuda_mpi_tests --gtest_color=no > "$out/mpi_tests_gpu.txt" 2>&1
  echo "  $gpus GPUs: $(grep -E '^\[  (PASSED|FAILED)' "$out/mpi_tests_gpu.txt" | tr '\n' ' ')"
  echo "== 2 GPUs against 1 GPU, sparse storage (sphere pack, permeability and probes)"
  sparse=(--set run.steps=600 --set output.interval=200 --set 'output.formats=["vti"]' --set run.steady_tolerance=0
          --set 'probes.points=[[10, 20, 30], [64, 64, 100], [100, 40, 70]]' --set probes.interval=50 -q)
  (cd /tmp && $bin run "$OLDPWD/cases/sphere_pack.toml" "${sparse[@]}" --backend cuda --out /tmp/sparse1) > "$out/sparse1.txt" 2>&1
  (cd /tmp && timeout 300 mpirun -np 2 $bin run "$OLDPWD/cases/sphere_pack.toml" "${sparse[@]}" --backend cuda --out /tmp/sparse2) > "$out/sparse2.txt" 2>&1
  for f in permeability.csv probes.csv; do
    if cmp -s /tmp/sparse1/$f /tmp/sparse2/$f; then echo "  $f identical"; else echo "  $f DIFFER"; fi
  done
  cp /tmp/sparse1/permeability.csv "$out/sparse1_permeability.csv" 2>/dev/null
  echo "== 2 GPUs against 1 GPU, bit for bit (sphere in a periodic channel, forces)"
  common=(--set model.collision=trt --set run.steps=600 --set output.interval=300 --set 'forces.obstacles=["sphere"]'
          --set forces.reference_velocity=0.05 --set forces.reference_area=113.1 --set forces.interval=100
          --set 'output.formats=["vti"]' -q)
  (cd /tmp && $bin run "$OLDPWD/cases/sphere3d.toml" "${common[@]}" --backend cuda --out /tmp/gpu1) > "$out/gpu1.txt" 2>&1
  (cd /tmp && mpirun -np 2 $bin run "$OLDPWD/cases/sphere3d.toml" "${common[@]}" --backend cuda --out /tmp/gpu2) > "$out/gpu2.txt" 2>&1
  if cmp -s /tmp/gpu1/forces.csv /tmp/gpu2/forces.csv; then echo "  forces.csv identical"; else echo "  forces.csv DIFFER"; fi
  echo "== bench D3Q19 FP32: 1 GPU, 2 GPUs weak, 2 GPUs strong (size $size)"
  b=(bench --json --lattice D3Q19 --precision fp32 --collision bgk --size "$size" --steps 200 --repetitions 5)
  $bin "${b[@]}" > "$out/scaling_1gpu.json" 2> "$out/bench.err"
  mpirun -np 2 $bin "${b[@]}" --weak > "$out/scaling_2gpu_weak.json" 2>> "$out/bench.err"
  mpirun -np 2 $bin "${b[@]}" > "$out/scaling_2gpu_strong.json" 2>> "$out/bench.err"
  summarise "$out"/scaling_*.json
fi

if has python; then
  echo "== Python module"
  export PYTHONPATH=$PWD/build-device/python BARRACUDA_EXE=$bin BARRACUDA_SOURCE_DIR=$PWD PYTHONDONTWRITEBYTECODE=1
  python3 -m pytest -q -p no:cacheprovider python/tests > "$out/pytest.txt" 2>&1
  echo "pytest exit code $?"; tail -3 "$out/pytest.txt"
  PYTHONUNBUFFERED=1 python3 python/benchmarks/step_overhead.py --size 256 --exe "$bin" --backend cuda \
    --steps 1000 --repetitions 3 2>&1 | tee "$out/python_bench.txt"
fi

if has live; then
  echo "== live view"
  build-device/tests/barracuda_live_tests > "$out/live_tests.txt" 2>&1
  echo "live tests exit code $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED)|FAILED  \]|OK \] LiveSlice.Cuda" "$out/live_tests.txt"
  PYTHONUNBUFFERED=1 python3 tools/live_overhead.py --exe "$bin" --backend cuda ${LIVE_ARGS:-} 2>&1 | tee "$out/live_overhead.txt"
fi

if has perf && [ -n "${NCU:-}" ] && command -v ncu >/dev/null; then
  echo "== ncu"
  # shellcheck disable=SC2086  # NCU is a command line
  ncu --kernel-name regex:"bulk_kernel|boundary_kernel|record_warp_kernel|reflecting_kernel" --launch-skip 40 --launch-count 6 \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,launch__registers_per_thread,launch__grid_size,sm__warps_active.avg.pct_of_peak_sustained_active \
    $NCU > "$out/ncu.txt" 2>&1
  grep -E "_kernel<|duration|bytes|pct|inst_executed|registers|grid_size" "$out/ncu.txt" | sed "s/  */ /g" | cut -c1-150 | head -70
fi
