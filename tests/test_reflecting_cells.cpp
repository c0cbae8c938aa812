// The reflecting boundary cells (kernel/reflecting_cells.hpp) take their links'
// classes from a record made once instead of per-link tests; their update must be
// the general path's bit for bit. Each case runs twice on the CPU, with every
// boundary cell through the general path (EngineSetup::general_boundaries) and
// with the records, and the fields must agree exactly: resting, moving and
// free-slip walls, resting and moving obstacles, bounce-back velocity faces with
// expressions, Zou-He and pressure faces, absorbing layers, and the scalar's held
// (constant and expression), flux, adiabatic, heater and zero-gradient links; both
// streaming patterns (in place: both parities), FP32 and FP64, D2Q9, D3Q19 and D3Q13
// (one sub-lattice stored).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "backend/engine.hpp"
#include "backend/tiled_engine.hpp"
#include "io/case_file.hpp"
#include "kernel/node_class.hpp"
#include "kernel/reflecting_cells.hpp"
#include "storage/tiles.hpp"
#include "sim/simulation.hpp"
#include "sparse_cases.hpp"
#include "support.hpp"

namespace barracuda {
namespace {

struct Fields {
    std::vector<double> rho, u, theta;
};

/// The fields after `steps` steps from a uniform start with a theta gradient.
Fields run(backend::EngineSetup s, bool general, std::int64_t steps) {
    s.general_boundaries = general;
    auto e = backend::make_cpu_engine(s);
    const auto n = std::size_t(s.grid.cells());
    std::vector<double> rho(n, 1.0), u(3 * n, 0.0), theta(n);
    for (std::size_t c = 0; c < n; ++c) {
        int p[3];
        s.grid.coordinates(std::int64_t(c), p);
        u[3 * c] = 0.01 * std::sin(0.3 * p[1]);
        theta[c] = 0.1 * p[0] - 0.05 * p[1];
    }
    e->initialize(rho, u);
    if (lattice::is_scalar(s.scalar)) e->initialize_scalar(theta, u);
    e->step(steps);
    Fields f;
    e->fields(f.rho, f.u);
    e->scalar_field(f.theta);
    return f;
}

/// How many boundary cells take each path.
template <class L, class Ls>
std::pair<std::size_t, std::size_t> split(const backend::EngineSetup& s) {
    std::vector<kernel::ReflectingCell> reflecting;
    std::vector<storage::index_t> general;
    kernel::split_boundary_cells<L, Ls>(s.grid, s.faces, kernel::node_classes<L, storage::LayoutOf<L>>(s), reflecting,
                                        general);
    return {reflecting.size(), general.size()};
}

void expect_same(const backend::EngineSetup& s, std::int64_t steps) {
    const Fields a = run(s, true, steps), b = run(s, false, steps);
    ASSERT_EQ(a.rho.size(), b.rho.size());
    std::size_t differ = 0;
    for (std::size_t c = 0; c < a.rho.size(); ++c)
        differ += a.rho[c] != b.rho[c] || a.u[3 * c] != b.u[3 * c] || a.u[3 * c + 1] != b.u[3 * c + 1] ||
                  a.u[3 * c + 2] != b.u[3 * c + 2];
    EXPECT_EQ(differ, 0u) << "cells whose density or velocity differ";
    EXPECT_EQ(a.theta, b.theta);
    // The test can fail: the flow moved.
    double umax = 0;
    for (double v : a.u) umax = std::max(umax, std::abs(v));
    EXPECT_GT(umax, 1e-3);
}

TEST(ReflectingCells, UpdateAsTheGeneralPathInARoom) {
    for (const char* pattern : {"two-copy", "in-place"}) {
        SCOPED_TRACE(pattern);
        const auto spec = io::parse_case_string(test::small_room, {std::string("model.streaming=\"") + pattern + "\""});
        const auto s = sim::engine_setup(spec);
        const auto [reflecting, general] = split<lattice::D3Q19, lattice::D3Q7>(s);
        EXPECT_GT(reflecting, general);  // walls, heater, sphere, inlet
        EXPECT_GT(general, 300u);        // the free-slip face (24 x 14; the outlet's nodes have records)
        expect_same(s, 7);
    }
}

// Flow only, FP64, a lid and a moving obstacle (a plate along the channel, sliding
// upstream) beside one at rest; D3Q13 (MRT) as D3Q19,
// D2Q9 with a Zou-He inlet and D3Q19 with a bounce-back inlet, both patterns.
std::string channel(bool three_d) {
    const std::string z = three_d ? ", 0" : "", zmax = three_d ? ", 7" : "";
    auto vec = [&](const char* x) { return std::string("[") + x + ", 0" + z + "]"; };
    return std::string("[model]\nlattice = ") + (three_d ? "\"D3Q19\"" : "\"D2Q9\"") +
           "\ncollision = \"trt\"\nprecision = \"fp64\"\ntau = 0.6\n[domain]\nsize = " +
           (three_d ? "[24, 12, 8]" : "[24, 12]") + "\n[boundary.x_min]\ntype = \"velocity\"\n" +
           (three_d ? "method = \"bounce_back\"\n" : "") + "velocity = " + vec("0.04") +
           "\n[boundary.x_max]\ntype = \"pressure\"\ndensity = 1.0\n[boundary.y_min]\ntype = \"wall\"\n"
           "[boundary.y_max]\ntype = \"moving_wall\"\nvelocity = " + vec("0.03") +
           "\n[[obstacle]]\nname = \"plate\"\nshape = \"box\"\nmin = [0, 3" + z + "]\nmax = [23, 4" + zmax +
           "]\nvelocity = " + vec("-0.02") + "\n[[obstacle]]\nname = \"block\"\nshape = \"box\"\nmin = [16, 6" + z +
           "]\nmax = [18, 8" + zmax + "]\n";
}

TEST(ReflectingCells, UpdateAsTheGeneralPathWithMovingObstacles) {
    for (const char* pattern : {"two-copy", "in-place"}) {
        SCOPED_TRACE(pattern);
        const std::string streaming = std::string("model.streaming=\"") + pattern + "\"";
        const auto s2 = sim::engine_setup(io::parse_case_string(channel(false), {streaming}));
        EXPECT_GT((split<lattice::D2Q9, lattice::NoScalar>(s2).first), 50u);
        expect_same(s2, 9);
        const auto s3 = sim::engine_setup(io::parse_case_string(channel(true), {streaming}));
        EXPECT_GT((split<lattice::D3Q19, lattice::NoScalar>(s3).first), 500u);
        expect_same(s3, 9);
        // D3Q13: one sub-lattice stored (storage::SublatticeBox), MRT.
        const auto s13 = sim::engine_setup(
            io::parse_case_string(channel(true), {streaming, "model.lattice=\"D3Q13\"", "model.collision=\"mrt\""}));
        EXPECT_GT((split<lattice::D3Q13, lattice::NoScalar>(s13).first), 200u);
        expect_same(s13, 9);
    }
}

// The interior nodes of velocity and pressure faces completed by Zou-He, the regularized
// rule or the equilibrium take the record path too (mover = open_mover + face); their
// edges and the nodes beside an obstacle stay general. Every method, an inlet given by an
// expression of time and position, an absorbing layer at the outlet, TRT and MRT, both
// patterns, D2Q9 and D3Q19.
TEST(ReflectingCells, OpenFaceNodesUpdateAsTheGeneralPath) {
    for (const char* pattern : {"two-copy", "in-place"})
        for (const char* method : {"zou_he", "regularized", "equilibrium"})
            for (bool three_d : {false, true}) {
                SCOPED_TRACE(std::string(pattern) + " " + method + (three_d ? " D3Q19" : " D2Q9"));
                const std::vector<std::string> o = {
                    std::string("model.streaming=\"") + pattern + "\"",
                    std::string("boundary.x_min.method=\"") + method + "\"",
                    std::string("boundary.x_max.method=\"") + method + "\"",
                    three_d ? "boundary.x_min.velocity=[\"0.04 + 0.001 * sin(t / 3) * y / 12\", 0, 0]"
                            : "boundary.x_min.velocity=[\"0.04 + 0.001 * sin(t / 3) * y / 12\", 0]",
                    "boundary.x_max.sponge.width=3", "boundary.x_max.sponge.strength=0.1",
                    three_d ? "boundary.x_max.sponge.velocity=[0.04, 0, 0]" : "boundary.x_max.sponge.velocity=[0.04, 0]",
                    "model.collision=\"mrt\""};
                const auto s = sim::engine_setup(io::parse_case_string(channel(three_d), o));
                const auto [reflecting, general] =
                    three_d ? split<lattice::D3Q19, lattice::NoScalar>(s) : split<lattice::D2Q9, lattice::NoScalar>(s);
                // General: the face edges (and the nodes beside the plate and the block).
                EXPECT_LT(general, three_d ? 120u : 12u);
                expect_same(s, 9);
            }
}

// The same open faces with a coupled temperature (D3Q7): an inflow temperature given by
// an expression on the inlet, zero gradient on the pressure outlet (its backflow rule and
// the renormalised unknowns included), a held wall, a moving lid with a heat flux, the
// buoyancy. The open faces' nodes take records with the scalar's rows; only the nodes
// beside the moving lid and plate keep the general path.
TEST(ReflectingCells, OpenFaceNodesWithATemperatureUpdateAsTheGeneralPath) {
    for (const char* pattern : {"two-copy", "in-place"})
        for (const char* method : {"zou_he", "regularized", "equilibrium"}) {
            SCOPED_TRACE(std::string(pattern) + " " + method);
            const std::vector<std::string> o = {
                std::string("model.streaming=\"") + pattern + "\"",
                std::string("boundary.x_min.method=\"") + method + "\"",
                std::string("boundary.x_max.method=\"") + method + "\"",
                "boundary.x_min.velocity=[\"0.04 + 0.001 * sin(t / 3) * y / 12\", 0, 0]",
                "model.precision=\"fp32\"", "thermal.lattice=\"D3Q7\"", "thermal.prandtl=0.71", "thermal.expansion=0.05",
                "thermal.gravity=[0, -0.001, 0]", "boundary.x_min.temperature=\"0.5 + 0.05 * z\"",
                "boundary.y_min.temperature=-0.3", "boundary.y_max.heat_flux=0.001"};
            const auto s = sim::engine_setup(io::parse_case_string(channel(true), o));
            const auto [reflecting, general] = split<lattice::D3Q19, lattice::D3Q7>(s);
            EXPECT_GT(reflecting, 500u);
            EXPECT_LT(general, 300u);  // beside the moving lid and plate (two movers at a face node)
            std::vector<kernel::ReflectingCell> records;
            std::vector<storage::index_t> others;
            kernel::split_boundary_cells<lattice::D3Q19, lattice::D3Q7>(
                s.grid, s.faces, kernel::node_classes<lattice::D3Q19, storage::LayoutOf<lattice::D3Q19>>(s), records,
                others);
            std::size_t open = 0;
            for (const auto& r : records) open += r.open() && r.scalar != 0;
            EXPECT_GT(open, 100u);  // of the 2 x 96 face nodes: the records this test is about
            expect_same(s, 9);
        }
}


/// The records a GPU engine drops for the Plain flag (kernel/links.hpp): is_plain must
/// accept exactly those whose every link, by the general path's classification
/// (link_source), streams or comes from a resting solid node. The GPU then makes the
/// record from the neighbours' classes (plain_links, through the bulk path's cursor), so
/// a wrong acceptance would change its update where the CPU's stays (the GPU tests
/// compare the two). Returns the counts of plain and other records.
template <class L, class Ls, class Layout>
std::pair<std::size_t, std::size_t> plain_records(const backend::EngineSetup& s) {
    const auto classes = kernel::node_classes<L, Layout>(s);
    std::vector<kernel::ReflectingCell> reflecting;
    std::vector<storage::index_t> general;
    kernel::split_boundary_cells<L, Ls, Layout>(s.grid, s.faces, classes, reflecting, general);
    const auto layout = storage::layout_of<Layout>(s.grid);
    std::size_t plain = 0, other = 0;
    for (const auto& r : reflecting) {
        int pos[3];
        layout.position(r.cell, pos);
        bool expected = r.mover < 0 && Ls::Q == 0;
        std::uint32_t solid = 0;
        for (int i = 0; i < L::Q; ++i) {
            const kernel::LinkSource link = kernel::link_source<L>(layout, s.faces, classes.data(), pos, i);
            if (link.kind == kernel::LinkKind::Wall || link.kind == kernel::LinkKind::Open) expected = false;
            if (link.kind == kernel::LinkKind::SolidNode) {
                solid |= 1u << i;
                if (kernel::moving_obstacle_of(classes[std::size_t(link.from)])) expected = false;
            }
        }
        if (expected) EXPECT_EQ(r.reflect, solid);
        const bool accepted = kernel::is_plain<L>(layout, classes.data(), r);
        EXPECT_EQ(accepted, expected) << "cell at " << pos[0] << " " << pos[1] << " " << pos[2];
        ++(accepted ? plain : other);
    }
    return {plain, other};
}

TEST(ReflectingCells, PlainCellsAreThoseBesideRestingSolidsAlone) {
    // The channels: the resting block's surface is plain; walls, the lid, the faces and the
    // moving plate's neighbours are not.
    const auto c2 = sim::engine_setup(io::parse_case_string(channel(false)));
    const auto [p2, o2] = plain_records<lattice::D2Q9, lattice::NoScalar, storage::DenseBox>(c2);
    const auto c3 = sim::engine_setup(io::parse_case_string(channel(true)));
    const auto [p3, o3] = plain_records<lattice::D3Q19, lattice::NoScalar, storage::DenseBox>(c3);
    const auto c13 = sim::engine_setup(io::parse_case_string(channel(true), {"model.lattice=\"D3Q13\"", "model.collision=\"mrt\""}));
    const auto [p13, o13] = plain_records<lattice::D3Q13, lattice::NoScalar, storage::SublatticeBox>(c13);
    EXPECT_GT(p2, 5u);
    EXPECT_GT(o2, 40u);
    EXPECT_GT(p3, 30u);
    EXPECT_GT(o3, 400u);
    EXPECT_GT(p13, 10u);
    EXPECT_GT(o13, 150u);
    // Sparse storage: a periodic porous box whose sizes are no multiples of 4 (the cursor
    // reads the tile map) and a duct with walls, open faces and a moving box (the
    // neighbour-tile table). Every record of the porous box is plain.
    storage::TileTables porous_tiles, duct_tiles;
    const auto porous = backend::tiled_setup(
        sim::engine_setup(io::parse_case_string(test::porous_case("lattice = \"D3Q19\"", 1))), porous_tiles);
    ASSERT_TRUE(porous_tiles.near.empty());  // 26 x 22 x 18, periodic: no neighbour-tile table
    const auto [pp, op] = plain_records<lattice::D3Q19, lattice::NoScalar, storage::TiledBox>(porous);
    EXPECT_GT(pp, 1000u);
    EXPECT_EQ(op, 0u);
    // The same porous box in 28 x 24 x 20: periodic sizes of multiples of 4, the table
    // (a Plain cell's neighbourhood then wraps through it, as in the bench's boxes).
    storage::TileTables aligned_tiles;
    std::string aligned_text = test::porous_case("lattice = \"D3Q15\"", 1);
    aligned_text.replace(aligned_text.find("[26, 22, 18]"), 12, "[28, 24, 20]");
    const auto aligned = backend::tiled_setup(sim::engine_setup(io::parse_case_string(aligned_text)), aligned_tiles);
    ASSERT_FALSE(aligned_tiles.near.empty());
    const auto [pa, oa] = plain_records<lattice::D3Q15, lattice::NoScalar, storage::TiledBox>(aligned);
    EXPECT_GT(pa, 1000u);
    EXPECT_EQ(oa, 0u);
    const auto duct = backend::tiled_setup(
        sim::engine_setup(io::parse_case_string(test::duct_case("lattice = \"D3Q27\"", 1))), duct_tiles);
    ASSERT_FALSE(duct_tiles.near.empty());
    const auto [pd, od] = plain_records<lattice::D3Q27, lattice::NoScalar, storage::TiledBox>(duct);
    EXPECT_GT(pd, 50u);
    EXPECT_GT(od, 500u);
    // With a coupled scalar no record is plain (its links to solids have rows of their own).
    const auto room = sim::engine_setup(io::parse_case_string(test::small_room));
    const auto [pr, orr] = plain_records<lattice::D3Q19, lattice::D3Q7, storage::DenseBox>(room);
    EXPECT_EQ(pr, 0u);
    EXPECT_GT(orr, 100u);
}

}  // namespace
}  // namespace barracuda
