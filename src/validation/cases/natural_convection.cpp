// Natural convection in a differentially heated square cavity (Pr = 0.71,
// Ra = 1e3 ... 1e6) against de Vahl Davis (1983), Table IV: the mean Nusselt
// number, u_max on the vertical mid-line and v_max on the horizontal one with
// their positions. The coupled temperature lattice of seed 004 (Boussinesq
// buoyancy through Guo's forcing, physics/advection_diffusion.hpp) in 2D:
// D2Q9 TRT flow, D2Q5 TRT temperature, FP64, half-way walls (bounce-back for the
// flow, anti-bounce-back at T_h and T_c on the left and right, bounce-back
// (adiabatic) on top and bottom), so the cavity spans n spacings: L = n.
//
// Parameters: the free-fall velocity U_0 = sqrt(g beta dT L) is 0.05 (Ma 0.09),
// nu = U_0 L sqrt(Pr / Ra), D = nu / Pr; the peak velocities then stay below
// 0.04. Run until the relative change of u over 1000 steps is below 1e-8.
//
// Measures: Nu = <u T - D dT/dx> L / (D dT) averaged over every interior face
// of the grid (in a steady state the heat flux through each vertical line is the
// same, so the mean over the cavity is the wall's); u_max, v_max from the
// mid-line profiles (the two middle rows or columns averaged, n even), their
// positions from a parabola through the largest node and its neighbours.
//
// Tolerances: the 1% at Ra <= 1e5 and 2% at 1e6 on Nu, u_max and v_max
// (de Vahl Davis' extrapolated values carry about 0.1-1% themselves); positions
// within one grid spacing (a flat maximum is located only to a fraction of a
// spacing; de Vahl Davis' own grids were 81^2).
#include <cmath>
#include <string>

#include "sim/simulation.hpp"
#include "validation/case.hpp"
#include "validation/devahl_davis1983.hpp"
#include "validation/flow.hpp"

namespace barracuda::validation {
namespace {

constexpr double prandtl = 0.71;
constexpr double free_fall_velocity = 0.05;

sim::CaseSpec heated_cavity(int n, double rayleigh) {
    const double nu = free_fall_velocity * n * std::sqrt(prandtl / rayleigh);
    auto s = periodic_box(lattice::Kind::D2Q9, {n, n, 1}, 3 * nu + 0.5, sim::Collision::TRT);
    s.title = "differentially heated cavity";
    for (int a = 0; a < 2; ++a) {
        s.periodic[std::size_t(a)] = false;
        s.faces[std::size_t(2 * a)].type = s.faces[std::size_t(2 * a + 1)].type = boundary::FaceType::Wall;
    }
    sim::ThermalSpec& t = s.thermal;
    t.enabled = true;
    t.lattice = lattice::CoupledKind::D2Q5;
    t.trt = true;  // Lambda = 3/16: the walls' position independent of tau_T
    t.prandtl = prandtl;
    t.diffusivity = nu / prandtl;
    // T_h = 1, T_c = 0, T_0 = 1/2; beta = 0.1 and g from U_0^2 = g beta dT L.
    t.expansion = 0.1;
    t.gravity = {0, -free_fall_velocity * free_fall_velocity / (t.expansion * n), 0};
    t.reference = 0.5;
    t.initial = 0.5;
    t.faces[boundary::XMin] = boundary::ScalarCondition{boundary::ScalarRule::Fixed, 1.0};
    t.faces[boundary::XMax] = boundary::ScalarCondition{boundary::ScalarRule::Fixed, 0.0};
    return s;
}

/// The largest value of a nodal profile and its position (node i at (i + 1/2)/N),
/// refined by the parabola through the largest node and its neighbours.
std::pair<double, double> peak(const std::vector<double>& f) {
    std::size_t k = 0;
    for (std::size_t i = 1; i < f.size(); ++i)
        if (f[i] > f[k]) k = i;
    const double n = double(f.size());
    if (k == 0 || k + 1 == f.size()) return {f[k], (double(k) + 0.5) / n};
    const double a = f[k - 1], b = f[k], c = f[k + 1];
    const double denom = a - 2 * b + c;
    const double d = denom < 0 ? 0.5 * (a - c) / denom : 0.0;  // offset in nodes, |d| <= 1/2
    return {b - 0.25 * (a - c) * d, (double(k) + 0.5 + d) / n};
}

Outcome run_natural_convection(const Context& ctx, const DeVahlDavisRow& ref) {
    const double ra = ref.rayleigh;
    const int n = ra <= 1e3 ? 64 : ra <= 1e4 ? (ctx.full() ? 128 : 64) : ra <= 1e5 ? 128 : 256;
    const double tolerance = ra >= 1e6 ? 0.02 : 0.01;
    auto spec = heated_cavity(n, ra);
    const double D = spec.thermal.diffusivity;
    ctx.log("D2Q9 + D2Q5 " + std::to_string(n) + "^2, Ra " + format("%.0e", ra) + ", tau " +
            format("%.4f", spec.model.tau) + ", tau_T " + format("%.4f", D * 3 + 0.5));
    sim::Simulation s(spec, ctx.backend);
    // A few thermal diffusion times L^2 / D at most; the flow settles long before.
    const auto max_steps = std::int64_t(3.0 * n * n / D);
    const auto steady = run_to_steady(s, 1e-8, 1000, max_steps);
    std::vector<double> rho, u, T;
    s.owned_fields(rho, u);
    s.owned_temperature(T);
    auto at = [n](int x, int y) { return std::size_t(x) + std::size_t(n) * std::size_t(y); };

    // Nu: the x-heat flux over every interior vertical face, in units of D dT / L.
    double flux = 0;
    for (int y = 0; y < n; ++y)
        for (int x = 0; x + 1 < n; ++x) {
            const double uf = 0.5 * (u[3 * at(x, y)] + u[3 * at(x + 1, y)]);
            const double Tf = 0.5 * (T[at(x, y)] + T[at(x + 1, y)]);
            flux += uf * Tf - D * (T[at(x + 1, y)] - T[at(x, y)]);
        }
    const double nu_mean = flux / double(n * (n - 1)) * n / D;
    // Mid-line profiles in units of D / L.
    std::vector<double> u_mid(static_cast<std::size_t>(n)), v_mid(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) {
        u_mid[std::size_t(k)] = 0.5 * (u[3 * at(n / 2 - 1, k)] + u[3 * at(n / 2, k)]) * n / D;
        v_mid[std::size_t(k)] = 0.5 * (u[3 * at(k, n / 2 - 1) + 1] + u[3 * at(k, n / 2) + 1]) * n / D;
    }
    const auto [u_max, y_u] = peak(u_mid);
    const auto [v_max, x_v] = peak(v_mid);

    Outcome out;
    out.setup = "D2Q9 TRT + D2Q5 TRT (Lambda 3/16), FP64, " + std::to_string(n) + "^2, Pr 0.71, Ra " +
                format("%.0e", ra) + ", U_0 = sqrt(g beta dT L) = 0.05, tau " + format("%.4f", spec.model.tau) +
                ", tau_T " + format("%.4f", 3 * D + 0.5) + "; " + std::to_string(steady.steps) + " steps" +
                (steady.steady ? " to steady state (1e-8)" : ", not steady");
    const std::string tag = steady.steady ? "" : " (not steady)";
    out.comparisons.push_back(relative("mean Nusselt number" + tag, nu_mean, ref.nu_mean, tolerance));
    out.comparisons.push_back(relative("u_max L/D on x = 1/2" + tag, u_max, ref.u_max, tolerance));
    out.comparisons.push_back(absolute("its height y/L", y_u, ref.y_u_max, 1.0 / n));
    out.comparisons.push_back(relative("v_max L/D on y = 1/2" + tag, v_max, ref.v_max, tolerance));
    out.comparisons.push_back(absolute("its position x/L", x_v, ref.x_v_max, 1.0 / n));

    io::PlotPanel pu{"u L/D on x = 1/2", "y/L", "u L/D", false, false, {}};
    io::PlotPanel pv{"v L/D on y = 1/2", "x/L", "v L/D", false, false, {}};
    io::PlotPanel pt{"T on y = 1/2", "x/L", "(T - T_c)/(T_h - T_c)", false, false, {}};
    std::vector<double> t_mid(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) t_mid[std::size_t(k)] = 0.5 * (T[at(k, n / 2 - 1)] + T[at(k, n / 2)]);
    pu.series.push_back({"Barracuda", node_positions(std::size_t(n)), u_mid, true, false});
    pu.series.push_back({"de Vahl Davis 1983 (max)", {ref.y_u_max}, {ref.u_max}, false, true});
    pv.series.push_back({"Barracuda", node_positions(std::size_t(n)), v_mid, true, false});
    pv.series.push_back({"de Vahl Davis 1983 (max)", {ref.x_v_max}, {ref.v_max}, false, true});
    pt.series.push_back({"Barracuda", node_positions(std::size_t(n)), t_mid, true, false});
    out.plot = {pu, pv, pt};
    return out;
}

Case natural_convection_case(const DeVahlDavisRow& ref) {
    Case c;
    const int exponent = int(std::lround(std::log10(ref.rayleigh)));
    c.name = "natural-convection-ra1e" + std::to_string(exponent);
    c.title = "differentially heated square cavity, Pr 0.71, Ra = 1e" + std::to_string(exponent) +
              " (Boussinesq, coupled temperature lattice)";
    c.citation = "de Vahl Davis 1983, Int. J. Numer. Methods Fluids 3, 249-264, Table IV (seed 004's coupling)";
    c.compares = "mean Nusselt number, u_max on x = 1/2 and v_max on y = 1/2 (relative), their positions (absolute)";
    c.full_only = ref.rayleigh > 1e4;
    c.short_setup = c.full_only ? "" : "D2Q9 + D2Q5 64^2, FP64, to steady state (CPU)";
    c.full_setup = ref.rayleigh <= 1e3 ? "D2Q9 + D2Q5 64^2, FP64"
                   : ref.rayleigh <= 1e5 ? "D2Q9 + D2Q5 128^2, FP64"
                                         : "D2Q9 + D2Q5 256^2, FP64";
    c.run = [ref](const Context& ctx) { return run_natural_convection(ctx, ref); };
    return c;
}

const bool registered = [] {
    for (const auto& row : de_vahl_davis1983) add_case(natural_convection_case(row));
    return true;
}();

}  // namespace
}  // namespace barracuda::validation
