// Hydrodynamic moments of one cell from shifted populations. Since the weights
// sum to one and have zero first moment: rho = 1 + sum f~_i, j = sum f~_i c_i.
#pragma once
#include "common/hd.hpp"

namespace barracuda::physics {

template <class T>
struct CellState {
    T drho;   // rho - 1
    T u[3];   // fluid velocity (with Guo forcing: (j + F/2) / rho, or / rho0 for He-Luo)
};

template <class L, class T>
BARRACUDA_HD_HOT void density_and_momentum(const T (&f)[L::Q], T& drho, T (&j)[3]) {
    drho = T(-0.0);  // the identity of addition (lattice::c_dot): the first sum folded away
    j[0] = j[1] = j[2] = T(-0.0);
    BARRACUDA_UNROLL
    for (int i = 0; i < L::Q; ++i) {
        drho += f[i];
        if (L::c(i, 0)) j[0] += T(L::c(i, 0)) * f[i];
        if (L::c(i, 1)) j[1] += T(L::c(i, 1)) * f[i];
        if (L::c(i, 2)) j[2] += T(L::c(i, 2)) * f[i];
    }
}

/// Density and velocity, with the half-force correction of Guo et al. 2002 (eq. 20 there):
/// u = (j + F/2) / rho (compressible) or (j + F/2) / rho0 (incompressible).
template <class L, class Eq, class T>
BARRACUDA_HD_HOT CellState<T> cell_state(const T (&f)[L::Q], const T (&force)[3]) {
    CellState<T> s;
    T j[3];
    density_and_momentum<L>(f, s.drho, j);
    const T inv = T(1) / Eq::velocity_weight(T(1) + s.drho);
    BARRACUDA_UNROLL
    // u_a unfused (common/hd.hpp): its products enter sums of components (c_i.u, u.F), and
    // which of two would fuse there is the compiler's choice, per kernel.
    for (int a = 0; a < 3; ++a) s.u[a] = unfused_product(j[a] + T(0.5) * force[a], inv);
    return s;
}

}  // namespace barracuda::physics
