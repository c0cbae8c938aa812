#include "validation/flow.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "common/error.hpp"
#include "io/checkpoint.hpp"
#include "parallel/comm.hpp"
#include "sim/case_check.hpp"

namespace barracuda::validation {

sim::CaseSpec periodic_box(lattice::Kind lattice, std::array<int, 3> size, double tau, sim::Collision collision) {
    sim::CaseSpec s;
    s.title = "validation";
    s.model.lattice = lattice;
    s.model.collision = collision;
    s.model.precision = sim::Precision::FP64;
    s.model.tau = tau;
    s.size = size;
    s.periodic = {true, true, true};
    for (auto& f : s.faces) f.type = boundary::FaceType::Periodic;
    s.output.vti = s.output.png = false;
    sim::fill_model_defaults(s);
    return s;
}

sim::CaseSpec lid_driven_cavity(lattice::Kind lattice, int n, double reynolds, double lid_speed,
                                sim::Collision collision) {
    const bool three_d = lattice != lattice::Kind::D2Q9;
    // Half-way walls: the cavity spans n spacings, so L = n and nu = U n / Re.
    const double nu = lid_speed * n / reynolds;
    auto s = periodic_box(lattice, {n, n, three_d ? n : 1}, 3 * nu + 0.5, collision);
    s.title = "lid-driven cavity";
    for (int a = 0; a < (three_d ? 3 : 2); ++a) {
        s.periodic[a] = false;
        s.faces[2 * a].type = s.faces[2 * a + 1].type = boundary::FaceType::Wall;
    }
    s.faces[boundary::YMax].type = boundary::FaceType::MovingWall;
    s.faces[boundary::YMax].velocity = {lid_speed, 0, 0};
    return s;
}

RunCheckpoint::RunCheckpoint(const Context& ctx, const std::string& name, std::string run_tag)
    : tag(std::move(run_tag)) {
    if (ctx.checkpoints.empty()) return;
    if (parallel::Comm::world().size() > 1)
        throw CaseError("--checkpoint: validation checkpoints are written by one rank (" +
                        std::to_string(parallel::Comm::world().size()) + " ranks here)");
    path = ctx.checkpoints / (name + ".checkpoint");
}

bool RunCheckpoint::resume(sim::Simulation& s, std::vector<double>& values) const {
    if (path.empty()) return false;
    auto c = io::read_checkpoint(path);
    if (!c) return false;
    if (c->tag != tag)
        throw CaseError("checkpoint " + path.string() + " belongs to another run (\"" + c->tag + "\"; this one is \"" +
                        tag + "\"): delete it to start over");
    s.restore(c->time, c->state);
    values = std::move(c->values);
    return true;
}

void RunCheckpoint::save(sim::Simulation& s, const std::vector<double>& values) const {
    if (path.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) throw OutputError("cannot create " + path.parent_path().string() + ": " + ec.message());
    io::write_checkpoint(path, {s.time(), tag, s.engine().save_state(), values});
}

bool diverged(const sim::Observation& o, double lo, double hi) {
    return o.bad_cell >= 0 || !std::isfinite(o.u_max) || o.rho_min < lo || o.rho_max > hi;
}

void check_state(sim::Simulation& s, const std::string& what, double lo, double hi) {
    const auto o = s.observe_all(false);
    if (diverged(o, lo, hi)) {
        std::ostringstream m;
        m << what << " diverged";
        if (o.bad_cell >= 0)  // the first bad cell; the ranges below leave bad cells out
            m << " at cell index " << o.bad_cell << " (x fastest; density " << o.bad_density << ", |u| " << o.bad_speed << ")";
        m << " (density over the good cells in [" << o.rho_min << ", " << o.rho_max << "], max |u| " << o.u_max << ")";
        throw DivergenceError(m.str());
    }
}

SteadyRun run_to_steady(sim::Simulation& s, double tolerance, std::int64_t interval, std::int64_t max_steps) {
    SteadyRun r;
    s.observe_all(true);  // the reference for the first change
    while (r.steps < max_steps) {
        const std::int64_t n = std::min(interval, max_steps - r.steps);
        s.advance(n);
        r.steps += n;
        const auto o = s.observe_all(true);
        if (o.bad_cell >= 0 || !std::isfinite(o.u_max))
            throw DivergenceError("diverged after " + std::to_string(r.steps) + " steps");
        if (n == interval && o.norm_l2 > 0 && o.change_l2 / o.norm_l2 < tolerance) {
            r.steady = true;
            break;
        }
    }
    return r;
}

void centre_lines(const std::vector<double>& u, int n, bool three_d, double scale, std::vector<double>& ux_of_y,
                  std::vector<double>& uy_of_x) {
    const std::int64_t nn = n, nz = three_d ? n : 1;
    // The nodes around the centre: n/2 - 1 and n/2 for even n, (n - 1)/2 twice for odd n.
    const int c0 = n % 2 ? (n - 1) / 2 : n / 2 - 1, c1 = n % 2 ? (n - 1) / 2 : n / 2;
    const int zs[2] = {three_d ? c0 : 0, three_d ? c1 : 0};
    const auto at = [&](int x, int y, int z, int a) { return u[3 * (x + nn * (y + nn * z)) + a]; };
    ux_of_y.assign(n, 0.0);
    uy_of_x.assign(n, 0.0);
    const double w = three_d ? 0.25 : 0.5;
    for (int i = 0; i < n; ++i)
        for (int z : three_d ? std::vector<int>{zs[0], zs[1]} : std::vector<int>{0}) {
            ux_of_y[i] += w * (at(c0, i, z, 0) + at(c1, i, z, 0)) / scale;
            uy_of_x[i] += w * (at(i, c0, z, 1) + at(i, c1, z, 1)) / scale;
        }
    (void)nz;
}

double sample(const std::vector<double>& f, double s, double at0, double at1) {
    const int n = int(f.size());
    const double p = s * n - 0.5;
    if (p <= 0) return at0 + (f[0] - at0) * (s * n / 0.5);
    if (p >= n - 1) return at1 + (f[n - 1] - at1) * ((1 - s) * n / 0.5);
    const int i = int(std::floor(p));
    const double t = p - i;
    return (1 - t) * f[i] + t * f[i + 1];
}

std::vector<double> node_positions(std::size_t n) {
    std::vector<double> s(n);
    for (std::size_t i = 0; i < n; ++i) s[i] = (double(i) + 0.5) / double(n);
    return s;
}

std::string format(const char* fmt, double v) {
    char b[64];
    std::snprintf(b, sizeof b, fmt, v);
    return b;
}

std::string model_name(sim::Collision c) {
    if (c == sim::Collision::Regularized) return "Regularized";
    if (c == sim::Collision::Entropic) return "Entropic";
    std::string s = physics::name_of(c);
    for (auto& ch : s) ch = char(ch - 'a' + 'A');
    return s;
}

}  // namespace barracuda::validation
