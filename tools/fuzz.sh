#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/: case reader, --set overrides, expressions,
# checkpoint reader, STL and voxel readers) with clang, AddressSanitizer and UBSan into build-fuzz/, and
# runs each for SECONDS (default 10) from the committed corpus in fuzz/corpus/
# (copied: new inputs go to build-fuzz/corpus/, the repository is not changed).
# A crash, a hang (-timeout), a sanitizer report or a leak stops that target
# with its reproducer under build-fuzz/artifacts/ and makes the script fail.
#
#   bash tools/fuzz.sh 5          # 5 s per target (CI)
#   bash tools/fuzz.sh 900 case   # 15 minutes of the case reader alone
#
# Needs clang and its libFuzzer runtime (Debian: clang libclang-rt-dev libomp-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(case overrides expression checkpoint stl voxels)
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ -DBARRACUDA_FUZZ=ON \
    -DBARRACUDA_CUDA=OFF -DBARRACUDA_MPI=OFF -DBARRACUDA_TESTS=OFF >/dev/null
cmake --build build-fuzz --target fuzzers -j"$(nproc)" >build-fuzz/build.log 2>&1 || { tail -30 build-fuzz/build.log; exit 1; }
mkdir -p build-fuzz/artifacts
status=0
for t in "${targets[@]}"; do
    mkdir -p "build-fuzz/corpus/$t"
    cp -n "fuzz/corpus/$t"/* "build-fuzz/corpus/$t/" 2>/dev/null || true
    log=build-fuzz/fuzz_$t.log
    # -rss_limit_mb: a reader must not allocate more than the input asks for; -timeout: no hangs.
    if OMP_NUM_THREADS=1 "build-fuzz/fuzz/fuzz_$t" "build-fuzz/corpus/$t" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -max_len=4096 -artifact_prefix="build-fuzz/artifacts/${t}-" -print_final_stats=1 >"$log" 2>&1; then
        runs=$(grep -m1 "stat::number_of_executed_units" "$log" | awk '{print $2}')
        echo "fuzz_$t: ${seconds} s, ${runs:-?} inputs, no crash, hang or sanitizer report ($(ls "build-fuzz/corpus/$t" | wc -l) corpus entries)"
    else
        echo "fuzz_$t: FAILED (see $log and build-fuzz/artifacts/)" >&2
        grep -E "ERROR|SUMMARY|runtime error|Test unit written" "$log" | head -10 >&2
        status=1
    fi
done
exit $status
