#!/usr/bin/env bash
# Builds binaries here for the GPU machine and puts them into build-carried/<name>/
# with the shared libraries that machine lacks, to be carried to it (the device
# tool carries at most 64 MiB; the binaries with every CUDA engine weigh 170 MB,
# and building them there takes longer than a machine is lent). UNITS picks the
# CUDA engines (CMake's BARRACUDA_CUDA_UNITS); BUILD_DIR (default build-carry)
# is configured without MPI, for sm_90 machine code only (ARCH=90 adds PTX).
#   UNITS="d3q13_fp32;d3q19_fp32" bash tools/carry-build.sh val barracuda
#   then, with carry ["build-carried/val"]: LD_LIBRARY_PATH=build-carried/val/lib build-carried/val/barracuda ...
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: UNITS=\"<lattice>_<precision>;...\" $0 NAME TARGET..." >&2; exit 2; }
name=$1; shift
build=${BUILD_DIR:-build-carry}
mkdir -p "$build"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="${ARCH:-90-real}" \
  -DBARRACUDA_MPI=OFF -DBARRACUDA_CUDA_UNITS="${UNITS:-all}" > "$build/carry-configure.log" || { cat "$build/carry-configure.log"; exit 1; }
cmake --build "$build" -j"$(nproc)" --target "$@"
dest=build-carried/$name
rm -rf "$dest" && mkdir -p "$dest/lib"
for target in "$@"; do
  bin=$(find "$build/src" "$build/tests" -maxdepth 1 -type f -name "$target" | head -1)
  [ -n "$bin" ] || { echo "no binary $target in $build" >&2; exit 1; }
  strip -o "$dest/$target" "$bin"
  # The libraries the device machine has no package for (it has the compiler's own).
  ldd "$bin" | awk '/muparser|png|libz\./ {print $3}' | xargs -r cp -L -t "$dest/lib"
done
du -sh "$dest"/* | sort -h
