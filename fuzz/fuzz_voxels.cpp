// libFuzzer target: the voxel image readers (io/voxel_file.hpp) on arbitrary bytes, as
// an NRRD or VTK image file (its header and raw, base64 or compressed data), as a
// small raw file, and as a PNG slice of a stack. Any input
// must end in an image or a std::runtime_error naming what is wrong; the memory asked
// for never exceeds what the header's sizes need (bounded by -rss_limit_mb).
#include <cstdint>
#include <stdexcept>
#include <string>

#include "io/voxel_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    const barracuda::io::VoxelLabels labels{{1, 255}, std::nullopt};
    try {
        barracuda::io::parse_voxels(bytes, std::nullopt, labels);
    } catch (const std::runtime_error&) {
    }
    try {
        barracuda::io::parse_voxels(bytes, barracuda::io::RawLayout{{4, 4, 4}, barracuda::io::VoxelType::U16, true}, labels);
    } catch (const std::runtime_error&) {
    }
    try {
        barracuda::io::parse_png_stack({bytes, bytes}, labels);
    } catch (const std::runtime_error&) {
    }
    return 0;
}
