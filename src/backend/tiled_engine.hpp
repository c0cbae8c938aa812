// Sparse storage (seed 001, Tomczak & Szafran): an engine over the 4x4x4 tiles of
// the box that hold a non-solid node (storage/layout.hpp TiledBox), seen from
// outside as an engine of the whole box.
//
// The configured engine (CPU or CUDA, a `sparse` row of src/configurations.txt)
// runs the same kernels as on a dense box, its layout answering where cells are;
// this wrapper builds the tile tables from the case's node kinds, hands the engine
// its setup in tile order (node kinds, force and wall links), and turns every
// per-cell vector that crosses the Engine interface into the dense box's order
// and back. So sim/, io/, the live view and the Python module work on a sparse
// run unchanged, and the same case run dense and sparse gives the same fields bit
// for bit (tests/test_sparse.cpp). Cells of tiles not stored read as the solid
// nodes they are (rho 1, u 0).
//
// Why a wrapper rather than every caller knowing tiles: the box's order is what
// outputs, probes, slices and checkpoints of the run's own numbers already use;
// the cost is a host-side reordering when fields are fetched (output, not steps).
#pragma once
#include <memory>
#include <optional>

#include "backend/engine.hpp"

namespace barracuda::storage {
struct TileTables;
}

namespace barracuda::backend {

/// The engine of a sparse setup: `make` builds the configured engine from the setup
/// in tile order. Throws CaseError when the box holds no fluid node.
std::unique_ptr<Engine> make_tiled_engine(const EngineSetup& s, std::unique_ptr<Engine> (*make)(const EngineSetup&));

/// The setup of the engine that steps a sparse setup's tiles, whose tables it builds into
/// `tables` (the returned grid points to them): sparse storage, the tiled grid, the stored
/// cells' node kinds (Solid where a cell holds no node of the box), the force and wall
/// links moved to stored cells. Not a rank's halo (make_tiled_engine's engine moves it).
/// Throws CaseError when the box holds no fluid node (on one rank).
EngineSetup tiled_setup(const EngineSetup& s, storage::TileTables& tables);

/// The tiles a sparse run of these node kinds (the dense box's, x fastest) stores, and
/// the box's: for the memory estimate, `storage = "auto"` and the summary.
struct TileCount {
    std::int64_t stored = 0, box = 0;
    std::int64_t fluid_nodes = 0;  // non-solid nodes in the box
    /// Seed 001's tile utilisation eta_t: fluid nodes over the stored tiles' nodes.
    double utilisation() const { return stored > 0 ? double(fluid_nodes) / (64.0 * double(stored)) : 0.0; }
};
TileCount count_tiles(const int (&n)[3], const std::vector<std::uint8_t>& node_kind);
/// The tiles a sparse engine (made by make_tiled_engine) stores; nothing for another engine.
std::optional<TileCount> tile_count_of(const Engine& engine);

}  // namespace barracuda::backend
