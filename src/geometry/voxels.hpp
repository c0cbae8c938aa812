// A voxel image (a CT or MRI scan segmented, a rock's micro-CT) as a solid body:
// voxel (i, j, k) is a box of side `spacing` centred at origin + spacing (i, j, k)
// in node coordinates, solid where the image's label says so
// (io/voxel_file.hpp reads the files and applies the labels). A node is inside when
// the voxel that covers it is solid: spacing 1 maps voxels to nodes one to one,
// spacing 2 gives each voxel 2^3 nodes, spacing 1/2 keeps every second voxel.
#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace barracuda::geometry {

struct Voxels {
    std::array<int, 3> n{0, 0, 0};
    std::vector<std::uint8_t> solid;  // 1 per voxel, x fastest
    double spacing = 1;
    std::array<double, 3> origin{0, 0, 0};

    bool contains(const std::array<double, 3>& p) const {
        std::int64_t at = 0, stride = 1;
        for (int a = 0; a < 3; ++a) {
            const double t = (p[std::size_t(a)] - origin[std::size_t(a)]) / spacing;
            const double i = std::floor(t + 0.5);
            if (!(i >= 0 && i < n[std::size_t(a)])) return false;
            at += std::int64_t(i) * stride;
            stride *= n[std::size_t(a)];
        }
        return solid[std::size_t(at)] != 0;
    }
    /// The corners of the image's extent in node coordinates.
    std::array<double, 3> lower() const {
        return {origin[0] - 0.5 * spacing, origin[1] - 0.5 * spacing, origin[2] - 0.5 * spacing};
    }
    std::array<double, 3> upper() const {
        std::array<double, 3> u{};
        for (std::size_t a = 0; a < 3; ++a) u[a] = origin[a] + (n[a] - 0.5) * spacing;
        return u;
    }
    bool operator==(const Voxels&) const = default;
};

}  // namespace barracuda::geometry
