#include "sim/units.hpp"

#include <memory>

#include <cmath>
#include <cstdio>

#include "common/error.hpp"
#include "lattice/scalar_sets.hpp"
#include "sim/case_spec.hpp"

namespace barracuda::sim {

namespace {
std::string num(double v, const char* fmt = "%.4g") {
    char b[48];
    std::snprintf(b, sizeof b, fmt, v);
    return b;
}
}  // namespace

void to_lattice_units(CaseSpec& spec) {
    const UnitsSpec& u = spec.units;
    if (!u.si) return;
    const double cv = u.velocity_scale(), dx = u.cell, dt = u.dt();
    auto velocity = [&](std::array<double, 3>& v) {
        for (double& c : v) c /= cv;
    };
    // The viscosity was read in m^2/s (model.viscosity; model.tau is refused in SI).
    spec.model.tau = 3.0 * spec.model.viscosity * u.diffusivity_to_lattice() + 0.5;
    velocity(spec.initial_velocity);
    for (auto& f : spec.faces) {
        velocity(f.velocity);
        velocity(f.sponge_velocity);
    }
    for (double& g : spec.body_force) g *= u.acceleration_to_lattice();
    for (auto& o : spec.obstacles) {
        velocity(o.velocity);
        for (std::size_t a = 0; a < 3; ++a) {
            o.min[a] = u.position_to_lattice(o.min[a]);
            o.max[a] = u.position_to_lattice(o.max[a]);
            o.center[a] = u.position_to_lattice(o.center[a]);
        }
        o.radius /= dx;
        if (o.voxels) {
            geometry::Voxels v = *o.voxels;
            for (std::size_t a = 0; a < 3; ++a) v.origin[a] = u.position_to_lattice(v.origin[a]);
            v.spacing /= dx;
            o.voxels = std::make_shared<const geometry::Voxels>(std::move(v));
        }
        if (o.mesh)
            o.mesh = std::make_shared<const geometry::Mesh>(
                o.mesh->mapped([&](int, double x) { return u.position_to_lattice(x); }));
        if (o.thermal && o.thermal->rule == boundary::ScalarRule::Flux) o.thermal->value *= u.heat_flux_to_lattice();
        if (o.power) *o.power *= u.power_to_lattice();
    }
    for (auto& p : spec.probes.points)
        for (double& x : p) x = u.position_to_lattice(x);
    if (lattice::dimensions_of(spec.model.lattice) == 2)
        for (auto& p : spec.probes.points) p[2] = 0;
    if (spec.probes.period > 0) spec.probes.interval = std::max<std::int64_t>(1, std::llround(spec.probes.period / dt));
    AverageSpec& a = spec.average;
    if (a.enabled) {
        if (a.time[1] > 0) a.from = std::llround(a.time[0] / dt), a.to = std::max<std::int64_t>(a.from + 1, std::llround(a.time[1] / dt));
        if (a.period > 0) a.interval = std::max<std::int64_t>(1, std::llround(a.period / dt));
        if (a.section_axis >= 0 && lattice::dimensions_of(spec.model.lattice) == 3)
            a.section_at = u.position_to_lattice(a.section_at);
        for (double& x : a.profiles) x = u.position_to_lattice(x);
    }
    spec.forces.reference_velocity /= cv;
    spec.forces.reference_area /= lattice::dimensions_of(spec.model.lattice) == 2 ? dx : dx * dx;
    ThermalSpec& t = spec.thermal;
    if (t.enabled) {
        t.diffusivity = t.prandtl > 0 ? (spec.model.tau - 0.5) / 3.0 / t.prandtl
                                      : t.diffusivity * u.diffusivity_to_lattice();
        for (double& g : t.gravity) g *= u.acceleration_to_lattice();
        for (auto& c : t.faces)
            if (c && c->rule == boundary::ScalarRule::Flux) c->value *= u.heat_flux_to_lattice();
    }
    if (spec.run.time > 0) spec.run.steps = std::max<std::int64_t>(1, std::llround(std::ceil(spec.run.time / dt - 1e-9)));
    if (spec.output.period > 0) spec.output.interval = std::max<std::int64_t>(1, std::llround(spec.output.period / dt));
}

std::string conversion_table(const CaseSpec& spec) {
    const UnitsSpec& u = spec.units;
    if (!u.si) return "";
    const double dt = u.dt();
    const double nu = (spec.model.tau - 0.5) / 3.0;
    std::string s = "units (SI -> lattice, seed 004 4.4): dx = " + num(u.cell) + " m, U = " + num(u.velocity) +
                    " m/s as " + num(u.lattice_velocity) + " (C_V = " + num(u.velocity_scale()) + " m/s), dt = " +
                    num(dt) + " s\n";
    s += "  nu = " + num(spec.model.viscosity) + " m^2/s -> " + num(nu) + ", tau = " + num(spec.model.tau, "%.6f") +
         "; Ma = U/c_s = " + num(u.lattice_velocity * std::sqrt(3.0), "%.3f");
    if (spec.model.smagorinsky > 0) s += "; LES C = " + num(spec.model.smagorinsky);
    s += "\n";
    if (spec.thermal.enabled) {
        const double cs2 = lattice::cs2_of(spec.thermal.lattice);
        const double g = std::sqrt(spec.thermal.gravity[0] * spec.thermal.gravity[0] +
                                   spec.thermal.gravity[1] * spec.thermal.gravity[1] +
                                   spec.thermal.gravity[2] * spec.thermal.gravity[2]);
        s += "  D = " + num(spec.thermal.diffusivity / u.diffusivity_to_lattice()) + " m^2/s -> " +
             num(spec.thermal.diffusivity) + ", tau_T = " + num(spec.thermal.diffusivity / cs2 + 0.5, "%.6f") +
             " (" + std::string(lattice::name_of(spec.thermal.lattice)) + "); |g| = " +
             num(g / u.acceleration_to_lattice()) + " m/s^2 -> " + num(g) + "\n";
    }
    s += "  " + std::to_string(spec.run.steps) + " steps = " + num(double(spec.run.steps) * dt) + " s";
    if (spec.output.interval > 0) s += ", output every " + std::to_string(spec.output.interval) + " steps (" +
                                       num(double(spec.output.interval) * dt) + " s)";
    return s + "\n";
}

void check_units(const CaseSpec& spec) {
    const UnitsSpec& u = spec.units;
    if (!u.si) return;
    // tau - 1/2 = 3 nu dt / dx^2 = 3 nu U_lattice / (U dx): it grows with the lattice
    // velocity and with the resolution. Without LES an under-resolved flow at tau near
    // 1/2 diverges; with LES the eddy viscosity carries the unresolved scales (seed 004
    // ran its room at tau = 0.50034) and only the floor below guards the arithmetic.
    const bool les = spec.model.smagorinsky > 0;
    const double floor = les ? 1e-4 : 1e-3;
    const double margin = spec.model.tau - 0.5;
    if (!(margin >= floor)) {
        const double factor = floor / margin;
        throw CaseError("model.viscosity = " + value_text(spec.model.viscosity) + " m^2/s: tau = " +
                        num(spec.model.tau, "%.6f") + " at dx = " + num(u.cell) + " m and dt = " + num(u.dt()) +
                        " s must be >= " + num(0.5 + floor, "%.4f") + (les ? "" : " without LES") +
                        "; raise units.lattice_velocity to " + num(u.lattice_velocity * factor) +
                        " (tau - 1/2 grows with it) or refine the grid " + num(factor, "%.2f") +
                        " times (units.cell " + num(u.cell / factor) + " m)" +
                        (les ? "" : ", or turn LES on (model.smagorinsky, e.g. 0.1)"));
    }
}

}  // namespace barracuda::sim
