// A random pack of equal spheres as a voxel image (geometry/voxels.hpp): the test
// and benchmark medium of seed 001 (Table 6: random sphere packs at several
// porosities). Spheres of one diameter at uniformly random centres, overlapping
// freely, are added until the solid fraction reaches 1 - porosity; along axes
// marked to wrap, a sphere crossing the image's end comes back at the other (a
// periodic medium). The centres come from a 64-bit Mersenne twister (the standard
// fixes its sequence) mapped to [0, 1) by its top 53 bits, so a seed gives the same
// pack on every machine.
#pragma once
#include <array>
#include <cstdint>

#include "geometry/voxels.hpp"

namespace barracuda::geometry {

struct SpherePack {
    Voxels image;             // spacing 1, origin 0: voxel (i, j, k) centred at (i, j, k)
    double porosity = 1;      // reached: the fraction of voxels not solid
    std::int64_t spheres = 0;
};

/// n voxels along each axis; diameter in voxels (> 0); porosity in (0, 1): the target,
/// reached from above to within one sphere's volume; wrap: the axes along which the
/// pack is periodic.
SpherePack sphere_pack(const std::array<int, 3>& n, double diameter, double porosity, std::uint64_t seed,
                       const std::array<bool, 3>& wrap);

}  // namespace barracuda::geometry
