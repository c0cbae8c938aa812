#include "sim/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>

#include "backend/device_info.hpp"
#include "backend/offered.hpp"
#include "backend/tiled_engine.hpp"
#include "common/error.hpp"
#include "geometry/shapes.hpp"
#include "kernel/links.hpp"
#include "kernel/observe.hpp"
#include "parallel/halo.hpp"
#include "sim/force_links.hpp"
#include "sim/case_check.hpp"
#include "physics/advection_diffusion.hpp"
#include "sim/expression.hpp"
#include "sim/wall_links.hpp"
#include "storage/tiles.hpp"

namespace barracuda::sim {

namespace {

std::string format_bytes(std::int64_t b) {
    std::ostringstream s;
    s.precision(3);
    if (b >= (std::int64_t(1) << 30)) s << double(b) / double(1 << 30) << " GiB";
    else s << double(b) / double(1 << 20) << " MiB";
    return s.str();
}

}  // namespace

parallel::Subdomain subdomain_of(const CaseSpec& spec, int rank, int ranks) {
    auto dims = spec.decomposition;
    const bool given = dims[0] > 0;
    if (!given) dims = parallel::automatic_dims(ranks, spec.size, lattice::dimensions_of(spec.model.lattice));
    if (const auto problem = parallel::decomposition_problem(dims, ranks, spec.size); !problem.empty()) {
        const std::string d = "[" + std::to_string(dims[0]) + ", " + std::to_string(dims[1]) + ", " +
                              std::to_string(dims[2]) + "]";
        throw CaseError(given ? "domain.decomposition = " + d + ": " + problem
                              : "domain.size: " + std::to_string(ranks) + " ranks cannot split the box (" + problem +
                                    "); use fewer ranks or give domain.decomposition");
    }
    if (ranks > 1 && !parallel::Comm::built_with_mpi())
        throw CaseError("domain.decomposition asks for " + std::to_string(ranks) +
                        " subdomains but this binary was built without MPI (install libopenmpi-dev and rebuild)");
    return parallel::make_subdomain(spec.size, spec.periodic, dims, rank);
}

namespace {
geometry::Placement placement_of(const parallel::Subdomain& sub) {
    geometry::Placement p;
    for (std::size_t a = 0; a < 3; ++a) {
        p.origin[a] = sub.owned_origin[a] - sub.ghost_lo[a];
        p.wrap[a] = sub.global_periodic[a] ? sub.global_size[a] : 0;
    }
    return p;
}
}  // namespace

storage::Grid local_grid(const CaseSpec& spec, const parallel::Subdomain& sub) {
    auto g = sub.local_grid();
    g.sublattice = spec.stores_sublattice();
    return g;
}

namespace {
std::vector<std::uint8_t> node_kinds_on(const CaseSpec& spec, const storage::Grid& g, std::vector<std::int32_t>* owner,
                                        const parallel::Subdomain* sub) {
    const auto at = placement_of(*sub);
    std::vector<std::uint8_t> kind(std::size_t(g.cells()), boundary::Fluid);
    if (owner) owner->assign(std::size_t(g.cells()), -1);
    for (std::size_t i = 0; i < spec.obstacles.size(); ++i)
        geometry::mark(g, spec.obstacles[i].body(), kind, {owner, std::int32_t(i)}, at);
    return kind;
}
}  // namespace

std::vector<std::uint8_t> node_kinds(const CaseSpec& spec, std::vector<std::int32_t>* owner,
                                     const parallel::Subdomain* sub) {
    const auto whole = parallel::Subdomain::whole(spec.size, spec.periodic);
    if (!sub) sub = &whole;
    return node_kinds_on(spec, local_grid(spec, *sub), owner, sub);
}

std::vector<std::uint8_t> output_node_kinds(const CaseSpec& spec, const parallel::Subdomain* sub) {
    const auto whole = parallel::Subdomain::whole(spec.size, spec.periodic);
    if (!sub) sub = &whole;
    // Every node of the box, also where the lattice stores one sub-lattice (D3Q13).
    const auto lg = sub->local_grid();
    const auto local = node_kinds_on(spec, lg, nullptr, sub);
    const auto& o = sub->owned_size;
    std::vector<std::uint8_t> kind(std::size_t(o[0]) * o[1] * o[2]);
    std::size_t next = 0;
    for (int z = 0; z < o[2]; ++z)
        for (int y = 0; y < o[1]; ++y)
            for (int x = 0; x < o[0]; ++x) {
                auto& k = kind[next++];
                k = local[std::size_t(lg.index(x + sub->ghost_lo[0], y + sub->ghost_lo[1], z + sub->ghost_lo[2]))];
                if (k == boundary::Solid) continue;
                const int p[3] = {x + sub->owned_origin[0], y + sub->owned_origin[1], z + sub->owned_origin[2]};
                const auto& n = spec.size;
                for (int face = 0; face < 6; ++face) {
                    const int a = face / 2;
                    if (spec.periodic[a] || p[a] != ((face & 1) ? n[std::size_t(a)] - 1 : 0)) continue;
                    const auto t = spec.faces[face].type;
                    const auto mark = t == boundary::FaceType::Velocity   ? boundary::VelocityFace
                                      : t == boundary::FaceType::Pressure ? boundary::PressureFace
                                      : t == boundary::FaceType::Outflow  ? boundary::OutflowFace
                                                                          : boundary::WallFace;
                    if (k == boundary::Fluid || mark != boundary::WallFace) k = mark;
                }
            }
    return kind;
}

namespace {
// The scalar lattice's links from fluid nodes into obstacle `index`'s solid nodes, over
// the whole box: an obstacle releasing a power P spreads it as the flux P / links on
// each (boundary/scalar_faces.hpp, Flux), so that exactly P enters the fluid per step.
// Every scalar lattice links a node to its axis neighbours only (D3Q6/D3Q7, D2Q4/D2Q5).
std::int64_t surface_links(const CaseSpec& spec, const parallel::Subdomain& sub,
                           const std::vector<std::uint8_t>& kind, const std::vector<std::int32_t>& owner,
                           std::size_t index) {
    const auto g = sub.local_grid();
    const int dims = lattice::dimensions_of(spec.model.lattice);
    std::int64_t links = 0;
    for (int z = sub.ghost_lo[2]; z < sub.ghost_lo[2] + sub.owned_size[2]; ++z)
        for (int y = sub.ghost_lo[1]; y < sub.ghost_lo[1] + sub.owned_size[1]; ++y)
            for (int x = sub.ghost_lo[0]; x < sub.ghost_lo[0] + sub.owned_size[0]; ++x) {
                if (kind[std::size_t(g.index(x, y, z))] != boundary::Fluid) continue;
                const int p[3] = {x, y, z};
                for (int a = 0; a < dims; ++a)
                    for (int d : {-1, 1}) {
                        int q[3] = {p[0], p[1], p[2]};
                        q[a] += d;
                        const int n = g.n[a];
                        if (g.periodic[a]) q[a] = (q[a] + n) % n;
                        else if (q[a] < 0 || q[a] >= n) continue;  // beyond the box
                        const auto c = std::size_t(g.index(q[0], q[1], q[2]));
                        if (kind[c] == boundary::Solid && owner[c] == std::int32_t(index)) ++links;
                    }
            }
    // Collective on a decomposed setup (every rank sets up its own subdomain at once);
    // counts far below 2^53 add exactly in double.
    const auto total = sub.decomposed() ? std::int64_t(parallel::Comm::world().sum({double(links)})[0]) : links;
    if (total == 0)
        throw CaseError("obstacle \"" + spec.obstacles[index].name +
                        "\".power: no fluid node touches the obstacle, so its power has no surface to leave through");
    return total;
}
}  // namespace

namespace {
/// The whole-box node of the local box's cell p, and where expressions of x, y, z see it:
/// node i at x = i, or in an SI case at (i + 1/2) dx in m (sim/units.hpp).
void expression_position(const CaseSpec& spec, const parallel::Subdomain& sub, const int (&p)[3], int (&node)[3],
                         double (&x)[3]) {
    for (int a = 0; a < 3; ++a) {
        node[a] = sub.global_coordinate(a, p[a]);
        x[a] = spec.units.si ? spec.units.node_position(node[a]) : double(node[a]);
    }
}

/// visit(c, node, x) at every cell c of the local box, with its whole-box node and the
/// position expressions see (expression_position): the initial fields' loops.
template <class Visit>
void for_each_local_node(const CaseSpec& spec, const parallel::Subdomain& sub, const Visit& visit) {
    const auto g = local_grid(spec, sub);
    for (std::int64_t c = 0; c < g.cells(); ++c) {
        int p[3], node[3];
        g.coordinates(c, p);
        double x[3];
        expression_position(spec, sub, p, node, x);
        visit(std::size_t(c), node, x);
    }
}

/// The text naming a node in an error: "(i, j, k)".
std::string node_text(const int (&node)[3]) {
    return "(" + std::to_string(node[0]) + ", " + std::to_string(node[1]) + ", " + std::to_string(node[2]) + ")";
}

/// domain.storage: "auto" takes sparse where it is offered for the case's model, the
/// box is not split over ranks, and the stored tiles hold at most 90% of the box's
/// nodes (below that, the memory saved outweighs the tile map's extra reads).
storage::Storage storage_of(const CaseSpec& spec, const backend::EngineSetup& s, bool decomposed) {
    if (spec.storage == StorageChoice::Dense) return storage::Storage::Dense;
    if (spec.storage == StorageChoice::Sparse) return storage::Storage::Sparse;
    auto request = backend::request_of(s);
    request.config.storage = storage::Storage::Sparse;
    request.several_ranks = decomposed;
    if (!backend::refusal(request).empty()) return storage::Storage::Dense;
    if (storage::TileTables::box_tiles_of(s.grid.n) > storage::TileTables::max_box_tiles) return storage::Storage::Dense;
    const auto count = backend::count_tiles(s.grid.n, s.node_kind);
    return double(count.stored + 1) * 64.0 <= 0.9 * double(s.grid.cells()) ? storage::Storage::Sparse
                                                                            : storage::Storage::Dense;
}
}  // namespace

backend::EngineSetup model_setup(const CaseSpec& spec) {
    backend::EngineSetup s;
    s.lattice = spec.model.lattice;
    s.collision = spec.model.collision;
    s.equilibrium = spec.model.equilibrium;
    s.forcing = spec.model.forcing;
    s.precision = spec.model.precision;
    s.pattern = spec.model.streaming;
    if (spec.multiphase.enabled) {
        s.scalar = spec.multiphase.kind();
        s.shan_chen = spec.multiphase.shan_chen;
        s.wall_density = spec.multiphase.wall_density;
        s.tau_b = 3 * spec.multiphase.viscosity_b + 0.5;
        s.density_b = spec.multiphase.density_b_expression.empty() ? spec.multiphase.density_b : 1.0;
        s.free_energy = spec.multiphase.free_energy_parameters;
        s.tau_phi = spec.multiphase.tau_phi;
        s.wetting = physics::wetting_potential(spec.multiphase.free_energy_parameters,
                                               spec.multiphase.contact_angle * std::numbers::pi / 180);
        s.phi = spec.multiphase.phi_expression.empty() ? spec.multiphase.phi : 1.0;
    }
    s.tau = spec.model.tau;
    s.trt_magic = spec.model.trt_magic;
    s.smagorinsky = spec.model.smagorinsky;
    const MrtRates mrt = mrt_rates(spec.model);
    s.mrt = {1.0 / spec.model.tau, mrt.s_e, mrt.s_eps, mrt.s_q, mrt.s_pi, mrt.s_m};
    for (int a = 0; a < 3; ++a) s.force[a] = spec.body_force[a];
    return s;
}

backend::EngineSetup engine_setup(const CaseSpec& spec, const parallel::Subdomain* sub) {
    const auto whole = parallel::Subdomain::whole(spec.size, spec.periodic);
    if (!sub) sub = &whole;
    backend::EngineSetup s = model_setup(spec);
    s.grid = local_grid(spec, *sub);
    for (int f = 0; f < 6; ++f) {
        // A side facing a neighbour rank has no boundary: its ghost layer is streamed from.
        const auto A = std::size_t(f / 2);
        const bool neighbour = (f & 1) ? sub->ghost_hi[A] : sub->ghost_lo[A];
        s.faces.type[f] = spec.periodic[A] || neighbour ? boundary::FaceType::Periodic : spec.faces[f].type;
        s.faces.method[f] = spec.faces[f].method;
        s.faces.profile[f] = spec.faces[f].profile;
        for (int a = 0; a < 3; ++a) s.faces.velocity[f][a] = spec.faces[f].velocity[a];
        s.faces.density[f] = spec.faces[f].density;
        // A layer belongs to the whole box's face, so it is kept on a side facing a
        // neighbour rank too: it runs on into this subdomain from the neighbour's.
        const boundary::FaceSpec& face = spec.faces[f];
        boundary::SpongeLayer& layer = s.faces.sponge[f];
        layer.width = spec.periodic[A] ? 0 : face.sponge_width;
        layer.strength = face.sponge_strength;
        layer.density = face.sponge_density.value_or(1.0);
        layer.keep_density = !face.sponge_density;
        for (int a = 0; a < 3; ++a) layer.velocity[a] = face.sponge_velocity[a];
        s.faces.has_sponge = s.faces.has_sponge || layer.width > 0;
    }
    for (std::size_t a = 0; a < 3; ++a) {
        s.faces.origin[a] = sub->owned_origin[a] - sub->ghost_lo[a];
        s.faces.extent[a] = spec.size[a];
        s.faces.whole_periodic[a] = spec.periodic[a];
    }
    bool moving = false, interpolated = false;
    for (const auto& o : spec.obstacles) moving = moving || o.numbered(), interpolated = interpolated || o.interpolated;
    if (interpolated && sub->decomposed())
        throw CaseError("obstacle[].bounce_back = \"interpolated\" is offered on one rank only (its links read "
                        "populations across the subdomain faces after the exchange); run on one rank or use "
                        "\"half-way\"");
    if (spec.forces.obstacles.empty() && !moving && !interpolated) {
        s.node_kind = node_kinds(spec, nullptr, sub);
    } else {
        // The obstacle of each solid node is needed only while the link lists are built
        // and the moving obstacles' nodes marked.
        std::vector<std::int32_t> owner;
        s.node_kind = node_kinds(spec, &owner, sub);
        if (!spec.forces.obstacles.empty()) s.force_links = force_links(spec, s.node_kind, owner, *sub);
        if (interpolated) s.wall_links = wall_links(spec, s.grid, s.faces, s.node_kind, owner);
        // Numbered obstacle m (1, 2, ...: moving, or with a thermal condition): its solid
        // nodes carry m in the kind's upper bits, its surface velocity goes to the face
        // table (kernel/links.hpp), its thermal condition to the scalar's (kernel/scalar.hpp).
        std::vector<int> slot(spec.obstacles.size(), 0);
        int m = 0;
        for (std::size_t i = 0; i < spec.obstacles.size(); ++i)
            if (spec.obstacles[i].numbered()) {
                if (m == max_moving_obstacles)  // check_case refuses this; a guard for direct callers
                    throw CaseError("[[obstacle]]: more than " + std::to_string(max_moving_obstacles) +
                                    " obstacles have a velocity");
                slot[i] = ++m;
                for (std::size_t a = 0; a < 3; ++a) s.faces.obstacle_velocity[m - 1][a] = spec.obstacles[i].velocity[a];
                if (const auto& c = spec.obstacles[i].thermal) {
                    auto& row = s.thermal.faces.obstacle[m];
                    row = *c;
                    if (row.rule == boundary::ScalarRule::Fixed) row.value -= spec.thermal.reference;
                    if (const auto& p = spec.obstacles[i].power) row.value = *p / double(surface_links(spec, *sub, s.node_kind, owner, i));
                }
            }
        if (m > 0)
            for (std::size_t c = 0; c < s.node_kind.size(); ++c)
                if (s.node_kind[c] == boundary::Solid && owner[c] >= 0 && slot[std::size_t(owner[c])] > 0)
                    s.node_kind[c] = kernel::moving_solid(slot[std::size_t(owner[c])]);
    }
    if (sub->decomposed()) {
        s.ghost_lo = sub->ghost_lo;
        s.ghost_hi = sub->ghost_hi;
        const lattice::CoupledKind second = spec.thermal.enabled      ? spec.thermal.lattice
                                            : spec.multiphase.enabled ? spec.multiphase.kind()
                                                                      : lattice::CoupledKind::None;
        s.halo = parallel::make_halo_plan(spec.model.lattice, *sub, second);
        // The multiphase models' macro fields: psi (one component), psi_A and psi_B (two),
        // phi (free energy).
        if (spec.multiphase.enabled)
            s.field_halo = parallel::make_field_plan(s.halo, *sub, lattice::macro_fields(second));
    }
    if (spec.thermal.enabled) {
        const ThermalSpec& t = spec.thermal;
        s.scalar = t.lattice;
        s.thermal.diffusivity = t.diffusivity;
        s.thermal.lambda = t.trt ? t.trt_magic : t.regularized ? physics::regularized_lambda : 0;
        for (std::size_t a = 0; a < 3; ++a) s.thermal.buoyancy[a] = -t.expansion * t.gravity[a];  // rho_0 = 1
        s.thermal.initial = t.expression_free_initial() - t.reference;
        s.thermal.turbulent_prandtl = t.turbulent_prandtl;
        const auto faces = scalar_faces(spec);  // its obstacle rows were filled above, by number
        for (int f = 0; f < 6; ++f) s.thermal.faces.face[f] = faces.face[f];
    }
    // After the coupled part is set (the multiphase models' in model_setup): "auto" asks the
    // table whether sparse is offered for the whole configuration (a thermal or Shan-Chen
    // row may lack it).
    s.storage = storage_of(spec, s, sub->decomposed());
    return s;
}

BackendChoice resolve_backend(BackendChoice asked) {
    const bool gpu = !backend::cuda_devices().empty();
    if (asked == BackendChoice::Auto) return gpu ? BackendChoice::Cuda : BackendChoice::Cpu;
    if (asked == BackendChoice::Cuda && !gpu) {
        throw ResourceError(backend::cuda_built()
                                ? "backend = cuda: no CUDA GPU is available on this machine (use --backend cpu or auto)"
                                : "backend = cuda: this binary was built without the CUDA backend (nvcc was not "
                                  "found at build time); use --backend cpu or auto");
    }
    return asked;
}

std::int64_t available_memory(BackendChoice backend) {
    if (backend == BackendChoice::Cuda) return backend::cuda_free_memory();
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::int64_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit)
        if (key == "MemAvailable:") return kib * 1024;
    return std::int64_t(1) << 62;  // unknown: do not refuse
}

namespace {
// What would shrink the footprint, beside a smaller domain.
std::string memory_hint(const ModelSpec& m) {
    std::string hint = "; reduce the size";
    if (m.streaming == Pattern::TwoCopy) hint += ", use model.streaming = \"in-place\" (half the populations)";
    if (m.precision == Precision::FP64) hint += ", use model.precision = \"fp32\"";
    else if (m.precision == Precision::FP32) hint += ", use model.precision = \"fp16\" (FP16 storage)";
    return hint;
}
}  // namespace

std::vector<double> face_temperatures(const CaseSpec& spec, const parallel::Subdomain& sub, int face) {
    const std::string& text = spec.thermal.face_expressions[std::size_t(face)];
    if (text.empty()) return {};
    const Expression e(text, spec.size);
    const auto n = sub.local_size();
    const int a = boundary::Parameters::axis(face);
    const int b0 = boundary::Parameters::in_face_axis(face, 0), b1 = boundary::Parameters::in_face_axis(face, 1);
    std::vector<double> out(static_cast<std::size_t>(n[std::size_t(b0)]) * static_cast<std::size_t>(n[std::size_t(b1)]));
    double x[3];
    x[a] = (face & 1) ? spec.size[std::size_t(a)] - 1 : 0;
    for (int j = 0; j < n[std::size_t(b1)]; ++j)
        for (int i = 0; i < n[std::size_t(b0)]; ++i) {
            x[b0] = sub.global_coordinate(b0, i);
            x[b1] = sub.global_coordinate(b1, j);
            double p[3] = {x[0], x[1], x[2]};
            if (spec.units.si)
                for (double& c : p) c = spec.units.node_position(c);
            const double T = e(p[0], p[1], p[2], 0.0);
            if (!std::isfinite(T))
                throw CaseError("boundary." + std::string(boundary::face_name(face)) + ".temperature = \"" + text +
                                "\" is NaN/Inf at node (" + std::to_string(int(x[0])) + ", " + std::to_string(int(x[1])) +
                                ", " + std::to_string(int(x[2])) + ")");
            out[std::size_t(i) + std::size_t(n[std::size_t(b0)]) * std::size_t(j)] = T - spec.thermal.reference;
        }
    return out;
}

Simulation::Simulation(const CaseSpec& spec, BackendChoice backend, const std::function<void()>& before_allocation)
    : spec_(spec) {
    bool has_fluid = false;
    shared_verdict([&] {
        prepare(backend);
        initial_rho_ = initial_densities();
        if (spec_.multiphase.free_energy) initial_rho_b_ = initial_order_parameter();
        else if (spec_.multiphase.binary) initial_rho_b_ = initial_densities(true);
        if (spec_.multiphase.enabled && !spec_.multiphase.free_energy && spec_.multiphase.contact_angle != 90)
            calibrate_wetting();
        // Obstacles that fill the box leave nothing to simulate (issue 21: such a run went
        // on and reported "mean over the fluid 0"). A ghost node is another rank's owned
        // one, so "some rank has fluid in its local box" is "the box has fluid".
        if (!spec_.obstacles.empty()) {
            const auto kinds = node_kinds(spec_, nullptr, &sub_);
            has_fluid = std::find_if(kinds.begin(), kinds.end(), [](std::uint8_t k) { return k != boundary::Solid; }) !=
                        kinds.end();
        } else {
            has_fluid = true;
        }
    });
    if (!parallel::Comm::world().any(has_fluid))
        throw CaseError("obstacle: the obstacles cover every node of the " + std::to_string(spec_.size[0]) + " x " +
                        std::to_string(spec_.size[1]) + " x " + std::to_string(spec_.size[2]) +
                        " box; no fluid is left to simulate (check their sizes and positions against domain.size)");
    // Every rank passed the checks: the hook may be collective (the output directory).
    if (before_allocation) before_allocation();
    shared_verdict([&] { allocate(); });
}

/// The Shan-Chen models' wall adhesion for the case's contact angle (sim/wetting.cpp), the
/// phases started from the case's initial densities: each component's largest and
/// smallest over the whole box (the same on every rank, which all run the calibration).
/// One component: the liquid from the largest density, the vapour from the smallest.
void Simulation::calibrate_wetting() {
    const auto& comm = parallel::Comm::world();
    const auto range = [&](const std::vector<double>& field, double constant) {
        double lo = constant, hi = constant;
        if (!field.empty()) {
            lo = *std::min_element(field.begin(), field.end());
            hi = *std::max_element(field.begin(), field.end());
        }
        return std::array<double, 2>{comm.min(lo), comm.max(hi)};
    };
    const auto a = range(initial_rho_, spec_.initial_density);
    const auto b = range(initial_rho_b_, spec_.multiphase.density_b);
    // The model alone (model_setup): the calibration runs its own boxes, not the case's geometry.
    wetting_ = wetting_adhesion(model_setup(spec_), spec_.multiphase.contact_angle * std::numbers::pi / 180,
                                a[1], a[0], b[1], b[0]);
}

void Simulation::shared_verdict(const std::function<void()>& phase) {
    // Every rank checks the same case and reaches the same verdict; what one rank
    // alone can hit (memory, a GPU) is shared, so that no rank waits for another
    // that has stopped.
    const auto& comm = parallel::Comm::world();
    std::string problem;
    int kind = 0;  // 1 CaseError, 2 ResourceError
    try {
        phase();
    } catch (const CaseError& e) {
        problem = e.what(), kind = 1;
    } catch (const ResourceError& e) {
        problem = e.what(), kind = 2;
    }
    const auto first = comm.first_problem(kind, problem);
    if (first.kind == 0) return;
    // Another rank's problem names it; this rank's own is said as it is.
    const std::string text = kind != 0 ? problem : "rank " + std::to_string(first.rank) + ": " + first.text;
    if (first.kind == 1) throw CaseError(text);
    throw ResourceError(text);
}

namespace {
/// Refuses a run whose engine would not fit: the memory of this rank's subdomain, ghost
/// layers included, of which `share` of the nodes is stored (1: dense; sparse storage:
/// its tiles' share, named by `stored`).
void require_memory(const CaseSpec& spec, const parallel::Subdomain& sub, BackendChoice backend, double share,
                    const std::string& stored) {
    CaseSpec local = spec;
    local.size = sub.local_size();
    const auto mem = estimate_memory(local);
    const double device = double(mem.device_total()) * share;
    const auto need = std::int64_t(backend == BackendChoice::Cuda ? device : device + double(mem.output_bytes));
    const std::int64_t have = available_memory(backend);
    if (need > have) {
        const auto nodes = std::max<std::int64_t>(std::int64_t(double(local.stored_nodes()) * share), 1);
        throw ResourceError("domain.size = [" + std::to_string(spec.size[0]) + ", " + std::to_string(spec.size[1]) +
                            ", " + std::to_string(spec.size[2]) + "]" + stored + ": needs about " + format_bytes(need) +
                            " (" + std::to_string(need / nodes) + " B/node) " + (sub.decomposed() ? "per rank " : "") +
                            "but only " + format_bytes(have) + " is available on the " +
                            (backend == BackendChoice::Cuda ? "GPU" : "host") + memory_hint(spec.model) +
                            (sub.decomposed() ? ", or use more ranks" : ""));
    }
    // Dense layouts address their cells' neighbours in 32 bits (storage/layout.hpp): a
    // box that fits in memory may still be too many cells (D2Q9 FP16 on a large GPU).
    if (const auto cells = local_grid(spec, sub).cells(); share == 1.0 && cells > storage::max_box_cells)
        throw CaseError("domain.size = [" + std::to_string(spec.size[0]) + ", " + std::to_string(spec.size[1]) + ", " +
                        std::to_string(spec.size[2]) + "]: " + std::to_string(cells) + " cells " +
                        (sub.decomposed() ? "in a rank's subdomain" : "in one box") + ", more than the " +
                        std::to_string(storage::max_box_cells) +
                        " (2^32 - 1) a dense layout addresses; use more ranks (mpirun), or domain.storage = \"sparse\" "
                        "where much of the box is solid");
}
}  // namespace

void Simulation::prepare(BackendChoice backend) {
    fill_model_defaults(spec_);
    check_case(spec_);
    const auto& comm = parallel::Comm::world();
    sub_ = subdomain_of(spec_, comm.rank(), comm.size());
    if (sub_.decomposed())
        if (auto why = backend::refusal(offer_request(spec_, true)); !why.empty()) throw CaseError(why);
    backend_ = resolve_backend(backend);
    if (backend_ == BackendChoice::Cuda) {
        const int gpus = backend::cuda_device_count();
        if (comm.local_size() > gpus)
            throw ResourceError("backend = cuda: " + std::to_string(comm.local_size()) + " ranks on this node but " +
                                std::to_string(gpus) + " GPU(s); run one rank per GPU (mpirun -np " +
                                std::to_string(gpus) + " per node) or use --backend cpu");
        backend::use_cuda_device(comm.local_rank());
    }
    // Sparse storage (and auto) know their cells once the geometry is marked: checked
    // then, still before the engine allocates (check_sparse_memory).
    if (spec_.storage == StorageChoice::Dense) require_memory(spec_, sub_, backend_, 1.0, "");
}

void Simulation::check_sparse_memory(const backend::EngineSetup& setup) const {
    if (setup.storage != storage::Storage::Sparse) return require_memory(spec_, sub_, backend_, 1.0, "");
    const auto count = backend::count_tiles(setup.grid.n, setup.node_kind);
    require_memory(spec_, sub_, backend_, double(count.stored + 1) * 64.0 / double(setup.grid.cells()),
                   " with domain.storage = \"sparse\" (" + std::to_string(count.stored) + " of " +
                       std::to_string(count.box) + " tiles stored)");
}

/// The initial density at every cell of the local box where it varies (an expression,
/// noise), else nothing: initial.density, or a binary case's initial.density_b
/// (component_b, its noise drawn apart from A's).
std::vector<double> Simulation::initial_densities(bool component_b) const {
    const auto& mp = spec_.multiphase;
    const std::string& expression = component_b ? mp.density_b_expression : spec_.initial_density_expression;
    const double constant = component_b ? mp.density_b : spec_.initial_density;
    const char* key = component_b ? "initial.density_b" : "initial.density";
    if (expression.empty() && !(spec_.initial_noise > 0)) return {};
    // rho(x, y, z) at every cell of the local box (drops, layers), times the noise's factor
    // (the same at a node whatever the decomposition).
    const bool given = !expression.empty();
    const Expression e(given ? expression : "1", spec_.size);
    std::vector<double> rho(std::size_t(local_grid(spec_, sub_).cells()));
    const std::uint64_t seed = spec_.initial_seed + (component_b ? 0x5bd1e995ull : 0);
    for_each_local_node(spec_, sub_, [&](std::size_t c, const int (&node)[3], const double (&x)[3]) {
        double r = given ? e(x[0], x[1], x[2], 0.0) : constant;
        if (spec_.initial_noise > 0) {
            // splitmix64 of the node's whole-box index and the seed: a uniform draw in [-1, 1).
            std::uint64_t z = seed * 0x9e3779b97f4a7c15ull + std::uint64_t(node[0]) +
                              std::uint64_t(spec_.size[0]) *
                                  (std::uint64_t(node[1]) + std::uint64_t(spec_.size[1]) * std::uint64_t(node[2]));
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
            z ^= z >> 31;
            r *= 1 + spec_.initial_noise * (double(z >> 11) * 0x1.0p-52 - 1);
        }
        const bool pole = mp.enabled && mp.shan_chen.psi == physics::Pseudopotential::CarnahanStarling &&
                          !(r * mp.shan_chen.b / 4 < 1);
        if (!(std::isfinite(r) && r > 0) || pole)
            throw CaseError(std::string(key) + " = " + (given ? "\"" + e.text() + "\"" : value_text(constant)) +
                            " is " + value_text(r) + " at " + node_text(node) + ": must be a number > 0" +
                            (pole ? " and below Carnahan-Starling's pole 4 / b = " + value_text(4 / mp.shan_chen.b) : ""));
        rho[c] = r;
    });
    return rho;
}

/// The free-energy model's initial phi at every cell of the local box where initial.phi is
/// an expression, else nothing (the engine places the number).
std::vector<double> Simulation::initial_order_parameter() const {
    const auto& mp = spec_.multiphase;
    if (mp.phi_expression.empty()) return {};
    const Expression e(mp.phi_expression, spec_.size);
    std::vector<double> phi(std::size_t(local_grid(spec_, sub_).cells()));
    for_each_local_node(spec_, sub_, [&](std::size_t c, const int (&node)[3], const double (&x)[3]) {
        const double v = e(x[0], x[1], x[2], 0.0);
        if (!(std::isfinite(v) && v >= -1.5 && v <= 1.5))
            throw CaseError("initial.phi = \"" + e.text() + "\" is " + value_text(v) + " at " + node_text(node) +
                            ": must be in [-1.5, 1.5] (+1 fluid A, -1 fluid B)");
        phi[c] = v;
    });
    return phi;
}

void Simulation::allocate() {
    auto setup = engine_setup(spec_, &sub_);
    if (wetting_) setup.adhesion = wetting_->adhesion;
    if (spec_.storage != StorageChoice::Dense) check_sparse_memory(setup);
    face_values_ = std::make_unique<FaceValues>(spec_, sub_);
    for (int f = 0; f < 6; ++f)
        if (face_values_->has(f)) face_values_->evaluate(f, 1.0, setup.face_values[std::size_t(f)]);
    if (spec_.thermal.enabled)
        for (int f = 0; f < 6; ++f) setup.thermal.face_values[std::size_t(f)] = face_temperatures(spec_, sub_, f);
    engine_ = backend_ == BackendChoice::Cuda ? backend::make_cuda_engine(setup) : backend::make_cpu_engine(setup);
    engine_->initialize_uniform(spec_.initial_density, spec_.initial_velocity);
    if (!initial_rho_.empty()) {
        std::vector<double> u(3 * initial_rho_.size());
        for (std::size_t c = 0; c < initial_rho_.size(); ++c)
            for (std::size_t a = 0; a < 3; ++a) u[3 * c + a] = spec_.initial_velocity[a];
        engine_->initialize(initial_rho_, u);
        std::vector<double>().swap(initial_rho_);
    }
    if (!initial_rho_b_.empty()) {  // a binary case's B density or phi (Engine::initialize_scalar)
        std::vector<double> u(3 * initial_rho_b_.size());
        for (std::size_t c = 0; c < initial_rho_b_.size(); ++c)
            for (std::size_t a = 0; a < 3; ++a) u[3 * c + a] = spec_.initial_velocity[a];
        engine_->initialize_scalar(initial_rho_b_, u);
        std::vector<double>().swap(initial_rho_b_);
    }
    if (spec_.thermal.enabled && !spec_.thermal.initial_expression.empty()) {
        // theta = T(x, y, z) - T_0 at every cell of the local box, in whole-box coordinates.
        const Expression e(spec_.thermal.initial_expression, spec_.size);
        std::vector<double> theta(std::size_t(local_grid(spec_, sub_).cells())), u(3 * theta.size());
        for_each_local_node(spec_, sub_, [&](std::size_t c, const int (&node)[3], const double (&x)[3]) {
            const double T = e(x[0], x[1], x[2], 0.0);
            if (!std::isfinite(T))
                throw CaseError("thermal.initial_temperature = \"" + e.text() + "\" is NaN/Inf at " + node_text(node));
            theta[c] = T - spec_.thermal.reference;
            for (std::size_t a = 0; a < 3; ++a) u[3 * c + a] = spec_.initial_velocity[a];
        });
        engine_->initialize_scalar(theta, u);
    }
    probes_ = Probes(spec_, sub_);
    average_ = TimeAverage(spec_);
}

void Simulation::owned_second(std::vector<double>& values) {
    values.clear();
    if (!spec_.multiphase.binary) {
        owned_temperature(values);
        return;
    }
    std::vector<double> rho_b;
    engine_->scalar_field(rho_b);
    if (!sub_.decomposed()) {
        values.swap(rho_b);
    } else {
        values.resize(sub_.owned_cells());
        sub_.for_each_owned([&](std::size_t k, std::size_t c) { values[k] = rho_b[c]; });
    }
}

void Simulation::owned_temperature(std::vector<double>& temperature) {
    temperature.clear();
    if (!spec_.thermal.enabled) return;
    std::vector<double> theta;
    engine_->scalar_field(theta);  // every node stored (no thermal D3Q13 in the table)
    if (!sub_.decomposed()) {
        temperature.swap(theta);
    } else {  // the owned cells, without the ghost layers
        temperature.resize(sub_.owned_cells());
        sub_.for_each_owned([&](std::size_t k, std::size_t c) { temperature[k] = theta[c]; });
    }
    for (double& t : temperature) t += spec_.thermal.reference;
}

void Simulation::restore(std::int64_t time, const backend::EngineState& state) {
    engine_->restore_state(state);
    time_ = time;
    // The values the step that computed this state imposed (advance() sets those of
    // time t before the step to t), so that observations before the next step match.
    if (time_ > 0 && face_values_->time_dependent()) impose_face_values(double(time_));
}

void Simulation::steer(CaseSpec next) {
    fill_model_defaults(next);
    // The values that may change copied from `next` into the running case: what differs
    // after that is something the engine was built for (lattice, grid, faces' types,
    // geometry), which no running state carries over.
    CaseSpec same = spec_;
    for (std::size_t f = 0; f < 6; ++f) {
        auto& a = same.faces[f];
        const auto& b = next.faces[f];
        a.velocity = b.velocity, a.density = b.density;
        a.velocity_expression = b.velocity_expression, a.density_expression = b.density_expression;
        auto& ta = same.thermal.faces[f];
        const auto& tb = next.thermal.faces[f];
        if (ta && tb && ta->rule == tb->rule) ta->value = tb->value;
        same.thermal.face_expressions[f] = next.thermal.face_expressions[f];
    }
    same.body_force = next.body_force;
    if (same.obstacles.size() == next.obstacles.size())
        for (std::size_t k = 0; k < same.obstacles.size(); ++k) {
            auto& a = same.obstacles[k];
            const auto& b = next.obstacles[k];
            if (a.thermal && b.thermal && a.thermal->rule == b.thermal->rule) a.thermal->value = b.thermal->value;
            if (a.power && b.power) a.power = b.power;
        }
    same.title = next.title, same.run = next.run, same.output = next.output, same.forces = next.forces;
    same.probes = next.probes, same.average = next.average;
    same.fingerprint = next.fingerprint, same.canonical = next.canonical, same.source = next.source;
    if (!(same == next)) {
        std::string what;
        auto differs = [&](bool d, const char* name) {
            if (d) what += (what.empty() ? "" : ", ") + std::string(name);
        };
        differs(!(same.model == next.model), "[model]");
        differs(same.size != next.size || same.periodic != next.periodic || same.decomposition != next.decomposition,
                "[domain]");
        differs(same.initial_density != next.initial_density || same.initial_velocity != next.initial_velocity ||
                    same.initial_density_expression != next.initial_density_expression ||
                    same.initial_noise != next.initial_noise || same.initial_seed != next.initial_seed,
                "[initial]");
        differs(!(same.multiphase == next.multiphase), "[multiphase]");
        differs(same.faces != next.faces, "the faces' types or methods ([boundary])");
        differs(!(same.obstacles == next.obstacles), "[[obstacle]] geometry or motion");
        differs(!(same.thermal == next.thermal), "[thermal]");
        differs(!(same.units == next.units), "[units]");
        throw CaseError("a running case can change only the faces' velocity, density and temperature, force.body "
                        "and the obstacles' temperature, heat_flux and power; this change also alters " +
                        (what.empty() ? std::string("other keys") : what) +
                        " (make a new simulation for that)");
    }
    check_case(next);
    auto state = engine_->save_state();
    CaseSpec previous = std::move(spec_);
    spec_ = std::move(next);
    engine_.reset();  // its memory back before the new engine takes its own
    try {
        shared_verdict([&] { allocate(); });
    } catch (...) {  // the running case again, as it was
        spec_ = std::move(previous);
        try {
            allocate();
            engine_->restore_state(state);
        } catch (...) {
            engine_.reset();  // usable() says so; the first error is the one to report
        }
        throw;
    }
    engine_->restore_state(state);
    if (time_ > 0 && face_values_->time_dependent()) impose_face_values(double(time_));
}

void Simulation::impose_face_values(double t) {
    for (int f = 0; f < 6; ++f)
        if (face_values_->has(f)) {
            face_values_->evaluate(f, t, face_buffer_);
            engine_->set_face_values(f, face_buffer_);
        }
}

void Simulation::advance(std::int64_t steps) {
    if (!face_values_->time_dependent()) {
        engine_->step(steps);
        time_ += steps;
        return;
    }
    for (std::int64_t n = 0; n < steps; ++n) {
        // The values imposed while computing the state at time t = time_ + 1; those of the
        // first step were given when the engine was made.
        if (time_ > 0) impose_face_values(double(time_ + 1));
        engine_->step(1);
        ++time_;
    }
}

void Simulation::owned_fields(std::vector<double>& rho, std::vector<double>& u) {
    std::vector<double> r, v;
    engine_->fields(r, v);
    if (spec_.stores_sublattice()) {  // one rank (backend::refusal)
        if (output_kind_.empty()) output_kind_ = output_node_kinds(spec_, &sub_);
        expand_sublattice(local_grid(spec_, sub_), output_kind_, r, v, rho, u);
        return;
    }
    if (!sub_.decomposed()) {
        rho.swap(r), u.swap(v);
        return;
    }
    rho.resize(sub_.owned_cells());
    u.resize(3 * rho.size());
    sub_.for_each_owned([&](std::size_t k, std::size_t c) {
        rho[k] = r[c];
        for (std::size_t a = 0; a < 3; ++a) u[3 * k + a] = v[3 * c + a];
    });
}

Observation Simulation::observe_all(bool track_change) {
    auto o = engine_->observe(spec_.run.density_min, spec_.run.density_max, track_change);
    // The bad cell as a global index (x-fastest over the whole box).
    if (o.bad_cell >= 0) {
        const auto g = local_grid(spec_, sub_);
        int p[3];
        g.coordinates(o.bad_cell, p);
        const auto& n = spec_.size;
        o.bad_cell = sub_.global_coordinate(0, p[0]) +
                     std::int64_t(n[0]) * (sub_.global_coordinate(1, p[1]) + std::int64_t(n[1]) * sub_.global_coordinate(2, p[2]));
    }
    const auto& comm = parallel::Comm::world();
    if (comm.size() == 1) return o;
    // Combined in rank order on every rank, so all ranks take the same decisions.
    const auto all = comm.all_gather(&o, sizeof o);
    Observation t;
    t.rho_min = 1e300, t.rho_max = -1e300;
    t.theta_min = 1e300, t.theta_max = -1e300;
    double change2 = 0, norm2 = 0;
    for (int r = 0; r < comm.size(); ++r) {
        Observation q;
        std::memcpy(&q, all.data() + std::size_t(r) * sizeof q, sizeof q);
        t.rho_min = std::min(t.rho_min, q.rho_min);
        t.rho_max = std::max(t.rho_max, q.rho_max);
        // The scalar's range and total (a [thermal] case; zeros otherwise), in rank order.
        if (q.fluid_cells > 0) t.theta_min = std::min(t.theta_min, q.theta_min), t.theta_max = std::max(t.theta_max, q.theta_max);
        t.theta_sum += q.theta_sum;
        t.u_max = std::max(t.u_max, q.u_max);
        change2 += q.change_l2 * q.change_l2;
        t.mass += q.mass, t.fluid_cells += q.fluid_cells;
        norm2 += q.norm_l2 * q.norm_l2;
        if (q.bad_cell >= 0 && (t.bad_cell < 0 || q.bad_cell < t.bad_cell))
            t.bad_cell = q.bad_cell, t.bad_density = q.bad_density, t.bad_speed = q.bad_speed,
            t.bad_theta = q.bad_theta;
    }
    t.change_l2 = std::sqrt(change2), t.norm_l2 = std::sqrt(norm2);
    if (t.theta_min > t.theta_max) t.theta_min = t.theta_max = 0;  // no fluid anywhere
    return t;
}

std::vector<std::array<double, 3>> Simulation::forces_all() {
    auto sums = engine_->obstacle_force_sums();
    const auto& comm = parallel::Comm::world();
    if (comm.size() > 1 && !sums.empty()) {
        // Integer sums: the same bits for any number of ranks (kernel/fixed_sum.hpp).
        const std::size_t bytes = sums.size() * sizeof(backend::ForceSum);
        const auto all = comm.all_gather(sums.data(), bytes);
        std::vector<backend::ForceSum> total(sums.size());
        for (int r = 0; r < comm.size(); ++r) {
            std::vector<backend::ForceSum> part(sums.size());
            std::memcpy(part.data(), all.data() + std::size_t(r) * bytes, bytes);
            for (std::size_t k = 0; k < sums.size(); ++k)
                for (std::size_t a = 0; a < 3; ++a) total[k][a].merge(part[k][a]);
        }
        sums = total;
    }
    std::vector<std::array<double, 3>> out(sums.size());
    for (std::size_t k = 0; k < sums.size(); ++k)
        for (std::size_t a = 0; a < 3; ++a) out[k][a] = sums[k][a].value();
    return out;
}

std::optional<Divergence> divergence_in(const CaseSpec& spec, const Observation& o, std::int64_t step) {
    if (o.bad_cell < 0) return std::nullopt;
    Divergence d;
    d.step = step;
    const auto& n = spec.size;
    const std::int64_t c = o.bad_cell;
    d.cell = {int(c % n[0]), int((c / n[0]) % n[1]), int(c / (std::int64_t(n[0]) * n[1]))};
    std::ostringstream m;
    m << "the run diverged at step " << step << ": cell (" << d.cell[0] << ", " << d.cell[1] << ", " << d.cell[2]
      << ") has ";
    if (spec.thermal.enabled && !(std::abs(o.bad_theta) < 1e30)) {
        d.field = "temperature", d.value = o.bad_theta;
        m << "temperature = NaN/Inf";
    } else if (!std::isfinite(o.bad_density) || !std::isfinite(o.bad_speed)) {
        d.field = std::isfinite(o.bad_density) ? "velocity" : "density";
        d.value = std::isfinite(o.bad_density) ? o.bad_speed : o.bad_density;
        m << d.field << " = NaN/Inf";
    } else if (o.bad_speed >= 1.0) {
        d.field = "velocity", d.value = o.bad_speed;
        m << "velocity |u| = " << o.bad_speed << " at or above the lattice speed 1";
    } else if (const bool a_in = o.bad_density >= spec.run.density_min && o.bad_density <= spec.run.density_max;
               two_components(spec) && (a_in || !std::isfinite(o.bad_theta))) {
        // B's density is what left the range (or became NaN): the observation names the
        // cell for either component.
        d.field = "density_b", d.value = o.bad_theta;
        if (std::isfinite(o.bad_theta))
            m << "component B's density = " << o.bad_theta << " outside run.density_range [" << spec.run.density_min
              << ", " << spec.run.density_max << "] (A's: " << o.bad_density << ")";
        else
            m << "component B's density = NaN/Inf (A's: " << o.bad_density << ")";
    } else {
        d.field = "density", d.value = o.bad_density;
        m << (two_components(spec) ? "component A's density = " : "density = ") << o.bad_density
          << " outside run.density_range [" << spec.run.density_min << ", " << spec.run.density_max << "]";
    }
    if (std::isfinite(o.bad_speed) && o.bad_speed < 1.0) m << " (|u| = " << o.bad_speed << ")";
    m << ". The last good output is kept; lower the velocity, raise tau (viscosity) or refine the grid.";
    d.message = m.str();
    return d;
}

namespace {
/// BARRACUDA_RUN_TIMES=1 (a diagnostic, docs/architecture.md): where a run's wall time
/// goes, printed on stderr at its end. Each phase is timed with the engine's queue
/// drained at both ends (Engine::finish), so that the steps' time is the device's and
/// not that of whichever later call waits for them; the drains take from the run the
/// overlap of host and device work it otherwise has.
class PhaseTimes {
public:
    enum Phase { Steps, Checks, Probes, Means, Output, Forces, Checkpoints, phase_count };
    explicit PhaseTimes(backend::Engine& engine) : engine_(std::getenv("BARRACUDA_RUN_TIMES") ? &engine : nullptr) {}
    /// f(), timed as phase p when the diagnostic is on.
    template <class F>
    decltype(auto) operator()(Phase p, F&& f) {
        if (!engine_) return std::forward<F>(f)();
        engine_->finish();
        const Lap lap{*this, p, clock::now()};
        return std::forward<F>(f)();
    }
    void print(double wall_seconds, std::int64_t steps) const {
        if (!engine_) return;
        static constexpr const char* names[phase_count] = {"steps",  "checks", "probes",     "means",
                                                           "output", "forces", "checkpoints"};
        std::ostringstream m;
        m << "run times (BARRACUDA_RUN_TIMES: the device drained between phases): wall " << wall_seconds << " s";
        double timed = 0;
        for (int p = 0; p < phase_count; ++p) {
            if (counts_[p] == 0) continue;
            timed += seconds_[p];
            m << "; " << names[p] << " " << seconds_[p] << " s (" << counts_[p] << " calls";
            if (p == Steps && steps > 0) m << ", " << seconds_[p] / double(steps) * 1e6 << " us a step";
            m << ")";
        }
        m << "; the rest " << wall_seconds - timed << " s\n";
        std::fputs(m.str().c_str(), stderr);
    }

private:
    using clock = std::chrono::steady_clock;
    struct Lap {
        PhaseTimes& t;
        Phase p;
        clock::time_point from;
        ~Lap() {
            try {
                t.engine_->finish();
            } catch (...) {  // the phase's own error, if any, is what propagates
            }
            t.seconds_[p] += std::chrono::duration<double>(clock::now() - from).count();
            ++t.counts_[p];
        }
    };
    backend::Engine* engine_;
    double seconds_[phase_count] = {};
    std::int64_t counts_[phase_count] = {};
};
}  // namespace

Simulation::~Simulation() = default;

RunResult Simulation::run(OutputSink* sink, const std::function<void(const Progress&)>& progress,
                          const CheckpointSchedule& checkpoints, const std::function<bool()>& stop_requested,
                          const ChunkControl* control) {
    using clock = std::chrono::steady_clock;
    const auto& run = spec_.run;
    const bool steady_test = run.steady_tolerance > 0;
    const std::int64_t out_every = spec_.output.interval;
    // An SI case's output instants k * output.period, made steps by rounding, and its end,
    // run.time made steps by rounding up, can name one instant two steps apart (seed 004's
    // room: 4 x 140 s at step 101,672, 560 s at 101,674): the end's output stands for it.
    const auto end_instant = [&](std::int64_t step) {
        return spec_.output.period > 0 && spec_.units.si &&
               std::abs(double(step / out_every) * spec_.output.period - double(run.steps) * spec_.units.dt()) <
                   spec_.units.dt();
    };
    const std::int64_t save_every = checkpoints.save ? checkpoints.every : 0;
    const std::int64_t start = time_;  // 0, or the step of a restored checkpoint
    RunResult result;
    result.force_samples = checkpoints.earlier_force_samples;
    const auto t0 = clock::now();
    PhaseTimes times(*engine_);

    // Force samples wait here until a check passes at their step or a later one: a
    // sample taken between checks may already come from a diverging state (issue 21:
    // C_d of 1e10 in forces.csv before the check caught the run).
    // Probe samples likewise.
    std::vector<std::pair<std::int64_t, std::vector<std::array<double, 3>>>> pending_forces;
    std::vector<std::pair<std::int64_t, std::vector<double>>> pending_probes;
    auto release_samples = [&] {
        if (sink) {
            for (const auto& [at, f] : pending_forces) sink->write_forces(at, f);
            for (const auto& [at, v] : pending_probes) sink->write_probes(at, v);
        }
        pending_forces.clear();
        pending_probes.clear();
    };
    // Keeps what was written (forces.csv is rewritten at most every few seconds) and stops.
    auto diverged = [&](std::string message) {
        for (const auto& [count, file] : {std::pair{pending_forces.size(), "forces.csv"},
                                          std::pair{pending_probes.size(), "probes.csv"}})
            if (count > 0)
                message += " (" + std::to_string(count) + (file[0] == 'f' ? " force sample" : " probe sample") +
                           (count == 1 ? "" : "s") + " since the last check left out of " + file + ")";
        pending_forces.clear();
        pending_probes.clear();
        if (sink) {
            try {
                sink->flush();
            } catch (const OutputError& e) {
                message += std::string(" (") + e.what() + ")";
            }
        }
        throw DivergenceError(message);
    };
    // `track`: the observation is the steady-state test's new reference (a check step);
    // a check at another step (before a checkpoint) watches the stability alone.
    // `release`: the pending samples are good once the check passes; false where the
    // caller has already found a bad state and only wants the cell named.
    auto check = [&](std::int64_t step, bool track = true, bool release = true) {
        const auto o = times(PhaseTimes::Checks, [&] { return observe_all(steady_test && track); });
        if (const auto d = divergence_in(spec_, o, step)) diverged(d->message);
        result.last = o;
        if (release) release_samples();
        return o;
    };
    // The fields of an output instant are checked as they are written, by the stability
    // watch's own test on every owned cell: output between two checks (output.interval
    // below run.check_interval) must not keep a state that is already diverging.
    auto write_output = [&](std::int64_t step) {
        if (!sink) return;
        std::vector<double> rho, u, temperature;
        times(PhaseTimes::Output, [&] {
            owned_fields(rho, u);
            owned_second(temperature);  // or a binary case's rho_B
        });
        kernel::Partial p = kernel::Partial::identity();
        for (std::size_t c = 0; c < rho.size(); ++c)
            p.add_cell(std::int64_t(c), rho[c], u[3 * c], u[3 * c + 1], u[3 * c + 2], run.density_min, run.density_max);
        // Two components: rho_B is watched as rho_A is, over the fluid nodes (a solid node
        // reports rho_B = 0, as the engines' observe, which skips it, knows).
        const bool components = two_components(spec_);
        if (components && output_kind_.empty()) output_kind_ = output_node_kinds(spec_, &sub_);
        for (std::size_t c = 0; c < temperature.size(); ++c) {
            const bool watched = components && output_kind_[c] != boundary::Solid;
            p.add_scalar(std::int64_t(c), temperature[c], watched ? run.density_min : -1e30,
                         watched ? run.density_max : 1e30);
        }
        if (parallel::Comm::world().any(p.bad_cell != INT64_MAX)) {
            check(step, false, false);  // names the cell (every rank); the samples wait for the verdict
            diverged("the run diverged at step " + std::to_string(step) +
                     ": its fields leave the stability watch's range. The last good output is kept; lower the "
                     "velocity, raise tau (viscosity) or refine the grid.");
        }
        times(PhaseTimes::Output, [&] { sink->write(step, std::move(rho), std::move(u), std::move(temperature)); });
        release_samples();  // the state at this step passed the same test as a check
    };
    // Forces on the named obstacles (forces.csv) every force_every steps and at the end.
    const bool forces_on = !spec_.forces.obstacles.empty();
    const std::int64_t force_every = forces_on ? force_interval(spec_) : 0;
    auto sample_forces = [&](std::int64_t step, bool checked) {
        if (!forces_on || result.forces_step == step) return;
        auto f = times(PhaseTimes::Forces, [&] { return forces_all(); });
        for (std::size_t k = 0; k < f.size(); ++k)
            if (!std::isfinite(f[k][0]) || !std::isfinite(f[k][1]) || !std::isfinite(f[k][2])) {
                if (!checked) check(step);  // names the cell when the state is bad
                diverged("the run diverged at step " + std::to_string(step) + ": the force on obstacle \"" +
                         spec_.forces.obstacles[k] +
                         "\" is NaN/Inf. The last good output is kept; lower the velocity, raise tau (viscosity) or "
                         "refine the grid.");
            }
        result.forces = f;
        result.forces_step = step;
        ++result.force_samples;
        pending_forces.emplace_back(step, f);
        if (checked) release_samples();
    };
    // Probes (probes.csv) every probe_every steps, at the start and at the end.
    const std::int64_t probe_every = probes_.empty() ? 0 : probe_interval(spec_);
    std::int64_t probes_step = -1;
    auto sample_probes = [&](std::int64_t step, bool checked) {
        if (probe_every == 0 || probes_step == step) return;
        auto v = times(PhaseTimes::Probes, [&] { return probes_.sample(*engine_); });
        for (std::size_t k = 0; k < v.size(); ++k)
            if (!std::isfinite(v[k])) {
                if (!checked) check(step);
                diverged("the run diverged at step " + std::to_string(step) + ": probe \"" + spec_.probes.names[k / 5] +
                         "\" reads NaN/Inf. The last good output is kept; lower the velocity, raise tau (viscosity) "
                         "or refine the grid.");
            }
        probes_step = step;
        ++result.probe_samples;
        pending_probes.emplace_back(step, std::move(v));
        if (checked) release_samples();
    };
    // [average]: a sample at each of its steps; the means when the window closes (or the
    // run ends inside it), of samples whose sum passed the same test as the output.
    auto write_mean = [&](std::int64_t step, bool checked) {
        if (!checked) check(step, false);
        // The scalar slot's mean: the temperature, or a two-component case's rho_B.
        const auto m = times(PhaseTimes::Means, [&] {
            return average_.means(*engine_, sub_, spec_.thermal.enabled || spec_.multiphase.binary);
        });
        bool finite = true;
        for (const auto* field : {&m.rho, &m.u, &m.fluctuation, &m.theta})
            for (double v : *field) finite = finite && std::isfinite(v);
        if (parallel::Comm::world().any(!finite))
            diverged("the run diverged before step " + std::to_string(step) +
                     ": the [average] window's sums hold NaN/Inf. The last good output is kept; lower the velocity, "
                     "raise tau (viscosity) or refine the grid.");
        if (sink) sink->write_mean(m);
        result.mean_samples = m.samples;
    };
    auto sample_average = [&](std::int64_t step, bool checked) {
        // The total heat at the window's ends, for the heat balance's storage term.
        const bool end = average_.samples() == 0 || step == average_.closing_step();
        times(PhaseTimes::Means, [&] {
            const double theta_total = spec_.thermal.enabled && end ? observe_all(false).theta_sum : 0.0;
            average_.add(*engine_, step, theta_total);
        });
        if (step == average_.closing_step()) write_mean(step, checked);
    };

    // A checkpoint of a state that passed the stability watch, with everything the
    // sink holds up to it made durable first: a restart truncates the outputs to it.
    auto save_checkpoint = [&](std::int64_t step, bool checked) {
        if (!checked) check(step, false);
        release_samples();
        if (sink) sink->flush();
        times(PhaseTimes::Checkpoints, [&] { checkpoints.save(result.force_samples); });
    };

    // A stop asked for from outside (barracuda run: SIGINT, SIGTERM) is looked at between
    // chunks of steps sized to take about a fifth of a second, so that it is answered
    // within about that; every rank takes the same decision and the same chunks.
    std::int64_t chunk = 1;
    bool stopping = false;
    const bool chunked = stop_requested || (control && control->between);
    const double pace = control ? std::max(control->chunk_seconds, 1e-3) : 0.2;
    std::int64_t limit = 0;  // the controller's bound on the next chunk (0: none)
    // The controller's turn: it may block (paused), steer, bound the next chunk or ask
    // for the fields now, as often as it likes before the next chunk.
    auto ask_control = [&](std::int64_t at) {
        if (!control || !control->between) return;
        for (;;) {
            const ChunkVerdict v = control->between(at);
            limit = v.max_steps;
            if (!v.snapshot) break;
            write_output(at);
        }
    };
    auto advance_to = [&](std::int64_t from, std::int64_t to) {
        std::int64_t at = from;
        while (at < to) {
            std::int64_t n = chunked ? std::min(chunk, to - at) : to - at;
            if (limit > 0) n = std::min(n, limit);
            const auto c0 = clock::now();
            try {
                times(PhaseTimes::Steps, [&] { advance(n); });
            } catch (const CaseError& e) {  // an expression went bad (NaN, too fast) during the run
                diverged(std::string("the run stopped at step ") + std::to_string(time_ + 1) + ": " + e.what() +
                         ". The last good output is kept.");
            }
            at += n;
            if (!chunked) continue;
            double took = std::chrono::duration<double>(clock::now() - c0).count() / double(n);
            ask_control(at);
            const auto& comm = parallel::Comm::world();
            stopping = comm.any(stop_requested && stop_requested());
            if (comm.size() > 1) {  // the slowest rank's pace, the same on every rank
                const auto all = comm.all_gather(&took, sizeof took);
                for (int r = 0; r < comm.size(); ++r) {
                    double t;
                    std::memcpy(&t, all.data() + std::size_t(r) * sizeof t, sizeof t);
                    took = std::max(took, t);
                }
            }
            chunk = std::clamp<std::int64_t>(std::int64_t(pace / std::max(took, 1e-9)), 1, 1 << 20);
            if (stopping) break;
        }
        return at;
    };
    // The state at a stop passed the watch, the force samples are out, everything is
    // durable, and a checkpoint holds it (when the caller gave a way to save one).
    auto stop_here = [&](std::int64_t step, bool checked) {
        if (!checked) check(step, false);
        release_samples();
        if (sink) sink->flush();
        if (checkpoints.save) checkpoints.save(result.force_samples);
        result.stopped = true;
        result.steps = step;
        result.wall_seconds = std::chrono::duration<double>(clock::now() - t0).count();
        result.mlups = result.wall_seconds > 0
                           ? double(step - start) * double(spec_.stored_nodes()) / result.wall_seconds / 1e6
                           : 0;
        return result;
    };

    if (start == 0) {
        write_output(0);
        sample_probes(0, true);
        if (average_.due(0)) sample_average(0, true);
    }
    ask_control(start);
    std::int64_t step = start;
    // The steady-state test compares with the previous check: none yet in this sitting.
    bool first_check = true;
    while (step < run.steps) {
        // The next step that checks, writes, samples or saves: each falls on the multiples
        // of its interval wherever the run starts or stops (a restart, another interval).
        const auto after = [&](std::int64_t every) { return every > 0 ? (step / every + 1) * every : run.steps; };
        const std::int64_t next =
            std::min({run.steps, after(run.check_interval), after(out_every), after(force_every), after(save_every),
                      after(probe_every), average_.next_after(step, run.steps)});
        step = advance_to(step, next);
        if (step < next) return stop_here(step, false);
        const bool at_check = step % run.check_interval == 0 || step == run.steps;
        if (at_check) {
            const auto o = check(step);
            if (steady_test && !first_check && o.norm_l2 > 0 && o.change_l2 / o.norm_l2 < run.steady_tolerance) {
                result.steady = true;
            }
            first_check = false;
            if (progress) {
                const double s = std::chrono::duration<double>(clock::now() - t0).count();
                Progress p;
                p.step = step, p.total = run.steps;
                p.mlups = s > 0 ? double(step - start) * double(spec_.stored_nodes()) / s / 1e6 : 0;
                p.eta_seconds = step > start ? s / double(step - start) * double(run.steps - step) : 0;
                p.u_max = o.u_max;
                // Two components: the fluid's mean density, A's and B's (the progress line's
                // "mean rho", conserved as each mass is).
                p.mean_density = o.mean_density() + (two_components(spec_) ? o.mean_theta() : 0.0);
                if (spec_.units.si) {
                    p.simulated_seconds = double(step) * spec_.units.dt();
                    p.realtime_factor = s > 0 ? double(step - start) * spec_.units.dt() / s : 0;
                }
                progress(p);
            }
        }
        if (force_every > 0 && step % force_every == 0) sample_forces(step, at_check);
        if (probe_every > 0 && step % probe_every == 0) sample_probes(step, at_check);
        if (average_.due(step)) sample_average(step, at_check);
        const bool at_output = out_every > 0 && step % out_every == 0;
        if (result.steady) break;
        if (at_output && step != run.steps && !end_instant(step)) write_output(step);
        if (save_every > 0 && step % save_every == 0 && step != run.steps) save_checkpoint(step, at_check);
        if (stopping && step < run.steps) return stop_here(step, at_check);
    }
    const bool checked = step % spec_.run.check_interval == 0 || step == run.steps;
    if (!checked) check(step);
    sample_forces(step, true);
    sample_probes(step, true);
    // A steady stop inside the window: the means of the samples so far.
    if (average_.samples() > 0 && !average_.closed()) {
        if (spec_.thermal.enabled) average_.mark_end(step, observe_all(false).theta_sum);
        write_mean(step, true);
    }
    write_output(step);
    if (sink) times(PhaseTimes::Output, [&] { sink->flush(); });
    if (save_every > 0) save_checkpoint(step, true);
    result.steps = step;
    result.wall_seconds = std::chrono::duration<double>(clock::now() - t0).count();
    result.mlups =
        result.wall_seconds > 0 ? double(step - start) * double(spec_.stored_nodes()) / result.wall_seconds / 1e6 : 0;
    times.print(result.wall_seconds, step - start);
    return result;
}

}  // namespace barracuda::sim
