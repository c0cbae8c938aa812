// The offered table: the configurations of src/configurations.txt (generated from
// src/configurations.txt into backend/offered_table.inc), their engine makers,
// and the offer rules of a run, each stated once.
#include "backend/offered.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "backend/device_info.hpp"
#include "backend/makers.hpp"
#include "backend/offered_build.hpp"  // generated: which CUDA units this build holds
#include "backend/tiled_engine.hpp"
#include "common/error.hpp"
#include "storage/layout.hpp"

namespace barracuda::backend {

namespace {

using Maker = std::unique_ptr<Engine> (*)(const EngineSetup&);

struct Offer {
    Configuration config;
    Maker cpu;
    Maker cuda;  // null: not in this build
};

template <bool Built, lattice::Kind K, storage::Precision P, physics::EquilibriumKind E, physics::CollisionKind C,
          storage::Pattern S, lattice::CoupledKind X, storage::Storage St>
constexpr Maker cuda_maker() {
    if constexpr (Built) return &make_cuda<K, P, E, C, S, X, St>;
    else return nullptr;
}

#define BARRACUDA_ROW(text)
#define BARRACUDA_OFFER(L, P, E, C, S, X, St, CUDA)                                                                   \
    Offer{{lattice::Kind::L, storage::Precision::P, physics::EquilibriumKind::E, physics::CollisionKind::C,            \
           storage::Pattern::S, lattice::CoupledKind::X, storage::Storage::St},                                        \
          &make_cpu<lattice::Kind::L, storage::Precision::P, physics::EquilibriumKind::E, physics::CollisionKind::C,  \
                    storage::Pattern::S, lattice::CoupledKind::X, storage::Storage::St>,                               \
          cuda_maker<CUDA, lattice::Kind::L, storage::Precision::P, physics::EquilibriumKind::E,                      \
                     physics::CollisionKind::C, storage::Pattern::S, lattice::CoupledKind::X, storage::Storage::St>()},
const Offer offers[] = {
#include "backend/offered_table.inc"
};
#undef BARRACUDA_ROW
#undef BARRACUDA_OFFER

#define BARRACUDA_ROW(text) std::string_view(text),
#define BARRACUDA_OFFER(L, P, E, C, S, X, St, CUDA)
const std::string_view rows[] = {
#include "backend/offered_table.inc"
};
#undef BARRACUDA_ROW
#undef BARRACUDA_OFFER

const std::vector<Configuration>& configurations() {
    static const std::vector<Configuration> all = [] {
        std::vector<Configuration> v;
        for (const auto& o : offers) v.push_back(o.config);
        return v;
    }();
    return all;
}

const Offer* find(const Configuration& c) {
    for (const auto& o : offers)
        if (o.config == c) return &o;
    return nullptr;
}

std::string quoted(std::string_view s) {
    std::string q = "\"";  // built in steps: GCC 12's -Wrestrict misfires on the one-line sum
    q += s;
    q += '"';
    return q;
}

/// The single-key changes that would make c offered, as "model.precision = \"fp32\"".
std::string nearest(const Configuration& c) {
    std::vector<std::string> alternatives;
    const auto add = [&](Configuration d, const char* key, std::string_view value) {
        if (is_offered(d)) alternatives.push_back(std::string("model.") + key + " = " + quoted(value));
    };
    const auto x = c.scalar;
    for (auto v : all_lattices)
        if (v != c.lattice) add({v, c.precision, c.equilibrium, c.collision, c.pattern, x, c.storage}, "lattice", lattice::name_of(v));
    for (auto v : all_precisions)
        if (v != c.precision)
            add({c.lattice, v, c.equilibrium, c.collision, c.pattern, x, c.storage}, "precision", storage::name_of(v));
    for (auto v : all_equilibria)
        if (v != c.equilibrium)
            add({c.lattice, c.precision, v, c.collision, c.pattern, x, c.storage}, "equilibrium", physics::name_of(v));
    for (auto v : all_collisions)
        if (v != c.collision)
            add({c.lattice, c.precision, c.equilibrium, v, c.pattern, x, c.storage}, "collision", physics::name_of(v));
    for (auto v : all_patterns)
        if (v != c.pattern)
            add({c.lattice, c.precision, c.equilibrium, c.collision, v, x, c.storage}, "streaming", storage::name_of(v));
    if (c.storage != storage::Storage::Dense) {
        Configuration d = c;
        d.storage = storage::Storage::Dense;
        if (is_offered(d)) alternatives.push_back("domain.storage = \"dense\"");
    }
    if (lattice::is_scalar(x))
        for (auto v : all_scalars)
            if (lattice::is_scalar(v) && v != x) {
                Configuration d = c;
                d.scalar = v;
                if (is_offered(d)) alternatives.push_back("thermal.lattice = " + quoted(lattice::name_of(v)));
            }
    std::string out;
    for (std::size_t k = 0; k < alternatives.size(); ++k)
        out += (k == 0 ? "" : (k + 1 == alternatives.size() ? " or " : ", ")) + alternatives[k];
    return out;
}

/// Why the physics has no such configuration, where there is a reason beyond the table.
std::string reason(const Configuration& c) {
    const std::string lat(lattice::name_of(c.lattice));
    if (c.storage == storage::Storage::Sparse) {
        if (lattice::dimensions_of(c.lattice) == 2)
            return "domain.storage = \"sparse\": tiles of 4 x 4 x 4 nodes are for 3D lattices; a 2D box is stored "
                   "whole (remove domain.storage)";
        if (c.lattice == lattice::Kind::D3Q13)
            return "domain.storage = \"sparse\": D3Q13 stores one sub-lattice of the box, which the tiles do not "
                   "follow; use D3Q19 (or D3Q15, D3Q27) for sparse geometries";
    }
    if (c.lattice == lattice::Kind::D3Q13 && c.collision != physics::CollisionKind::MRT)
        return physics::d3q13_refusal(c.collision);
    if (c.collision == physics::CollisionKind::Entropic) {
        if (c.lattice != lattice::Kind::D2Q9 && c.lattice != lattice::Kind::D3Q27)
            return "model.collision = \"entropic\": offered for D2Q9 and D3Q27 (whose entropic equilibrium has a "
                   "closed form), not for " + lat + " (use \"regularized\" or \"trt\" there)";
        if (c.equilibrium != physics::EquilibriumKind::Compressible)
            return "model.equilibrium = \"incompressible\": the entropic collision has its own (compressible) "
                   "equilibrium; remove model.equilibrium or use another collision";
    }
    return "";
}

std::string table_refusal(const Configuration& c) {
    std::string text = reason(c);
    if (text.empty()) {
        text = std::string("model.lattice, precision, equilibrium, collision, streaming") +
               (lattice::is_scalar(c.scalar)                         ? ", thermal.lattice"
                : lattice::is_multiphase(c.scalar)            ? ", multiphase.model"
                                                              : "") +
               (c.storage != storage::Storage::Dense ? ", domain.storage" : "") + " = " + name_of(c) + ": not offered";
        const std::string near = nearest(c);
        text += near.empty() ? "" : " (offered with " + near + ")";
    }
    return text + ".\nThe configurations offered (each row offers every combination of its values; `barracuda info` "
                  "prints them):\n" + offered_table_text("  ");
}

std::string face_refusal(const Request& r, int f) {
    const std::string key = "boundary." + std::string(boundary::face_name(f));
    const auto type = r.face_type[std::size_t(f)];
    const auto method = r.face_method[std::size_t(f)];
    const bool open = type == boundary::FaceType::Velocity || type == boundary::FaceType::Pressure;
    const bool d3q13 = r.config.lattice == lattice::Kind::D3Q13;
    if (type == boundary::FaceType::Outflow && r.config.pattern == storage::Pattern::InPlace)
        return key + ".type = \"outflow\": needs model.streaming = \"two-copy\" (the face reads what the node inside "
                     "receives, which in-place streaming overwrites while the step runs)";
    if (type == boundary::FaceType::Pressure && method == boundary::Method::BounceBack)
        return key + ".method = \"bounce_back\": offered on velocity faces (a wall moving at the face velocity); "
                     "a pressure face takes \"zou_he\", \"equilibrium\" or \"regularized\"";
    if (d3q13 && type == boundary::FaceType::Outflow)
        return key + ".type = \"outflow\": not offered on lattice D3Q13 (the node one step inside is on the other "
                     "sub-lattice); use a pressure face";
    if (d3q13 && open && method == boundary::Method::Regularized)
        return key + ".method = \"regularized\": not offered on lattice D3Q13 (its Hermite projection needs fourth "
                     "moments D3Q13 lacks); use \"zou_he\", \"equilibrium\" or \"bounce_back\"";
    return "";
}

}  // namespace

Request request_of(const EngineSetup& s) {
    Request r;
    r.config = {s.lattice, s.precision, s.equilibrium, s.collision, s.pattern, s.scalar, s.storage};
    r.several_ranks = !s.halo.messages.empty();
    r.smagorinsky = s.smagorinsky;
    for (int f = 0; f < 6; ++f) {
        r.face_type[std::size_t(f)] = s.faces.type[f];
        r.face_method[std::size_t(f)] = s.faces.method[f];
    }
    return r;
}

std::span<const std::string_view> offered_rows() { return rows; }
std::span<const Configuration> offered_configurations() { return configurations(); }
bool is_offered(const Configuration& c) { return find(c) != nullptr; }
bool cuda_engine_built(const Configuration& c) {
    const Offer* o = find(c);
    return o && o->cuda;
}

std::string offered_table_text(std::string_view indent) {
    // The rows' columns, aligned under their names (the sixth and seventh only where a row has them).
    std::vector<std::vector<std::string>> cells{
        {"lattice", "precision", "equilibrium", "collision", "streaming", "coupled", "storage"}};
    for (auto row : rows) {
        std::vector<std::string> c;
        std::size_t at = 0;
        while (at < row.size()) {
            const auto end = std::min(row.find(' ', at), row.size());
            if (end > at) c.emplace_back(row.substr(at, end - at));
            at = end + 1;
        }
        cells.push_back(std::move(c));
    }
    std::size_t width[7] = {};
    for (const auto& c : cells)
        for (std::size_t k = 0; k < c.size() && k < 7; ++k) width[k] = std::max(width[k], c[k].size());
    std::string out;
    for (const auto& c : cells) {
        std::string line(indent);
        for (std::size_t k = 0; k < c.size(); ++k) {
            line += c[k];
            if (k + 1 < c.size()) line += std::string(width[std::min<std::size_t>(k, 6)] - c[k].size() + 2, ' ');
        }
        out += line + "\n";
    }
    return out;
}

std::string refusal(const Request& r) {
    const Configuration& c = r.config;
    if (!is_offered(c)) return table_refusal(c);
    if (r.smagorinsky > 0 && c.collision == physics::CollisionKind::Entropic)
        return "model.smagorinsky = " + value_text(r.smagorinsky) +
               ": the entropic collision adjusts its relaxation itself (alpha); it takes no LES closure";
    if (r.smagorinsky > 0 && c.lattice == lattice::Kind::D3Q13)
        return "model.smagorinsky = " + value_text(r.smagorinsky) +
               ": not offered on lattice D3Q13 (its two stress rates would need their own eddy-viscosity closure); "
               "use D3Q19 for LES";
    for (int f = 0; f < 6; ++f)
        if (auto why = face_refusal(r, f); !why.empty()) return why;
    if (r.several_ranks) {
        if (c.lattice == lattice::Kind::D3Q13)
            return "model.lattice = \"D3Q13\" runs on one rank for now (its halo would carry one sub-lattice); run "
                   "without mpirun or use D3Q19";
        if (c.pattern == storage::Pattern::InPlace)
            return "model.streaming = \"in-place\" is not offered with more than one rank yet (its odd steps write "
                   "into the neighbours' cells); use \"two-copy\"";
        if (c.precision == storage::Precision::FP16)
            return "model.precision = \"fp16\" is not offered with more than one rank yet (its stochastic rounding "
                   "draws follow the local cell index, so results would depend on the decomposition); use \"fp32\"";
    }
    return "";
}

namespace {

/// The request's refusal as a CaseError, and the grid the lattice's layout needs
/// (sim/case_check.cpp says the same of a case's domain, with its keys).
const Offer& offer_for(const EngineSetup& s) {
    if (auto why = refusal(request_of(s)); !why.empty()) throw CaseError(why);
    const bool sublattice = lattice::stores_sublattice(s.lattice);
    if (s.grid.sublattice != sublattice)
        throw CaseError(std::string("lattice ") + std::string(lattice::name_of(s.lattice)) +
                        (sublattice ? ": the grid must store one sub-lattice (storage::Grid::sublattice)"
                              : " stores every node; storage::Grid::sublattice is for D3Q13 only"));
    if (sublattice) {
        if (s.grid.n[0] % 2) throw CaseError("domain.size: lattice D3Q13 needs an even nx (one sub-lattice of half the nodes per row)");
        for (int a = 0; a < 3; ++a)
            if (s.grid.periodic[a] && s.grid.n[a] % 2)
                throw CaseError("domain.size: lattice D3Q13 needs an even size along every periodic axis");
    }
    return *find({s.lattice, s.precision, s.equilibrium, s.collision, s.pattern, s.scalar, s.storage});
}

/// A binary fluid's engine's precondition (kernel/binary.hpp, kernel/free_energy.hpp): what
/// its update does not carry out is absent. sim::check_case refuses each with its key
/// first; a setup handed here anyway is refused rather than run wrong.
void require_binary_support(const EngineSetup& s) {
    if (!lattice::is_binary_fluid(s.scalar)) return;
    bool supported = !s.faces.has_sponge && s.wall_links.empty();
    for (int f = 0; f < 6; ++f)
        supported = supported && (s.faces.type[f] == boundary::FaceType::Periodic ||
                                  s.faces.type[f] == boundary::FaceType::Wall ||
                                  s.faces.type[f] == boundary::FaceType::FreeSlip);
    for (const std::uint8_t k : s.node_kind) supported = supported && (k == boundary::Fluid || k == boundary::Solid);
    if (!supported)
        throw std::invalid_argument(std::string(lattice::name_of(s.scalar)) + " engine: walls, free-slip and periodic faces and obstacles at rest "
                                    "with half-way bounce-back only (no open faces, moving walls or obstacles, "
                                    "absorbing layers or interpolated walls)");
}

/// A box layout addresses fewer than 2^32 cells (storage/layout.hpp's max_box_cells). Every
/// engine maker refuses more here: sim::Simulation says so first, in the case's keys, but
/// `barracuda bench` and the tests build their engines directly.
void require_box_cells(const EngineSetup& s) {
    if (s.storage != storage::Storage::Sparse && s.grid.cells() > storage::max_box_cells)
        throw CaseError("a dense box of " + std::to_string(s.grid.cells()) + " cells: a dense layout addresses at most " +
                        std::to_string(storage::max_box_cells) +
                        " (2^32 - 1); use more ranks (mpirun), or sparse storage where much of the box is solid");
}

}  // namespace

std::unique_ptr<Engine> make_cpu_engine(const EngineSetup& s) {
    require_binary_support(s);
    require_box_cells(s);
    const Offer& o = offer_for(s);
    return s.storage == storage::Storage::Sparse ? make_tiled_engine(s, o.cpu) : o.cpu(s);
}

std::unique_ptr<Engine> make_cuda_engine(const EngineSetup& s) {
    require_binary_support(s);
    require_box_cells(s);
    const Offer& o = offer_for(s);
    if (!cuda_built())
        throw ResourceError("backend = cuda: this binary was built without the CUDA backend (nvcc was not found)");
    if (!o.cuda)
        throw ResourceError("backend = cuda: this binary was built without the CUDA engine of " + name_of(o.config) +
                            " (CMake option BARRACUDA_CUDA_UNITS = \"" + cuda_units_option +
                            "\"; \"all\" builds every one)");
    if (cuda_device_count() == 0) throw ResourceError("backend = cuda: no CUDA GPU is available on this machine");
    // The engine lives on the current GPU: device 0, or the rank's (use_cuda_device).
    return s.storage == storage::Storage::Sparse ? make_tiled_engine(s, o.cuda) : o.cuda(s);
}

}  // namespace barracuda::backend
