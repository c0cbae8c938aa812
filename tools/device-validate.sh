#!/usr/bin/env bash
# The full validation suite on the GPU machine (docs/validation.md, "Full
# results"): builds barracuda with CUDA, runs `barracuda validate --full` for the
# cases named on the command line (default: every case with a full variant) and
# leaves in $OUT (or ./device-out): build.log, validate.log, report.md,
# report.json and validation.tar.gz (the report with its PNG plots; the device
# tool returns at most 8 files, so the plots travel in the archive).
#
# One device command may run 10 minutes: run the cases in groups, e.g.
#   tools/device-validate.sh cavity2d-re100 cavity2d-re400 cavity2d-re1000 taylor-green-precision
#   tools/device-validate.sh kida-vortex
#   tools/device-validate.sh cavity3d-re1000
# Needs .deps/ from tools/stage-device-deps.sh when the machine has no Debian packages.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-out}
mkdir -p "$out"
source tools/device-cmake-deps.sh  # sets extra: CMake options for the staged .deps/
{
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
  cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DBARRACUDA_TESTS=OFF "${extra[@]}"
  time cmake --build build-device -j16 --target barracuda
} > "$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
tail -2 "$out/build.log"
bin=$PWD/build-device/src/barracuda
rm -rf /tmp/validation
rc=0
$bin validate --full --backend cuda --out /tmp/validation "$@" > "$out/validate.log" 2>&1 || rc=$?
cat "$out/validate.log" | grep -v '^  ' || true
cp /tmp/validation/report.md /tmp/validation/report.json "$out/" 2>/dev/null
tar -C /tmp -czf "$out/validation.tar.gz" validation
echo "validate exit code $rc; report in $out/report.md, plots in $out/validation.tar.gz"
exit $rc
