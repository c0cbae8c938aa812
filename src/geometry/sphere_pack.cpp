#include "geometry/sphere_pack.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace barracuda::geometry {

SpherePack sphere_pack(const std::array<int, 3>& n, double diameter, double porosity, std::uint64_t seed,
                       const std::array<bool, 3>& wrap) {
    if (!(diameter > 0) || !(porosity > 0 && porosity < 1) || n[0] < 1 || n[1] < 1 || n[2] < 1)
        throw std::invalid_argument("sphere_pack: a diameter > 0, a porosity in (0, 1) and a non-empty image");
    SpherePack out;
    out.image.n = n;
    const std::int64_t total = std::int64_t(n[0]) * n[1] * n[2];
    out.image.solid.assign(std::size_t(total), 0);
    const auto target = std::int64_t(std::ceil((1.0 - porosity) * double(total)));
    std::mt19937_64 random(seed);
    const auto uniform = [&random] { return double(random() >> 11) * 0x1.0p-53; };
    const double r = 0.5 * diameter, r2 = r * r;
    // Overlapping spheres fill a box like 1 - exp(-n v / V): a bound on the count far
    // beyond what any porosity above 1e-6 needs.
    const double volume = 4.0 / 3.0 * 3.14159265358979 * r * r * r;
    const auto limit = std::int64_t(20.0 * double(total) / std::max(volume, 1e-3)) + 1000;
    std::int64_t solid = 0;
    while (solid < target) {
        if (out.spheres == limit) throw std::runtime_error("sphere_pack: the porosity was not reached");
        ++out.spheres;
        const double c[3] = {uniform() * n[0], uniform() * n[1], uniform() * n[2]};
        int lo[3], hi[3];
        for (int a = 0; a < 3; ++a) {
            lo[a] = int(std::ceil(c[a] - r));
            hi[a] = int(std::floor(c[a] + r));
            if (!wrap[std::size_t(a)]) lo[a] = std::max(lo[a], 0), hi[a] = std::min(hi[a], n[std::size_t(a)] - 1);
        }
        for (int k = lo[2]; k <= hi[2]; ++k)
            for (int j = lo[1]; j <= hi[1]; ++j)
                for (int i = lo[0]; i <= hi[0]; ++i) {
                    const double dx = i - c[0], dy = j - c[1], dz = k - c[2];
                    if (dx * dx + dy * dy + dz * dz > r2) continue;
                    const auto w = [&](int v, int a) { return ((v % n[std::size_t(a)]) + n[std::size_t(a)]) % n[std::size_t(a)]; };
                    const std::int64_t at = w(i, 0) + std::int64_t(n[0]) * (w(j, 1) + std::int64_t(n[1]) * w(k, 2));
                    auto& s = out.image.solid[std::size_t(at)];
                    if (!s) s = 1, ++solid;
                }
    }
    out.porosity = 1.0 - double(solid) / double(total);
    return out;
}

}  // namespace barracuda::geometry
