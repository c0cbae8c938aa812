// Cartesian decomposition of the box into one subdomain per rank (seed 003
// §3.6). Pure bookkeeping, no MPI: which cells a rank owns, where its ghost
// layers are, and which ranks are its up to 26 neighbours. Ranks are numbered
// x-fastest over the rank grid: rank = cx + dims_x (cy + dims_y cz).
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "storage/grid.hpp"

namespace barracuda::parallel {

/// The 27 offsets d in {-1, 0, 1}^3, numbered (dx + 1) + 3 (dy + 1) + 9 (dz + 1);
/// 13 is the rank itself.
inline constexpr int offset_code(int dx, int dy, int dz) { return (dx + 1) + 3 * (dy + 1) + 9 * (dz + 1); }
inline constexpr int offset_of(int code, int axis) { return (axis == 0 ? code : axis == 1 ? code / 3 : code / 9) % 3 - 1; }

struct Subdomain {
    std::array<int, 3> global_size{1, 1, 1};
    std::array<bool, 3> global_periodic{false, false, false};
    std::array<int, 3> dims{1, 1, 1};    // ranks along each axis
    std::array<int, 3> coords{0, 0, 0};  // this rank's position in the rank grid
    int rank = 0;
    std::array<int, 3> owned_origin{0, 0, 0};  // global coordinates of the first owned cell
    std::array<int, 3> owned_size{1, 1, 1};
    std::array<int, 3> ghost_lo{0, 0, 0}, ghost_hi{0, 0, 0};  // 1 where a neighbour rank lies on that side
    std::array<int, 27> neighbour{};                          // rank at each offset, -1 if none

    /// One subdomain covering the box (a single-rank run).
    static Subdomain whole(const std::array<int, 3>& size, const std::array<bool, 3>& periodic);

    int ranks() const { return dims[0] * dims[1] * dims[2]; }
    bool decomposed() const { return ranks() > 1; }
    /// Local box: owned cells plus ghost layers. An axis is periodic locally only
    /// when it is periodic and not split (otherwise the wrap goes through a neighbour).
    storage::Grid local_grid() const;
    /// Calls f(k, c) for every owned cell, x-fastest: k its index among the owned cells,
    /// c its index in the local box (ghost layers included).
    template <class F>
    void for_each_owned(F&& f) const {
        const auto g = local_grid();
        std::size_t k = 0;
        for (int z = 0; z < owned_size[2]; ++z)
            for (int y = 0; y < owned_size[1]; ++y)
                for (int x = 0; x < owned_size[0]; ++x, ++k)
                    f(k, std::size_t(g.index(x + ghost_lo[0], y + ghost_lo[1], z + ghost_lo[2])));
    }
    std::size_t owned_cells() const { return std::size_t(owned_size[0]) * owned_size[1] * owned_size[2]; }
    std::array<int, 3> local_size() const {
        return {owned_size[0] + ghost_lo[0] + ghost_hi[0], owned_size[1] + ghost_lo[1] + ghost_hi[1],
                owned_size[2] + ghost_lo[2] + ghost_hi[2]};
    }
    /// Global coordinate of a local one (ghost layers wrap on periodic axes).
    int global_coordinate(int axis, int local) const {
        int g = local - ghost_lo[std::size_t(axis)] + owned_origin[std::size_t(axis)];
        const int n = global_size[std::size_t(axis)];
        if (g < 0) g += n;
        else if (g >= n) g -= n;
        return g;
    }
    bool owns_local(int axis, int local) const {
        return local >= ghost_lo[std::size_t(axis)] && local < ghost_lo[std::size_t(axis)] + owned_size[std::size_t(axis)];
    }
    bool owns_local(const int (&p)[3]) const { return owns_local(0, p[0]) && owns_local(1, p[1]) && owns_local(2, p[2]); }
    /// Whether the global cell lies in the owned block (no wrapping).
    bool owns_global(int axis, int g) const {
        return g >= owned_origin[std::size_t(axis)] && g < owned_origin[std::size_t(axis)] + owned_size[std::size_t(axis)];
    }
};

/// Rank grid for `ranks` ranks when the case does not give one: the split that
/// minimises the total cut area (the halo bytes per step), never splitting the
/// third axis of a 2D box; ties go to splitting the slowest axis (z, then y),
/// whose faces are contiguous in memory.
std::array<int, 3> automatic_dims(int ranks, const std::array<int, 3>& size, int dimensions);

/// Empty when `dims` can decompose the box for `ranks` ranks, else the reason (for an error message).
std::string decomposition_problem(const std::array<int, 3>& dims, int ranks, const std::array<int, 3>& size);

/// The subdomain of `rank`: each axis split into dims[a] blocks whose sizes differ by at most one.
Subdomain make_subdomain(const std::array<int, 3>& size, const std::array<bool, 3>& periodic,
                         const std::array<int, 3>& dims, int rank);

}  // namespace barracuda::parallel
