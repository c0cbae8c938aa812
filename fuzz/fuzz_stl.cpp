// libFuzzer target: the STL reader (geometry/mesh.hpp) on arbitrary bytes, then the
// closedness check and the inside test on what it reads. Any input must end in a
// mesh or a std::runtime_error naming what is wrong; nothing allocates beyond what
// the input's triangles need.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "geometry/mesh.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const auto mesh = barracuda::geometry::Mesh::parse_stl(std::string(reinterpret_cast<const char*>(data), size));
        mesh.open_edges();
        const auto lo = mesh.lower(), hi = mesh.upper();
        mesh.contains({0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2])});
    } catch (const std::runtime_error&) {
    }
    return 0;
}
