#include "sim/sublattice_output.hpp"

#include <stdexcept>

#include "boundary/face.hpp"

namespace barracuda::sim {

void expand_sublattice(const storage::Grid& stored, const std::vector<std::uint8_t>& kind, const std::vector<double>& rho_stored,
                 const std::vector<double>& u_stored, std::vector<double>& rho, std::vector<double>& u) {
    storage::Grid full = stored;
    full.sublattice = false;
    const auto cells = std::size_t(full.cells());
    if (!stored.sublattice || kind.size() != cells || rho_stored.size() != std::size_t(stored.cells()) ||
        u_stored.size() != 3 * rho_stored.size())
        throw std::invalid_argument("expand_sublattice: sizes do not match a sub-lattice and its box");
    rho.assign(cells, 1.0);
    u.assign(3 * cells, 0.0);
#pragma omp parallel for collapse(2) schedule(static)
    for (int z = 0; z < full.n[2]; ++z)
        for (int y = 0; y < full.n[1]; ++y)
            for (int x = 0; x < full.n[0]; ++x) {
                const auto c = std::size_t(full.index(x, y, z));
                if (kind[c] == boundary::Solid) continue;
                if (stored.holds(x, y, z)) {
                    const auto s = std::size_t(stored.index(x, y, z));
                    rho[c] = rho_stored[s];
                    for (std::size_t a = 0; a < 3; ++a) u[3 * c + a] = u_stored[3 * s + a];
                    continue;
                }
                double r = 0, v[3] = {0, 0, 0};
                int count = 0;
                for (int a = 0; a < 3; ++a)
                    for (int side = -1; side <= 1; side += 2) {
                        int p[3] = {x, y, z};
                        p[a] += side;
                        if (p[a] < 0 || p[a] >= full.n[a]) {
                            if (!full.periodic[a]) continue;
                            p[a] = (p[a] + full.n[a]) % full.n[a];
                        }
                        if (kind[std::size_t(full.index(p[0], p[1], p[2]))] == boundary::Solid) continue;
                        const auto s = std::size_t(stored.index(p[0], p[1], p[2]));
                        r += rho_stored[s];
                        for (std::size_t b = 0; b < 3; ++b) v[b] += u_stored[3 * s + b];
                        ++count;
                    }
                if (count == 0) continue;
                rho[c] = r / count;
                for (std::size_t b = 0; b < 3; ++b) u[3 * c + b] = v[b] / count;
            }
}

}  // namespace barracuda::sim
