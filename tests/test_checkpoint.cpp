// Checkpoints (io/checkpoint.hpp, Engine::save_state / restore_state): a run
// stopped and continued from its checkpoint file gives bit for bit what the run
// without the stop gives, for every streaming pattern and precision, with
// interpolated walls (their momenta) and a time-dependent inflow (its clock);
// a checkpoint that does not fit the run is refused with a message.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "support.hpp"
#include "common/error.hpp"
#include "io/checkpoint.hpp"
#include "sim/case_spec.hpp"
#include "sim/simulation.hpp"
#include "sim/case_check.hpp"

namespace {

using namespace barracuda;

std::filesystem::path scratch(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / "barracuda-test-checkpoint";
    std::filesystem::create_directories(dir);
    return dir / name;
}

struct EngineCase {
    lattice::Kind lattice;
    physics::CollisionKind collision;
    storage::Precision precision;
    storage::Pattern pattern;
};

// Every boundary kind of the test channel (faces, walls, a solid block, absorbing layers,
// a body force); an odd step count before the stop, so that the in-place pattern stops
// on its odd parity; FP16 draws stochastic-rounding numbers from the step clock.
TEST(Checkpoint, EngineGoesOnBitForBit) {
    const EngineCase cases[] = {
        {lattice::Kind::D3Q19, physics::CollisionKind::TRT, storage::Precision::FP32, storage::Pattern::TwoCopy},
        {lattice::Kind::D3Q19, physics::CollisionKind::BGK, storage::Precision::FP64, storage::Pattern::InPlace},
        {lattice::Kind::D3Q13, physics::CollisionKind::MRT, storage::Precision::FP32, storage::Pattern::InPlace},
        {lattice::Kind::D2Q9, physics::CollisionKind::Regularized, storage::Precision::FP16, storage::Pattern::TwoCopy},
        {lattice::Kind::D2Q9, physics::CollisionKind::MRT, storage::Precision::FP16, storage::Pattern::InPlace},
    };
    for (const auto& c : cases) {
        const auto s = test::every_boundary_channel(c.lattice, c.collision, physics::EquilibriumKind::Compressible,
                                                    c.precision, boundary::Method::ZouHe, c.pattern);
        const std::string what = std::string(lattice::name_of(c.lattice)) + " " + physics::name_of(c.collision) +
                                 " " + storage::name_of(c.precision) + " " + storage::name_of(c.pattern);
        auto straight = backend::make_cpu_engine(s), stopped = backend::make_cpu_engine(s);
        test::initialize_wavy(*straight, s);
        test::initialize_wavy(*stopped, s);
        straight->step(37);
        stopped->step(37);
        const auto file = scratch("engine.checkpoint");
        io::write_checkpoint(file, {37, "", stopped->save_state(), {}});
        stopped.reset();

        auto resumed = backend::make_cpu_engine(s);
        test::initialize_wavy(*resumed, s);
        resumed->step(2);  // a state that the restore must replace entirely, the other parity
        const auto c2 = io::read_checkpoint(file);
        ASSERT_TRUE(c2.has_value()) << what;
        EXPECT_EQ(c2->time, 37);
        resumed->restore_state(c2->state);
        straight->step(24);
        resumed->step(24);
        std::vector<double> a, b;
        straight->populations(a);
        resumed->populations(b);
        ASSERT_EQ(a.size(), b.size());
        std::size_t differ = 0;
        for (std::size_t k = 0; k < a.size(); ++k) differ += a[k] != b[k];
        EXPECT_EQ(differ, 0u) << what;
    }
}

// A Simulation: a sphere with interpolated bounce-back (momenta kept per link for its
// force) in a duct with a pulsating inflow (face values of the step's time).
TEST(Checkpoint, SimulationWithWallsAndTimeDependentInflowGoesOnBitForBit) {
    sim::CaseSpec s;
    s.model.lattice = lattice::Kind::D3Q19;
    s.model.collision = sim::Collision::TRT;
    s.model.precision = sim::Precision::FP64;
    s.model.tau = 0.62;
    s.size = {32, 14, 14};
    s.periodic = {false, false, false};
    for (int f = 2; f < 6; ++f) s.faces[f].type = boundary::FaceType::Wall;
    s.faces[boundary::XMin].type = boundary::FaceType::Velocity;
    s.faces[boundary::XMin].velocity_expression[0] = "0.03 * (1 + 0.5 * sin(2 * _pi * t / 25))";
    s.faces[boundary::XMax].type = boundary::FaceType::Pressure;
    s.faces[boundary::XMax].density = 1.0;
    sim::Obstacle ball;
    ball.name = "ball";
    ball.kind = sim::Obstacle::Shape::Sphere;
    ball.center = {11.3, 6.6, 6.4};
    ball.radius = 3.7;
    ball.interpolated = true;
    s.obstacles = {ball};
    s.forces.obstacles = {"ball"};
    s.forces.reference_velocity = 0.03;
    s.forces.reference_area = 1;
    s.output.vti = s.output.png = false;
    sim::fill_model_defaults(s);

    sim::Simulation straight(s, sim::BackendChoice::Cpu), stopped(s, sim::BackendChoice::Cpu);
    straight.advance(41);
    stopped.advance(41);
    const auto file = scratch("simulation.checkpoint");
    const std::vector<double> mine{1.5, -2.25, 1e300};
    io::write_checkpoint(file, {stopped.time(), "duct Re 40", stopped.engine().save_state(), mine});

    sim::Simulation resumed(s, sim::BackendChoice::Cpu);
    const auto c = io::read_checkpoint(file);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->values, mine);
    EXPECT_EQ(c->tag, "duct Re 40");
    resumed.restore(c->time, c->state);
    EXPECT_EQ(resumed.time(), 41);
    // The interpolated links' momenta of the last step came along: the same force at once.
    EXPECT_EQ(resumed.forces_all(), stopped.forces_all());
    straight.advance(30);
    resumed.advance(30);
    std::vector<double> a, b;
    straight.engine().populations(a);
    resumed.engine().populations(b);
    ASSERT_EQ(a.size(), b.size());
    std::size_t differ = 0;
    for (std::size_t k = 0; k < a.size(); ++k) differ += a[k] != b[k];
    EXPECT_EQ(differ, 0u);
    const auto fa = straight.forces_all(), fb = resumed.forces_all();
    EXPECT_NE(fa[0][0], 0.0);
    EXPECT_EQ(fa, fb);
    // Without the restore, the same 30 steps from the start give another state: the test can fail.
    sim::Simulation fresh(s, sim::BackendChoice::Cpu);
    fresh.advance(30);
    EXPECT_NE(fresh.forces_all(), fb);
}

TEST(Checkpoint, RefusesAnotherEngineOrABrokenFile) {
    const auto d3q19 = test::periodic_box(lattice::Kind::D3Q19, 8, 6, 4, 0.7);
    const auto d3q27 = test::periodic_box(lattice::Kind::D3Q27, 8, 6, 4, 0.7);
    auto a = backend::make_cpu_engine(d3q19);
    auto b = backend::make_cpu_engine(d3q27);
    test::initialize_wavy(*a, d3q19);
    try {
        b->restore_state(a->save_state());
        FAIL() << "a D3Q19 state restored into a D3Q27 engine";
    } catch (const CaseError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("D3Q19"), std::string::npos) << m;
        EXPECT_NE(m.find("D3Q27"), std::string::npos) << m;
    }
    auto other_size = test::periodic_box(lattice::Kind::D3Q19, 6, 8, 4, 0.7);  // same cell count, other shape
    EXPECT_THROW(backend::make_cpu_engine(other_size)->restore_state(a->save_state()), CaseError);

    EXPECT_FALSE(io::read_checkpoint(scratch("missing.checkpoint")).has_value());
    const auto file = scratch("broken.checkpoint");
    io::write_checkpoint(file, {5, "box", a->save_state(), {1, 2}});
    const auto whole = std::filesystem::file_size(file);
    std::filesystem::resize_file(file, whole - 9);
    EXPECT_THROW(io::read_checkpoint(file), OutputError);
    {
        std::ofstream(file, std::ios::binary) << "not a checkpoint at all";
    }
    EXPECT_THROW(io::read_checkpoint(file), OutputError);
}

// Issue 21: three flipped bytes in the populations went unnoticed and gave other
// results. The CRC-32 at the end of the file finds any change, and the refusal
// names the file.
TEST(Checkpoint, ChecksumFindsAChangedByte) {
    const auto box = test::periodic_box(lattice::Kind::D2Q9, 16, 12, 1, 0.7);
    auto e = backend::make_cpu_engine(box);
    test::initialize_wavy(*e, box);
    const auto file = scratch("flipped.checkpoint");
    io::write_checkpoint(file, {5, "box", e->save_state(), {1, 2}});
    ASSERT_TRUE(io::read_checkpoint(file).has_value());
    std::string bytes;
    {
        std::ifstream in(file, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    for (const std::size_t at : {bytes.size() / 2, bytes.size() - 3, std::size_t(40)}) {
        std::string changed = bytes;
        changed[at] = char(changed[at] ^ 0x01);
        std::ofstream(file, std::ios::binary | std::ios::trunc) << changed;
        try {
            io::read_checkpoint(file);
            ADD_FAILURE() << "a checkpoint with byte " << at << " changed was read";
        } catch (const OutputError& err) {
            EXPECT_NE(std::string(err.what()).find(file.string()), std::string::npos) << err.what();
        }
    }
}

}  // namespace
