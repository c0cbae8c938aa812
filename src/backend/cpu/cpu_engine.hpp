// The CPU backend: the fused cell update in an OpenMP loop over cells (x
// fastest, contiguous). It is also the oracle the CUDA backend is tested
// against: same per-cell code, same storage layout and pattern.
#pragma once
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "backend/configured.hpp"
#include "backend/engine_common.hpp"
#include "backend/makers.hpp"
#include "kernel/node_class.hpp"
#include "kernel/observe.hpp"
#include "kernel/stream_collide.hpp"
#include "parallel/comm.hpp"

namespace barracuda::backend::cpu {

template <class L, class Eq, class Collision, class Store, class Ls>
class CpuEngine final : public Engine {
    using S = typename Store::storage_type;
    using T = typename Store::compute_type;
    using Kernel = kernel::StreamCollide<L, Eq, Collision, Store, Ls>;
    using Gather = kernel::Gather<L, Eq, Store>;
    static constexpr bool two_copy = Store::copies == 2;
    static constexpr bool coupled = Kernel::coupled;
    static constexpr bool interacting = Kernel::interacting;  // Shan-Chen: a macro-field pass first
    static constexpr bool binary = Kernel::binary;            // ... of two fluids: its part updates the cell
    static constexpr int scalar_q = coupled ? Kernel::Scalar::Q : 0;

public:
    explicit CpuEngine(const EngineSetup& s)
        : setup_(s),
          cells_(s.grid.cells()),
          a_(std::size_t(L::Q) * cells_, S{}),
          b_(two_copy ? std::size_t(L::Q) * cells_ : 0, S{}),
          ga_(std::size_t(scalar_q) * cells_, S{}),
          gb_(two_copy ? std::size_t(scalar_q) * cells_ : 0, S{}),
          class_(kernel::node_classes<L, typename Store::layout_type>(s)),
          border_(kernel::border_cells(class_)),
          exchanged_(s.wall_links.size()),
          collision_(CollisionFactory<Collision>::make(s)) {
        if constexpr (interacting) {
            psi_.assign(std::size_t(Kernel::Scalar::fields) * std::size_t(cells_), T(0));
            setup_.general_boundaries = true;  // kernel/stream_collide.hpp: no records
            for (const auto& m : s.field_halo.messages) {
                field_send_.emplace_back(m.send.size());
                field_recv_.emplace_back(m.recv.size());
            }
        }
        find_runs();
        for (int f = 0; f < 6; ++f) {
            face_values_[f] = s.face_values[f];
            if (!face_values_[f].empty()) setup_.faces.values[f] = face_values_[f].data();
            const auto& theta = setup_.thermal.face_values[f];  // setup_ is the engine's own copy
            setup_.thermal.faces.values[f] = theta.empty() ? nullptr : theta.data();
        }
        require_halo_support(two_copy, s);
        for (const auto& m : s.halo.messages) {
            send_.emplace_back(m.send.size());
            recv_.emplace_back(m.recv.size());
        }
    }

    std::string description() const override { return describe<L, Eq, Store>("cpu", setup_); }

    using Engine::initialize;
    void initialize(const std::vector<double>& rho, const std::vector<double>& u,
                    const std::vector<double>& strain) override {
        std::fill(a_.begin(), a_.end(), S{});
        odd_ = false;
        clock_ = 0;
        place_equilibrium<L, Eq>(setup_, class_, previous_store(), rho, u, strain);
        if constexpr (coupled) {
            std::fill(ga_.begin(), ga_.end(), S{});
            place_second<L, Eq, Ls>(setup_, class_, previous_scalar_store(), {second_initial(setup_)}, u);
        }
        if constexpr (two_copy) {
            // The ghosts take the neighbours' initial state, as after a step.
            pack(a_, ga_);
            exchange();
            unpack(a_, ga_);
        }
        apply_walls();
    }

    void initialize_scalar(const std::vector<double>& theta, const std::vector<double>& u) override {
        if constexpr (coupled) {
            std::fill(ga_.begin(), ga_.end(), S{});
            place_second<L, Eq, Ls>(setup_, class_, previous_scalar_store(), theta, u);
            if constexpr (two_copy) {
                // As initialize(): the ghosts take the neighbours' (theta given for them too
                // is overwritten by the owners').
                pack(a_, ga_);
                exchange();
                unpack(a_, ga_);
            }
        } else {
            Engine::initialize_scalar(theta, u);
        }
    }

    void scalar_field(std::vector<double>& theta) override {
        theta.clear();
        if constexpr (coupled) {
            theta.resize(cells_);
            macroscopic_into<double>(nullptr, nullptr, theta.data());
        }
    }

    void set_face_values(int face, const std::vector<double>& values) override {
        check_face_values(face_values_[face].size(), face, values);
        std::copy(values.begin(), values.end(), face_values_[face].begin());  // the table keeps pointing here
    }

    void step(std::int64_t steps) override {
        for (std::int64_t n = 0; n < steps; ++n) {
            const Kernel k = make_kernel();
            if constexpr (interacting) macro_pass(k);
            if (send_.empty()) {
                sweep(k);
            } else if constexpr (two_copy) {
                // The cells the neighbours need first, then their exchange while the rest
                // is updated (seed 003 §3.6). The sweep skips the Border cells.
                const auto nb = std::int64_t(border_.size());
#pragma omp parallel for schedule(static)
                for (std::int64_t j = 0; j < nb; ++j) k.update_boundary(border_[std::size_t(j)]);
                pack(b_, gb_);
                start_exchange();
                sweep(k);
                parallel::Comm::world().wait();
                unpack(b_, gb_);
            }
            if constexpr (two_copy) a_.swap(b_), ga_.swap(gb_);
            else odd_ = !odd_;
            ++clock_;
            apply_walls();
        }
    }

    void fields(std::vector<double>& rho, std::vector<double>& u) override {
        rho.resize(cells_);
        u.resize(3 * cells_);
        macroscopic_into<double>(rho.data(), u.data(), nullptr);
    }

    int native_bytes() const override { return int(sizeof(T)); }
    void fields_native(void* rho, void* u, void* theta) override {
        if (theta && !coupled) throw std::logic_error("fields_native: this engine has no scalar");
        macroscopic_into<T>(static_cast<T*>(rho), static_cast<T*>(u), static_cast<T*>(theta));
    }

    void populations(std::vector<double>& f) override { posted_populations<L>(make_gather(), f); }

    std::vector<double> sample(const std::vector<std::int64_t>& cells) override {
        std::vector<double> out(5 * cells.size());
        const Kernel k = observing_kernel();
        for (std::size_t j = 0; j < cells.size(); ++j) {
            T r, v[3], th;
            k.macroscopic(cells[j], r, v, th);
            out[5 * j] = r, out[5 * j + 1] = v[0], out[5 * j + 2] = v[1], out[5 * j + 3] = v[2], out[5 * j + 4] = th;
        }
        return out;
    }

    void accumulate() override {
        if (sums_.empty()) sums_.assign(std::size_t(mean_components) * std::size_t(cells_), 0.0);
        const Kernel k = observing_kernel();
        double* s = sums_.data();
        const std::int64_t n = cells_;
#pragma omp parallel for schedule(static)
        for (std::int64_t c = 0; c < n; ++c) {
            T r, v[3], th;
            k.macroscopic(c, r, v, th);
            const double u0 = v[0], u1 = v[1], u2 = v[2];
            s[MeanRho * n + c] += double(r);
            s[MeanUx * n + c] += u0, s[MeanUy * n + c] += u1, s[MeanUz * n + c] += u2;
            s[MeanUU * n + c] += u0 * u0 + u1 * u1 + u2 * u2;
            s[MeanTheta * n + c] += double(th);
        }
    }

    std::vector<double> scalar_flows() override {
        if constexpr (!Kernel::thermal) {
            return {};
        } else {
            const Kernel k = make_kernel();
            double total[kernel::scalar_flow_rows] = {};
            // Serial: the sum's order is then fixed (a diagnostic, a pass over the cells).
            for (std::int64_t c = 0; c < cells_; ++c) k.scalar_flows(c, total);
            return std::vector<double>(total, total + kernel::scalar_flow_rows);
        }
    }

    void accumulated(std::vector<double>& sums) override { sums = sums_; }

    void set_accumulated(const std::vector<double>& sums) override {
        check_sums(sums.size(), cells_);
        sums_ = sums;
    }

    std::vector<ForceSum> obstacle_force_sums() override {
        auto out = exchange_forces<L>(make_gather(), setup_.force_links);
        add_wall_forces<L>(setup_.wall_links, exchanged_.data(), out);
        return out;
    }

    Observation observe(double lo, double hi, bool track_change) override {
        if (track_change && prev_u_.empty()) prev_u_.assign(3 * cells_, T(0));
        const Kernel k = observing_kernel();
        kernel::Partial total = kernel::Partial::identity();
#pragma omp parallel
        {
            kernel::Partial p = kernel::Partial::identity();
#pragma omp for schedule(static)
            for (std::int64_t c = 0; c < cells_; ++c) {
                if (class_[std::size_t(c)] == kernel::Ghost) continue;  // observed by its owner
                T r, v[3], th;
                k.macroscopic(c, r, v, th);
                p.add_cell(c, r, v[0], v[1], v[2], lo, hi);
                if (kernel::path_of(class_[std::size_t(c)]) != kernel::Solid) {
                    p.add_fluid(double(r));
                    if constexpr (coupled)
                        p.add_scalar(c, double(th), Kernel::second_density ? lo : -1e30, Kernel::second_density ? hi : 1e30);
                }
                if (track_change) {
                    T* pu = &prev_u_[3 * c];
                    p.add_change(double(v[0] - pu[0]), double(v[1] - pu[1]), double(v[2] - pu[2]));
                    pu[0] = v[0], pu[1] = v[1], pu[2] = v[2];
                }
            }
#pragma omp critical
            total.merge(p);
        }
        Observation o = observation_from(total);
        if (o.bad_cell >= 0) {
            T r, v[3], th;
            k.macroscopic(o.bad_cell, r, v, th);
            o.bad_density = r;
            o.bad_theta = th;
            o.bad_speed = std::sqrt(double(v[0]) * v[0] + double(v[1]) * v[1] + double(v[2]) * v[2]);
        }
        return o;
    }

    EngineState save_state() override {
        EngineState st;
        st.engine = state_key<L, Eq, Store>(setup_);
        const auto* bytes = reinterpret_cast<const std::uint8_t*>(a_.data());
        st.populations.assign(bytes, bytes + a_.size() * sizeof(S));
        const auto* scalar = reinterpret_cast<const std::uint8_t*>(ga_.data());
        st.populations.insert(st.populations.end(), scalar, scalar + ga_.size() * sizeof(S));
        st.odd = odd_;
        st.clock = clock_;
        st.wall_momenta = exchanged_;
        return st;
    }
    void restore_state(const EngineState& st) override {
        check_state(st, state_key<L, Eq, Store>(setup_), (a_.size() + ga_.size()) * sizeof(S), exchanged_.size());
        // Two copies: the next step reads only a_ (and writes every fluid cell of b_).
        std::memcpy(a_.data(), st.populations.data(), a_.size() * sizeof(S));
        if (!ga_.empty()) std::memcpy(ga_.data(), st.populations.data() + a_.size() * sizeof(S), ga_.size() * sizeof(S));
        odd_ = st.odd;
        clock_ = st.clock;
        exchanged_ = st.wall_momenta;
    }

    std::int64_t cells() const override { return cells_; }
    std::int64_t bytes_per_cell_update() const override { return backend::bytes_per_cell_update<L>(setup_); }
    std::int64_t memory_bytes() const override { return backend::memory_bytes<L>(setup_); }

private:
    /// Density, velocity (three a cell) and the coupled scalar of every cell, as the next
    /// step sees them, each written as R where its pointer is not null: fields(),
    /// scalar_field() and fields_native() alike.
    template <class R>
    void macroscopic_into(R* rho, R* u, R* theta) const {
        const Kernel k = observing_kernel();
#pragma omp parallel for schedule(static)
        for (std::int64_t c = 0; c < cells_; ++c) {
            T r, v[3], th;
            k.macroscopic(c, r, v, th);
            if (rho) rho[c] = r;
            if (u) u[3 * c] = v[0], u[3 * c + 1] = v[1], u[3 * c + 2] = v[2];
            if (theta) theta[c] = th;
        }
    }

    /// Shan-Chen's first pass (kernel/pseudopotential.hpp): psi of every fluid cell from the
    /// populations the coming step gathers. Observers run it too: after a step the field
    /// is the previous step's.
    void macro_pass(const Kernel& k) const {
#pragma omp parallel for schedule(static)
        for (std::int64_t c = 0; c < cells_; ++c) k.scalar.macro_field(k.in, c);
        exchange_fields();
    }
    /// On several ranks: the fields of the outermost owned layers into the neighbours'
    /// ghost layers (parallel::make_field_plan), before the second pass reads them.
    void exchange_fields() const {
        if (field_send_.empty()) return;
        const auto& plan = setup_.field_halo;  // every offset below its split: psi_ alone
        pack_plan(plan, psi_, psi_, field_send_);
        start_plan(plan, field_send_, field_recv_);
        parallel::Comm::world().wait();
        unpack_plan(plan, psi_, psi_, field_recv_);
    }
    /// The kernel whose macroscopic() observers read: Shan-Chen's field refreshed first.
    Kernel observing_kernel() const {
        const Kernel k = make_kernel();
        if constexpr (interacting) macro_pass(k);
        return k;
    }

    using Cursor = typename Kernel::Cursor;
    /// Consecutive bulk cells that share a cursor (on a dense box, every cell of a row
    /// but its two ends) and lie in no absorbing layer: a cell may join a run when its
    /// own cursor is the run's, which is all update_bulk_at needs.
    struct Run {
        storage::index_t first;
        std::int64_t count;
        Cursor cursor;
    };

    /// The runs, the reflecting boundary cells (kernel/reflecting_cells.hpp), and every
    /// other cell the step updates (the other boundary cells, and bulk cells left out of
    /// runs). Border cells (MPI) are in none: the step does them first.
    void find_runs() {
        const auto layout = storage::layout_of<typename Gather::Layout>(setup_.grid);
        const bool sponge = setup_.faces.has_sponge;
        auto same = [](const Cursor& a, const Cursor& b) { return std::memcmp(&a, &b, sizeof(Cursor)) == 0; };
        for (std::int64_t c = 0; c < cells_; ++c) {
            const std::uint8_t k = class_[std::size_t(c)];
            if (k != kernel::Bulk && k != kernel::Boundary) continue;
            if (k == kernel::Bulk && !sponge) {
                int pos[3];
                layout.position(c, pos);
                const Cursor s = layout.cursor(pos);
                if (!runs_.empty() && runs_.back().first + runs_.back().count == c && same(runs_.back().cursor, s))
                    ++runs_.back().count;
                else
                    runs_.push_back({c, 1, s});
                continue;
            }
            if (k == kernel::Boundary && !setup_.general_boundaries) {
                int pos[3];
                layout.position(c, pos);
                kernel::ReflectingCell r;
                if (kernel::reflecting_cell<L, Ls>(layout, setup_.faces, class_.data(), pos, r)) {
                    reflecting_.push_back(r);
                    continue;
                }
            }
            others_.push_back(c);
        }
        // Runs of one cell gain nothing: their cells go with the others.
        std::vector<Run> kept;
        for (const Run& r : runs_) {
            if (r.count > 1) kept.push_back(r);
            else others_.push_back(r.first);
        }
        runs_ = std::move(kept);
    }

    /// Every Bulk and Boundary cell once: the runs, then the other cells. A run's cells
    /// share a cursor, so the loop needs no cell position (a division a cell); flatten
    /// inlines the whole update into the loop (2 cores, MLUPS with / without: D2Q9 FP64
    /// BGK 52 / 32, D3Q19 FP32 MRT 25 / 19). GCC does not vectorise it across cells
    /// (its report: control flow in the loop).
    [[gnu::flatten]] static void sweep_run(const Kernel& k, const Run& r) {
        for (std::int64_t j = 0; j < r.count; ++j) k.update_bulk_at(r.first + j, r.cursor);
    }
    void sweep(const Kernel& k) const {
        const auto nr = std::int64_t(runs_.size()), no = std::int64_t(others_.size());
        const auto nf = std::int64_t(reflecting_.size());
#pragma omp parallel
        {
#pragma omp for schedule(static) nowait
            for (std::int64_t j = 0; j < nr; ++j) sweep_run(k, runs_[std::size_t(j)]);
#pragma omp for schedule(static) nowait
            for (std::int64_t j = 0; j < nf; ++j) k.update_reflecting(reflecting_[std::size_t(j)]);
#pragma omp for schedule(static)
            for (std::int64_t j = 0; j < no; ++j) k(others_[std::size_t(j)]);
        }
    }

    // Halo exchange (parallel/halo.hpp): populations of the written copy at the
    // plan's offsets into one buffer per neighbour, and back into the ghosts.
    // Offsets from the plan's split on are the coupled scalar's, in g.
    void pack(const std::vector<S>& f, const std::vector<S>& g) { pack_plan(setup_.halo, f, g, send_); }
    void unpack(std::vector<S>& f, std::vector<S>& g) { unpack_plan(setup_.halo, f, g, recv_); }
    void start_exchange() { start_plan(setup_.halo, send_, recv_); }
    void exchange() {
        start_exchange();
        parallel::Comm::world().wait();
    }
    // The same for any plan (populations, or the multiphase models' macro fields): the
    // values of f below the plan's split and of g from it on, one buffer per message.
    template <class V>
    static void pack_plan(const parallel::HaloPlan& plan, const std::vector<V>& f, const std::vector<V>& g,
                          std::vector<std::vector<V>>& send) {
        const auto split = plan.split;
        for (std::size_t m = 0; m < send.size(); ++m) {
            const auto& at = plan.messages[m].send;
            const auto n = std::int64_t(at.size());
#pragma omp parallel for schedule(static)
            for (std::int64_t j = 0; j < n; ++j) {
                const auto k = at[std::size_t(j)];
                send[m][std::size_t(j)] = k < split ? f[std::size_t(k)] : g[std::size_t(k - split)];
            }
        }
    }
    template <class V>
    static void unpack_plan(const parallel::HaloPlan& plan, std::vector<V>& f, std::vector<V>& g,
                            const std::vector<std::vector<V>>& recv) {
        const auto split = plan.split;
        for (std::size_t m = 0; m < recv.size(); ++m) {
            const auto& at = plan.messages[m].recv;
            const auto n = std::int64_t(at.size());
#pragma omp parallel for schedule(static)
            for (std::int64_t j = 0; j < n; ++j) {
                const auto k = at[std::size_t(j)];
                (k < split ? f[std::size_t(k)] : g[std::size_t(k - split)]) = recv[m][std::size_t(j)];
            }
        }
    }
    template <class V>
    static void start_plan(const parallel::HaloPlan& plan, std::vector<std::vector<V>>& send,
                           std::vector<std::vector<V>>& recv) {
        std::vector<parallel::Transfer> r, s;
        for (std::size_t m = 0; m < send.size(); ++m) {
            const auto& msg = plan.messages[m];
            r.push_back({recv[m].data(), recv[m].size() * sizeof(V), msg.peer, msg.recv_tag});
            s.push_back({send[m].data(), send[m].size() * sizeof(V), msg.peer, msg.send_tag});
        }
        parallel::Comm::world().start(r, s);
    }

    /// Interpolated bounce-back after a step (kernel/interpolated_wall.hpp).
    void apply_walls() {
        const auto n = std::int64_t(setup_.wall_links.size());
        if (n == 0) return;
        const kernel::InterpolatedWall<L, Store> w{make_store(), setup_.wall_links.data(), exchanged_.data()};
#pragma omp parallel for schedule(static)
        for (std::int64_t k = 0; k < n; ++k) w.apply(k);
    }

    /// The store the next step reads and writes.
    Store make_store() const {
        S* a = const_cast<S*>(a_.data());
        if constexpr (two_copy) return Store{a, const_cast<S*>(b_.data()), cells_, &clock_};
        else return Store{a, cells_, odd_, &clock_};
    }
    /// The store of the step before the next one (where initialisation places populations).
    Store previous_store() {
        if constexpr (two_copy) return Store{nullptr, a_.data(), cells_};
        else return Store{a_.data(), cells_, !odd_};
    }
    // The coupled scalar's stores, as the flow's.
    using ScalarStore = kernel::SecondStoreFor<Ls, Store>;
    ScalarStore make_scalar_store() const {
        S* a = const_cast<S*>(ga_.data());
        if constexpr (two_copy) return ScalarStore{a, const_cast<S*>(gb_.data()), cells_, &clock_};
        else return ScalarStore{a, cells_, odd_, &clock_};
    }
    ScalarStore previous_scalar_store() {
        if constexpr (two_copy) return ScalarStore{nullptr, ga_.data(), cells_};
        else return ScalarStore{ga_.data(), cells_, !odd_};
    }
    Gather make_gather() const {
        Gather g{};
        g.layout = storage::layout_of<typename Gather::Layout>(setup_.grid);
        g.faces = setup_.faces;
        g.node_class = class_.data();
        g.store = make_store();
        for (int d = 0; d < 3; ++d) g.force[d] = T(setup_.force[d]);
        return g;
    }
    Kernel make_kernel() const {
        Kernel k{make_gather(), collision_, backend::forced(setup_), setup_.forcing == physics::ForcingKind::Edm};
        if constexpr (binary)
            k.scalar = make_binary_part<typename Kernel::Scalar>(setup_, make_scalar_store(), psi_.data());
        else if constexpr (coupled)
            k.scalar = make_scalar_part<typename Kernel::Scalar>(setup_, make_scalar_store());
        else if constexpr (interacting)
            k.scalar = make_pseudopotential_part<typename Kernel::Scalar>(setup_, psi_.data());
        return k;
    }

    EngineSetup setup_;
    std::int64_t cells_;
    std::vector<S> a_, b_;
    std::vector<S> ga_, gb_;  // a coupled scalar's populations, as a_ and b_
    std::vector<double> sums_;  // accumulate()'s running sums
    std::vector<std::uint8_t> class_;
    std::vector<storage::index_t> border_;  // Border cells (a subdomain's outer owned layer)
    std::vector<Run> runs_;                  // find_runs
    std::vector<storage::index_t> others_;
    std::vector<kernel::ReflectingCell> reflecting_;  // boundary cells whose links stream or bounce back
    std::vector<std::vector<S>> send_, recv_;  // one buffer per halo message
    bool odd_ = false;         // in-place: parity of the next step
    std::uint32_t clock_ = 0;  // steps since initialisation (stochastic FP16 rounding)
    std::vector<T> prev_u_;
    mutable std::vector<T> psi_;  // Shan-Chen's field (macro_pass); what observers recompute
    mutable std::vector<std::vector<T>> field_send_, field_recv_;  // its exchange, one buffer per neighbour
    std::vector<double> exchanged_;  // per wall link: the momentum of its last step (kernel/interpolated_wall.hpp)
    std::array<std::vector<double>, 6> face_values_;  // boundary::Parameters::values
    Collision collision_;
};

}  // namespace barracuda::backend::cpu

namespace barracuda::backend {

/// The CPU engine of one configuration (backend/makers.hpp; the generated units
/// instantiate it for each row of the configuration table).
template <lattice::Kind K, storage::Precision P, physics::EquilibriumKind E, physics::CollisionKind C,
          storage::Pattern S, lattice::CoupledKind X, storage::Storage St>
std::unique_ptr<Engine> make_cpu(const EngineSetup& s) {
    return make_configured<cpu::CpuEngine, K, P, E, C, S, X, St>(s);
}

}  // namespace barracuda::backend
