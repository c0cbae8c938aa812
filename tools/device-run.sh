#!/usr/bin/env bash
# Builds on the GPU machine and runs what needs a GPU: the GPU-vs-CPU oracle
# tests, the default case on the GPU, and the benchmark. Writes logs to $OUT
# (or ./device-out). Needs .deps/ from tools/stage-device-deps.sh when the
# machine has no Debian packages.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-out}
mkdir -p "$out"
deps=$PWD/.deps/usr
extra=()
# Use the staged static zlib/libpng when the machine has no development headers.
[ -f /usr/include/zlib.h ] || extra+=(-DZLIB_INCLUDE_DIR=$deps/include -DZLIB_LIBRARY=$deps/lib/x86_64-linux-gnu/libz.a)
[ -f /usr/include/png.h ] || extra+=(-DPNG_PNG_INCLUDE_DIR=$deps/include -DPNG_LIBRARY=$deps/lib/x86_64-linux-gnu/libpng16.a)
[ -d /usr/include/gtest ] || extra+=(-DGTest_DIR=$deps/lib/x86_64-linux-gnu/cmake/GTest)
{
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
  git rev-parse HEAD 2>/dev/null || true
  cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "${extra[@]}"
  time cmake --build build-device -j16 --target barracuda barracuda_gpu_tests
} > "$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
tail -3 "$out/build.log"
bin=$PWD/build-device/src/barracuda
$bin info | tee "$out/info.txt"
echo "== GPU oracle tests"
build-device/tests/barracuda_gpu_tests 2>&1 | tee "$out/gpu_tests.txt" | grep -E "^\[|combinations|GPU:|FAIL" | tail -12
echo "== default case"
(cd "$out" && time $bin run -q) 2>&1 | tee "$out/default_run.txt" | tail -6
echo "== bench"
$bin bench --size 64 --size 128 --size 256 | tee "$out/bench_d3q19_fp32.txt"
$bin bench --size 256 --json > "$out/bench_d3q19_fp32_256.json"
$bin bench --size 256 --precision fp64 | tail -1
$bin bench --size 256 --collision trt | tail -1
$bin bench --size 256 --collision mrt | tail -1
$bin bench --size 256 --lattice D3Q27 | tail -1
$bin bench --size 4096 --lattice D2Q9 | tail -1
