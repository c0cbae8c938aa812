// MRT: relaxation in an orthogonal moment space (physics/mrt_basis.hpp),
//   f* = f - M^-1 S (m - m^eq) + M^-1 (I - S/2) M F~      (Guo's force in moment space)
// M has orthogonal rows, so M^-1 = M^T diag(1/|M_k|^2). m^eq = M f^eq, so the
// same code serves the compressible and the incompressible equilibrium.
// Conserved moments relax with rate 1: their non-equilibrium part is zero
// except the -F/2 of the momentum, which with (1 - 1/2) F adds exactly F.
#pragma once
#include "physics/equilibrium.hpp"
#include "physics/forcing.hpp"
#include "physics/moments.hpp"
#include "physics/mrt_basis.hpp"

namespace barracuda::physics {

struct MrtRateSet {
    double shear, energy, energy_square, heat_flux, pi, m;
};

template <class L, class Eq, class T>
    requires HasMrt<L>
struct Mrt {
    using Basis = MrtBasis<L>;
    // The matrix is data rather than folded constants: fully unrolled constant
    // folding of Q^2 polynomial entries made nvcc's optimiser take minutes per
    // instantiation. Kernel parameters live in the constant bank, read uniformly.
    T matrix[L::Q][L::Q];  // M_ki
    T rate[L::Q];          // s_k
    T inv_norm2[L::Q];     // 1 / sum_i M_ki^2

    static Mrt from_rates(const MrtRateSet& r) {
        Mrt m{};
        for (int k = 0; k < L::Q; ++k) {
            double s = 1.0;
            switch (Basis::rate_class(k)) {
                case RateClass::Conserved: s = 1.0; break;
                case RateClass::Shear: s = r.shear; break;
                case RateClass::Energy: s = r.energy; break;
                case RateClass::EnergySquare: s = r.energy_square; break;
                case RateClass::HeatFlux: s = r.heat_flux; break;
                case RateClass::Pi: s = r.pi; break;
                case RateClass::M: s = r.m; break;
            }
            double n2 = 0;
            for (int i = 0; i < L::Q; ++i) {
                const double v = Basis::row(k, L::c(i, 0), L::c(i, 1), L::c(i, 2));
                m.matrix[k][i] = T(v);
                n2 += v * v;
            }
            m.rate[k] = T(s);
            m.inv_norm2[k] = T(1.0 / n2);
        }
        return m;
    }

    BARRACUDA_HD void operator()(T (&f)[L::Q], const CellState<T>& s, const T (&force)[3], bool forced) const {
        T neq[L::Q], src[L::Q];
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) {
            neq[i] = f[i] - equilibrium_shifted<L, Eq>(i, s.drho, s.u);
            src[i] = forced ? guo_source<L>(i, s.u, force) : T(0);
        }
        T coef[L::Q];
        BARRACUDA_UNROLL
        for (int k = 0; k < L::Q; ++k) {
            T mneq = T(0), msrc = T(0);
            BARRACUDA_UNROLL
            for (int i = 0; i < L::Q; ++i) {
                mneq += matrix[k][i] * neq[i];
                msrc += matrix[k][i] * src[i];
            }
            coef[k] = (-rate[k] * mneq + (T(1) - T(0.5) * rate[k]) * msrc) * inv_norm2[k];
        }
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) {
            T df = T(0);
            BARRACUDA_UNROLL
            for (int k = 0; k < L::Q; ++k) df += matrix[k][i] * coef[k];
            f[i] += df;
        }
    }
};

}  // namespace barracuda::physics
