// SI cases ([units], sim/units.hpp): the conversion to lattice units at the edge
// and the refusals that name what would fix a case. The numbers are seed 004's
// room: dx = 4.23/160 m, U = 0.48 m/s as 0.1, so dt = dx / 4.8 = 5.51 ms and
// nu = 1.46e-5 m^2/s gives tau = 0.500345 (the seed: 0.50034).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "io/case_file.hpp"
#include "sim/case_check.hpp"
#include "sim/simulation.hpp"
#include "sim/units.hpp"

namespace barracuda {
namespace {

const std::string room = R"(
[units]
length = 4.23
velocity = 0.48
[model]
lattice = "D3Q19"
viscosity = 1.46e-5
smagorinsky = 0.1
[domain]
size = [160, 86, 127]
[thermal]
prandtl = 0.71
expansion = 0.00347
gravity = [0, -9.81, 0]
reference_temperature = 15
[boundary.x_min]
type = "velocity"
velocity = [0.48, 0, 0]
temperature = 22
[boundary.x_max]
type = "pressure"
[boundary.y_min]
type = "wall"
heat_flux = 100
[[obstacle]]
shape = "sphere"
center = [2.0, 1.0, 1.5]
radius = 0.3
[run]
time = 560
[output]
period = 140
)";

TEST(Units, SeedRoomConvertsAsTheSeedDid) {
    const auto spec = io::parse_case_string(room, {}, "room");
    const double dx = 4.23 / 160, dt = dx * 0.1 / 0.48;
    EXPECT_TRUE(spec.units.si);
    EXPECT_DOUBLE_EQ(spec.units.cell, dx);
    EXPECT_NEAR(spec.units.dt(), 0.0055078, 1e-7);  // the seed's 5.5 ms
    EXPECT_NEAR(spec.model.tau, 0.5 + 3 * 1.46e-5 * dt / (dx * dx), 1e-15);
    EXPECT_NEAR(spec.model.tau, 0.500345, 1e-6);
    EXPECT_NEAR(spec.faces[0].velocity[0], 0.1, 1e-15);  // 0.48 m/s is U_lattice
    EXPECT_NEAR(spec.thermal.gravity[1], -9.81 * dt * dt / dx, 1e-15);
    EXPECT_NEAR(spec.thermal.diffusivity, (spec.model.tau - 0.5) / 3 / 0.71, 1e-15);  // D = nu / Pr
    // A heat flux of 100 W/m^2 into air: q / (rho c_p) dt / dx.
    EXPECT_NEAR(spec.thermal.faces[2]->value, 100.0 / (1.2 * 1005) * dt / dx, 1e-15);
    // Node i stands at (i + 1/2) dx: x = 2 m is node 2 / dx - 1/2.
    EXPECT_NEAR(spec.obstacles[0].center[0], 2.0 / dx - 0.5, 1e-12);
    EXPECT_NEAR(spec.obstacles[0].radius, 0.3 / dx, 1e-12);
    EXPECT_EQ(spec.run.steps, std::int64_t(std::ceil(560 / dt)));  // 101,674 steps
    EXPECT_EQ(spec.output.interval, std::llround(140 / dt));
    EXPECT_NO_THROW(sim::check_case(spec));
    const auto table = sim::conversion_table(spec);
    EXPECT_NE(table.find("tau = 0.500345"), std::string::npos) << table;
    EXPECT_NE(table.find(std::to_string(spec.run.steps) + " steps = 560 s"), std::string::npos) << table;
}

std::string with(const std::string& text, const std::string& from, const std::string& to) {
    std::string s = text;
    s.replace(s.find(from), from.size(), to);
    return s;
}

void expect_refused(const std::string& text, const std::string& part) {
    try {
        auto spec = io::parse_case_string(text, {}, "room");
        sim::check_case(spec);
        ADD_FAILURE() << "accepted; expected a refusal mentioning " << part;
    } catch (const CaseError& e) {
        EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
}

// output.period k times and run.time can be one instant that rounding makes two steps
// (period / dt rounded, time / dt rounded up): here dt = 0.1 s, 1.02 s is 10 steps and
// 4.08 s is 41, so the fourth output fell on step 40, one step before the end's. The
// end's output stands for it (seed 004's room wrote two 85 MB files 2 steps apart).
TEST(Units, AnOutputInstantAtTheEndIsWrittenOnce) {
    const auto spec = io::parse_case_string(R"(
[units]
length = 1.0
velocity = 0.1
lattice_velocity = 0.1
[model]
lattice = "D2Q9"
precision = "fp64"
viscosity = 0.01
[domain]
size = [10, 10]
periodic = [true, true]
[run]
time = 4.08
[output]
period = 1.02
)");
    ASSERT_NEAR(spec.units.dt(), 0.1, 1e-15);
    ASSERT_EQ(spec.output.interval, 10);
    ASSERT_EQ(spec.run.steps, 41);
    struct Steps final : sim::OutputSink {
        std::vector<std::int64_t> written;
        void write(std::int64_t step, std::vector<double>, std::vector<double>, std::vector<double>) override {
            written.push_back(step);
        }
    } sink;
    sim::Simulation run(spec, sim::BackendChoice::Cpu);
    run.run(&sink, {});
    EXPECT_EQ(sink.written, (std::vector<std::int64_t>{0, 10, 20, 30, 41}));
}

TEST(Units, RefusalsNameWhatWouldFixTheCase) {
    // Without LES the room's tau is too near 1/2: the message names the lattice velocity
    // and the spacing that would give tau >= 0.501.
    expect_refused(with(room, "smagorinsky = 0.1", "smagorinsky = 0"), "raise units.lattice_velocity to");
    expect_refused(with(room, "smagorinsky = 0.1", "smagorinsky = 0"), "or turn LES on");
    expect_refused(with(room, "viscosity = 1.46e-5", "tau = 0.6"), "gives model.viscosity in m^2/s");
    expect_refused(with(room, "length = 4.23", "length = 4.23\ncell = 0.02"), "give one");
    expect_refused(with(room, "velocity = 0.48\n[model]", "velocity = 0.48\nlattice_velocity = 0.5\n[model]"),
                   "units.lattice_velocity");
    expect_refused(with(room, "time = 560", "time = 560\nsteps = 10"), "give one");
    // An inflow four times the reference is 0.4 in lattice units: at the velocity limit.
    expect_refused(with(room, "velocity = [0.48, 0, 0]", "velocity = [1.92, 0, 0]"), "0.4");
    // run.time without [units].
    const std::string lattice_case = "[model]\nlattice = \"D2Q9\"\ntau = 0.6\n[domain]\nsize = [8, 8]\n[run]\ntime = 1\n";
    expect_refused(lattice_case, "needs a [units] table");
}

}  // namespace
}  // namespace barracuda
