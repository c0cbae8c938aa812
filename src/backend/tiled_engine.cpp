#include "backend/tiled_engine.hpp"

#include <cstring>
#include <string>
#include <utility>

#include "boundary/face.hpp"
#include "common/error.hpp"
#include "kernel/links.hpp"
#include "storage/tiles.hpp"

namespace barracuda::backend {

namespace {

using storage::index_t;

/// A node that needs no cell: a plain solid (a moving obstacle's solid nodes keep
/// their tile, since links into them carry the obstacle's velocity by their kind).
bool droppable(std::uint8_t kind) { return kind == boundary::Solid; }

/// The cell of box node b in the tiled grid (the absent tile's, solid, where its tile is
/// not stored).
index_t tiled_cell(const storage::Grid& box, const storage::Grid& tiled, index_t b) {
    int p[3];
    box.coordinates(b, p);
    return tiled.index(p[0], p[1], p[2]);
}
/// The box node of cell c of the tiled grid, from its tile's origin and its place in the
/// tile; -1 for the absent tile's cells and tile parts beyond the box (their positions lie
/// outside).
index_t box_node(const storage::Grid& box, const storage::Grid& tiled, index_t c) {
    int p[3];
    tiled.coordinates(c, p);
    return p[0] < box.n[0] && p[1] < box.n[1] && p[2] < box.n[2] ? box.index(p[0], p[1], p[2]) : -1;
}

/// The counts of tables built from these node kinds.
TileCount count_of(const storage::TileTables& t, const std::vector<std::uint8_t>& node_kind) {
    TileCount out;
    out.stored = t.stored_tiles();
    out.box = t.box_tiles();
    std::int64_t fluid = 0;
#pragma omp parallel for schedule(static) reduction(+ : fluid)
    for (std::size_t c = 0; c < node_kind.size(); ++c) fluid += kernel::path_of(node_kind[c]) != kernel::Solid;
    out.fluid_nodes = fluid;
    return out;
}

class TiledEngine final : public Engine {
public:
    TiledEngine(const EngineSetup& s, std::unique_ptr<Engine> (*make)(const EngineSetup&))
        : box_(s.grid), box_cells_(s.grid.cells()) {
        if (s.grid.sublattice || s.grid.tiles)
            throw std::invalid_argument("sparse storage: the setup's grid must be the dense box");
        if (s.node_kind.size() != std::size_t(box_cells_))
            throw std::invalid_argument("sparse storage: one node kind per node of the box");
        EngineSetup inner = tiled_setup(s, tables_);
        tiled_ = inner.grid;
        cells_ = tiled_.cells();
        translate_halo(s, inner);
        count_ = count_of(tables_, s.node_kind);
        inner_ = make(inner);
    }

    std::string description() const override {
        char eta[32];
        std::snprintf(eta, sizeof eta, "%.3f", count_.utilisation());
        return inner_->description() + " sparse (" + std::to_string(count_.stored) + " of " +
               std::to_string(count_.box) + " tiles, utilisation " + eta + ")";
    }

    void initialize(const std::vector<double>& rho, const std::vector<double>& u,
                    const std::vector<double>& strain) override {
        inner_->initialize(compact(rho, 1, 1.0), compact(u, 3, 0.0), strain.empty() ? strain : compact(strain, 6, 0.0));
    }
    void initialize_uniform(double rho, const std::array<double, 3>& u) override { inner_->initialize_uniform(rho, u); }
    void step(std::int64_t steps) override { inner_->step(steps); }
    void finish() override { inner_->finish(); }
    void set_face_values(int face, const std::vector<double>& values) override { inner_->set_face_values(face, values); }
    void fields(std::vector<double>& rho, std::vector<double>& u) override {
        std::vector<double> r, v;
        inner_->fields(r, v);
        rho = expand(r, 1);
        u = expand(v, 3);
    }
    int native_bytes() const override { return inner_->native_bytes(); }
    void fields_native(void* rho, void* u, void* theta) override {
        const auto b = std::size_t(native_bytes());
        std::vector<unsigned char> r(rho ? b * std::size_t(cells_) : 0), v(u ? 3 * b * std::size_t(cells_) : 0),
            t(theta ? b * std::size_t(cells_) : 0);
        inner_->fields_native(rho ? r.data() : nullptr, u ? v.data() : nullptr, theta ? t.data() : nullptr);
        if (rho) expand_bytes(r.data(), static_cast<unsigned char*>(rho), b);
        if (u) expand_bytes(v.data(), static_cast<unsigned char*>(u), 3 * b);
        if (theta) expand_bytes(t.data(), static_cast<unsigned char*>(theta), b);
    }
    void scalar_field(std::vector<double>& theta) override {
        std::vector<double> t;
        inner_->scalar_field(t);
        theta = t.empty() ? t : expand(t, 1);
    }
    void initialize_scalar(const std::vector<double>& theta, const std::vector<double>& u) override {
        inner_->initialize_scalar(theta.size() == 1 ? theta : compact(theta, 1, 0.0), compact(u, 3, 0.0));
    }
    std::vector<double> sample(const std::vector<std::int64_t>& cells) override {
        std::vector<std::int64_t> mine(cells.size());
        for (std::size_t k = 0; k < cells.size(); ++k) mine[k] = cell_of(cells[k]);
        return inner_->sample(mine);
    }
    void accumulate() override { inner_->accumulate(); }
    void accumulated(std::vector<double>& sums) override {
        std::vector<double> s;
        inner_->accumulated(s);
        sums = s.empty() ? s : expand(s, 1, mean_components);
    }
    void set_accumulated(const std::vector<double>& sums) override {
        inner_->set_accumulated(sums.empty() ? sums : compact(sums, 1, 0.0, mean_components));
    }
    std::vector<double> scalar_flows() override { return inner_->scalar_flows(); }
    void populations(std::vector<double>& f) override {
        std::vector<double> p;
        inner_->populations(p);
        f = expand(p, 1, int(p.size() / std::size_t(cells_)));
    }
    Observation observe(double rho_lo, double rho_hi, bool track_change) override {
        Observation o = inner_->observe(rho_lo, rho_hi, track_change);
        if (o.bad_cell >= 0) o.bad_cell = box_of(o.bad_cell);
        return o;
    }
    std::vector<ForceSum> obstacle_force_sums() override { return inner_->obstacle_force_sums(); }
    EngineState save_state() override { return inner_->save_state(); }
    void restore_state(const EngineState& state) override { inner_->restore_state(state); }
    std::int64_t bytes_per_cell_update() const override { return inner_->bytes_per_cell_update(); }
    std::int64_t cells() const override { return box_cells_; }
    RecordForm record_form_in_use() const override { return inner_->record_form_in_use(); }
    std::int64_t memory_bytes() const override {
        return inner_->memory_bytes() +
               std::int64_t((tables_.map.size() + tables_.origin.size() + tables_.near.size()) * sizeof(std::int32_t));
    }

    const TileCount& count() const { return count_; }

private:
    /// A rank's halo plan (parallel/halo.hpp) in tile order: the offsets i * box nodes
    /// + node (a coupled scalar's from `split` on) become i * cells + cell. A plain
    /// solid node is left out of the lists: its populations are never read (links
    /// into it bounce back), and it may lie in an absent tile, whose one stored copy
    /// every absent tile shares. Both ranks leave out the same entries (this rank's
    /// owned node and the neighbour's ghost are one node of the case, of one kind:
    /// sim::node_kinds marks both from the case's geometry), so the k-th value sent
    /// still lands in the k-th slot.
    /// The same for the multiphase models' macro fields (parallel::make_field_plan: offsets
    /// field * box nodes + node, all below its split): a solid node's psi or phi is never
    /// read either (links into solids take the wall's value or a fluid mirror image).
    void translate_halo(const EngineSetup& s, EngineSetup& inner) const {
        translate_plan(s, s.halo, inner.halo);
        translate_plan(s, s.field_halo, inner.field_halo);
    }
    void translate_plan(const EngineSetup& s, const parallel::HaloPlan& plan, parallel::HaloPlan& inner_plan) const {
        const index_t split = plan.split;
        inner_plan.split = split / box_cells_ * cells_;
        const auto translate = [&](std::vector<index_t>& list) {
            std::vector<index_t> out;
            out.reserve(list.size());
            for (const index_t offset : list) {
                const bool scalar = offset >= split;
                const index_t at = scalar ? offset - split : offset, node = at % box_cells_, i = at / box_cells_;
                if (droppable(s.node_kind[std::size_t(node)])) continue;
                out.push_back((scalar ? inner_plan.split : 0) + i * cells_ + cell_of(node));
            }
            list = std::move(out);
        };
        for (auto& m : inner_plan.messages) {
            translate(m.send);
            translate(m.recv);
        }
    }

    index_t cell_of(index_t b) const { return tiled_cell(box_, tiled_, b); }
    index_t box_of(index_t c) const { return box_node(box_, tiled_, c); }
    /// Box order -> tile order: `per` values per cell in blocks of `blocks` (the layout
    /// [k * cells + cell] of accumulated sums when blocks > 1); cells of no box node get `fill`.
    std::vector<double> compact(const std::vector<double>& box, int per, double fill, int blocks = 1) const {
        if (box.size() != std::size_t(per) * std::size_t(blocks) * std::size_t(box_cells_))
            throw std::invalid_argument("sparse storage: a per-cell vector of the wrong size");
        std::vector<double> out(std::size_t(per) * std::size_t(blocks) * std::size_t(cells_), fill);
        for (int k = 0; k < blocks; ++k)
            for (index_t c = 0; c < cells_; ++c) {
                const index_t b = box_of(c);
                if (b < 0) continue;
                for (int j = 0; j < per; ++j)
                    out[std::size_t((k * cells_ + c) * per + j)] = box[std::size_t((k * box_cells_ + b) * per + j)];
            }
        return out;
    }
    /// Tile order -> box order; a node of an absent tile takes the absent tile's
    /// (solid) cell at the same place in its tile, as the engine reports solids.
    std::vector<double> expand(const std::vector<double>& mine, int per, int blocks = 1) const {
        std::vector<double> out(std::size_t(per) * std::size_t(blocks) * std::size_t(box_cells_));
        for (int k = 0; k < blocks; ++k)
#pragma omp parallel for collapse(2) schedule(static)
            for (int z = 0; z < box_.n[2]; ++z)
                for (int y = 0; y < box_.n[1]; ++y)
                    for (int x = 0; x < box_.n[0]; ++x) {
                        const index_t b = box_.index(x, y, z), c = tiled_.index(x, y, z);
                        for (int j = 0; j < per; ++j)
                            out[std::size_t((k * box_cells_ + b) * per + j)] = mine[std::size_t((k * cells_ + c) * per + j)];
                    }
        return out;
    }
    void expand_bytes(const unsigned char* mine, unsigned char* out, std::size_t width) const {
#pragma omp parallel for collapse(2) schedule(static)
        for (int z = 0; z < box_.n[2]; ++z)
            for (int y = 0; y < box_.n[1]; ++y)
                for (int x = 0; x < box_.n[0]; ++x)
                    std::memcpy(out + std::size_t(box_.index(x, y, z)) * width,
                                mine + std::size_t(tiled_.index(x, y, z)) * width, width);
    }

    storage::Grid box_;        // the dense box, as the caller sees it
    index_t box_cells_;
    storage::TileTables tables_;
    storage::Grid tiled_;      // the same box, tiled (points at tables_)
    index_t cells_ = 0;        // the engine's cells: stored tiles and the absent one, 64 each
    TileCount count_;
    std::unique_ptr<Engine> inner_;
};

}  // namespace

TileCount count_tiles(const int (&n)[3], const std::vector<std::uint8_t>& node_kind) {
    const bool periodic[3] = {false, false, false};  // the counts do not depend on it
    return count_of(storage::TileTables::build(n, periodic, [&](index_t c) { return !droppable(node_kind[std::size_t(c)]); },
                                               false),
                    node_kind);
}

std::optional<TileCount> tile_count_of(const Engine& engine) {
    if (const auto* tiled = dynamic_cast<const TiledEngine*>(&engine)) return tiled->count();
    return std::nullopt;
}

EngineSetup tiled_setup(const EngineSetup& s, storage::TileTables& tables) {
    const storage::Grid& box = s.grid;
    tables = storage::TileTables::build(box.n, box.periodic, [&](index_t c) { return !droppable(s.node_kind[std::size_t(c)]); });
    // A rank's subdomain may hold no fluid (a solid part of a rock image): it then keeps
    // the absent tile alone and still takes part in every exchange, with empty lists
    // (sim::Simulation refuses a box with no fluid anywhere, on every rank alike).
    if (tables.stored_tiles() == 0 && s.halo.messages.empty())
        throw CaseError("domain.storage = \"sparse\": the box holds no fluid node (every node is inside an obstacle)");
    EngineSetup inner = s;
    inner.storage = storage::Storage::Sparse;
    inner.grid = box;
    inner.grid.tiles = &tables;
    const storage::Grid& tiled = inner.grid;
    const index_t cells = tiled.cells();
    inner.node_kind.assign(std::size_t(cells), boundary::Solid);
#pragma omp parallel for schedule(static)
    for (index_t c = 0; c < cells; ++c)
        if (const index_t b = box_node(box, tiled, c); b >= 0) inner.node_kind[std::size_t(c)] = s.node_kind[std::size_t(b)];
    for (auto& list : inner.force_links)
        for (auto& link : list) link.cell = tiled_cell(box, tiled, link.cell);
    for (auto& link : inner.wall_links) {
        link.cell = tiled_cell(box, tiled, link.cell);
        if (link.from >= 0) link.from = tiled_cell(box, tiled, link.from);
    }
    return inner;
}

std::unique_ptr<Engine> make_tiled_engine(const EngineSetup& s, std::unique_ptr<Engine> (*make)(const EngineSetup&)) {
    return std::make_unique<TiledEngine>(s, make);
}

}  // namespace barracuda::backend
