// D3Q13 velocity set (d'Humières, Bouzidi & Lallemand 2001, Phys. Rev. E 63,
// 066702; seed 000 §4, eq. 1): rest and the 12 edge neighbours (+-1, +-1, 0)
// and permutations. Ordering: rest first, then opposite pairs (i, i+1) for odd i.
//
// Every velocity has an even component sum, so the nodes with x + y + z even
// never exchange populations with the others: the lattice splits into two
// independent sub-lattices and only the even one is stored (half the memory;
// seed 000 §5.1; storage::Grid::sublattice). Each stored node stands for a rhombic
// dodecahedron of volume 2 (lattice units), which momentum-exchange forces carry.
//
// The 13 velocities have too few fourth moments for the polynomial equilibrium
// of the other lattices: sum_i w_i c_ix^2 c_iy^2 = 1/6, not cs2^2 = 1/9. The
// equilibrium is therefore given by its moments (seed 000 eq. 6) and only the
// MRT collision is offered, whose two shear rates (eq. 7) make the viscosity
// isotropic. The weights below (1/2, 1/24) are those of the rest state, and
// cs2 = 1/3 (eq. 8): with them the moving-wall term 2 w_i rho c_i.u / cs2 is
// rho0 c_i.u / 4, seed 000 eq. 9.
#pragma once
#include "common/hd.hpp"
#include "lattice/packed.hpp"

namespace barracuda::lattice {

struct D3Q13 {
    static constexpr int D = 3;
    static constexpr int Q = 13;
    static constexpr double cs2 = 1.0 / 3.0;
    static constexpr const char* name = "D3Q13";
    /// Only the sub-lattice x + y + z even is stored (storage::Grid::sublattice).
    static constexpr bool sublattice = true;
    /// Volume of the cell a stored node stands for (rhombic dodecahedron, seed 000 eq. 12).
    static constexpr double cell_volume = 2.0;

    static constexpr int velocities[13][3] = {{0, 0, 0},  {1, 1, 0},  {-1, -1, 0}, {1, -1, 0}, {-1, 1, 0},
                                              {1, 0, 1},  {-1, 0, -1}, {1, 0, -1}, {-1, 0, 1}, {0, 1, 1},
                                              {0, -1, -1}, {0, 1, -1}, {0, -1, 1}};
    static constexpr std::uint64_t code_x = pack_axis(velocities, 0);
    static constexpr std::uint64_t code_y = pack_axis(velocities, 1);
    static constexpr std::uint64_t code_z = pack_axis(velocities, 2);

    BARRACUDA_HD static constexpr int c(int i, int axis) {
        return unpack(axis == 0 ? code_x : (axis == 1 ? code_y : code_z), i);
    }
    BARRACUDA_HD static constexpr double w(int i) { return i == 0 ? 1.0 / 2.0 : 1.0 / 24.0; }
    BARRACUDA_HD static constexpr int opposite(int i) { return i == 0 ? 0 : ((i & 1) ? i + 1 : i - 1); }
};

}  // namespace barracuda::lattice
