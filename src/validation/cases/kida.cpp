// Kida vortex: free decay of a high-symmetry periodic flow (Kida 1985, J. Phys.
// Soc. Japan 54, 2132), the 3D test of seed 003 (Januszewski & Kostur,
// Sailfish, §5.2, Fig. 13: normalised kinetic energy and enstrophy against time,
// all collision models agreeing at Re = 4000).
//
//   u_x = u0 sin x (cos 3y cos z - cos y cos 3z), and cyclic, on [0, 2 pi)^3,
//   Re = N u0 / nu, u0 = 0.05, rho = 1 at t = 0,
//   E = (1/2V) sum |u|^2,  Omega = (1/2V) sum |curl u|^2,
// the curl by fourth-order central differences (periodic). Time is shown as in
// the seed's figure, rescaled to a (2 pi)^3 box and u0 = 1: t* = t u0 2 pi / N.
//
// What is checked (the seed's figure has no tabulated values to compare with):
//   1. the models agree: max over t of |E_m - E_mean| / E0 and of
//      |Omega_m - Omega_mean| / max Omega_mean, for BGK, TRT and MRT;
//   2. each run obeys the energy equation of incompressible periodic flow,
//      dE/dt = -2 nu Omega (nu = cs^2 (tau - 1/2)): max |dE/dt + 2 nu Omega| /
//      max 2 nu Omega. It holds while the flow is resolved; dE/dt is a central
//      difference of the samples.
// The initial state carries the field's pressure and viscous stress
// (kida_pressure, Engine::initialize with the strain rate): from rho = 1 and
// f = f^eq the energy jumped by 9% in the first step and oscillated for ~100.
// Short variant: 64^3, Re = 500, t* <= 6 (40 s on 2 cores; the energy-equation
// residual was 15% at 32^3, 7% at 48^3, 2-4% at 64^3: the enstrophy of
// unresolved small scales). Full: the seed's 350^3, Re = 4000, t* <= 10.
#include <cmath>
#include <complex>
#include <string>

#include "common/error.hpp"
#include "validation/case.hpp"
#include "validation/flow.hpp"

namespace barracuda::validation {
namespace {

constexpr double pi = 3.14159265358979323846, u0 = 0.05;

struct Series {
    std::vector<double> t, e, omega;
};

/// E and Omega of a periodic n^3 velocity field.
void energy_enstrophy(const std::vector<double>& u, int n, double& e, double& omega) {
    const auto idx = [n](int x, int y, int z) {
        x = (x + n) % n, y = (y + n) % n, z = (z + n) % n;
        return 3 * (std::size_t(x) + std::size_t(n) * (std::size_t(y) + std::size_t(n) * z));
    };
    // d/da of component c at (x, y, z), fourth order: (8 (f+1 - f-1) - (f+2 - f-2)) / 12.
    const auto d = [&](int x, int y, int z, int a, int c) {
        int s[3] = {0, 0, 0};
        s[a] = 1;
        const auto f = [&](int k) { return u[idx(x + k * s[0], y + k * s[1], z + k * s[2]) + c]; };
        return (8 * (f(1) - f(-1)) - (f(2) - f(-2))) / 12.0;
    };
    double se = 0, so = 0;
#pragma omp parallel for reduction(+ : se, so) collapse(2)
    for (int z = 0; z < n; ++z)
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
                const auto i = idx(x, y, z);
                se += u[i] * u[i] + u[i + 1] * u[i + 1] + u[i + 2] * u[i + 2];
                const double wx = d(x, y, z, 1, 2) - d(x, y, z, 2, 1);
                const double wy = d(x, y, z, 2, 0) - d(x, y, z, 0, 2);
                const double wz = d(x, y, z, 0, 1) - d(x, y, z, 1, 0);
                so += wx * wx + wy * wy + wz * wz;
            }
    const double v = double(n) * n * n;
    e = 0.5 * se / v, omega = 0.5 * so / v;
}

/// The pressure (divided by rho0) of an incompressible periodic n^3 velocity field:
/// lap p = -d_i d_j (u_i u_j), solved spectrally. The Kida field is a trigonometric
/// polynomial of wavenumbers up to 3 per axis, so u_i u_j has wavenumbers up to
/// 6 = k_max and a DFT over |k_a| <= k_max is exact (n > 2 k_max). Starting
/// the LBM from this pressure (rho = 1 + p / cs^2) instead of rho = 1 leaves no
/// pressure imbalance to radiate sound: with rho = 1 the kinetic energy
/// oscillated by ~10% E0 in the first t* ~ 0.5, which is exchange with the
/// acoustic (potential) energy, not viscous decay.
std::vector<double> kida_pressure(const std::vector<double>& u, int n) {
    constexpr int k_max = 6, m = 2 * k_max + 1;
    const auto cells = std::size_t(n) * n * n;
    const auto at = [n](int x, int y, int z) { return std::size_t(x) + std::size_t(n) * (std::size_t(y) + std::size_t(n) * z); };
    // e^{-i k x 2 pi / n} for k = -k_max..k_max, x = 0..n-1.
    std::vector<std::complex<double>> w(std::size_t(m) * n);
    for (int k = -k_max; k <= k_max; ++k)
        for (int x = 0; x < n; ++x) w[std::size_t(k + k_max) * n + x] = std::polar(1.0, -2 * pi * k * x / n);
    // The six products u_i u_j (i <= j), transformed axis by axis onto the m^3 modes.
    const int pairs[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
    std::vector<std::complex<double>> rhs(std::size_t(m) * m * m, 0.0);
    for (const auto& pr : pairs) {
        std::vector<std::complex<double>> a(std::size_t(m) * n * n), b(std::size_t(m) * m * n), c(std::size_t(m) * m * m);
#pragma omp parallel for collapse(2)
        for (int z = 0; z < n; ++z)
            for (int y = 0; y < n; ++y)
                for (int kx = 0; kx < m; ++kx) {
                    std::complex<double> s = 0;
                    for (int x = 0; x < n; ++x) s += u[3 * at(x, y, z) + pr[0]] * u[3 * at(x, y, z) + pr[1]] * w[std::size_t(kx) * n + x];
                    a[std::size_t(kx) + std::size_t(m) * (y + std::size_t(n) * z)] = s;
                }
#pragma omp parallel for collapse(2)
        for (int z = 0; z < n; ++z)
            for (int ky = 0; ky < m; ++ky)
                for (int kx = 0; kx < m; ++kx) {
                    std::complex<double> s = 0;
                    for (int y = 0; y < n; ++y) s += a[std::size_t(kx) + std::size_t(m) * (y + std::size_t(n) * z)] * w[std::size_t(ky) * n + y];
                    b[std::size_t(kx) + std::size_t(m) * (ky + std::size_t(m) * z)] = s;
                }
        for (int kz = 0; kz < m; ++kz)
            for (int ky = 0; ky < m; ++ky)
                for (int kx = 0; kx < m; ++kx) {
                    std::complex<double> s = 0;
                    for (int z = 0; z < n; ++z) s += b[std::size_t(kx) + std::size_t(m) * (ky + std::size_t(m) * z)] * w[std::size_t(kz) * n + z];
                    c[std::size_t(kx) + std::size_t(m) * (ky + std::size_t(m) * kz)] = s / double(cells);
                }
        // p^ = -k_i k_j (u_i u_j)^ / |k|^2, the off-diagonal pairs counted twice.
        const double twice = pr[0] == pr[1] ? 1.0 : 2.0;
        for (int kz = 0; kz < m; ++kz)
            for (int ky = 0; ky < m; ++ky)
                for (int kx = 0; kx < m; ++kx) {
                    const double k[3] = {double(kx - k_max), double(ky - k_max), double(kz - k_max)};
                    const double k2 = k[0] * k[0] + k[1] * k[1] + k[2] * k[2];
                    if (k2 == 0) continue;
                    const auto i = std::size_t(kx) + std::size_t(m) * (ky + std::size_t(m) * kz);
                    rhs[i] -= twice * k[pr[0]] * k[pr[1]] / k2 * c[i];
                }
    }
    // Back to the grid axis by axis (the wavenumbers in units of 2 pi / n cancel in k_i k_j / |k|^2).
    std::vector<std::complex<double>> a(std::size_t(m) * m * n), b(std::size_t(m) * n * n);
#pragma omp parallel for collapse(2)
    for (int z = 0; z < n; ++z)
        for (int ky = 0; ky < m; ++ky)
            for (int kx = 0; kx < m; ++kx) {
                std::complex<double> s = 0;
                for (int kz = 0; kz < m; ++kz)
                    s += rhs[std::size_t(kx) + std::size_t(m) * (ky + std::size_t(m) * kz)] * std::conj(w[std::size_t(kz) * n + z]);
                a[std::size_t(kx) + std::size_t(m) * (ky + std::size_t(m) * z)] = s;
            }
#pragma omp parallel for collapse(2)
    for (int z = 0; z < n; ++z)
        for (int y = 0; y < n; ++y)
            for (int kx = 0; kx < m; ++kx) {
                std::complex<double> s = 0;
                for (int ky = 0; ky < m; ++ky)
                    s += a[std::size_t(kx) + std::size_t(m) * (ky + std::size_t(m) * z)] * std::conj(w[std::size_t(ky) * n + y]);
                b[std::size_t(kx) + std::size_t(m) * (y + std::size_t(n) * z)] = s;
            }
    std::vector<double> p(cells, 0.0);
#pragma omp parallel for collapse(2)
    for (int z = 0; z < n; ++z)
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
                std::complex<double> s = 0;
                for (int kx = 0; kx < m; ++kx)
                    s += b[std::size_t(kx) + std::size_t(m) * (y + std::size_t(n) * z)] * std::conj(w[std::size_t(kx) * n + x]);
                p[at(x, y, z)] = s.real();
            }
    return p;
}

Series kida(const Context& ctx, int n, double re, double t_end, sim::Collision c, sim::Precision p, int samples,
           double smagorinsky = 0) {
    const double nu = n * u0 / re;
    auto spec = periodic_box(lattice::Kind::D3Q19, {n, n, n}, 3 * nu + 0.5, c);
    spec.model.precision = p;
    spec.model.smagorinsky = smagorinsky;
    const auto steps = std::int64_t(std::ceil(t_end * n / (2 * pi * u0)));
    const std::int64_t every = std::max<std::int64_t>(1, steps / samples);
    ctx.log(model_name(c) + " " + std::to_string(n) + "^3, " + std::to_string(steps) + " steps");
    sim::Simulation s(spec, ctx.backend);
    const auto cells = std::size_t(n) * n * n;
    std::vector<double> rho(cells, 1.0), u(3 * cells), strain(6 * cells);
    // u_x = u0 f(X, Y, Z), u_y = u0 f(Y, Z, X), u_z = u0 f(Z, X, Y) with
    // f(a, b, c) = sin a (cos 3b cos c - cos b cos 3c); fa, fb, fc its partial derivatives.
    const auto f = [](double a, double b, double c) { return std::sin(a) * (std::cos(3 * b) * std::cos(c) - std::cos(b) * std::cos(3 * c)); };
    const auto fa = [](double a, double b, double c) { return std::cos(a) * (std::cos(3 * b) * std::cos(c) - std::cos(b) * std::cos(3 * c)); };
    const auto fb = [](double a, double b, double c) { return std::sin(a) * (-3 * std::sin(3 * b) * std::cos(c) + std::sin(b) * std::cos(3 * c)); };
    const auto fc = [](double a, double b, double c) { return std::sin(a) * (-std::cos(3 * b) * std::sin(c) + 3 * std::cos(b) * std::sin(3 * c)); };
    const double k = 2 * pi / n;
    for (int z = 0; z < n; ++z)
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
                const double X = k * x, Y = k * y, Z = k * z;
                const auto cell = std::size_t(x) + std::size_t(n) * (std::size_t(y) + std::size_t(n) * z);
                u[3 * cell] = u0 * f(X, Y, Z), u[3 * cell + 1] = u0 * f(Y, Z, X), u[3 * cell + 2] = u0 * f(Z, X, Y);
                // d_a u_b (lattice units: d/dx = k d/dX).
                const double dxux = fa(X, Y, Z), dyux = fb(X, Y, Z), dzux = fc(X, Y, Z);
                const double dyuy = fa(Y, Z, X), dzuy = fb(Y, Z, X), dxuy = fc(Y, Z, X);
                const double dzuz = fa(Z, X, Y), dxuz = fb(Z, X, Y), dyuz = fc(Z, X, Y);
                const double g = u0 * k;
                double* sc = &strain[6 * cell];
                sc[0] = g * dxux, sc[1] = g * dyuy, sc[2] = g * dzuz;
                sc[3] = 0.5 * g * (dxuy + dyux), sc[4] = 0.5 * g * (dxuz + dzux), sc[5] = 0.5 * g * (dyuz + dzuy);
            }
    // The pressure of the initial field and its viscous stress (the first-order
    // non-equilibrium populations): started from rho = 1 and f = f^eq, E jumped by
    // 9% in the first step and oscillated with period two for ~100 steps.
    const auto pressure = kida_pressure(u, n);
    for (std::size_t i = 0; i < cells; ++i) rho[i] = 1.0 + 3.0 * pressure[i];  // rho = rho0 + p / cs^2
    s.engine().initialize(rho, u, strain);
    Series out;
    for (std::int64_t t = 0;; t += every) {
        if (t > 0) {
            s.advance(every);
            check_state(s, "Kida vortex (" + model_name(c) + ")");
        }
        s.owned_fields(rho, u);
        double e, o;
        energy_enstrophy(u, n, e, o);
        out.t.push_back(double(t)), out.e.push_back(e), out.omega.push_back(o);
        if (t + every > steps) break;
    }
    return out;
}

Outcome run(const Context& ctx) {
    const int n = ctx.full() ? 350 : 64;
    const double re = ctx.full() ? 4000 : 500, t_end = ctx.full() ? 10 : 6;
    // FP32 on both grids: on the short one its figures matched FP64's to 2e-6 E0 (models'
    // energy spread 0.003553 against 0.003555, the same enstrophy peaks and final energies)
    // at three quarters of the CPU time.
    const auto precision = sim::Precision::FP32;
    const double nu = n * u0 / re;
    const sim::Collision models[3] = {sim::Collision::BGK, sim::Collision::TRT, sim::Collision::MRT};
    std::vector<Series> runs;
    for (auto c : models) runs.push_back(kida(ctx, n, re, t_end, c, precision, ctx.full() ? 40 : 80));

    Outcome out;
    out.setup = "D3Q19 " + std::to_string(n) + "^3 periodic, Re = " + format("%g", re) + ", u0 = 0.05, tau = " +
                format("%.5f", 3 * nu + 0.5) + ", " + storage::name_of(precision) + ", to t* = " + format("%g", t_end) +
                "; BGK, TRT, MRT";
    const std::size_t m = runs[0].t.size();
    const double e0 = runs[0].e[0];
    double omega_peak = 0, de = 0, dom = 0;
    for (std::size_t i = 0; i < m; ++i) {
        double em = 0, om = 0;
        for (const auto& r : runs) em += r.e[i] / 3, om += r.omega[i] / 3;
        omega_peak = std::max(omega_peak, om);
        for (const auto& r : runs) de = std::max(de, std::abs(r.e[i] - em) / e0), dom = std::max(dom, std::abs(r.omega[i] - om));
    }
    dom /= omega_peak;
    // Agreement: the models differ only in their non-hydrodynamic moments, O(Ma^2 / Re_grid) here;
    // 1% in E and 3% in the enstrophy (a derivative, and the more sensitive) allow for that.
    out.comparisons.push_back(bound("models: max_t |E_m - E_mean| / E0", de, 0.01, 0.0));
    out.comparisons.push_back(bound("models: max_t |Omega_m - Omega_mean| / max Omega", dom, 0.03, 0.0));
    for (std::size_t k = 0; k < runs.size(); ++k) {
        const auto& r = runs[k];
        double worst = 0, scale = 0;
        for (std::size_t i = 1; i + 1 < m; ++i) {
            const double dedt = (r.e[i + 1] - r.e[i - 1]) / (r.t[i + 1] - r.t[i - 1]);
            worst = std::max(worst, std::abs(dedt + 2 * nu * r.omega[i]));
            scale = std::max(scale, 2 * nu * r.omega[i]);
        }
        // 5%: the sampling's central difference and the curl's truncation error, each ~1% here.
        out.comparisons.push_back(
            bound(model_name(models[k]) + ": energy equation, max |dE/dt + 2 nu Omega| / max 2 nu Omega", worst / scale,
                  0.05, 0.0));
    }
    for (std::size_t k = 0; k < runs.size(); ++k) {
        std::size_t ip = 0;
        for (std::size_t i = 0; i < m; ++i)
            if (runs[k].omega[i] > runs[k].omega[ip]) ip = i;
        out.notes.push_back(model_name(models[k]) + ": enstrophy peak " + format("%.3f", runs[k].omega[ip] / runs[k].omega[0]) +
                            " Omega0 at t* = " + format("%.2f", runs[k].t[ip] * u0 * 2 * pi / n) + ", E(t_end) = " +
                            format("%.4f", runs[k].e[m - 1] / e0) + " E0");
    }
    io::PlotPanel pe{"kinetic energy", "t* = t u0 2 pi / N", "E / E0", false, false, {}};
    io::PlotPanel po{"enstrophy", "t* = t u0 2 pi / N", "Omega / Omega0", false, false, {}};
    for (std::size_t k = 0; k < runs.size(); ++k) {
        io::PlotSeries se{model_name(models[k]), {}, {}, true, false}, so = se;
        for (std::size_t i = 0; i < m; ++i) {
            const double ts = runs[k].t[i] * u0 * 2 * pi / n;
            se.x.push_back(ts), se.y.push_back(runs[k].e[i] / runs[k].e[0]);
            so.x.push_back(ts), so.y.push_back(runs[k].omega[i] / runs[k].omega[0]);
        }
        pe.series.push_back(se), po.series.push_back(so);
    }
    out.plot = {pe, po};
    return out;
}

const bool registered = add_case({
    .name = "kida-vortex",
    .title = "Kida vortex: energy and enstrophy against time, BGK/TRT/MRT",
    .citation = "Kida 1985, J. Phys. Soc. Japan 54, 2132; seed 003, Januszewski & Kostur, Sailfish, Sec. 5.2, Fig. 13",
    .compares = "E(t), Omega(t) of the three collisions against their mean; each run against dE/dt = -2 nu Omega",
    .short_setup = "D3Q19 64^3, Re = 500, FP32, to t* = 6 (CPU)",
    .full_setup = "D3Q19 350^3, Re = 4000, FP32, to t* = 10 (seed 003)",
    .full_only = false,
    .run = run,
});

// Seed 004 §2.3 (Delbosc et al.: Smagorinsky LES for real-time indoor air) and
// issue 4: at Re = 10^5 the Kida vortex is far from resolved (tau - 1/2 = 1e-4 on
// 64^3) and BGK blows up; the Smagorinsky closure (C = 0.17, on the regularized
// collision) adds the eddy viscosity of the unresolved scales and keeps the run
// stable. Checked: the LES run reaches t_end without diverging and its kinetic
// energy never grows by more than 1e-3 E0 between samples (free decay: an energy
// gain is numerical). BGK's fate is reported as a note: that it diverges is the
// seed's premise, not a property of this code to require.
Outcome run_les(const Context& ctx) {
    const int n = ctx.full() ? 256 : 64;
    const double re = 1e5, t_end = ctx.full() ? 10 : 6, c_smag = 0.17;
    const auto precision = sim::Precision::FP32;
    Outcome out;
    out.setup = "D3Q19 " + std::to_string(n) + "^3 periodic, Re = 1e5, u0 = 0.05, tau = " +
                format("%.6f", 3 * n * u0 / re + 0.5) + ", " + storage::name_of(precision) + ", to t* = " +
                format("%g", t_end) + "; regularized + Smagorinsky C = 0.17 against BGK";
    Series les;
    bool les_ok = true;
    try {
        les = kida(ctx, n, re, t_end, sim::Collision::Regularized, precision, 60, c_smag);
    } catch (const DivergenceError& e) {
        les_ok = false;
        out.notes.push_back(std::string("LES run diverged: ") + e.what());
    }
    out.comparisons.push_back({"LES (regularized, C = 0.17) reaches t* = " + format("%g", t_end) + " without diverging",
                               les_ok ? 1.0 : 0.0, 1.0, les_ok ? 0.0 : 1.0, 0.0});
    if (les_ok) {
        double growth = 0;
        for (std::size_t i = 1; i < les.e.size(); ++i) growth = std::max(growth, (les.e[i] - les.e[i - 1]) / les.e[0]);
        out.comparisons.push_back(bound("LES: largest energy gain between samples / E0", growth, 1e-3, 0.0));
        out.notes.push_back("LES: E(t_end) = " + format("%.4f", les.e.back() / les.e[0]) + " E0");
    }
    // BGK's run is a note, not a check: the full variant runs it; the short one (a CTest)
    // leaves it out for CI's time (it diverged at 64^3 too: docs/validation.md).
    if (ctx.full()) {
        try {
            const Series bgk = kida(ctx, n, re, t_end, sim::Collision::BGK, precision, 60);
            out.notes.push_back("BGK did not diverge at this resolution: E(t_end) = " +
                                format("%.4f", bgk.e.back() / bgk.e[0]) + " E0");
        } catch (const DivergenceError& e) {
            out.notes.push_back(std::string("BGK diverged, as in seed 004: ") + e.what());
        }
    } else {
        out.notes.push_back("BGK not run in the short variant (it diverged at 64^3 in earlier runs; --full runs it)");
    }
    io::PlotPanel pe{"kinetic energy, Re = 1e5", "t* = t u0 2 pi / N", "E / E0", false, false, {}};
    if (les_ok) {
        io::PlotSeries se{"regularized + Smagorinsky", {}, {}, true, false};
        for (std::size_t i = 0; i < les.t.size(); ++i)
            se.x.push_back(les.t[i] * u0 * 2 * pi / n), se.y.push_back(les.e[i] / les.e[0]);
        pe.series.push_back(se);
    }
    out.plot = {pe};
    return out;
}

const bool registered_les = add_case({
    .name = "kida-les-re1e5",
    .title = "Kida vortex at Re = 1e5: Smagorinsky LES stays stable where BGK does not",
    .citation = "seed 004, Delbosc et al. 2013, Sec. 2.3 (Smagorinsky LES); Kida 1985; Hou et al. 1996 (LBM closure)",
    .compares = "the LES run completes with non-increasing kinetic energy; BGK's divergence reported",
    .short_setup = "D3Q19 64^3, Re = 1e5, FP32, to t* = 6 (CPU)",
    .full_setup = "D3Q19 256^3, Re = 1e5, FP32, to t* = 10",
    .full_only = false,
    .run = run_les,
});

}  // namespace
}  // namespace barracuda::validation
