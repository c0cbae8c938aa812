#include "parallel/decomposition.hpp"

#include <limits>

namespace barracuda::parallel {

Subdomain Subdomain::whole(const std::array<int, 3>& size, const std::array<bool, 3>& periodic) {
    return make_subdomain(size, periodic, {1, 1, 1}, 0);
}

storage::Grid Subdomain::local_grid() const {
    storage::Grid g{};
    const auto n = local_size();
    for (int a = 0; a < 3; ++a) {
        g.n[a] = n[std::size_t(a)];
        g.periodic[a] = global_periodic[std::size_t(a)] && dims[std::size_t(a)] == 1;
    }
    return g;
}

std::array<int, 3> automatic_dims(int ranks, const std::array<int, 3>& size, int dimensions) {
    std::array<int, 3> best{ranks, 1, 1};
    double best_cut = std::numeric_limits<double>::infinity();
    // Visited from the most z-splits down, and only a strictly smaller cut replaces
    // the best: on a tie the split along the slowest axis wins.
    for (int dz = ranks; dz >= 1; --dz) {
        if (ranks % dz || (dimensions == 2 && dz > 1)) continue;
        for (int dy = ranks / dz; dy >= 1; --dy) {
            if ((ranks / dz) % dy) continue;
            const std::array<int, 3> d{ranks / dz / dy, dy, dz};
            if (!decomposition_problem(d, ranks, size).empty()) continue;
            // Cut area: (d_a - 1) planes of the box's cross-section normal to a.
            const double nx = size[0], ny = size[1], nz = size[2];
            const double cut = (d[0] - 1) * ny * nz + (d[1] - 1) * nx * nz + (d[2] - 1) * nx * ny;
            if (cut < best_cut) best_cut = cut, best = d;
        }
    }
    return best;
}

std::string decomposition_problem(const std::array<int, 3>& dims, int ranks, const std::array<int, 3>& size) {
    for (int a = 0; a < 3; ++a)
        if (dims[std::size_t(a)] < 1) return "every entry must be at least 1";
    const long long product = 1LL * dims[0] * dims[1] * dims[2];
    if (product != ranks)
        return "it has " + std::to_string(product) + " subdomains but the run has " + std::to_string(ranks) +
               " rank(s): the product of the entries must equal the rank count (mpirun -np " +
               std::to_string(product) + ")";
    static const char* axis[3] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) {
        // Each subdomain needs at least two cells across: one layer next to each ghost layer.
        const int thinnest = size[std::size_t(a)] / dims[std::size_t(a)];
        if (dims[std::size_t(a)] > 1 && thinnest < 2)
            return std::string("splitting ") + axis[a] + " (" + std::to_string(size[std::size_t(a)]) + " cells) into " +
                   std::to_string(dims[std::size_t(a)]) +
                   " leaves subdomains thinner than 2 cells (the ghost layer is 1 cell); use fewer ranks along " +
                   axis[a];
    }
    return {};
}

Subdomain make_subdomain(const std::array<int, 3>& size, const std::array<bool, 3>& periodic,
                         const std::array<int, 3>& dims, int rank) {
    Subdomain s;
    s.global_size = size;
    s.global_periodic = periodic;
    s.dims = dims;
    s.rank = rank;
    s.coords = {rank % dims[0], (rank / dims[0]) % dims[1], rank / (dims[0] * dims[1])};
    for (std::size_t a = 0; a < 3; ++a) {
        // The first (size % dims) blocks get one cell more.
        const int base = size[a] / dims[a], extra = size[a] % dims[a], c = s.coords[a];
        s.owned_size[a] = base + (c < extra ? 1 : 0);
        s.owned_origin[a] = c * base + (c < extra ? c : extra);
        const bool split = dims[a] > 1;
        s.ghost_lo[a] = split && (periodic[a] || c > 0) ? 1 : 0;
        s.ghost_hi[a] = split && (periodic[a] || c < dims[a] - 1) ? 1 : 0;
    }
    for (int code = 0; code < 27; ++code) {
        s.neighbour[std::size_t(code)] = -1;
        if (code == 13) continue;
        std::array<int, 3> c = s.coords;
        bool exists = true;
        for (std::size_t a = 0; a < 3 && exists; ++a) {
            const int d = offset_of(code, int(a));
            if (d == 0) continue;
            if ((d < 0 ? s.ghost_lo[a] : s.ghost_hi[a]) == 0) exists = false;
            c[a] = (c[a] + d + dims[a]) % dims[a];
        }
        if (exists) s.neighbour[std::size_t(code)] = c[0] + dims[0] * (c[1] + dims[1] * c[2]);
    }
    return s;
}

}  // namespace barracuda::parallel
