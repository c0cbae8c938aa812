// Sparse storage (seed 001; storage/layout.hpp TiledBox, backend/tiled_engine.hpp):
// the tiled layout answers every question as the dense box does, by position; the
// same case run dense and sparse gives the same fields, forces, probes, averages
// and checkpoints bit for bit, on every offered lattice, precision and pattern; the
// choice of storage and its refusals.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "backend/engine.hpp"
#include "backend/offered.hpp"
#include "backend/tiled_engine.hpp"
#include "common/error.hpp"
#include "geometry/sphere_pack.hpp"
#include "io/case_file.hpp"
#include "lattice/lattice.hpp"
#include "sim/monitors.hpp"
#include "sim/simulation.hpp"
#include "storage/grid.hpp"
#include "storage/tiles.hpp"
#include "sparse_cases.hpp"

namespace barracuda {
namespace {

using storage::index_t;
using test::duct_case;
using test::porous_case;
using test::with_storage;

/// Tables of a box whose node c is kept when keep[c].
storage::TileTables tables_of(const int (&n)[3], const bool (&periodic)[3], const std::vector<char>& keep) {
    return storage::TileTables::build(n, periodic, [&](index_t c) { return keep[std::size_t(c)] != 0; });
}

TEST(Sparse, TilesIndexEveryKeptNodeOnceAndFindItBack) {
    const int n[3] = {10, 7, 9};  // no multiple of 4: the high tiles reach out of the box
    std::vector<char> keep(std::size_t(n[0] * n[1] * n[2]), 0);
    std::mt19937 random(5);
    for (auto& k : keep) k = (random() % 7) == 0;
    const bool periodic[3] = {true, false, true};
    const auto t = tables_of(n, periodic, keep);
    EXPECT_TRUE(t.near.empty());  // periodic sizes 10 and 9: no neighbour-tile table
    EXPECT_EQ(t.box_tiles(), 3 * 2 * 3);
    storage::Grid g{{n[0], n[1], n[2]}, {true, false, true}};
    g.tiles = &t;
    EXPECT_EQ(g.cells(), (t.stored_tiles() + 1) * 64);
    std::vector<int> seen(std::size_t(g.cells()), 0);
    for (int z = 0; z < n[2]; ++z)
        for (int y = 0; y < n[1]; ++y)
            for (int x = 0; x < n[0]; ++x) {
                const index_t dense = x + n[0] * (y + n[1] * z);
                if (keep[std::size_t(dense)]) {  // a kept node's tile is stored
                    ASSERT_TRUE(g.holds(x, y, z));
                }
                if (!g.holds(x, y, z)) {  // an absent tile's nodes read the absent tile
                    EXPECT_EQ(g.index(x, y, z) / 64, t.absent);
                    continue;
                }
                const index_t c = g.index(x, y, z);
                ++seen[std::size_t(c)];
                int p[3];
                g.coordinates(c, p);
                EXPECT_EQ(p[0], x);
                EXPECT_EQ(p[1], y);
                EXPECT_EQ(p[2], z);
            }
    for (index_t c = 0; c < t.absent * 64; ++c) EXPECT_LE(seen[std::size_t(c)], 1);
    int p[3];
    g.coordinates(t.absent * 64, p);  // the absent tile lies outside the box
    EXPECT_GE(p[2], n[2]);
}

/// Every link of every node: the tiled layout's hop reaches the same node as the dense
/// box's (or the same faces), and a bulk cursor's neighbour is that node's cell.
template <class L>
void check_links(const int (&n)[3], const bool (&periodic)[3]) {
    std::vector<char> keep(std::size_t(n[0] * n[1] * n[2]), 1);
    const auto t = tables_of(n, periodic, keep);
    bool aligned = true;
    for (int a = 0; a < 3; ++a) aligned = aligned && (!periodic[a] || n[a] % 4 == 0);
    EXPECT_EQ(t.near.empty(), !aligned);
    const auto tiled = t.layout(n, periodic);
    const storage::DenseBox dense{{n[0], n[1], n[2]}, {periodic[0], periodic[1], periodic[2]}};
    for (int z = 0; z < n[2]; ++z)
        for (int y = 0; y < n[1]; ++y)
            for (int x = 0; x < n[0]; ++x) {
                const int pos[3] = {x, y, z};
                const index_t cell = tiled.index(x, y, z);
                const auto cursor = tiled.cursor(pos);
                for (int i = 0; i < L::Q; ++i)
                    for (int sign : {-1, 1}) {
                        const auto a = dense.hop<L>(pos, i, sign), b = tiled.hop<L>(pos, i, sign);
                        ASSERT_EQ(a.exits, b.exits);
                        if (a.exits) continue;
                        int q[3];
                        dense.position(a.cell, q);
                        ASSERT_EQ(b.cell, tiled.index(q[0], q[1], q[2]));
                        ASSERT_EQ((storage::TiledBox::neighbour<L>(cursor, cell, i, sign)), b.cell)
                            << "node " << x << " " << y << " " << z << " link " << i << " sign " << sign;
                    }
            }
}

TEST(Sparse, LinksAgreeWithTheDenseBox) {
    check_links<lattice::D3Q19>({9, 6, 11}, {true, true, true});
    check_links<lattice::D3Q27>({8, 5, 7}, {true, false, true});
    check_links<lattice::D3Q15>({4, 13, 6}, {false, true, true});
    // Periodic sizes of multiples of 4 (walls elsewhere of any size): the neighbour-tile table.
    check_links<lattice::D3Q19>({8, 12, 7}, {true, true, false});
    check_links<lattice::D3Q27>({12, 5, 8}, {true, false, true});
}

void expect_close_dense_and_sparse(const std::string& text, int steps);

struct Snapshot {
    std::vector<double> rho, u, f, sums, probe, theta, flows;
    std::vector<std::array<double, 3>> forces;
};

Snapshot snapshot(sim::Simulation& s, const std::vector<std::int64_t>& probe_cells) {
    Snapshot out;
    auto& e = s.engine();
    e.fields(out.rho, out.u);
    e.populations(out.f);
    e.accumulated(out.sums);
    out.probe = e.sample(probe_cells);
    out.forces = e.obstacle_forces();
    e.scalar_field(out.theta);
    out.flows = e.scalar_flows();
    return out;
}

void expect_identical(const std::vector<double>& a, const std::vector<double>& b, const char* what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    for (std::size_t k = 0; k < a.size(); ++k)
        ASSERT_EQ(std::memcmp(&a[k], &b[k], sizeof(double)), 0) << what << " differs at " << k << ": " << a[k] << " vs " << b[k];
}

/// The case run dense and sparse for `steps` steps (accumulating averages, probing
/// a few cells, one checkpoint taken half-way and restored into a fresh sparse run):
/// identical in every bit. FP16 storage's stochastic rounding draws its random
/// numbers by cell index (storage/half.hpp), which differs between the layouts: the
/// two runs are then two draws of the same rounding, compared within the GPU oracle's
/// FP16 tolerance (tests/gpu/test_gpu_oracle.cpp: a binary16 unit is 4.9e-4 of a
/// value, and differing draws spread over the steps).
void expect_same_dense_and_sparse(const std::string& text, int steps) {
    if (text.find("fp16") != std::string::npos) return expect_close_dense_and_sparse(text, steps);
    const auto dense_spec = with_storage(text, "dense"), sparse_spec = with_storage(text, "sparse");
    sim::Simulation dense(dense_spec, sim::BackendChoice::Cpu), sparse(sparse_spec, sim::BackendChoice::Cpu);
    EXPECT_NE(sparse.engine().description().find("sparse"), std::string::npos) << sparse.engine().description();
    EXPECT_EQ(dense.engine().cells(), sparse.engine().cells());
    const std::vector<std::int64_t> probes{0, 17, 4000, dense.engine().cells() - 1};
    backend::EngineState half;
    for (int k = 0; k < steps; k += 10) {
        dense.advance(10);
        sparse.advance(10);
        dense.engine().accumulate();
        sparse.engine().accumulate();
        if (k + 10 == steps / 2) half = sparse.engine().save_state();
    }
    const auto a = snapshot(dense, probes), b = snapshot(sparse, probes);
    // Two diverged runs could agree bit for bit on their NaNs.
    EXPECT_TRUE(std::all_of(a.rho.begin(), a.rho.end(), [](double r) { return std::isfinite(r); }));
    expect_identical(a.rho, b.rho, "density");
    expect_identical(a.u, b.u, "velocity");
    expect_identical(a.f, b.f, "populations");
    expect_identical(a.sums, b.sums, "averages");
    expect_identical(a.probe, b.probe, "probes");
    expect_identical(a.theta, b.theta, "temperature");
    expect_identical(a.flows, b.flows, "heat balance");
    ASSERT_EQ(a.forces.size(), b.forces.size());
    for (std::size_t k = 0; k < a.forces.size(); ++k)
        for (std::size_t d = 0; d < 3; ++d) EXPECT_EQ(a.forces[k][d], b.forces[k][d]) << "force " << k;
    const auto o = sparse.observe_all(false), p = dense.observe_all(false);
    EXPECT_EQ(o.fluid_cells, p.fluid_cells);
    EXPECT_NEAR(o.mass, p.mass, 1e-12 * p.mass);  // a sum over cells in another order: equal to rounding
    // A restored checkpoint goes on bit for bit.
    sim::Simulation resumed(sparse_spec, sim::BackendChoice::Cpu);
    resumed.restore(steps / 2, half);
    resumed.advance(steps - steps / 2);
    std::vector<double> rho, u;
    resumed.engine().fields(rho, u);
    expect_identical(a.rho, rho, "density after restart");
    expect_identical(a.u, u, "velocity after restart");
}

void expect_close_dense_and_sparse(const std::string& text, int steps) {
    sim::Simulation dense(with_storage(text, "dense"), sim::BackendChoice::Cpu),
        sparse(with_storage(text, "sparse"), sim::BackendChoice::Cpu);
    dense.advance(steps);
    sparse.advance(steps);
    std::vector<double> r1, u1, r2, u2;
    dense.engine().fields(r1, u1);
    sparse.engine().fields(r2, u2);
    ASSERT_EQ(u1.size(), u2.size());
    double diff = 0, scale = 0;
    for (std::size_t k = 0; k < u1.size(); ++k) diff = std::max(diff, std::abs(u1[k] - u2[k])), scale = std::max(scale, std::abs(u1[k]));
    EXPECT_LT(diff / scale, 5e-3);
    EXPECT_GT(diff, 0.0);  // two different draws: if this fails, the draws follow the position and the runs should be identical
}

TEST(Sparse, PorousBoxRunsBitForBitAsDense) {
    for (const char* model : {"lattice = \"D3Q19\"\ncollision = \"trt\"\nprecision = \"fp64\"",
                              "lattice = \"D3Q19\"\ncollision = \"mrt\"\nstreaming = \"in-place\"",
                              "lattice = \"D3Q19\"\ncollision = \"bgk\"\nprecision = \"fp16\"",
                              "lattice = \"D3Q27\"\ncollision = \"regularized\"",
                              "lattice = \"D3Q15\"\ncollision = \"bgk\"\nstreaming = \"in-place\"",
                              // Every precision of every 3D lattice that has sparse rows.
                              "lattice = \"D3Q15\"\ncollision = \"mrt\"\nprecision = \"fp64\"\nstreaming = \"in-place\"",
                              "lattice = \"D3Q27\"\ncollision = \"trt\"\nprecision = \"fp64\"",
                              "lattice = \"D3Q27\"\ncollision = \"bgk\"\nprecision = \"fp64\"\nstreaming = \"in-place\"",
                              "lattice = \"D3Q19\"\ncollision = \"regularized\"\nprecision = \"fp64\"\nstreaming = \"in-place\"",
                              "lattice = \"D3Q15\"\ncollision = \"bgk\"\nprecision = \"fp16\"\nstreaming = \"in-place\"",
                              "lattice = \"D3Q27\"\ncollision = \"regularized\"\nprecision = \"fp16\""}) {
        SCOPED_TRACE(model);
        expect_same_dense_and_sparse(porous_case(model, 40), 40);
    }
    // Periodic sizes of multiples of 4: the bulk path's neighbour-tile table (storage/layout.hpp).
    for (const char* model : {"lattice = \"D3Q19\"\ncollision = \"trt\"\nprecision = \"fp64\"",
                              "lattice = \"D3Q27\"\ncollision = \"mrt\"\nstreaming = \"in-place\""}) {
        SCOPED_TRACE(std::string("aligned ") + model);
        std::string text = porous_case(model, 40);
        text.replace(text.find("size = [26, 22, 18]"), 19, "size = [28, 24, 20]");
        expect_same_dense_and_sparse(text, 40);
    }
}

TEST(Sparse, DuctWithOpenFacesAndObstaclesRunsBitForBitAsDense) {
    for (const char* model : {"lattice = \"D3Q19\"\ncollision = \"trt\"\nprecision = \"fp64\"",
                              "lattice = \"D3Q19\"\ncollision = \"regularized\"\nstreaming = \"in-place\"",
                              "lattice = \"D3Q19\"\ncollision = \"mrt\"\nprecision = \"fp16\"\nstreaming = \"in-place\""}) {
        SCOPED_TRACE(model);
        expect_same_dense_and_sparse(duct_case(model, 40), 40);
    }
}

// A coupled temperature (issue 27's scalar) through a porous box: a heated sphere,
// a cooled wall and an inflow temperature, both streaming patterns.
TEST(Sparse, HeatedPorousDuctRunsBitForBitAsDense) {
    for (const char* streaming : {"two-copy", "in-place"}) {
        SCOPED_TRACE(streaming);
        expect_same_dense_and_sparse(test::heated_duct_case(streaming, 40), 40);
    }
}

// The multiphase models (issue 23) through a porous box: their macro fields (psi; psi_A
// and psi_B; phi) are per-cell fields in tile order, read at the neighbours and at the
// obstacles' mirror images through the same layout (tests/sparse_cases.hpp).
TEST(Sparse, MultiphaseInAPorousBoxRunsBitForBitAsDense) {
    for (const char* model : {"shan-chen", "shan-chen-binary", "free-energy"}) {
        SCOPED_TRACE(model);
        expect_same_dense_and_sparse(test::multiphase_porous_case(model, 40), 40);
        // Two fluids get no single-phase Darcy permeability; the same box with one does.
        EXPECT_EQ(sim::darcy_axis(test::with_storage(test::multiphase_porous_case(model, 40), "sparse")), -1);
    }
    EXPECT_EQ(sim::darcy_axis(test::with_storage(test::porous_case("lattice = \"D3Q19\"", 40), "sparse")), 0);
}

TEST(SpherePack, ReachesItsPorosityTheSameWayEverywhere) {
    const std::array<int, 3> n{40, 36, 32};
    const auto a = geometry::sphere_pack(n, 8, 0.6, 3, {true, true, false});
    const double total = 40.0 * 36 * 32, sphere = 4.0 / 3 * 3.14159265 * 64;
    // From above, to within one sphere's volume.
    EXPECT_LE(a.porosity, 0.6);
    EXPECT_GT(a.porosity, 0.6 - sphere / total);
    EXPECT_EQ(a.image.solid, geometry::sphere_pack(n, 8, 0.6, 3, {true, true, false}).image.solid);
    EXPECT_NE(a.image.solid, geometry::sphere_pack(n, 8, 0.6, 4, {true, true, false}).image.solid);
    // Periodic along x: the voxels beside the two ends are solid about as often as any
    // others (a pack cut off at the ends would leave the end slices emptier).
    const auto slice = [&](const geometry::SpherePack& p, int x) {
        int solid = 0;
        for (int z = 0; z < n[2]; ++z)
            for (int y = 0; y < n[1]; ++y) solid += p.image.solid[std::size_t(x + n[0] * (y + n[1] * z))];
        return double(solid) / (n[1] * n[2]);
    };
    const auto wide = geometry::sphere_pack(n, 8, 0.5, 9, {true, true, true}),
               cut = geometry::sphere_pack(n, 8, 0.5, 9, {false, true, true});
    double mean = 0;
    for (int x = 0; x < n[0]; ++x) mean += slice(wide, x) / n[0];
    EXPECT_NEAR(slice(wide, 0), mean, 0.15);
    EXPECT_LT(slice(cut, 0), slice(wide, 0));  // the spheres' caps beyond the ends are lost
    // A case's pack: the porosity the run sees is the pack's.
    const auto spec = io::parse_case_string(
        "[model]\nlattice = \"D3Q19\"\nviscosity = 0.1\n[domain]\nsize = [24, 24, 24]\nperiodic = [true, true, true]\n"
        "[[obstacle]]\nshape = \"sphere_pack\"\ndiameter = 6\nporosity = 0.4\nseed = 2\n[output]\nformats = []\n");
    const auto kinds = sim::node_kinds(spec);
    double pore = 0;
    for (auto k : kinds) pore += k != 1;
    pore /= double(kinds.size());
    EXPECT_NEAR(pore, geometry::sphere_pack({24, 24, 24}, 6, 0.4, 2, {true, true, true}).porosity, 1e-12);
}

TEST(SpherePack, RefusesBadKeys) {
    const auto refused = [](const std::string& keys) {
        try {
            io::parse_case_string("[model]\nlattice = \"D3Q19\"\nviscosity = 0.1\n[domain]\nsize = [24, 24, 24]\n"
                                  "[[obstacle]]\nshape = \"sphere_pack\"\n" + keys + "[output]\nformats = []\n");
        } catch (const CaseError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(refused("porosity = 0.4\n").find("obstacle[0].diameter"), std::string::npos);
    EXPECT_NE(refused("diameter = 4\n").find("obstacle[0].porosity"), std::string::npos);
    EXPECT_NE(refused("diameter = 4\nporosity = 0.99\n").find("must be from 0.05 to 0.95"), std::string::npos);
    EXPECT_NE(refused("diameter = 0.5\nporosity = 0.5\n").find("at least one cell"), std::string::npos);
    EXPECT_NE(refused("diameter = 4\nporosity = 0.5\nradius = 2\n").find("a sphere pack takes"), std::string::npos);
    EXPECT_NE(refused("diameter = 4\nporosity = 0.5\nseed = -1\n").find("must be >= 0"), std::string::npos);
}

TEST(Sparse, StoresOnlyTilesWithFluid) {
    const auto spec = with_storage(porous_case("lattice = \"D3Q19\"", 0), "sparse");
    sim::Simulation s(spec, sim::BackendChoice::Cpu);
    const auto kinds = sim::node_kinds(spec);
    const auto count = backend::count_tiles({26, 22, 18}, kinds);
    EXPECT_EQ(count.box, 7 * 6 * 5);
    EXPECT_LT(count.stored, count.box);  // the slab's tiles are gone
    EXPECT_GT(count.utilisation(), 0.3);
    EXPECT_LE(count.utilisation(), 1.0);
    // The engine reports the same tiles (bench --sparse's utilisation), a dense one none.
    const auto reported = backend::tile_count_of(s.engine());
    ASSERT_TRUE(reported.has_value());
    EXPECT_EQ(reported->stored, count.stored);
    EXPECT_EQ(reported->fluid_nodes, count.fluid_nodes);
    // Memory: the stored tiles' populations, not the box's.
    sim::Simulation d(with_storage(porous_case("lattice = \"D3Q19\"", 0), "dense"), sim::BackendChoice::Cpu);
    EXPECT_LT(s.engine().memory_bytes(), d.engine().memory_bytes());
    EXPECT_FALSE(backend::tile_count_of(d.engine()).has_value());
}

TEST(Sparse, AutoPicksSparseWhereItSavesMemory) {
    // A box half filled by a block drops half its tiles; the porous box, whose sizes are
    // no multiples of 4, would store more nodes in its tiles than 90% of the box.
    const std::string half = "[model]\nlattice = \"D3Q19\"\nviscosity = 0.1\n[domain]\nsize = [32, 32, 32]\n"
                             "periodic = [true, true, true]\n[[obstacle]]\nshape = \"box\"\nmin = [0, 0, 0]\n"
                             "max = [31, 31, 15]\n[output]\nformats = []\n";
    EXPECT_EQ(sim::engine_setup(with_storage(half, "auto")).storage, storage::Storage::Sparse);
    EXPECT_EQ(sim::engine_setup(with_storage(porous_case("lattice = \"D3Q19\"", 0), "auto")).storage,
              storage::Storage::Dense);
    // Where sparse is not offered, auto stays dense instead of refusing.
    const auto incompressible = half.substr(0, half.find("viscosity")) + "equilibrium = \"incompressible\"\n" +
                                half.substr(half.find("viscosity"));
    EXPECT_EQ(sim::engine_setup(with_storage(incompressible, "auto")).storage, storage::Storage::Dense);
}

/// The refusal of the case with domain.storage set, read or run.
std::string refusal_of(const std::string& text, const char* storage) {
    try {
        sim::Simulation s(with_storage(text, storage), sim::BackendChoice::Cpu);
    } catch (const CaseError& e) {
        return e.what();
    }
    return "";
}

TEST(Sparse, RefusesWhatItDoesNotOffer) {
    const std::string two_d = "[model]\nlattice = \"D2Q9\"\nviscosity = 0.1\n[domain]\nsize = [16, 16]\n[output]\nformats = []\n";
    EXPECT_NE(refusal_of(two_d, "sparse").find("domain.storage = \"sparse\": tiles of 4 x 4 x 4 nodes are for 3D"),
              std::string::npos);
    const std::string d3q13 = "[model]\nlattice = \"D3Q13\"\ncollision = \"mrt\"\nviscosity = 0.1\n[domain]\nsize = [16, 16, 16]\n"
                              "[output]\nformats = []\n";
    EXPECT_NE(refusal_of(d3q13, "sparse").find("D3Q13 stores one sub-lattice"), std::string::npos);
    const auto incompressible =
        refusal_of(porous_case("lattice = \"D3Q19\"\nequilibrium = \"incompressible\"", 0), "sparse");
    EXPECT_NE(incompressible.find("domain.storage = D3Q19 fp32 incompressible bgk two-copy sparse: not offered"),
              std::string::npos)
        << incompressible;
    EXPECT_NE(incompressible.find("domain.storage = \"dense\""), std::string::npos) << incompressible;
    const auto solid = refusal_of("[model]\nlattice = \"D3Q19\"\nviscosity = 0.1\n[domain]\nsize = [8, 8, 8]\n"
                                  "[[obstacle]]\nshape = \"box\"\nmin = [0, 0, 0]\nmax = [7, 7, 7]\n"
                                  "[output]\nformats = []\n",
                                  "sparse");
    EXPECT_NE(solid.find("no fluid is left to simulate"), std::string::npos) << solid;  // sim::check_case's
    EXPECT_NE(refusal_of(porous_case("lattice = \"D3Q19\"", 0), "tiles").find("domain.storage"), std::string::npos);
    // Tile indices are 32-bit: a box of more than 2^31 - 1 tiles is refused as it is read,
    // naming the size (before any memory check or allocation).
    const auto huge = refusal_of("[model]\nlattice = \"D3Q19\"\nviscosity = 0.1\n[domain]\nsize = [8192, 8192, 8192]\n"
                                 "[output]\nformats = []\n",
                                 "sparse");
    EXPECT_NE(huge.find("domain.size"), std::string::npos) << huge;
    EXPECT_NE(huge.find("2147483647"), std::string::npos) << huge;
}

}  // namespace
}  // namespace barracuda
