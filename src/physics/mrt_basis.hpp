// Orthogonal moment bases for MRT, as polynomials of the lattice velocity so
// that they do not depend on the order of the velocities.
//   D2Q9:  Lallemand & Luo 2000, Phys. Rev. E 61, 6546, eq. (8)-(10).
//   D3Q19: d'Humières, Ginzburg, Krafczyk, Lallemand & Luo 2002,
//          Phil. Trans. R. Soc. A 360, 437, eq. (2.4)-(2.5) / Appendix.
//   D3Q13: d'Humières, Bouzidi & Lallemand 2001, Phys. Rev. E 63, 066702;
//          seed 000 Appendix A (eq. A1-A13).
//   D3Q15: d'Humières, Ginzburg, Krafczyk, Lallemand & Luo 2002 (as D3Q19).
//   D3Q27: products of the polynomials 1, c, 3c^2 - 2 orthogonal on {-1, 0, 1},
//          grouped as for D3Q19 (the tensor-product construction of e.g.
//          Suga, Kuwata, Takashima & Chikasue 2015, Comput. Math. Appl. 69, 518).
// Each moment belongs to a rate class; shear moments relax with 1/tau, except on
// D3Q13, whose diagonal and off-diagonal stresses take the two rates of seed 000
// eq. 7 (ShearDiagonal, ShearOffDiagonal).
#pragma once
#include "common/hd.hpp"
#include "lattice/lattice.hpp"

namespace barracuda::physics {

enum class RateClass : int { Conserved, Shear, Energy, EnergySquare, HeatFlux, Pi, M, ShearDiagonal, ShearOffDiagonal };

template <class L>
struct MrtBasis;  // not offered on lattices without a specialisation

template <class L>
concept HasMrt = requires { MrtBasis<L>::row(0, 0, 0, 0); };

template <>
struct MrtBasis<lattice::D2Q9> {
    // 0 rho, 1 e, 2 eps, 3 jx, 4 qx, 5 jy, 6 qy, 7 pxx, 8 pxy
    BARRACUDA_HD static constexpr double row(int k, int x, int y, int) {
        const int c2 = x * x + y * y;
        switch (k) {
            case 0: return 1;
            case 1: return -4 + 3 * c2;
            case 2: return 4 - 10.5 * c2 + 4.5 * c2 * c2;
            case 3: return x;
            case 4: return (-5 + 3 * c2) * x;
            case 5: return y;
            case 6: return (-5 + 3 * c2) * y;
            case 7: return x * x - y * y;
            default: return x * y;
        }
    }
    static constexpr RateClass rate_class(int k) {
        constexpr RateClass r[9] = {RateClass::Conserved, RateClass::Energy,   RateClass::EnergySquare,
                                    RateClass::Conserved, RateClass::HeatFlux, RateClass::Conserved,
                                    RateClass::HeatFlux,  RateClass::Shear,    RateClass::Shear};
        return r[k];
    }
};

template <>
struct MrtBasis<lattice::D3Q19> {
    // 0 rho, 1 e, 2 eps, 3 jx, 4 qx, 5 jy, 6 qy, 7 jz, 8 qz, 9 3pxx, 10 3pixx, 11 pww, 12 piww,
    // 13 pxy, 14 pyz, 15 pxz, 16 mx, 17 my, 18 mz
    BARRACUDA_HD static constexpr double row(int k, int x, int y, int z) {
        const int c2 = x * x + y * y + z * z;
        switch (k) {
            case 0: return 1;
            case 1: return 19 * c2 - 30;
            case 2: return 0.5 * (21 * c2 * c2 - 53 * c2 + 24);
            case 3: return x;
            case 4: return (5 * c2 - 9) * x;
            case 5: return y;
            case 6: return (5 * c2 - 9) * y;
            case 7: return z;
            case 8: return (5 * c2 - 9) * z;
            case 9: return 3 * x * x - c2;
            case 10: return (3 * c2 - 5) * (3 * x * x - c2);
            case 11: return y * y - z * z;
            case 12: return (3 * c2 - 5) * (y * y - z * z);
            case 13: return x * y;
            case 14: return y * z;
            case 15: return x * z;
            case 16: return (y * y - z * z) * x;
            case 17: return (z * z - x * x) * y;
            default: return (x * x - y * y) * z;
        }
    }
    static constexpr RateClass rate_class(int k) {
        constexpr RateClass r[19] = {
            RateClass::Conserved, RateClass::Energy, RateClass::EnergySquare, RateClass::Conserved,
            RateClass::HeatFlux,  RateClass::Conserved, RateClass::HeatFlux, RateClass::Conserved,
            RateClass::HeatFlux,  RateClass::Shear,  RateClass::Pi,          RateClass::Shear,
            RateClass::Pi,        RateClass::Shear,  RateClass::Shear,       RateClass::Shear,
            RateClass::M,         RateClass::M,      RateClass::M};
        return r[k];
    }
};

template <>
struct MrtBasis<lattice::D3Q13> {
    // 0 rho, 1 e, 2 jx, 3 jy, 4 jz, 5 3pxx, 6 pww, 7 pxy, 8 pyz, 9 pxz, 10 hx, 11 hy, 12 hz
    // (seed 000 eq. 4 and A1-A13; the order keeps the even rows together).
    BARRACUDA_HD static constexpr double row(int k, int x, int y, int z) {
        const int c2 = x * x + y * y + z * z;
        switch (k) {
            case 0: return 1;
            case 1: return 6.5 * c2 - 12;
            case 2: return x;
            case 3: return y;
            case 4: return z;
            case 5: return 3 * x * x - c2;
            case 6: return y * y - z * z;
            case 7: return x * y;
            case 8: return y * z;
            case 9: return x * z;
            case 10: return x * (y * y - z * z);
            case 11: return y * (z * z - x * x);
            default: return z * (x * x - y * y);
        }
    }
    static constexpr RateClass rate_class(int k) {
        constexpr RateClass r[13] = {RateClass::Conserved,       RateClass::Energy,           RateClass::Conserved,
                                     RateClass::Conserved,       RateClass::Conserved,        RateClass::ShearDiagonal,
                                     RateClass::ShearDiagonal,   RateClass::ShearOffDiagonal, RateClass::ShearOffDiagonal,
                                     RateClass::ShearOffDiagonal, RateClass::M,               RateClass::M,
                                     RateClass::M};
        return r[k];
    }
    /// The two stress rates for the viscosity nu = cs2 (tau - 1/2) (seed 000 eq. 7,
    /// c = dt = 1): s_v = 2 / (8 nu + 1) for 3pxx and pww, s'_v = 2 / (4 nu + 1) for pxy, pyz, pxz.
    static constexpr double diagonal_rate(double tau) { return 2.0 / (8.0 * (tau - 0.5) / 3.0 + 1.0); }
    static constexpr double off_diagonal_rate(double tau) { return 2.0 / (4.0 * (tau - 0.5) / 3.0 + 1.0); }
};

template <>
struct MrtBasis<lattice::D3Q15> {
    // 0 rho, 1 e, 2 eps, 3 jx, 4 qx, 5 jy, 6 qy, 7 jz, 8 qz, 9 3pxx, 10 pww, 11 pxy, 12 pyz, 13 pxz, 14 mxyz
    BARRACUDA_HD static constexpr double row(int k, int x, int y, int z) {
        const int c2 = x * x + y * y + z * z;
        switch (k) {
            case 0: return 1;
            case 1: return c2 - 2;
            case 2: return 0.5 * (15 * c2 * c2 - 55 * c2 + 32);
            case 3: return x;
            case 4: return (5 * c2 - 13) * x;
            case 5: return y;
            case 6: return (5 * c2 - 13) * y;
            case 7: return z;
            case 8: return (5 * c2 - 13) * z;
            case 9: return 3 * x * x - c2;
            case 10: return y * y - z * z;
            case 11: return x * y;
            case 12: return y * z;
            case 13: return x * z;
            default: return x * y * z;
        }
    }
    static constexpr RateClass rate_class(int k) {
        constexpr RateClass r[15] = {RateClass::Conserved, RateClass::Energy,    RateClass::EnergySquare,
                                     RateClass::Conserved, RateClass::HeatFlux,  RateClass::Conserved,
                                     RateClass::HeatFlux,  RateClass::Conserved, RateClass::HeatFlux,
                                     RateClass::Shear,     RateClass::Shear,     RateClass::Shear,
                                     RateClass::Shear,     RateClass::Shear,     RateClass::M};
        return r[k];
    }
};

template <>
struct MrtBasis<lattice::D3Q27> {
    // With p0 = 1, p1(c) = c, p2(c) = 3c^2 - 2 (orthogonal on {-1, 0, 1}), the 27 products
    // pa(x) pb(y) pc(z) are orthogonal; the rows are those products or sums and differences of
    // products of one family, which keeps them orthogonal and groups them by order:
    //  0 rho; 1-3 j; 4 e = c^2 - 2; 5 3pxx, 6 pww, 7 pxy, 8 pyz, 9 pxz (stress);
    //  10-12 q = x (p2(y) + p2(z)) ...; 13-15 m = x (y^2 - z^2) ...; 16 xyz;
    //  17 eps = p2 p2 summed over pairs; 18, 19 its traceless parts; 20-22 xy p2(z) ...;
    //  23-25 x p2(y) p2(z) ...; 26 p2(x) p2(y) p2(z).
    BARRACUDA_HD static constexpr double row(int k, int x, int y, int z) {
        const int c2 = x * x + y * y + z * z;
        const int px = 3 * x * x - 2, py = 3 * y * y - 2, pz = 3 * z * z - 2;
        switch (k) {
            case 0: return 1;
            case 1: return x;
            case 2: return y;
            case 3: return z;
            case 4: return c2 - 2;
            case 5: return 3 * x * x - c2;
            case 6: return y * y - z * z;
            case 7: return x * y;
            case 8: return y * z;
            case 9: return x * z;
            case 10: return x * (py + pz);
            case 11: return y * (px + pz);
            case 12: return z * (px + py);
            case 13: return x * (y * y - z * z);
            case 14: return y * (z * z - x * x);
            case 15: return z * (x * x - y * y);
            case 16: return x * y * z;
            case 17: return px * py + py * pz + px * pz;
            case 18: return 2 * py * pz - px * pz - px * py;
            case 19: return px * pz - px * py;
            case 20: return x * y * pz;
            case 21: return y * z * px;
            case 22: return x * z * py;
            case 23: return x * py * pz;
            case 24: return y * px * pz;
            case 25: return z * px * py;
            default: return px * py * pz;
        }
    }
    static constexpr RateClass rate_class(int k) {
        if (k < 4) return RateClass::Conserved;
        if (k == 4) return RateClass::Energy;
        if (k < 10) return RateClass::Shear;
        if (k < 13) return RateClass::HeatFlux;
        if (k < 17) return RateClass::M;
        if (k == 17 || k == 26) return RateClass::EnergySquare;
        if (k < 23) return RateClass::Pi;
        return RateClass::HeatFlux;  // fifth order
    }
};

}  // namespace barracuda::physics
