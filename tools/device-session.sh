#!/usr/bin/env bash
# One device call: build barracuda and the GPU tests with CUDA (build-device/, kept
# between calls while the machine stays warm), optionally run the GPU-vs-CPU
# tests, then `barracuda validate --full` for each group of cases given as
# arguments (a group: case names joined by commas), each group into its own
# report directory so that a call cut off by the 10-minute limit keeps the
# groups that finished. Everything lands in $OUT: build.log, gpu_tests.txt,
# validate.log and results.tar.gz (the reports with their PNG plots).
#   GPU_TESTS=1 tools/device-session.sh sphere-pipe-re1,cavity2d-re100 kida-vortex
# Needs .deps/ from tools/stage-device-deps.sh when the machine has no Debian packages.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-out}
mkdir -p "$out"
deps=$PWD/.deps/usr
extra=()
[ -f /usr/include/zlib.h ] || extra+=(-DZLIB_INCLUDE_DIR=$deps/include -DZLIB_LIBRARY=$deps/lib/x86_64-linux-gnu/libz.a)
[ -f /usr/include/png.h ] || extra+=(-DPNG_PNG_INCLUDE_DIR=$deps/include -DPNG_LIBRARY=$deps/lib/x86_64-linux-gnu/libpng16.a)
targets=(barracuda)
[ "${GPU_TESTS:-0}" = 1 ] && targets+=(barracuda_gpu_tests)
{
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
  git log -1 --format='commit %H %s' 2>/dev/null
  cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DBARRACUDA_MPI=OFF "${extra[@]}"
  time cmake --build build-device -j16 --target "${targets[@]}"
} > "$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
tail -3 "$out/build.log"
if [ "${GPU_TESTS:-0}" = 1 ]; then
  build-device/tests/barracuda_gpu_tests > "$out/gpu_tests.txt" 2>&1
  echo "GPU tests exit code $?"; grep -E "^\[  (PASSED|FAILED) |moving pipe|combinations" "$out/gpu_tests.txt"
fi
mkdir -p /tmp/results
for group in "$@"; do
  name=${group//,/+}
  echo "=== validate --full ${group//,/ }" | tee -a "$out/validate.log"
  build-device/src/barracuda validate --full --backend cuda --out "/tmp/results/$name" ${group//,/ } 2>&1 | tee -a "$out/validate.log" | grep -v '^  '
  tar -C /tmp -czf "$out/results.tar.gz" results
done
