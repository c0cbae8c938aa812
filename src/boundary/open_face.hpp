// Velocity and pressure (density) conditions on the face nodes of the box.
//
// The populations entering from outside the box are unknown. With inward
// normal n, S0 = sum f~ over c.n = 0 and Sout = sum f~ over c.n < 0 (known),
// mass and normal momentum give (Zou & He 1997, eq. 19, any lattice):
//   rho = 1 + S0 + 2 Sout + j.n
// Velocity given: j = rho u - F/2 (compressible) or u - F/2 (He-Luo), solved for rho.
// Density given:  j.n from the balance, tangential j = -F/2 (zero fluid velocity).
//
// Zou-He: unknowns from non-equilibrium bounce-back, f_i = f_opp + 2 w_i c_i.j / cs2
// (the odd part of any second-order equilibrium), then the tangential momentum
// is corrected by spreading the residual over the unknowns in proportion to
// c_i,t (Hecht & Harting 2010 for D3Q19; the same rule gives the classical D2Q9
// formulas and extends to D3Q15/D3Q27 because the unknown set is symmetric in
// each tangential direction, so mass and the other components are unchanged).
// Equilibrium: the node is set to f^eq(rho, u) and not collided.
// Regularized (Latt, Chopard, Malaspinas, Deville & Michler 2008, Phys. Rev. E
// 77, 056703, Sec. III.C): the unknowns by non-equilibrium bounce-back as in
// Zou-He (without the transverse correction), then every population is
// replaced by f^eq(rho, u) + w_i/(2 cs4) Q_i : Pi^neq, Pi^neq = sum_i c_i c_i
// (f_i - f_i^eq): the stress of the face node is kept, its higher-order
// (ghost) content dropped; then it collides like any node. More robust than
// Zou-He as tau -> 1/2 (docs/validation.md: Womersley).
#pragma once
#include "boundary/parameters.hpp"
#include "lattice/lattice.hpp"
#include "physics/equilibrium.hpp"

namespace barracuda::boundary {

template <class T>
struct OpenFaceState {
    T drho;     // rho - 1
    T j[3];     // momentum the populations must carry
    T u[3];     // fluid velocity (for the equilibrium method)
};

/// What a face node is given: the velocity (velocity face) or the density (pressure face).
template <class T>
struct Prescribed {
    T u[3];
    T rho;
};

/// The state of a face node whose known populations are f and whose prescribed value is `given`.
template <class L, class Eq, class T>
BARRACUDA_HD OpenFaceState<T> open_face_state(const T (&f)[L::Q], int face, const Parameters& faces,
                                              const T (&force)[3], const Prescribed<T>& given) {
    const int a = Parameters::axis(face), s = Parameters::inward(face);
    T s0 = T(0), sout = T(0);
    BARRACUDA_UNROLL
    for (int i = 0; i < L::Q; ++i) {
        const int cn = s * lattice::c_along<L>(i, a);
        if (cn == 0) s0 += f[i];
        else if (cn < 0) sout += f[i];
    }
    const T known = T(1) + s0 + T(2) * sout;
    OpenFaceState<T> st;
    const T fn = T(s) * (a == 0 ? force[0] : (a == 1 ? force[1] : force[2]));
    if (faces.type[face] == FaceType::Velocity) {
        const T(&u)[3] = given.u;
        const T un = T(s) * (a == 0 ? u[0] : (a == 1 ? u[1] : u[2]));
        // rho = known + j.n, j.n = w(rho) u.n - F.n/2
        T rho;
        if constexpr (Eq::compressible) rho = (known - T(0.5) * fn) / (T(1) - un);
        else rho = known + un - T(0.5) * fn;
        st.drho = rho - T(1);
        const T wr = Eq::velocity_weight(rho);
        BARRACUDA_UNROLL
        for (int b = 0; b < 3; ++b) {
            st.u[b] = u[b];
            st.j[b] = wr * u[b] - T(0.5) * force[b];
        }
    } else {
        const T rho = given.rho;
        st.drho = rho - T(1);
        const T inv_wr = T(1) / Eq::velocity_weight(rho);
        BARRACUDA_UNROLL
        for (int b = 0; b < 3; ++b) st.j[b] = -T(0.5) * force[b];
        const T jn = T(s) * (rho - known);
        BARRACUDA_UNROLL
        for (int b = 0; b < 3; ++b)
            if (b == a) st.j[b] = jn;
        BARRACUDA_UNROLL
        for (int b = 0; b < 3; ++b) st.u[b] = (st.j[b] + T(0.5) * force[b]) * inv_wr;
    }
    return st;
}

/// The unknowns whose c points inward through `face` by non-equilibrium bounce-back,
/// f_i = f_opp + 2 w_i c_i.j / cs2 (the odd part of any second-order equilibrium);
/// returns them as a mask. The first step of Zou-He and of the regularized face.
template <class L, class T>
BARRACUDA_HD unsigned non_equilibrium_bounce_back(T (&f)[L::Q], unsigned unknown, int face, const OpenFaceState<T>& st) {
    const int a = Parameters::axis(face), s = Parameters::inward(face);
    constexpr T inv_cs2 = T(1.0 / L::cs2);
    unsigned mine = 0;
    BARRACUDA_UNROLL
    for (int i = 0; i < L::Q; ++i) {
        if (((unknown >> i) & 1u) && s * lattice::c_along<L>(i, a) > 0) {
            mine |= 1u << i;
            const T cj = lattice::c_dot<L>(i, st.j);  // zero components left out (lattice::c_dot)
            f[i] = f[L::opposite(i)] + T(2) * T(L::w(i)) * cj * inv_cs2;
        }
    }
    return mine;
}

/// Replaces the unknown populations (bits of `unknown` whose c points inward
/// through `face`) by Zou-He's rule for the state st. Edge nodes (where the
/// unknown set is not symmetric) are not handled here (kernel/stream_collide.hpp).
template <class L, class T>
BARRACUDA_HD void zou_he(T (&f)[L::Q], unsigned unknown, int face, const OpenFaceState<T>& st) {
    const int a = Parameters::axis(face);
    const unsigned mine = non_equilibrium_bounce_back<L>(f, unknown, face, st);
    BARRACUDA_UNROLL
    for (int t = 0; t < 3; ++t) {
        if (t == a) continue;
        T current = T(0), denom = T(0);
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) {
            if (L::c(i, t) == 0) continue;  // 0 * f[i] is not folded away (non_equilibrium_stress)
            current += T(L::c(i, t)) * f[i];
            if ((mine >> i) & 1u) denom += T(L::c(i, t) * L::c(i, t));
        }
        if (denom == T(0)) continue;
        const T share = (st.j[t] - current) / denom;
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i)
            if (((mine >> i) & 1u) && L::c(i, t) != 0) f[i] += T(L::c(i, t)) * share;
    }
}

/// The regularized face node (see the top of the file): all populations rebuilt.
template <class L, class Eq, class T>
BARRACUDA_HD void regularized_face(T (&f)[L::Q], unsigned unknown, int face, const OpenFaceState<T>& st) {
    non_equilibrium_bounce_back<L>(f, unknown, face, st);
    T feq[L::Q], pi[6] = {T(0), T(0), T(0), T(0), T(0), T(0)};
    BARRACUDA_UNROLL
    for (int i = 0; i < L::Q; ++i) {
        feq[i] = physics::equilibrium_shifted<L, Eq>(i, st.drho, st.u);
        const T d = f[i] - feq[i];
        const int c0 = L::c(i, 0), c1 = L::c(i, 1), c2 = L::c(i, 2);  // zero terms left out (physics/les.hpp)
        if (c0) pi[0] += T(c0 * c0) * d;
        if (c1) pi[1] += T(c1 * c1) * d;
        if (c2) pi[2] += T(c2 * c2) * d;
        if (c0 && c1) pi[3] += T(c0 * c1) * d;
        if (c0 && c2) pi[4] += T(c0 * c2) * d;
        if (c1 && c2) pi[5] += T(c1 * c2) * d;
    }
    BARRACUDA_UNROLL
    for (int i = 0; i < L::Q; ++i) f[i] = feq[i] + physics::hermite2_non_equilibrium<L>(i, pi);
}

}  // namespace barracuda::boundary
