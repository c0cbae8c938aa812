// Physical units at the edge: a case written in SI ([units]) is converted to
// lattice units once, after it is read, and results are converted back on
// output. Inside, everything is lattice units (dx = dt = 1).
//
// The scales follow seed 004 §4.4: the resolution gives C_L = dx (units.cell, m),
// a reference velocity U (units.velocity, m/s) taken as U_lattice in lattice
// units (units.lattice_velocity, 0.1 by default) gives C_V = U / U_lattice, and
// C_t = dt = C_L / C_V. Then
//   nu_lattice = nu dt / dx^2 (and D alike), a_lattice = a dt^2 / dx (g, body force),
//   u_lattice = u / C_V, x_lattice = x / dx - 1/2 (node i at (i + 1/2) dx: the
//   half-way walls at 0 and n dx), q_lattice = q / (rho c_p) dt / dx (a heat flux).
#pragma once
#include <array>
#include <string>

namespace barracuda::sim {

struct UnitsSpec {
    bool si = false;                // [units] given: the case is in SI
    double cell = 0;                // dx (m)
    double velocity = 0;            // U (m/s), the reference velocity
    double lattice_velocity = 0.1;  // U in lattice units
    double density = 1.2;           // rho_0 (kg/m^3), air at 20 C: pressure and heat output
    double heat_capacity = 1005;    // c_p (J/(kg K)), air: heat fluxes and powers

    double dt() const { return cell * lattice_velocity / velocity; }   // s per step
    double velocity_scale() const { return velocity / lattice_velocity; }  // m/s per lattice unit
    double diffusivity_to_lattice() const { return dt() / (cell * cell); }
    double acceleration_to_lattice() const { return dt() * dt() / cell; }
    /// A heat flux q (W/m^2) as the temperature flux q / (rho c_p) (K m/s) in lattice units.
    double heat_flux_to_lattice() const { return dt() / (cell * density * heat_capacity); }
    /// A heat release P (W) as temperature times cell volumes per step: P dt / (rho c_p dx^3).
    double power_to_lattice() const { return dt() / (cell * cell * cell * density * heat_capacity); }
    /// A position (m) from the box's corner: node i stands at (i + 1/2) dx.
    double position_to_lattice(double x) const { return x / cell - 0.5; }
    /// The position (m) of node i along an axis: the inverse of position_to_lattice.
    double node_position(double i) const { return (i + 0.5) * cell; }
    /// Pressure (Pa) of a lattice density: p - p_0 = cs2 (rho - 1) rho_0 C_V^2.
    double pressure_of(double lattice_density) const {
        return (lattice_density - 1.0) / 3.0 * density * velocity_scale() * velocity_scale();
    }
    bool operator==(const UnitsSpec&) const = default;
};

struct CaseSpec;
/// Converts a case read in SI (spec.units.si) to lattice units, in place: velocities,
/// accelerations, positions and lengths, viscosity and diffusivity (tau, D), heat
/// fluxes, run.time and output.period (into steps). Temperatures stay as they are.
void to_lattice_units(CaseSpec& spec);
/// The conversion table printed at the start of an SI run (empty otherwise).
std::string conversion_table(const CaseSpec& spec);
/// The SI case's own refusals, naming the resolution or lattice velocity that would
/// fix them (tau too near 1/2); the lattice checks (sim::check_case) follow.
void check_units(const CaseSpec& spec);

}  // namespace barracuda::sim
