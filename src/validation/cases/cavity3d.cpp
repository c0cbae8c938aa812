// 3D lid-driven cubic cavity at Re = 1000 (seed 004, Delbosc et al. 2013,
// §4.1, Fig. 8, which compares with the spectral solution of Albensoeder &
// Kuhlmann 2005, J. Comput. Phys. 206, 536). Their data are not in
// ../shared/reference, so this case checks what needs no external numbers:
//   1. the collision models agree: TRT (and, full variant only, BGK) against MRT, the largest
//      difference of the centre-line profiles u(y) (x = z = 1/2) and v(x)
//      (y = z = 1/2), in units of the lid speed, at the same resolution;
//   2. the solution converges under refinement: MRT on N1 < N2 < N3 nodes,
//      profiles compared with the finest at the nodal positions of the coarse
//      grid (interpolated), the difference shrinking: d(N2) / d(N1) < 0.75
//      (second order predicts (1/N2^2 - 1/N3^2) / (1/N1^2 - 1/N3^2) = 0.26 for
//      both 32/48/64 and 64/96/128, first order 0.33; 0.75 leaves room for the
//      max norm of a developing flow with the lid's corner singularities, and
//      still fails a scheme that does not converge).
// All runs stop at the same time T (in lid passages L/U), so the comparison is
// of the developing flow (the steady state takes hundreds of passages).
// D3Q19, He-Luo incompressible equilibrium, half-way walls, lid along +x at y = L.
#include <cmath>
#include <string>

#include "validation/case.hpp"
#include "validation/flow.hpp"

namespace barracuda::validation {
namespace {

constexpr double lid_speed = 0.1, reynolds = 1000;

struct Profiles {
    std::vector<double> u_of_y, v_of_x;
};

Profiles cavity(const Context& ctx, int n, double passages, sim::Collision c, sim::Precision p) {
    auto spec = lid_driven_cavity(lattice::Kind::D3Q19, n, reynolds, lid_speed, c);
    spec.model.equilibrium = sim::Equilibrium::Incompressible;
    spec.model.precision = p;
    const auto steps = std::int64_t(std::llround(passages * n / lid_speed));
    ctx.log(model_name(c) + " " + std::to_string(n) + "^3, " + std::to_string(steps) + " steps");
    sim::Simulation s(spec, ctx.backend);
    const std::int64_t chunk = 500;
    for (std::int64_t t = 0; t < steps; t += chunk) {
        s.advance(std::min(chunk, steps - t));
        check_state(s, "3D cavity (" + model_name(c) + ", " + std::to_string(n) + "^3)");
    }
    std::vector<double> rho, u;
    s.owned_fields(rho, u);
    Profiles out;
    centre_lines(u, n, true, lid_speed, out.u_of_y, out.v_of_x);
    return out;
}

/// Largest difference between two profile pairs at the nodes of `a` (b interpolated).
double difference(const Profiles& a, const Profiles& b) {
    double worst = 0;
    const auto s = node_positions(a.u_of_y.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        worst = std::max(worst, std::abs(a.u_of_y[i] - sample(b.u_of_y, s[i], 0.0, 1.0)));
        worst = std::max(worst, std::abs(a.v_of_x[i] - sample(b.v_of_x, s[i], 0.0, 0.0)));
    }
    return worst;
}

Outcome run(const Context& ctx) {
    const int grids[3] = {ctx.full() ? 64 : 32, ctx.full() ? 96 : 48, ctx.full() ? 128 : 64};
    const double passages = ctx.full() ? 30 : 5;
    const auto p = sim::Precision::FP32;
    const int nm = grids[1];
    Profiles mrt[3];
    for (int g = 0; g < 3; ++g) mrt[g] = cavity(ctx, grids[g], passages, sim::Collision::MRT, p);
    // BGK at Re = 1000 diverges on the short grids (48^3 and 64^3, at step ~500 in
    // the wall edges beside the lid: tau = 0.514 and 0.519), where MRT and TRT stay
    // stable (seed 004 §2.2 chose MRT for this reason); it is compared on the full grid only.
    std::vector<sim::Collision> others = {sim::Collision::TRT};
    if (ctx.full()) others.insert(others.begin(), sim::Collision::BGK);
    std::vector<Profiles> other;
    for (auto c : others) other.push_back(cavity(ctx, nm, passages, c, p));

    Outcome out;
    std::string names;
    for (auto c : others) names += (names.empty() ? "" : " and ") + model_name(c);
    out.setup = "D3Q19, Re = 1000, U = 0.1, incompressible equilibrium, FP32, T = " + format("%g", passages) +
                " L/U; MRT on " + std::to_string(grids[0]) + "^3, " + std::to_string(grids[1]) + "^3, " +
                std::to_string(grids[2]) + "^3; " + names + " on " + std::to_string(nm) + "^3";
    if (!ctx.full()) out.notes.push_back("BGK is not run on the short grids: at Re = 1000 it diverges there (48^3, 64^3)");
    // Models: the collisions share the hydrodynamic moments and differ in the relaxation of the
    // others, which at tau - 1/2 ~ 0.01 changes the under-resolved lid layer by a few % of U.
    // Measured on the short set-up: TRT differs from MRT by 0.076 U at 48^3 and 0.053 U at
    // 64^3 (the peak of v beside the downstream wall; MRT itself moves by 0.012 U from 48^3
    // to 64^3): TRT's odd moments relax at tau- = 1/2 + (3/16)/(tau - 1/2) = 13.5, far
    // slower than MRT's, and the developing lid layer is resolved by a few nodes. The
    // difference shrinks with refinement; 0.08 U on the short grid, 0.03 U on the full one,
    // still fail a wrong wall term or viscosity (0.2 U and more).
    const double model_tol = ctx.full() ? 0.03 : 0.08;
    for (std::size_t k = 0; k < others.size(); ++k)
        out.comparisons.push_back(bound(model_name(others[k]) + " vs MRT at " + std::to_string(nm) +
                                            "^3: max profile difference / U",
                                        difference(other[k], mrt[1]), model_tol, 0.0));
    const double d1 = difference(mrt[0], mrt[2]), d2 = difference(mrt[1], mrt[2]);
    out.comparisons.push_back(bound("MRT refinement: d(" + std::to_string(grids[1]) + ") / d(" +
                                        std::to_string(grids[0]) + "), d = max difference to " +
                                        std::to_string(grids[2]) + "^3",
                                    d2 / d1, 0.75, 0.26));
    out.notes.push_back("MRT max difference to " + std::to_string(grids[2]) + "^3: " + format("%.4f", d1) + " U at " +
                        std::to_string(grids[0]) + "^3, " + format("%.4f", d2) + " U at " + std::to_string(grids[1]) + "^3");

    io::PlotPanel pu{"u/U on x = z = 1/2", "y", "u/U", false, false, {}};
    io::PlotPanel pv{"v/U on y = z = 1/2", "x", "v/U", false, false, {}};
    const auto add = [&](const std::string& label, const Profiles& pr) {
        pu.series.push_back({label, node_positions(pr.u_of_y.size()), pr.u_of_y, true, false});
        pv.series.push_back({label, node_positions(pr.v_of_x.size()), pr.v_of_x, true, false});
    };
    for (int g = 0; g < 3; ++g) add("MRT " + std::to_string(grids[g]), mrt[g]);
    for (std::size_t k = 0; k < others.size(); ++k) add(model_name(others[k]) + " " + std::to_string(nm), other[k]);
    out.plot = {pu, pv};
    return out;
}

const bool registered = add_case({
    .name = "cavity3d-re1000",
    .title = "3D lid-driven cavity, Re = 1000: models agree, refinement converges",
    .citation = "seed 004, Delbosc et al. 2013, Sec. 4.1 (reference solution: Albensoeder & Kuhlmann 2005, "
                "not in ../shared/reference; not compared)",
    .compares = "centre-line profiles u(y), v(x) at T lid passages: BGK and TRT against MRT; MRT on three grids",
    .short_setup = "D3Q19 FP32, T = 5 L/U; MRT 32^3, 48^3, 64^3; TRT 48^3 (CPU)",
    .full_setup = "D3Q19 FP32, T = 30 L/U; MRT 64^3, 96^3, 128^3; BGK, TRT 96^3",
    .full_only = false,
    .run = run,
});

}  // namespace
}  // namespace barracuda::validation
