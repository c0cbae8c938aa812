#!/usr/bin/env bash
# The two-GPU run behind docs/performance.md's scaling section (issue 5), for the
# nvidia-h200-x2 machine: builds with MPI and CUDA, runs the GPU oracle tests,
# the MPI decomposition tests (CPU), a 2-rank GPU run checked against 1 rank bit
# for bit, then D3Q19 FP32 benchmarks: 1 GPU, 2 GPUs weak (a 512^3 block each),
# 2 GPUs strong (one 512^3 box). Writes logs and JSON to $OUT (or ./device-out).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-out}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
size=${SCALING_SIZE:-512}
source tools/device-cmake-deps.sh  # sets extra: CMake options for the staged .deps/
{
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
  nvidia-smi topo -m
  mpirun --version | head -1
  cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "${extra[@]}"
  targets=(barracuda barracuda_gpu_tests barracuda_mpi_tests)
  [ "${SCALING_ONLY:-0}" = 1 ] && targets=(barracuda)
  time cmake --build build-device -j32 --target "${targets[@]}"
} > "$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
grep -E "MPI|real" "$out/build.log" | head -5
bin=$PWD/build-device/src/barracuda

if [ "${SCALING_ONLY:-0}" != 1 ]; then
echo "== GPU oracle tests"
build-device/tests/barracuda_gpu_tests > "$out/gpu_tests.txt" 2>&1
grep -E "^\[  |FAILED|Failure" "$out/gpu_tests.txt" | tail -5
echo "== MPI decomposition tests (CPU backend), 1/2/4 ranks"
for n in 1 2 4; do
  OMP_NUM_THREADS=4 mpirun -np $n --oversubscribe build-device/tests/barracuda_mpi_tests --gtest_color=no > "$out/mpi_tests_$n.txt" 2>&1
  echo "  $n ranks: $(grep -E '^\[  (PASSED|FAILED)' "$out/mpi_tests_$n.txt" | tr '\n' ' ')"
done

echo "== 2 GPUs against 1 GPU, bit for bit (sphere in a periodic channel, forces)"
case=$PWD/cases/sphere3d.toml
common=(--set model.collision=trt --set run.steps=600 --set output.interval=300 --set 'forces.obstacles=["sphere"]' --set forces.reference_velocity=0.05
        --set forces.reference_area=113.1 --set forces.interval=100 --set 'output.formats=["vti"]' -q)
(cd /tmp && $bin run $case "${common[@]}" --backend cuda --out /tmp/gpu1) > "$out/gpu1.txt" 2>&1
(cd /tmp && mpirun -np 2 $bin run $case "${common[@]}" --backend cuda --out /tmp/gpu2) > "$out/gpu2.txt" 2>&1
tail -4 "$out/gpu2.txt"
if cmp -s /tmp/gpu1/forces.csv /tmp/gpu2/forces.csv; then echo "  forces.csv identical"; else echo "  forces.csv DIFFER"; diff /tmp/gpu1/forces.csv /tmp/gpu2/forces.csv | head -6; fi
cp /tmp/gpu1/forces.csv "$out/forces_1gpu.csv"; cp /tmp/gpu2/forces.csv "$out/forces_2gpu.csv"
fi

echo "== bench D3Q19 FP32: 1 GPU, 2 GPUs weak, 2 GPUs strong (size $size)"
b=(bench --json --lattice D3Q19 --precision fp32 --collision bgk --size $size --steps 200 --repetitions 5)
nvidia-smi --query-gpu=index,memory.used --format=csv > "$out/gpu_memory_idle.txt"
$bin "${b[@]}" > "$out/scaling_1gpu.json" 2> "$out/bench.err"
mpirun -np 2 $bin "${b[@]}" --weak > "$out/scaling_2gpu_weak.json" 2>> "$out/bench.err"
mpirun -np 2 $bin "${b[@]}" > "$out/scaling_2gpu_strong.json" 2>> "$out/bench.err"
python3 - "$out" <<'PY'
import json, sys
d = sys.argv[1]
one = json.load(open(f"{d}/scaling_1gpu.json"))
weak = json.load(open(f"{d}/scaling_2gpu_weak.json"))
strong = json.load(open(f"{d}/scaling_2gpu_strong.json"))
m1 = one["results"][0]["mlups"]
mw = weak["results"][0]["mlups"]
ms = strong["results"][0]["mlups"]
print(f'copy bandwidth (1 GPU, kernel): {one["copy_bandwidth"]["kernel_gbps"]:.0f} GB/s; MPI {weak["mpi"]}, CUDA-aware {weak["cuda_aware_mpi"]}')
print(f'1 GPU  {one["results"][0]["cells"]} cells: {m1:.0f} MLUPS')
print(f'2 GPUs weak   {weak["results"][0]["box"]} {weak["results"][0]["decomposition"]}: {mw:.0f} MLUPS, efficiency {100*mw/(2*m1):.1f}%')
print(f'2 GPUs strong {strong["results"][0]["box"]} {strong["results"][0]["decomposition"]}: {ms:.0f} MLUPS, speed-up {ms/m1:.2f}x, efficiency {100*ms/(2*m1):.1f}%')
PY
tail -3 "$out/bench.err"
