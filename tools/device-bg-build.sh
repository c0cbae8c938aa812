#!/usr/bin/env bash
# Builds barracuda and the GPU tests on the device machine in the background,
# from a snapshot of the tree in /tmp/bsrc into /tmp/bbuild, so that the build
# outlives one device call (10 minutes) and survives the next call's fresh copy
# of the working tree (whose new timestamps would make ninja start over). Each
# call re-attaches: it starts the build if none runs, waits up to WAIT_S seconds
# (default 560) for it, and prints where it stands. Exit 0 once both binaries exist.
#   bash tools/device-bg-build.sh && /tmp/bbuild/tests/barracuda_gpu_tests
set -u
src=/tmp/bsrc build=/tmp/bbuild
[ -d "$src" ] || cp -a . "$src"
cd "$src" || exit 1
source tools/device-cmake-deps.sh
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DBARRACUDA_MPI=OFF -DBARRACUDA_COMMIT="${BARRACUDA_COMMIT:-}" "${extra[@]}" > /tmp/bbuild-configure.log 2>&1 ||
    { tail -20 /tmp/bbuild-configure.log; exit 1; }
fi
done_building() { [ -x "$build/src/barracuda" ] && [ -x "$build/tests/barracuda_gpu_tests" ] && ! pgrep -x ninja > /dev/null; }
if ! done_building && ! pgrep -x ninja > /dev/null; then
  setsid nohup cmake --build "$build" -j16 --target barracuda barracuda_gpu_tests >> /tmp/bbuild.log 2>&1 < /dev/null &
  sleep 2
fi
waited=0
while ! done_building && [ "$waited" -lt "${WAIT_S:-560}" ]; do sleep 10; waited=$((waited + 10)); done
grep -E '^\[[0-9]+/[0-9]+\]' /tmp/bbuild.log | tail -2
done_building
