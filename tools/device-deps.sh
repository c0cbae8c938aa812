# Sourced by tools/device.sh and tools/device-ab.sh (from the repository root): CMake
# options for the packages staged in .deps/ (tools/stage-device-deps.sh) where the GPU
# machine lacks Debian's, appended to the array `extra`; `deps` and `lib` name the
# staged prefix and its library folder (for LD_LIBRARY_PATH).
deps=$PWD/.deps/usr
lib=$deps/lib/x86_64-linux-gnu
[ -f /usr/include/zlib.h ] || extra+=(-DZLIB_INCLUDE_DIR="$deps/include" -DZLIB_LIBRARY="$lib/libz.a")
[ -f /usr/include/png.h ] || extra+=(-DPNG_PNG_INCLUDE_DIR="$deps/include" -DPNG_LIBRARY="$lib/libpng16.a")
[ -d /usr/include/gtest ] || extra+=(-DGTest_DIR="$lib/cmake/GTest")
[ -f /usr/include/muParser.h ] || extra+=(-Dmuparser_DIR="$lib/cmake/muparser")
