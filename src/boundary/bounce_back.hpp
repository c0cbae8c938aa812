// Half-way bounce-back (the wall sits half a spacing beyond the last fluid node),
// with the momentum a moving wall imparts (Toelke & Krafczyk 2008, eq. 9, written
// for any lattice with the reference density rho0 = 1):
//   f_i(x, t+1) = f*_opp(i)(x, t) + 2 w_i rho0 (c_i . U_wall) / cs2
// Shifted storage needs no correction since w_i = w_opp(i).
#pragma once
#include "common/hd.hpp"

namespace barracuda::boundary {

template <class L, class T>
BARRACUDA_HD T moving_wall_term(int i, const double (&wall_velocity)[3]) {
    const double cu = L::c(i, 0) * wall_velocity[0] + L::c(i, 1) * wall_velocity[1] + L::c(i, 2) * wall_velocity[2];
    return T(2.0 * L::w(i) * cu / L::cs2);
}

}  // namespace barracuda::boundary
