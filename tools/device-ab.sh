#!/usr/bin/env bash
# A/B on the GPU machine: two trees built side by side, trimmed to a few rows of the
# configuration table, then one command (BODY) that runs both, so that before and
# after are measured on the same card in the same lease (docs/performance.md asks
# for that). Run through the device tool from the repository root, carrying ab/ and
# .deps/ (tools/stage-device-deps.sh):
#
#   rm -rf ab && mkdir ab && git archive main | tar -x -C ab     # the "base" tree
#   ROWS=$'D3Q19 fp16 compressible bgk two-copy,in-place' \
#   BODY='for v in new base new base; do /tmp/b-$v/src/barracuda bench --backend cuda \
#         --precision fp16 --streaming two-copy,in-place --size 256; done' \
#   bash tools/device-ab.sh
#
# The working tree is "new", ab/ is "base"; each is built into /tmp/b-<variant>.
# Environment:
#   VARIANTS     which to build (default "base new")
#   ROWS         rows of src/configurations.txt to keep (newline-separated; "all" keeps all);
#                ROWS_<variant> for one variant alone
#   UNITS        BARRACUDA_CUDA_UNITS (default d3q19_fp16); UNITS_<variant>
#   TARGETS      build targets (default barracuda); TARGETS_<variant>, e.g.
#                TARGETS_new="barracuda barracuda_gpu_tests" for the GPU oracle
#   JOBS         parallel build jobs per variant (default 8: both build at once on 16 cores)
#   BODY         the command run after both builds (eval'd); logs of the builds in $OUT
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
mkdir -p "$out"
# CMake options for the packages staged in .deps/ where the machine lacks them.
extra=()
source tools/device-deps.sh
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
rows=${ROWS:-"D3Q19 fp16 compressible bgk two-copy,in-place"}
# Keeps the table's comments and the given rows (the configuration table is the build).
trim() {
  [ "$2" = all ] && return
  { grep '^#' "$1/src/configurations.txt"; echo "$2"; } > /tmp/configurations.txt
  cp /tmp/configurations.txt "$1/src/configurations.txt"
}
[ -d ab ] || { echo "ab/ (the base tree) is missing: see the header" >&2; exit 2; }
cp -r .deps ab/ 2>/dev/null
declare -A srcdir=([base]=$PWD/ab [new]=$PWD)
for v in ${VARIANTS:-base new}; do
  r=ROWS_$v t=TARGETS_$v u=UNITS_$v
  trim "${srcdir[$v]}" "${!r:-$rows}"
  (cmake -S "${srcdir[$v]}" -B /tmp/b-$v -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
     -DBARRACUDA_MPI=OFF -DBARRACUDA_CUDA_UNITS="${!u:-${UNITS:-d3q19_fp16}}" "${extra[@]}" > "$out/cfg-$v.log" 2>&1 &&
   cmake --build /tmp/b-$v -j"${JOBS:-8}" --target ${!t:-${TARGETS:-barracuda}} > "$out/build-$v.log" 2>&1
   echo "build $v rc $?") &
done
wait
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
eval "${BODY:-}"
