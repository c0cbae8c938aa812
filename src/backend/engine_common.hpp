// Pieces every concrete engine shares: names and sizes of a configuration, the
// initial state, observations and population output.
#pragma once
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "backend/engine.hpp"
#include "common/error.hpp"
#include "kernel/momentum_exchange.hpp"
#include "kernel/links.hpp"
#include "kernel/observe.hpp"
#include "kernel/place.hpp"
#include "kernel/stream_collide.hpp"
#include "physics/equilibrium.hpp"

namespace barracuda::backend {

/// The multiphase models' per-cell fields: Shan-Chen's psi, one a component; the free
/// energy's phi.
inline int psi_fields(const EngineSetup& s) {
    switch (s.scalar) {
        case lattice::CoupledKind::ShanChen:
        case lattice::CoupledKind::FreeEnergy: return 1;
        case lattice::CoupledKind::ShanChenBinary: return 2;
        default: return 0;
    }
}

template <class L, class Eq, class Store>
std::string describe(const char* backend, const EngineSetup& s) {
    std::string d = std::string(backend) + " " + L::name + " " + physics::name_of(s.collision) + " " + Eq::name + " " +
                    storage::name_of(s.precision) + " " + Store::pattern;
    if (s.scalar != lattice::CoupledKind::None) d += std::string(" + ") + std::string(lattice::name_of(s.scalar));
    return d;
}

/// Bytes moved per cell update: Q loads and Q stores of the storage type plus the
/// cell's node-class byte (bulk cells read no neighbour's class); a coupled scalar's or
/// second component's populations too.
template <class L>
std::int64_t bytes_per_cell_update(const EngineSetup& s) {
    const int q = L::Q + lattice::second_velocities(s.scalar, L::Q);
    const std::int64_t b = storage::bytes_per_cell_update(q, s.precision);
    // Multiphase: the macro-field pass reads the populations once more (the free energy's:
    // g only) and writes its fields (psi, one a component; phi), the stream-collide pass
    // reads them (its neighbours' from cache); the fields in the arithmetic type.
    if (s.scalar == lattice::CoupledKind::FreeEnergy)
        return b + L::Q * storage::bytes_of(s.precision) + 1 + 2 * storage::compute_bytes_of(s.precision);
    return lattice::is_shan_chen(s.scalar)
               ? b + q * storage::bytes_of(s.precision) + 1 + 2 * psi_fields(s) * storage::compute_bytes_of(s.precision)
               : b;
}

/// Populations and node classes, plus the force link lists (kernel/momentum_exchange.hpp) and the
/// interpolated wall links with their exchanged momenta (kernel/interpolated_wall.hpp), if any.
template <class L>
std::int64_t memory_bytes(const EngineSetup& s) {
    std::int64_t links = 0;
    for (const auto& list : s.force_links) links += std::int64_t(list.size() * sizeof(kernel::ForceLink));
    links += std::int64_t(s.wall_links.size() * (sizeof(kernel::WallLink) + sizeof(double)));
    const std::int64_t fields = psi_fields(s) * storage::compute_bytes_of(s.precision);  // per cell
    return s.grid.cells() * (storage::memory_bytes_per_cell(L::Q + lattice::second_velocities(s.scalar, L::Q),
                                                            s.precision, s.pattern) +
                             fields) +
           links;
}

/// The equilibrium of (rho, u) at every fluid cell as the initial state, plus the
/// non-equilibrium part of the strain rate where one is given (six values per
/// cell, Engine::initialize) (kernel/place.hpp).
template <class L, class Eq, class Store>
void place_equilibrium(const EngineSetup& s, const std::vector<std::uint8_t>& node_class, const Store& previous,
                       const std::vector<double>& rho, const std::vector<double>& u,
                       const std::vector<double>& strain) {
    using T = typename Store::compute_type;
    const std::int64_t cells = s.grid.cells();
    const bool with_strain = !strain.empty();
    const auto layout = storage::layout_of<typename Store::layout_type>(s.grid);
    if (with_strain && strain.size() != std::size_t(6 * cells))
        throw std::invalid_argument("initialize: the strain rate needs 6 values per cell");
    // The Hermite projection of the strain's stress needs sum w c_x^2 c_y^2 = cs2^2, which D3Q13 lacks.
    if (with_strain && lattice::sublattice_v<L>)
        throw std::invalid_argument("initialize: no strain-rate initialisation on D3Q13 (equilibrium only)");
#pragma omp parallel for schedule(static)
    for (std::int64_t c = 0; c < cells; ++c) {
        const T vel[3] = {T(u[3 * c]), T(u[3 * c + 1]), T(u[3 * c + 2])};
        T sc[6];
        if (with_strain)
            for (int k = 0; k < 6; ++k) sc[k] = T(strain[std::size_t(6 * c + k)]);
        kernel::place_equilibrium_at<L, Eq>(layout, s.faces, node_class.data(), previous, c, T(rho[c] - 1.0), vel,
                                            with_strain ? sc : nullptr, T(s.tau));
    }
}

/// A second distribution's placement at every cell of the store's layout from one value
/// per cell (or one for all) and the velocity: at(layout, cell, value, u) places one
/// cell (kernel/place.hpp). `name` names the values in the size error.
template <class Store, class At>
void place_per_cell(const EngineSetup& s, const std::vector<double>& values, const std::vector<double>& u,
                    const char* name, At&& at) {
    using T = typename Store::compute_type;
    const std::int64_t cells = s.grid.cells();
    if ((values.size() != 1 && values.size() != std::size_t(cells)) || u.size() != std::size_t(3 * cells))
        throw std::invalid_argument(std::string("initialize_scalar: ") + name + " needs 1 value per cell, u 3");
    const auto layout = storage::layout_of<typename Store::layout_type>(s.grid);
#pragma omp parallel for schedule(static)
    for (std::int64_t c = 0; c < cells; ++c) {
        const T vel[3] = {T(u[3 * c]), T(u[3 * c + 1]), T(u[3 * c + 2])};
        at(layout, c, T(values.size() == 1 ? values[0] : values[std::size_t(c)]), vel);
    }
}

/// A coupled scalar's initial state: the equilibrium of (theta, u) at every fluid cell
/// (kernel/place.hpp); theta has one value per cell (or one for all), u three per cell.
template <class L, class Ls, class Store>
void place_scalar(const EngineSetup& s, const std::vector<std::uint8_t>& node_class, const Store& previous,
                  const std::vector<double>& theta, const std::vector<double>& u) {
    place_per_cell<Store>(s, theta, u, "theta", [&](const auto& layout, std::int64_t c, auto th, const auto (&vel)[3]) {
        kernel::place_scalar_at<Ls>(layout, s.faces, node_class.data(), previous, c, th, vel);
    });
}

/// The scalar part of a coupled kernel from the setup, over the given store.
template <class Part, class ScalarStore>
Part make_scalar_part(const EngineSetup& s, const ScalarStore& store) {
    using T = typename ScalarStore::compute_type;
    Part p{};
    if constexpr (Part::present) {
        p.store = store;
        const auto rates = physics::ScalarRates::from(s.thermal.diffusivity, lattice::cs2_of(s.scalar), s.thermal.lambda);
        p.collision = {T(rates.omega_plus), T(rates.omega_minus)};
        p.faces = s.thermal.faces;
        for (int a = 0; a < 3; ++a) p.buoyancy[a] = T(s.thermal.buoyancy[a]);
        const double cs2_t = lattice::cs2_of(s.scalar);
        p.tau_t0 = T(s.thermal.diffusivity / cs2_t + 0.5);
        p.lambda = T(s.thermal.lambda);
        if (s.smagorinsky > 0 && s.thermal.turbulent_prandtl > 0)
            p.eddy_ratio = T(lattice::visit(s.lattice, [](auto l) { return decltype(l)::cs2; }) / cs2_t /
                             s.thermal.turbulent_prandtl);
    }
    return p;
}

/// The Shan-Chen part of an interacting kernel (kernel/pseudopotential.hpp) from the
/// setup, over the engine's per-cell field.
template <class Part, class T>
Part make_pseudopotential_part(const EngineSetup& s, T* psi) {
    Part p{};
    p.psi = psi;
    p.parameters = s.shan_chen;
    const double cs2 = lattice::visit(s.lattice, [](auto l) { return decltype(l)::cs2; });
    p.psi_wall = s.wall_density < 0 ? T(-1) : T(physics::pseudopotential(s.shan_chen, s.wall_density, cs2));
    p.adhesion = T(s.adhesion);
    return p;
}

/// A binary fluid's part from the setup, over its second store and the engine's fields:
/// the two-component Shan-Chen model's (kernel/binary.hpp: psi_A for every cell, then
/// psi_B) or the free energy's (kernel/free_energy.hpp: phi).
template <class Part, class Store, class T>
Part make_binary_part(const EngineSetup& s, const Store& store, T* fields) {
    Part p{};
    p.store = store;
    if constexpr (requires { p.phi; }) {
        p.phi = fields;
        p.parameters = s.free_energy;
        p.tau_a = T(s.tau);
        p.tau_b = T(s.tau_b);
        p.omega_phi = T(1 / s.tau_phi);
        p.wall_slope = T(s.wetting / s.free_energy.kappa);
    } else {
        p.psi_a = fields;
        p.psi_b = fields + s.grid.cells();
        p.parameters = s.shan_chen;
        p.omega_a = T(1 / s.tau);
        p.omega_b = T(1 / s.tau_b);
        p.adhesion = T(s.adhesion);
    }
    return p;
}

/// Whether the kernel's collision takes a force: a body force, a buoyancy, or a
/// Shan-Chen interaction.
inline bool forced(const EngineSetup& s) {
    bool any = lattice::is_shan_chen(s.scalar);
    for (int a = 0; a < 3; ++a)
        any = any || s.force[a] != 0 || (lattice::is_scalar(s.scalar) && s.thermal.buoyancy[a] != 0);
    return any;
}

/// The second distribution's initial state where none is given: a scalar's initial
/// theta, the second component's density, or the order parameter.
inline double second_initial(const EngineSetup& s) {
    return s.scalar == lattice::CoupledKind::ShanChenBinary ? s.density_b
           : s.scalar == lattice::CoupledKind::FreeEnergy   ? s.phi
                                                            : s.thermal.initial;
}

/// The second distribution's initial state at every fluid cell: a scalar's equilibrium
/// of (theta, u) (place_scalar), or the second component's of (rho_B, u)
/// (place_equilibrium), or the order parameter's of (phi, u) (kernel/place.hpp).
/// values: one per cell, or one for all.
template <class L, class Eq, class Ls, class Store>
void place_second(const EngineSetup& s, const std::vector<std::uint8_t>& node_class, const Store& previous,
                  const std::vector<double>& values, const std::vector<double>& u) {
    if constexpr (std::is_same_v<Ls, lattice::OrderParameter>) {
        place_per_cell<Store>(s, values, u, "phi", [&](const auto& layout, std::int64_t c, auto phi, const auto (&vel)[3]) {
            kernel::place_order_parameter_at<L>(layout, s.faces, node_class.data(), previous, c, phi, vel);
        });
    } else if constexpr (std::is_same_v<Ls, lattice::SecondComponent>) {
        const std::size_t cells = std::size_t(s.grid.cells());
        if ((values.size() != 1 && values.size() != cells) || u.size() != 3 * cells)
            throw std::invalid_argument("initialize_scalar: rho_B needs 1 value per cell, u 3");
        place_equilibrium<L, Eq>(s, node_class, previous, values.size() == 1 ? std::vector<double>(cells, values[0]) : values,
                                 u, {});
    } else {
        place_scalar<L, Ls>(s, node_class, previous, values, u);
    }
}

/// Post-collision populations of the last step as [i * cells + cell] (zero in
/// solids), read through a Gather whose store points at host memory.
template <class L, class G>
void posted_populations(const G& g, std::vector<double>& f) {
    const std::int64_t cells = g.layout.cells();
    f.assign(std::size_t(L::Q) * cells, 0.0);
#pragma omp parallel for schedule(static)
    for (std::int64_t c = 0; c < cells; ++c) {
        if (kernel::path_of(g.node_class[c]) == kernel::Solid || g.node_class[c] == kernel::Ghost) continue;
        for (int i = 0; i < L::Q; ++i) f[i * cells + c] = double(g.posted(c, i));
    }
}

/// Obstacle forces by momentum exchange (kernel/momentum_exchange.hpp) over host-side lists,
/// one OpenMP reduction per obstacle. Per-cell sums in double, added across cells
/// as FixedSum: the result does not depend on threads, ranks or order.
template <class L, class G>
std::vector<ForceSum> exchange_forces(const G& g, const std::vector<std::vector<kernel::ForceLink>>& lists) {
    std::vector<ForceSum> out(lists.size());
    for (std::size_t k = 0; k < lists.size(); ++k) {
        const kernel::ForceLink* links = lists[k].data();
        const auto n = std::int64_t(lists[k].size());
#pragma omp parallel
        {
            ForceSum mine{};
#pragma omp for schedule(static)
            for (std::int64_t j = 0; j < n; ++j) {
                double F[3] = {0, 0, 0};
                kernel::add_exchange<L>(g, links[j], F);
                for (int a = 0; a < 3; ++a) mine[std::size_t(a)].add(F[a]);
            }
#pragma omp critical
            for (int a = 0; a < 3; ++a) out[k][std::size_t(a)].merge(mine[std::size_t(a)]);
        }
    }
    return out;
}

/// Adds the momentum the interpolated wall links handed their obstacles in the last
/// step (kernel/interpolated_wall.hpp), V c_i (f*_i + f_opp(i)(t + 1)) per link, to the
/// force lists they report to. One FixedSum add per link: the order does not matter.
template <class L>
void add_wall_forces(const std::vector<kernel::WallLink>& links, const double* exchanged, std::vector<ForceSum>& out) {
    constexpr double volume = lattice::cell_volume<L>();
    for (std::size_t k = 0; k < links.size(); ++k) {
        const kernel::WallLink& l = links[k];
        if (l.list < 0) continue;
        for (int a = 0; a < 3; ++a)
            if (L::c(l.dir, a)) out[std::size_t(l.list)][std::size_t(a)].add(volume * L::c(l.dir, a) * exchanged[k]);
    }
}

/// What a saved EngineState must match to be restored: the model and storage and the
/// grid, not the backend (the layout is the same on both: a CPU run may go on on a GPU).
template <class L, class Eq, class Store>
std::string state_key(const EngineSetup& s) {
    std::string key = describe<L, Eq, Store>("", s).substr(1) + " " + std::to_string(s.grid.n[0]) + "x" +
                      std::to_string(s.grid.n[1]) + "x" + std::to_string(s.grid.n[2]);
    if (s.grid.tiles) key += " sparse " + std::to_string(s.grid.tiles->stored_tiles()) + " tiles";
    return key;
}

/// Engine::restore_state's precondition: a state of this engine, with its sizes.
inline void check_state(const EngineState& st, const std::string& key, std::size_t population_bytes,
                        std::size_t wall_links) {
    if (st.engine != key)
        throw CaseError("checkpoint: saved by \"" + st.engine + "\", this run is \"" + key + "\"");
    if (st.populations.size() != population_bytes || st.wall_momenta.size() != wall_links)
        throw CaseError("checkpoint: " + std::to_string(st.populations.size()) + " population bytes and " +
                        std::to_string(st.wall_momenta.size()) + " wall links, this run has " +
                        std::to_string(population_bytes) + " and " + std::to_string(wall_links));
}

/// An engine's precondition for a subdomain: the halo exchange is written for two
/// copies. The offered table refuses the request first (backend/offered.cpp, with the
/// case key); an engine that is handed one anyway refuses it rather than skip the
/// exchange.
inline void require_halo_support(bool two_copy, const EngineSetup& s) {
    if (!two_copy && !s.halo.messages.empty())
        throw CaseError("model.streaming = \"in-place\": the engines exchange halos for two-copy streaming only");
}

/// Engine::set_face_values's precondition: the face has expression values of this size.
inline void check_face_values(std::size_t held, int face, const std::vector<double>& values) {
    if (held == 0 || values.size() != held)
        throw std::invalid_argument("set_face_values: face " + std::to_string(face) + " holds " +
                                    std::to_string(held) + " values, " + std::to_string(values.size()) + " given");
}

/// Engine::set_accumulated's precondition: none, or mean_components sums per cell.
inline void check_sums(std::size_t given, std::int64_t cells) {
    if (given != 0 && given != std::size_t(mean_components) * std::size_t(cells))
        throw std::invalid_argument("set_accumulated: " + std::to_string(given) + " sums given, " +
                                    std::to_string(std::size_t(mean_components) * std::size_t(cells)) + " expected");
}

/// The reduced fields of an observation; the backend adds the state of the bad cell, if any.
inline Observation observation_from(const kernel::Partial& p) {
    Observation o;
    o.rho_min = p.rho_min, o.rho_max = p.rho_max, o.u_max = std::sqrt(p.u2_max);
    o.change_l2 = std::sqrt(p.change2), o.norm_l2 = std::sqrt(p.norm2);
    o.mass = p.mass, o.fluid_cells = p.fluid;
    if (p.theta_min <= p.theta_max) o.theta_min = p.theta_min, o.theta_max = p.theta_max;
    o.theta_sum = p.theta_sum;
    if (p.bad_cell != INT64_MAX) o.bad_cell = p.bad_cell;
    return o;
}

}  // namespace barracuda::backend
