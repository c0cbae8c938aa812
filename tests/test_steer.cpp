// Steering (sim::Simulation::steer): a running case takes new face values, a body force
// or heat values, and goes on from its state bit for bit, as a run restored from a
// checkpoint of that state with the new values in its case would; anything the engine
// was built for is refused, naming the table, and leaves the run as it was. The Python
// module's set_boundary_value/update and the live view go through it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.hpp"
#include "io/case_file.hpp"
#include "sim/simulation.hpp"

namespace {

using namespace barracuda;

// A D2Q9 channel with a Zou-He inlet, a pressure outlet and a disc; FP16 storage in
// place, so that the stochastic rounding's clock and the in-place parity must carry over.
const char* channel = R"(
title = "steered channel"
[model]
lattice = "D2Q9"
collision = "trt"
precision = "fp16"
streaming = "in-place"
viscosity = 0.04
[domain]
size = [48, 20]
[boundary.x_min]
type = "velocity"
velocity = [0.04, 0.0]
[boundary.x_max]
type = "pressure"
density = 1.0
[[obstacle]]
name = "disc"
shape = "cylinder"
axis = "z"
center = [12, 9.5]
radius = 3
)";

std::vector<double> fields_of(sim::Simulation& s) {
    std::vector<double> rho, u;
    s.owned_fields(rho, u);
    rho.insert(rho.end(), u.begin(), u.end());
    return rho;
}

TEST(Steer, GoesOnAsARestartWithTheNewValues) {
    const std::vector<std::string> changes = {"boundary.x_min.velocity=[0.06, 0.0]", "boundary.x_max.density=1.001",
                                              "force.body=[1e-6, 0]"};
    sim::Simulation steered(io::parse_case_string(channel), sim::BackendChoice::Cpu);
    steered.advance(31);  // odd: the in-place pattern's other parity
    const auto state = steered.engine().save_state();
    steered.steer(io::parse_case_string(channel, changes));
    EXPECT_EQ(steered.time(), 31);
    steered.advance(20);

    sim::Simulation restarted(io::parse_case_string(channel, changes), sim::BackendChoice::Cpu);
    restarted.restore(31, state);
    restarted.advance(20);
    EXPECT_EQ(fields_of(steered), fields_of(restarted));

    // The change took: the inlet's nodes carry the new velocity.
    std::vector<double> rho, u;
    steered.owned_fields(rho, u);
    EXPECT_FLOAT_EQ(float(u[3 * (48 * 10)]), 0.06f);  // FP16 storage computes in float
}

TEST(Steer, RefusesWhatTheEngineWasBuiltForAndKeepsTheRun) {
    sim::Simulation s(io::parse_case_string(channel), sim::BackendChoice::Cpu);
    s.advance(10);
    const auto before = fields_of(s);
    const std::pair<std::string, std::string> refused[] = {
        {"model.collision=bgk", "[model]"},
        {"domain.size=[40, 20]", "[domain]"},
        {"boundary.y_min.type=free_slip", "types or methods"},
        {"obstacle[0].radius=4", "[[obstacle]]"},
    };
    for (const auto& [change, names] : refused) {
        try {
            s.steer(io::parse_case_string(channel, {change}));
            ADD_FAILURE() << change << " was accepted";
        } catch (const CaseError& e) {
            EXPECT_NE(std::string(e.what()).find(names), std::string::npos) << change << ": " << e.what();
        }
        EXPECT_EQ(s.time(), 10);
        EXPECT_EQ(fields_of(s), before) << change;
    }
    // A value the case checks refuse (faster than the lattice allows) is refused too.
    auto too_fast = io::parse_case_string(channel);
    too_fast.faces[0].velocity = {0.9, 0, 0};
    EXPECT_THROW(s.steer(too_fast), CaseError);
    EXPECT_EQ(fields_of(s), before);
    s.advance(1);  // and it goes on
    EXPECT_EQ(s.time(), 11);
}

}  // namespace
