#!/usr/bin/env bash
# The device run behind docs/performance.md: builds on the GPU machine, runs the
# GPU-vs-CPU oracle tests, the default case on the GPU and the benchmark sets
# of issue 3 (each set measures the copy bandwidth at its start). Writes logs
# and JSON to $OUT (or ./device-out). Needs .deps/ from
# tools/stage-device-deps.sh when the machine has no Debian packages.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-out}
mkdir -p "$out"
source tools/device-cmake-deps.sh  # sets extra: CMake options for the staged .deps/
{
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
  cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_CUDA_FLAGS="-Xptxas -v" "${extra[@]}"
  time cmake --build build-device -j16 --target barracuda barracuda_gpu_tests
} > "$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
tail -2 "$out/build.log"
bin=$PWD/build-device/src/barracuda
{ $bin info; echo; echo "== default case"; (cd /tmp && time $bin run -q --out /tmp/default-run) 2>&1 | tail -6; } > "$out/info.txt" 2>&1
echo "== GPU oracle tests"
build-device/tests/barracuda_gpu_tests > "$out/gpu_tests.txt" 2>&1
grep -E "^\[  |combinations|FAILED|Failure" "$out/gpu_tests.txt" | tail -6
for p in fp64 fp32 fp16; do
  echo -n "  $p max rel diff: "; grep " $p " "$out/gpu_tests.txt" | awk '{for(i=1;i<=NF;i++) if($i=="diff") print $(i+1)}' | sort -g | tail -1
done
echo "== bench"
$bin bench --json --lattice D3Q19 --precision fp32,fp16,fp64 --streaming two-copy,in-place \
  --size 64,128,256,384 > "$out/bench_d3q19.json" 2> "$out/bench.err"
$bin bench --json --lattice D3Q15,D3Q19,D3Q27 --collision bgk,trt,mrt --precision fp32 \
  --streaming two-copy,in-place --size 256 > "$out/bench_models.json" 2>> "$out/bench.err"
$bin bench --json --lattice D2Q9 --precision fp32,fp16,fp64 --streaming two-copy,in-place \
  --size 4096 > "$out/bench_d2q9.json" 2>> "$out/bench.err"
# The largest D3Q19 FP16 in-place grid: 1232^3 = 1.87e9 cells, 100 timed steps.
$bin bench --json --lattice D3Q19 --precision fp16 --streaming in-place --size 1232 \
  --steps 100 --repetitions 1 > "$out/bench_largest.json" 2>> "$out/bench.err"
python3 - "$out"/bench_*.json <<'PY'
import json, sys
for path in sys.argv[1:]:
    d = json.load(open(path))
    c = d["copy_bandwidth"]
    print(f'{path.split("/")[-1]}: copy {c["kernel_gbps"]:.0f} GB/s kernel, {c["memcpy_gbps"]:.0f} GB/s cudaMemcpy')
    for r in d["results"]:
        if "mlups" not in r:
            print("  ", r.get("lattice"), r.get("collision"), r.get("precision"), r.get("streaming"), r.get("size"), r.get("skipped", r.get("failed")))
            continue
        print(f'   {r["lattice"]} {r["collision"]} {r["precision"]} {r["streaming"]:9} {r["size"]:5} {r["mlups"]:9.0f} MLUPS'
              f' {r["effective_gbps"]:6.0f} GB/s {r["percent_of_copy"]:5.1f}% {r["memory_bytes_per_cell"]:5.1f} B/cell')
PY
