// Per-cell contribution to the reductions of backend::Observation, shared by
// the CPU loop and the CUDA reduction kernel so both find the same bad cell.
#pragma once
#include <cstdint>

#include "common/hd.hpp"

namespace barracuda::kernel {

struct Partial {
    double rho_min, rho_max, u2_max, change2, norm2;
    std::int64_t bad_cell;  // smallest bad cell index, or INT64_MAX
    double mass;            // sum of rho over the fluid cells
    std::int64_t fluid;     // their number
    double theta_min, theta_max, theta_sum;  // a coupled scalar over the fluid cells

    BARRACUDA_HD static Partial identity() {
        return {1e300, -1e300, 0.0, 0.0, 0.0, INT64_MAX, 0.0, 0, 1e300, -1e300, 0.0};
    }

    /// A fluid cell's scalar: NaN, Inf or beyond 1e30 makes the cell bad, and (a second
    /// component's density) outside [lo, hi]; such a finite value still counts in the sum
    /// (B's mass, as add_fluid counts A's whatever its range).
    BARRACUDA_HD void add_scalar(std::int64_t cell, double theta, double lo = -1e30, double hi = 1e30) {
        const bool finite = theta > -1e30 && theta < 1e30;
        if (!(finite && theta >= lo && theta <= hi)) {
            if (cell < bad_cell) bad_cell = cell;
            if (finite) theta_sum += theta;
            return;
        }
        theta_min = theta < theta_min ? theta : theta_min;
        theta_max = theta > theta_max ? theta : theta_max;
        theta_sum += theta;
    }

    /// A fluid cell's density into the mass (solid cells report rho = 1 and are left out).
    BARRACUDA_HD void add_fluid(double rho) {
        mass += rho;
        ++fluid;
    }

    BARRACUDA_HD void add_cell(std::int64_t cell, double rho, double ux, double uy, double uz, double lo, double hi) {
        const double u2 = ux * ux + uy * uy + uz * uz;
        // NaN fails every comparison, so test the good range and negate. |u| >= 1
        // (the lattice speed, beyond which no information travels) is never physical.
        const bool good = (rho >= lo && rho <= hi) && (u2 >= 0.0 && u2 < 1.0);
        if (!good) {
            if (cell < bad_cell) bad_cell = cell;
            return;
        }
        rho_min = rho < rho_min ? rho : rho_min;
        rho_max = rho > rho_max ? rho : rho_max;
        u2_max = u2 > u2_max ? u2 : u2_max;
        norm2 += u2;
    }
    BARRACUDA_HD void add_change(double dx, double dy, double dz) { change2 += dx * dx + dy * dy + dz * dz; }

    BARRACUDA_HD void merge(const Partial& o) {
        rho_min = o.rho_min < rho_min ? o.rho_min : rho_min;
        rho_max = o.rho_max > rho_max ? o.rho_max : rho_max;
        u2_max = o.u2_max > u2_max ? o.u2_max : u2_max;
        change2 += o.change2;
        norm2 += o.norm2;
        bad_cell = o.bad_cell < bad_cell ? o.bad_cell : bad_cell;
        mass += o.mass;
        fluid += o.fluid;
        theta_min = o.theta_min < theta_min ? o.theta_min : theta_min;
        theta_max = o.theta_max > theta_max ? o.theta_max : theta_max;
        theta_sum += o.theta_sum;
    }
};

}  // namespace barracuda::kernel
