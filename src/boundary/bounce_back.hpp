// Half-way bounce-back (the wall sits half a spacing beyond the last fluid node),
// with the momentum a moving wall imparts (Toelke & Krafczyk 2008, eq. 9, written
// for any lattice with the reference density rho0 = 1):
//   f_i(x, t+1) = f*_opp(i)(x, t) + 2 w_i rho0 (c_i . U_wall) / cs2
// Shifted storage needs no correction since w_i = w_opp(i). A velocity face with
// Method::BounceBack applies the same rule with a velocity normal to the face: then
// each face node gains exactly rho0 u.n per step through it (the sum over the
// entering links of 2 w_i (c_i.n)^2 / cs2 is 1), so an inflow and an outflow of
// the same velocity keep the mass.
#pragma once
#include "common/hd.hpp"

namespace barracuda::boundary {

template <class L, class T, class V>
BARRACUDA_HD T moving_wall_term(int i, const V (&wall_velocity)[3]) {
    const V cu = V(L::c(i, 0)) * wall_velocity[0] + V(L::c(i, 1)) * wall_velocity[1] + V(L::c(i, 2)) * wall_velocity[2];
    return T(V(2.0 * L::w(i) / L::cs2) * cu);
}

}  // namespace barracuda::boundary
