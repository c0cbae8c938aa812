#!/usr/bin/env bash
# One device call: build barracuda and the GPU tests with CUDA (build-device/, kept
# between calls while the machine stays warm), optionally run the GPU-vs-CPU
# tests, then `barracuda validate --full` for each group of cases given as
# arguments (a group: case names joined by commas), each group into its own
# report directory so that a call cut off by the 10-minute limit keeps the
# groups that finished. Everything lands in $OUT: build.log, gpu_tests.txt,
# validate.log and results.tar.gz (the reports with their PNG plots).
#   GPU_TESTS=1 tools/device-session.sh sphere-pipe-re1,cavity2d-re100 kida-vortex
# BENCH="--collision bgk trt --size 256" also runs `barracuda bench` with those
# options first (bench.txt). BARRACUDA_COMMIT=<hash> names the commit in reports and
# bench output (the device's copy of the tree may carry stale git metadata).
# Needs .deps/ from tools/stage-device-deps.sh when the machine has no Debian packages.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-out}
mkdir -p "$out"
source tools/device-cmake-deps.sh  # sets extra: CMake options for the staged .deps/
targets=(barracuda)
[ "${GPU_TESTS:-0}" = 1 ] && targets+=(barracuda_gpu_tests)
{
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
  git log -1 --format='commit %H %s' 2>/dev/null
  cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DBARRACUDA_MPI=OFF \
    -DBARRACUDA_COMMIT="${BARRACUDA_COMMIT:-}" "${extra[@]}"
  time cmake --build build-device -j16 --target "${targets[@]}"
} > "$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
tail -3 "$out/build.log"
if [ "${GPU_TESTS:-0}" = 1 ]; then
  build-device/tests/barracuda_gpu_tests > "$out/gpu_tests.txt" 2>&1
  echo "GPU tests exit code $?"; grep -E "^\[  (PASSED|FAILED) |moving pipe|combinations" "$out/gpu_tests.txt"
fi
if [ -n "${BENCH:-}" ]; then
  # shellcheck disable=SC2086  # BENCH is a list of options
  build-device/src/barracuda bench $BENCH > "$out/bench.txt" 2>&1
  echo "bench exit code $?"; cat "$out/bench.txt"
fi
mkdir -p /tmp/results
for group in "$@"; do
  name=${group//,/+}
  echo "=== validate --full ${group//,/ }" | tee -a "$out/validate.log"
  build-device/src/barracuda validate --full --backend cuda --out "/tmp/results/$name" ${group//,/ } 2>&1 | tee -a "$out/validate.log" | grep -v '^  '
  tar -C /tmp -czf "$out/results.tar.gz" results
done
