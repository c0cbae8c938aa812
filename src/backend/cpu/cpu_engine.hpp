// The CPU backend: the fused cell update in an OpenMP loop over z and y, x
// innermost (contiguous). It is also the oracle the CUDA backend is tested against.
#pragma once
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "backend/dispatch.hpp"
#include "backend/engine_common.hpp"
#include "kernel/observe.hpp"
#include "kernel/stream_collide.hpp"
#include "storage/two_copy.hpp"

namespace barracuda::backend::cpu {

template <class L, class Eq, class Collision, class S>
class CpuEngine final : public Engine {
    using T = S;
    using Store = storage::TwoCopy<S, T>;
    using Kernel = kernel::StreamCollide<L, Eq, Collision, Store>;
    using Gather = kernel::Gather<L, Eq, Store>;

public:
    explicit CpuEngine(const EngineSetup& s)
        : setup_(s),
          cells_(s.grid.cells()),
          a_(std::size_t(L::Q) * cells_, S(0)),
          b_(std::size_t(L::Q) * cells_, S(0)),
          collision_(CollisionFactory<Collision>::make(s)) {}

    std::string description() const override { return describe<L, Eq, Collision, S>("cpu", setup_, Store::pattern); }

    void initialize(const std::vector<double>& rho, const std::vector<double>& u) override {
        equilibrium_populations<L, Eq>(setup_, rho, u, a_.data());
        b_ = a_;
    }

    void step(std::int64_t steps) override {
        const auto& g = setup_.grid;
        for (std::int64_t n = 0; n < steps; ++n) {
            const Kernel k = make_kernel();
#pragma omp parallel for collapse(2) schedule(static)
            for (int z = 0; z < g.n[2]; ++z)
                for (int y = 0; y < g.n[1]; ++y)
                    for (int x = 0; x < g.n[0]; ++x) k(x, y, z);
            a_.swap(b_);
        }
    }

    void fields(std::vector<double>& rho, std::vector<double>& u) override {
        rho.resize(cells_);
        u.resize(3 * cells_);
        for_each_macroscopic([&](std::int64_t c, T r, const T (&v)[3]) {
            rho[c] = r;
            u[3 * c] = v[0], u[3 * c + 1] = v[1], u[3 * c + 2] = v[2];
        });
    }

    void populations(std::vector<double>& f) override { f.assign(a_.begin(), a_.end()); }

    Observation observe(double lo, double hi, bool track_change) override {
        if (track_change && prev_u_.empty()) prev_u_.assign(3 * cells_, T(0));
        const auto& g = setup_.grid;
        const Gather k = make_gather();
        kernel::Partial total = kernel::Partial::identity();
#pragma omp parallel
        {
            kernel::Partial p = kernel::Partial::identity();
#pragma omp for collapse(2) schedule(static)
            for (int z = 0; z < g.n[2]; ++z)
                for (int y = 0; y < g.n[1]; ++y)
                    for (int x = 0; x < g.n[0]; ++x) {
                        const std::int64_t c = g.index(x, y, z);
                        T r, v[3];
                        k.macroscopic(x, y, z, r, v);
                        p.add_cell(c, r, v[0], v[1], v[2], lo, hi);
                        if (track_change) {
                            T* pu = &prev_u_[3 * c];
                            p.add_change(double(v[0] - pu[0]), double(v[1] - pu[1]), double(v[2] - pu[2]));
                            pu[0] = v[0], pu[1] = v[1], pu[2] = v[2];
                        }
                    }
#pragma omp critical
            total.merge(p);
        }
        return finish(total);
    }

    std::int64_t bytes_per_cell_update() const override { return two_copy_bytes_per_cell<L, S>(); }
    std::int64_t memory_bytes() const override { return two_copy_memory_bytes<L, S>(cells_); }

private:
    Gather make_gather() const {
        Gather g{};
        g.grid = setup_.grid;
        g.faces = setup_.faces;
        g.kind = setup_.node_kind.data();
        g.store = Store{a_.data(), const_cast<S*>(b_.data()), cells_};
        for (int d = 0; d < 3; ++d) g.force[d] = T(setup_.force[d]);
        return g;
    }
    Kernel make_kernel() const {
        return Kernel{make_gather(), collision_,
                      setup_.force[0] != 0 || setup_.force[1] != 0 || setup_.force[2] != 0};
    }

    template <class F>
    void for_each_macroscopic(F&& f) const {
        const auto& g = setup_.grid;
        const Gather k = make_gather();
#pragma omp parallel for collapse(2) schedule(static)
        for (int z = 0; z < g.n[2]; ++z)
            for (int y = 0; y < g.n[1]; ++y)
                for (int x = 0; x < g.n[0]; ++x) {
                    T r, v[3];
                    k.macroscopic(x, y, z, r, v);
                    f(g.index(x, y, z), r, v);
                }
    }

    Observation finish(const kernel::Partial& p) const {
        Observation o = observation_from(p);
        if (o.bad_cell >= 0) {
            const auto& g = setup_.grid;
            const int x = int(p.bad_cell % g.n[0]), y = int((p.bad_cell / g.n[0]) % g.n[1]),
                      z = int(p.bad_cell / (std::int64_t(g.n[0]) * g.n[1]));
            T r, v[3];
            make_gather().macroscopic(x, y, z, r, v);
            o.bad_density = r;
            o.bad_speed = std::sqrt(double(v[0]) * v[0] + double(v[1]) * v[1] + double(v[2]) * v[2]);
        }
        return o;
    }

    EngineSetup setup_;
    std::int64_t cells_;
    std::vector<S> a_, b_;
    std::vector<T> prev_u_;
    Collision collision_;
};

/// Builds the CPU engine for lattice L (one translation unit per lattice).
template <class L>
std::unique_ptr<Engine> make_for_lattice(const EngineSetup& s) {
    return dispatch_on_lattice<L>(s, [&]<class Lat, class Eq, class C, class S>() -> std::unique_ptr<Engine> {
        return std::make_unique<CpuEngine<Lat, Eq, C, S>>(s);
    });
}

}  // namespace barracuda::backend::cpu
