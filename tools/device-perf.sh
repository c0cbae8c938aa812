#!/usr/bin/env bash
# Performance work on the GPU machine: builds with the compiler's resource
# report, runs the GPU oracle tests (unless NO_TESTS=1), the benchmark set of
# issue 3 and an Nsight Compute profile of the D3Q19 kernels. Logs go to $OUT.
# Usage (through the device tool, with .deps carried): bash tools/device-perf.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-out}
mkdir -p "$out"
source tools/device-cmake-deps.sh  # sets extra: CMake options for the staged .deps/
{
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_CUDA_FLAGS="-Xptxas -v" "${extra[@]}"
  time cmake --build build-device -j16 --target barracuda barracuda_gpu_tests
} > "$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
tail -2 "$out/build.log"
# Registers and spills of the stream-collide kernels.
grep -A2 "bulk_kernel" "$out/build.log" | grep -E "registers|spill" | sort | uniq -c | sort -rn | head -8
bin=$PWD/build-device/src/barracuda
if [ "${NO_TESTS:-0}" != 1 ]; then
  echo "== GPU oracle tests"
  build-device/tests/barracuda_gpu_tests > "$out/gpu_tests.txt" 2>&1
  grep -E "^\[  |combinations|FAILED|Failure" "$out/gpu_tests.txt" | tail -8
  for p in fp64 fp32 fp16; do
    echo -n "$p max: "; grep " $p " "$out/gpu_tests.txt" | awk '{for(i=1;i<=NF;i++) if($i=="diff") print $(i+1)}' | sort -g | tail -1
  done
fi
echo "== bench"
${BENCH_CMD:-$bin bench --lattice D3Q19 --precision fp32,fp16,fp64 --streaming two-copy,in-place --size 64,128,256} \
  --json > "$out/bench.json" 2> "$out/bench.err"
python3 - "$out/bench.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("copy bandwidth:", d.get("copy_bandwidth"))
for r in d["results"]:
    if r.get("skipped"): continue
    print(f'{r["lattice"]} {r["collision"]} {r["precision"]} {r["streaming"]:9} {r["size"]:5} {r["mlups"]:9.0f} MLUPS {r["effective_gbps"]:7.0f} GB/s {r["percent_of_copy"]:5.1f}%')
PY
if [ -n "${NCU:-}" ] && command -v ncu >/dev/null; then
  echo "== ncu"
  ncu --kernel-name regex:"bulk_kernel|boundary_kernel" --launch-skip 40 --launch-count 4 \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sectors_srcunit_tex_op_read.sum \
    $NCU > "$out/ncu.txt" 2>&1
  grep -E "_kernel<|duration|bytes|pct|inst_executed|sectors" "$out/ncu.txt" | sed 's/  */ /g' | cut -c1-150 | head -40
fi
