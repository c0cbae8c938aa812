# Sourced by the tools/device-*.sh scripts (from the repository root): sets
# `extra`, the CMake options that point at the Debian packages staged in .deps/
# (tools/stage-device-deps.sh) for whatever the GPU machine lacks.
deps=$PWD/.deps/usr
lib=$deps/lib/x86_64-linux-gnu
extra=()
[ -f /usr/include/zlib.h ] || extra+=(-DZLIB_INCLUDE_DIR="$deps/include" -DZLIB_LIBRARY="$lib/libz.a")
[ -f /usr/include/png.h ] || extra+=(-DPNG_PNG_INCLUDE_DIR="$deps/include" -DPNG_LIBRARY="$lib/libpng16.a")
[ -d /usr/include/gtest ] || extra+=(-DGTest_DIR="$lib/cmake/GTest")
[ -f /usr/include/muParser.h ] || extra+=(-Dmuparser_DIR="$lib/cmake/muparser")
# A subset of the CUDA engines (src/CMakeLists.txt): the whole set takes longer
# to compile on the device machine than one call lasts.
[ -n "${BARRACUDA_CUDA_UNITS:-}" ] && extra+=(-DBARRACUDA_CUDA_UNITS="$BARRACUDA_CUDA_UNITS")
