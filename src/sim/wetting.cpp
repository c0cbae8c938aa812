// The wetting walls of the Shan-Chen models (kernel/binary.hpp, kernel/pseudopotential.hpp):
// which adhesion gives the contact angle a case sets. Written for two components; one
// component (a liquid and its vapour) goes the same way with the liquid for A.
//
// Why a calibration drop and not a formula: Young's law with the three tensions of the
// model measured on relaxed flat columns (each phase against the wall, the A-B
// interface: p_bulk - P_T integrated, the route that checks the interface's tension
// against Laplace's law in tests/test_binary_shan_chen.cpp) predicts cos(theta) at 3/4
// of what sessile drops take, whatever their size (R = 12, 16, 24: 59.78, 59.74, 59.70
// degrees at adhesion 0.1, G = 1.5, where the columns say 68). The contact line's own
// discrete balance (half-way bounce-back takes part of the tangential force on the first
// row, the first row's links into the wall do not cross a plane normal to it) is not in
// a column, and no closed form for it was found (docs/validation.md). So the relation is
// measured where it acts: a drop of the case's model (G, the pseudopotential, tau of each
// component, the forcing, the phases its densities separate into), sessile on a flat
// wall, the adhesion moved by the secant method until the drop's cap takes the angle.
// The angle does not depend on the drop's size at these sizes (above), so a small one
// (R = 12) serves any case. Adhesion 0 makes the wall a symmetry plane for the interaction,
// not for the populations (half-way bounce-back): it gives 90.19 degrees for two components,
// 88.9 for a liquid and its vapour, so 90 is calibrated as any other angle.
#include "sim/wetting.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "physics/shan_chen.hpp"

namespace barracuda::sim {
namespace {

constexpr double pi = 3.14159265358979323846;

/// A D2Q9 FP64 box nx x ny of the model, x periodic: periodic in y too, or a wall at
/// y = -1/2 and a free-slip face (a symmetry plane) above the last row.
backend::EngineSetup box(const backend::EngineSetup& model, int nx, int ny, bool wall, double adhesion) {
    backend::EngineSetup s;
    s.lattice = lattice::Kind::D2Q9;
    // One component offers BGK, TRT and MRT: TRT projects from D3Q19 to D2Q9 as BGK does
    // (its two rates act on the even and odd parts, which the projection keeps); MRT's
    // moments do not, so a D3Q19 MRT case is calibrated with BGK.
    s.collision = model.collision == physics::CollisionKind::MRT && model.lattice != lattice::Kind::D2Q9
                      ? physics::CollisionKind::BGK
                      : model.collision;
    s.trt_magic = model.trt_magic;
    s.mrt = model.mrt;
    s.equilibrium = physics::EquilibriumKind::Compressible;
    s.forcing = model.forcing;
    s.precision = storage::Precision::FP64;
    s.pattern = storage::Pattern::TwoCopy;
    s.scalar = model.scalar;
    s.shan_chen = model.shan_chen;
    s.tau = model.tau;
    s.tau_b = model.tau_b;
    s.wall_density = -1;  // the mirror image + the adhesion
    s.adhesion = adhesion;
    s.grid = {{nx, ny, 1}, {true, !wall, true}, false};
    for (int f = 0; f < 6; ++f) {
        s.faces.type[f] = boundary::FaceType::Periodic;
        s.faces.method[f] = boundary::Method::ZouHe;
        s.faces.density[f] = 1.0;
    }
    if (wall) {
        s.faces.type[boundary::YMin] = boundary::FaceType::Wall;
        s.faces.type[boundary::YMax] = boundary::FaceType::FreeSlip;
    }
    s.node_kind.assign(s.grid.cells(), boundary::Fluid);
    return s;
}

bool binary(const backend::EngineSetup& s) { return s.scalar == lattice::CoupledKind::ShanChenBinary; }

/// An engine of `s` started at rest from the densities a0, b0.
std::unique_ptr<backend::Engine> start(const backend::EngineSetup& s, const std::vector<double>& a0,
                                       const std::vector<double>& b0) {
    auto engine = backend::make_cpu_engine(s);
    const std::vector<double> rest(3 * a0.size(), 0.0);
    engine->initialize(a0, rest);
    if (binary(s)) engine->initialize_scalar(b0, rest);
    return engine;
}

void check(backend::Engine& engine, const backend::EngineSetup& s) {
    // Two components: each density is watched, and the minor one dips below zero at strong
    // coupling; the calibration holds it to -1, the lowest bound a case's run.density_range
    // may give (sim/case_check.cpp), so that it never stops where the run would go on.
    if (engine.observe(binary(s) ? -1.0 : 1e-9, 1e9, false).bad_cell >= 0)
        throw CaseError("multiphase.contact_angle: the wetting calibration diverged (G = " +
                        value_text(s.shan_chen.g) + ", adhesion " + value_text(s.adhesion) + ")");
}

/// The pair forces of a flat interface normal to y across a plane normal to x: the
/// transverse pressure P_T(y) = cs2 (rho_A + rho_B) + (G/2) (psi_A S_B + psi_B S_A),
/// S(y) = sum_i w_i psi(y + c_iy) c_ix^2 = (2/9) psi(y) + (1/18) (psi(y+1) + psi(y-1)),
/// each pair shared between its two rows (one component: cs2 rho + (G/2) psi S(psi); with
/// the mixed force, beta times that pair term plus the isotropic (1 - beta) G cs2 psi^2 / 2,
/// whose discrete gradient the psi^2 part of the force is along a flat interface's normal;
/// Carnahan-Starling at 0.7 T_c, beta = 1.2215: 0.01459, and drops of R = 11, 17, 27 give
/// 0.01449 by Laplace's law with Tolman's term, where the pair term alone gave 0.01534);
/// the tension sum_y (p_bulk - P_T) / 2 over a periodic column holding two interfaces
/// (tests/test_binary_shan_chen.cpp and tests/test_shan_chen.cpp check it against
/// Laplace's law).
double flat_tension(const backend::EngineSetup& s, const std::vector<double>& a, const std::vector<double>& b) {
    constexpr double cs2 = 1.0 / 3;
    const physics::ShanChenParameters& p = s.shan_chen;
    const int n = int(a.size());
    std::vector<double> pa(a.size()), pb(b.size());
    for (std::size_t y = 0; y < a.size(); ++y)
        pa[y] = physics::pseudopotential(p, a[y], cs2), pb[y] = binary(s) ? physics::pseudopotential(p, b[y], cs2) : 0;
    const auto around = [&](const std::vector<double>& v, int y) {
        return 2.0 / 9.0 * v[std::size_t(y)] + (v[std::size_t((y + 1) % n)] + v[std::size_t((y + n - 1) % n)]) / 18.0;
    };
    const auto transverse = [&](int y) {
        const auto r = std::size_t(y);
        return binary(s) ? cs2 * (a[r] + b[r]) + 0.5 * p.g * (pa[r] * around(pb, y) + pb[r] * around(pa, y))
                         : cs2 * a[r] + 0.5 * p.g * (p.mixing * pa[r] * around(pa, y) + (1 - p.mixing) * cs2 * pa[r] * pa[r]);
    };
    const double p_bulk = binary(s) ? physics::binary_pressure(p, a[0], b[0], cs2)
                                    : physics::shan_chen_pressure(p, a[0], cs2);
    double sum = 0;
    for (int y = 0; y < n; ++y) sum += p_bulk - transverse(y);
    return sum / 2;
}

/// What the drop's cap is fitted to: phi = (rho_A - rho_B) / (rho_A + rho_B), or for one
/// component rho less the mean of the two phases' densities.
void order_parameter(backend::Engine& engine, const backend::EngineSetup& s, double middle, std::vector<double>& phi) {
    std::vector<double> a, b, u;
    engine.fields(a, u);
    if (binary(s)) engine.scalar_field(b);
    phi.resize(a.size());
    for (std::size_t c = 0; c < a.size(); ++c) phi[c] = binary(s) ? (a[c] - b[c]) / (a[c] + b[c]) : a[c] - middle;
}

}  // namespace

double cap_angle(const std::vector<double>& phi, int nx, int ny, int first, double wall) {
    const auto at = [&](int x, int y) { return phi[std::size_t(y * nx + x)]; };
    std::vector<std::array<double, 2>> points;
    for (int y = first; y < ny; ++y)
        for (int x = 0; x + 1 < nx; ++x)
            if ((at(x, y) > 0) != (at(x + 1, y) > 0)) points.push_back({x + at(x, y) / (at(x, y) - at(x + 1, y)), double(y)});
    for (int x = 0; x < nx; ++x)
        for (int y = first; y + 1 < ny; ++y)
            if ((at(x, y) > 0) != (at(x, y + 1) > 0)) points.push_back({double(x), y + at(x, y) / (at(x, y) - at(x, y + 1))});
    if (points.size() < 3) return std::nan("");
    // x^2 + y^2 + D x + E y + F = 0: 3 x 3 normal equations, Gauss-Jordan (positive definite).
    double m[3][4] = {};
    for (const auto& q : points) {
        const double row[3] = {q[0], q[1], 1.0}, rhs = -(q[0] * q[0] + q[1] * q[1]);
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) m[i][j] += row[i] * row[j];
            m[i][3] += row[i] * rhs;
        }
    }
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) {
            if (k == i) continue;
            const double f = m[k][i] / m[i][i];
            for (int j = 0; j < 4; ++j) m[k][j] -= f * m[i][j];
        }
    const double d = m[0][3] / m[0][0], e = m[1][3] / m[1][1], f = m[2][3] / m[2][2];
    const double xc = -d / 2, yc = -e / 2, radius = std::sqrt(xc * xc + yc * yc - f);
    return std::acos(std::clamp((wall - yc) / radius, -1.0, 1.0)) * 180 / pi;
}

Wetting wetting_adhesion(const backend::EngineSetup& model, double theta, double a_major, double a_minor,
                         double b_major, double b_minor) {
    Wetting w;
    // The phases: a layer of A across a periodic column of 64 rows (two interfaces 32 rows
    // apart, each about 4 wide), relaxed until its tension moves by less than 1e-9 in 500
    // steps (a few thousand steps).
    {
        const int n = 64;
        std::vector<double> a0(2 * n), b0(2 * n);
        for (int y = 0; y < n; ++y) {
            const bool in_a = std::abs(y + 0.5 - n / 2.0) < n / 4.0;
            a0[std::size_t(2 * y)] = a0[std::size_t(2 * y + 1)] = in_a ? a_major : a_minor;
            b0[std::size_t(2 * y)] = b0[std::size_t(2 * y + 1)] = in_a ? b_minor : b_major;
        }
        const auto s = box(model, 2, n, false, 0);
        auto engine = start(s, a0, b0);
        std::vector<double> a(n), b(n, 0.0), fa, fb, u;
        double last = 0;
        for (int chunk = 0; chunk < 400; ++chunk) {
            engine->step(500);
            check(*engine, s);
            engine->fields(fa, u);
            if (binary(s)) engine->scalar_field(fb);
            for (int y = 0; y < n; ++y) {
                a[std::size_t(y)] = fa[std::size_t(2 * y)];
                if (binary(s)) b[std::size_t(y)] = fb[std::size_t(2 * y)];
            }
            w.gamma = flat_tension(s, a, b);
            if (chunk >= 4 && std::abs(w.gamma - last) < 1e-9) break;
            last = w.gamma;
        }
        w.phase_a[0] = a[n / 2], w.phase_a[1] = b[n / 2];
        w.phase_b[0] = a[0], w.phase_b[1] = b[0];
        if (binary(s) && !(w.phase_a[0] > 2 * w.phase_a[1] && w.phase_b[1] > 2 * w.phase_b[0] && w.gamma > 0))
            throw CaseError("multiphase.contact_angle: the components do not separate at G = " +
                            value_text(model.shan_chen.g) + " from these densities (phases rho_A/rho_B " +
                            value_text(w.phase_a[0]) + "/" + value_text(w.phase_a[1]) + " and " +
                            value_text(w.phase_b[0]) + "/" + value_text(w.phase_b[1]) +
                            "): a contact angle needs two phases (raise G)");
        if (!binary(s) && !(w.phase_a[0] > 1.5 * w.phase_b[0] && w.gamma > 0))
            throw CaseError("multiphase.contact_angle: no liquid and vapour coexist at G = " +
                            value_text(model.shan_chen.g) + " from these densities (the layer relaxed to " +
                            value_text(w.phase_a[0]) + " and " + value_text(w.phase_b[0]) +
                            "): a contact angle needs two phases (choose G or the temperature inside the "
                            "two-phase region, and initial densities of liquid and vapour)");
    }
    const double degrees = theta * 180 / pi;

    // The calibration drop: A's phase on the wall of a box 60 x 30 (x periodic, a free-slip
    // top) as a cap of the set angle with the area of a half disc of R = 12, run until its
    // angle moves by less than 0.002 degrees in 500 steps (3000 and more). A flat cap (a
    // wetting angle below about 55 degrees) gets a box wide enough for three of its bases.
    // A larger drop (height 14 and more) found the same adhesion to 1.3% at 45 and 135
    // degrees (0.1372 for 0.1390, -0.1512 for -0.1525).
    const int radius = 12, ny = 5 * radius / 2;
    const double cap = radius * std::sqrt(pi / 2 / (theta - std::sin(theta) * std::cos(theta)));
    const double centre = -0.5 - cap * std::cos(theta);
    const int nx = std::max(5 * radius, 2 * int(std::ceil(1.5 * cap * std::sin(theta))) + 10);
    std::vector<double> a0(std::size_t(nx * ny)), b0(a0.size());
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            const bool drop = std::hypot(x + 0.5 - nx / 2.0, y - centre) < cap;
            a0[std::size_t(y * nx + x)] = drop ? w.phase_a[0] : w.phase_b[0];
            b0[std::size_t(y * nx + x)] = drop ? w.phase_a[1] : w.phase_b[1];
        }
    const double middle = (w.phase_a[0] + w.phase_b[0]) / 2;
    const auto drop_angle = [&](double adhesion) {
        const auto s = box(model, nx, ny, true, adhesion);
        auto engine = start(s, a0, b0);
        std::vector<double> phi;
        double angle = 90, last = 90;
        for (int chunk = 0; chunk < 400; ++chunk) {
            engine->step(500);
            w.steps += 500;
            check(*engine, s);
            order_parameter(*engine, s, middle, phi);
            angle = cap_angle(phi, nx, ny, 3, -0.5);
            if (!std::isfinite(angle))
                throw CaseError("multiphase.contact_angle = " + value_text(degrees) +
                                ": the calibration drop spread out or lifted off at adhesion " + value_text(adhesion) +
                                " (G = " + value_text(model.shan_chen.g) + "); choose an angle nearer 90");
            if (chunk >= 5 && std::abs(angle - last) < 0.002) break;
            last = angle;
        }
        ++w.drops;
        return angle;
    };
    // The secant method on cos(angle) - cos(theta), nearly linear in the adhesion: from
    // adhesion 0 (where the interaction sees a symmetry plane, but half-way bounce-back is
    // not one for the populations: 90.19 degrees for two components, 88.9 for a liquid
    // and its vapour) and a step from there by the slope measured at G = 1.5 for two
    // components, d cos(theta) / d adhesion ~ (G / 9) (the two components' differences
    // between the phases) / gamma (one component: |G| and psi's difference, a guess).
    constexpr double cs2 = 1.0 / 3;
    const double spread = binary(model) ? (w.phase_a[0] - w.phase_b[0]) + (w.phase_b[1] - w.phase_a[1])
                                        : physics::pseudopotential(model.shan_chen, w.phase_a[0], cs2) -
                                              physics::pseudopotential(model.shan_chen, w.phase_b[0], cs2);
    const double slope = std::abs(model.shan_chen.g) * spread / (9 * w.gamma);
    const auto residual = [&] { return std::cos(w.angle * pi / 180) - std::cos(theta); };
    double x0 = 0, x1 = 0;
    w.angle = drop_angle(x0);
    double f0 = residual(), f1 = f0;
    if (std::abs(w.angle - degrees) > 0.05) {
        x1 = -f0 / slope;
        w.angle = drop_angle(x1);
        f1 = residual();
    }
    while (std::abs(w.angle - degrees) > 0.05 && w.drops < 8 && f1 != f0) {
        const double x2 = x1 - f1 * (x1 - x0) / (f1 - f0);
        x0 = x1, f0 = f1, x1 = x2;
        w.angle = drop_angle(x1);
        f1 = residual();
    }
    if (std::abs(w.angle - degrees) > 0.05)
        throw CaseError("multiphase.contact_angle = " + value_text(degrees) + ": no wall adhesion gives it at G = " +
                        value_text(model.shan_chen.g) + " (the calibration drop reached " + value_text(w.angle) +
                        " degrees); choose an angle nearer 90");
    w.adhesion = x1;
    return w;
}

}  // namespace barracuda::sim
