#include "sim/monitors.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "boundary/face.hpp"
#include "common/error.hpp"
#include "kernel/scalar.hpp"
#include "parallel/comm.hpp"

namespace barracuda::sim {

Probes::Probes(const CaseSpec& spec, const parallel::Subdomain& sub) {
    const auto g = sub.local_grid();
    for (std::size_t k = 0; k < spec.probes.points.size(); ++k) {
        std::array<int, 3> node{};
        bool mine = true;
        for (int a = 0; a < 3; ++a) {
            // The nearest node; check_case keeps points within half a spacing of the box.
            node[std::size_t(a)] = std::clamp(int(std::lround(spec.probes.points[k][std::size_t(a)])), 0,
                                              spec.size[std::size_t(a)] - 1);
            mine = mine && sub.owns_global(a, node[std::size_t(a)]);
        }
        nodes_.push_back(node);
        if (!mine) continue;
        int local[3];
        for (int a = 0; a < 3; ++a)
            local[a] = node[std::size_t(a)] - sub.owned_origin[std::size_t(a)] + sub.ghost_lo[std::size_t(a)];
        cells_.push_back(std::int64_t(g.index(local[0], local[1], local[2])));
        which_.push_back(k);
    }
}

std::vector<double> Probes::sample(backend::Engine& engine) const {
    std::vector<double> all(5 * nodes_.size(), 0.0);
    const auto mine = engine.sample(cells_);
    for (std::size_t j = 0; j < which_.size(); ++j)
        std::copy_n(mine.begin() + std::ptrdiff_t(5 * j), 5, all.begin() + std::ptrdiff_t(5 * which_[j]));
    const auto& comm = parallel::Comm::world();
    if (comm.size() == 1) return all;
    // Each probe has one owner; the others hold zeros for it. A sum would round nothing
    // away, but NaN from one rank must stay NaN: take the owner's values by flag.
    std::vector<unsigned char> flags(nodes_.size(), 0);
    for (std::size_t k : which_) flags[k] = 1;
    std::vector<unsigned char> mine_bytes(flags.size() + all.size() * sizeof(double));
    std::memcpy(mine_bytes.data(), flags.data(), flags.size());
    std::memcpy(mine_bytes.data() + flags.size(), all.data(), all.size() * sizeof(double));
    const auto gathered = comm.all_gather(mine_bytes.data(), mine_bytes.size());
    for (int r = 0; r < comm.size(); ++r) {
        const unsigned char* p = gathered.data() + std::size_t(r) * mine_bytes.size();
        for (std::size_t k = 0; k < nodes_.size(); ++k)
            if (p[k]) std::memcpy(&all[5 * k], p + flags.size() + 5 * k * sizeof(double), 5 * sizeof(double));
    }
    return all;
}

std::vector<std::string> scalar_flow_names(const CaseSpec& spec) {
    std::vector<std::string> names(kernel::scalar_flow_rows);
    for (int f = 0; f < 6; ++f) names[std::size_t(f)] = boundary::face_name(f);
    int m = 0;
    for (const auto& o : spec.obstacles)
        if (o.numbered() && ++m < boundary::ScalarFaces::rows) names[std::size_t(6 + m)] = o.name;
    return names;
}

void TimeAverage::add(backend::Engine& engine, std::int64_t step, double theta_total) {
    engine.accumulate();
    if (scalar_) {
        const auto flows = parallel::Comm::world().sum(engine.scalar_flows());  // every rank's boundary links
        if (flow_sums_.empty()) flow_sums_.assign(flows.size(), 0.0);
        for (std::size_t k = 0; k < flows.size() && k < flow_sums_.size(); ++k) flow_sums_[k] += flows[k];
        if (samples_ == 0) theta_first_ = theta_total, first_ = step;
        if (step == closing_step()) theta_last_ = theta_total, theta_last_step_ = step;
    }
    ++samples_;
    last_ = step;
}

TimeAverage::TimeAverage(const CaseSpec& spec)
    : enabled_(spec.average.enabled), from_(spec.average.from), to_(spec.average.to), scalar_(spec.thermal.enabled) {
    if (!enabled_) return;
    // Default: about a thousand samples over the window. Samples closer together than
    // the flow's correlation time add little, and each costs a pass over the cells.
    // Odd, so that the samples alternate between even and odd steps: the lattice carries
    // period-2 oscillations (boundary fluxes most), and an even interval aliases them.
    // Seed 004's room at every 18th step: the heat balance's sampled flows were 9% off
    // its storage; at every 19th, (docs/validation.md).
    interval_ = spec.average.interval > 0 ? spec.average.interval : std::max<std::int64_t>(1, (to_ - from_) / 1000) | 1;
}

std::int64_t TimeAverage::next_after(std::int64_t step, std::int64_t last) const {
    if (!enabled_ || step >= closing_step()) return last;
    if (step < from_) return from_;
    return from_ + ((step - from_) / interval_ + 1) * interval_;
}

MeanFields TimeAverage::means(backend::Engine& engine, const parallel::Subdomain& sub, bool scalar) const {
    MeanFields m;
    m.from = from_, m.to = last_, m.samples = samples_;
    if (scalar_ && !flow_sums_.empty()) {
        m.flows.resize(flow_sums_.size());
        for (std::size_t k = 0; k < flow_sums_.size(); ++k) m.flows[k] = flow_sums_[k] / double(samples_);
        const std::int64_t end = theta_last_step_ >= 0 ? theta_last_step_ : last_;
        m.storage = end > first_ ? (theta_last_ - theta_first_) / double(end - first_) : 0.0;
    }
    std::vector<double> sums;
    engine.accumulated(sums);
    const std::size_t owned = sub.owned_cells(), cells = std::size_t(engine.cells());
    if (sums.size() != std::size_t(backend::mean_components) * cells || samples_ == 0)
        throw std::logic_error("TimeAverage::means: no samples");
    m.rho.resize(owned), m.u.resize(3 * owned), m.fluctuation.resize(owned);
    if (scalar) m.theta.resize(owned);
    const double inv = 1.0 / double(samples_);
    sub.for_each_owned([&](std::size_t k, std::size_t c) {
        const auto at = [&](int component) { return sums[std::size_t(component) * cells + c] * inv; };
        m.rho[k] = at(backend::MeanRho);
        double uu = 0;
        for (int a = 0; a < 3; ++a) {
            m.u[3 * k + std::size_t(a)] = at(backend::MeanUx + a);
            uu += m.u[3 * k + std::size_t(a)] * m.u[3 * k + std::size_t(a)];
        }
        // <u.u> - <u>.<u> >= 0 but for rounding, which can leave it slightly negative.
        m.fluctuation[k] = std::sqrt(std::max(0.0, at(backend::MeanUU) - uu));
        if (scalar) m.theta[k] = at(backend::MeanTheta);
    });
    return m;
}

std::vector<double> TimeAverage::state(backend::Engine& engine) const {
    // samples, last step, then the heat balance's terms (first step, the total scalar at
    // the first and last samples, the flow sums: kernel::scalar_flow_rows), then the sums.
    std::vector<double> out{double(samples_), double(last_), double(first_), theta_first_, theta_last_};
    std::vector<double> flows = flow_sums_;
    flows.resize(kernel::scalar_flow_rows, 0.0);
    out.insert(out.end(), flows.begin(), flows.end());
    if (samples_ == 0) return out;
    std::vector<double> sums;
    engine.accumulated(sums);
    out.insert(out.end(), sums.begin(), sums.end());
    return out;
}

void TimeAverage::restore(backend::Engine& engine, const std::vector<double>& state) {
    constexpr std::size_t head = 5 + std::size_t(kernel::scalar_flow_rows);
    const bool whole = state.size() >= head;
    samples_ = whole ? std::int64_t(state[0]) : 0;
    last_ = whole ? std::int64_t(state[1]) : -1;
    first_ = whole ? std::int64_t(state[2]) : -1;
    theta_first_ = whole ? state[3] : 0, theta_last_ = whole ? state[4] : 0;
    theta_last_step_ = whole && last_ >= closing_step() ? last_ : -1;
    flow_sums_.clear();
    if (whole && scalar_) flow_sums_.assign(state.begin() + 5, state.begin() + std::ptrdiff_t(head));
    std::vector<double> sums;
    if (samples_ > 0) sums.assign(state.begin() + std::ptrdiff_t(head), state.end());
    engine.set_accumulated(sums);
}

int darcy_axis(const CaseSpec& spec) {
    // Two fluids: Darcy's single-phase law with one viscosity does not describe them (each
    // phase's relative permeability would; not computed), so no permeability is reported.
    if (spec.obstacles.empty() || spec.multiphase.enabled) return -1;
    int axis = 0;
    for (int a = 1; a < 3; ++a)
        if (std::abs(spec.body_force[std::size_t(a)]) > std::abs(spec.body_force[std::size_t(axis)])) axis = a;
    if (spec.body_force[std::size_t(axis)] == 0 || !spec.periodic[std::size_t(axis)]) return -1;
    return axis;
}

MultiphaseIntegrals multiphase_integrals(const CaseSpec& spec, const std::vector<std::uint8_t>& kinds,
                                         const std::vector<double>& rho, const std::vector<double>& u,
                                         const std::vector<double>& second) {
    MultiphaseIntegrals m;
    const auto n = spec.size;
    const std::size_t cells = rho.size();
    const bool binary = !second.empty();
    const bool free_energy = binary && spec.multiphase.free_energy;  // second: phi, rho the fluid's
    const auto fluid = [&](std::size_t c) { return kinds.empty() || kinds[c] != boundary::Solid; };
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t c = 0; c < cells; ++c) {
        if (!fluid(c)) continue;
        const double total = rho[c] + (binary && !free_energy ? second[c] : 0.0);
        const double u2 = u[3 * c] * u[3 * c] + u[3 * c + 1] * u[3 * c + 1] + u[3 * c + 2] * u[3 * c + 2];
        m.mass_a += rho[c];
        if (binary) m.mass_b += second[c];
        m.kinetic_energy += 0.5 * total * u2;
        m.max_speed = std::max(m.max_speed, std::sqrt(u2));
        lo = std::min(lo, rho[c]), hi = std::max(hi, rho[c]);
    }
    if (!binary && !(hi - lo > 1e-12)) return m;  // one phase: no interface
    std::vector<double> phi(cells, 0.0);
    for (std::size_t c = 0; c < cells; ++c)
        phi[c] = free_energy ? second[c]
                 : binary    ? (rho[c] - second[c]) / (rho[c] + second[c])
                             : 2 * (rho[c] - lo) / (hi - lo) - 1;
    for (int z = 0; z < n[2]; ++z)
        for (int y = 0; y < n[1]; ++y)
            for (int x = 0; x < n[0]; ++x) {
                const int at[3] = {x, y, z};
                const auto index = [&](const int (&p)[3]) {
                    return std::size_t(p[0]) + std::size_t(n[0]) * (std::size_t(p[1]) + std::size_t(n[1]) * std::size_t(p[2]));
                };
                const std::size_t c = index(at);
                if (!fluid(c)) continue;
                double g2 = 0;
                for (int a = 0; a < 3; ++a) {
                    if (n[std::size_t(a)] == 1) continue;
                    // The neighbour at +-1 along a: wrapped on a periodic axis; the node itself
                    // where it is outside the box or solid (a one-sided difference).
                    double side[2];
                    int reached = 0;
                    for (int s = 0; s < 2; ++s) {
                        int q[3] = {x, y, z};
                        q[a] += s ? 1 : -1;
                        const int na = n[std::size_t(a)];
                        if (spec.periodic[std::size_t(a)]) q[a] = (q[a] + na) % na;
                        const bool inside = q[a] >= 0 && q[a] < na && fluid(index(q));
                        side[s] = inside ? phi[index(q)] : phi[c];
                        reached += inside ? 1 : 0;
                    }
                    if (reached > 0) {
                        const double g = (side[1] - side[0]) / reached;
                        g2 += g * g;
                    }
                }
                m.interface += 0.5 * std::sqrt(g2);
            }
    return m;
}

}  // namespace barracuda::sim
