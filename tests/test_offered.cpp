// The configuration table (src/configurations.txt, backend/offered.hpp): what it
// offers is what the engines build, and what it does not is refused before any
// memory is allocated, with the table in the message.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>

#include "backend/offered.hpp"
#include "common/error.hpp"
#include "sim/case_check.hpp"
#include "support.hpp"

namespace barracuda {
namespace {

using backend::Configuration;

TEST(Offered, TableExpandsToDistinctConfigurations) {
    const auto all = backend::offered_configurations();
    ASSERT_GT(all.size(), 0u);
    EXPECT_GT(backend::offered_rows().size(), 0u);
    std::set<std::string> names;
    for (const auto& c : all) EXPECT_TRUE(names.insert(backend::name_of(c)).second) << backend::name_of(c);
    // The default case's configuration (D3Q19 fp32 compressible bgk two-copy) is offered.
    EXPECT_TRUE(backend::is_offered(Configuration{}));
}

// Every configuration of the table has a CPU engine that runs a step: the table,
// the generated units and the registry agree (a row without an engine would not link;
// a registry entry pointing at the wrong engine would describe itself otherwise).
TEST(Offered, EveryConfigurationBuildsItsEngine) {
    for (const auto& c : backend::offered_configurations()) {
        auto s = test::periodic_box(c.lattice, 6, 4, c.lattice == lattice::Kind::D2Q9 ? 1 : 4, 0.8, c.precision,
                                    c.collision);
        s.equilibrium = c.equilibrium;
        s.pattern = c.pattern;
        auto e = backend::make_cpu_engine(s);
        const std::string d = e->description();
        for (const std::string word : {std::string(lattice::name_of(c.lattice)), std::string(physics::name_of(c.collision)),
                                       std::string(physics::name_of(c.equilibrium)), std::string(storage::name_of(c.precision)),
                                       std::string(storage::name_of(c.pattern))})
            EXPECT_NE(d.find(word), std::string::npos) << d << " for " << backend::name_of(c);
        e->initialize_uniform(1.0, {0.01, 0, 0});
        e->step(2);
        EXPECT_NEAR(e->observe(0.5, 1.5, false).mean_density(), 1.0, 1e-3) << backend::name_of(c);
    }
}

// A configuration outside the table: refused by the engine maker and by the case
// checker, with the reason, the nearest offered configurations and the table.
TEST(Offered, OtherConfigurationsAreRefusedWithTheTable) {
    const Configuration missing{lattice::Kind::D3Q27, storage::Precision::FP16, physics::EquilibriumKind::Incompressible,
                                physics::CollisionKind::TRT, storage::Pattern::InPlace};
    ASSERT_FALSE(backend::is_offered(missing));
    auto s = test::periodic_box(missing.lattice, 6, 4, 4, 0.8, missing.precision, missing.collision);
    s.equilibrium = missing.equilibrium;
    s.pattern = missing.pattern;
    try {
        backend::make_cpu_engine(s);
        FAIL() << "not refused";
    } catch (const CaseError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("D3Q27 fp16 incompressible trt in-place: not offered"), std::string::npos) << m;
        EXPECT_NE(m.find("offered with model.precision = \"fp32\""), std::string::npos) << m;
        EXPECT_NE(m.find("model.equilibrium = \"compressible\""), std::string::npos) << m;
        EXPECT_NE(m.find(backend::offered_table_text("  ")), std::string::npos) << m;
    }
    // The case checker says the same, before anything is allocated.
    sim::CaseSpec spec;
    spec.model.lattice = missing.lattice;
    spec.model.precision = missing.precision;
    spec.model.equilibrium = missing.equilibrium;
    spec.model.collision = missing.collision;
    spec.model.streaming = missing.pattern;
    spec.size = {8, 8, 8};
    spec.periodic = {true, true, true};
    for (auto& f : spec.faces) f.type = boundary::FaceType::Periodic;
    sim::fill_model_defaults(spec);
    EXPECT_THROW(
        {
            try {
                sim::check_case(spec);
            } catch (const CaseError& e) {
                EXPECT_NE(std::string(e.what()).find("not offered"), std::string::npos) << e.what();
                throw;
            }
        },
        CaseError);
}

// The rules beyond the table, each stated once (backend::refusal), with the key.
TEST(Offered, RunRulesNameTheKey) {
    backend::Request r;
    r.config.pattern = storage::Pattern::InPlace;
    r.several_ranks = true;
    EXPECT_NE(backend::refusal(r).find("model.streaming = \"in-place\""), std::string::npos);
    r.config.pattern = storage::Pattern::TwoCopy;
    EXPECT_EQ(backend::refusal(r), "");
    r.config.precision = storage::Precision::FP16;
    EXPECT_NE(backend::refusal(r).find("model.precision = \"fp16\""), std::string::npos);
    r = {};
    r.face_type[1] = boundary::FaceType::Outflow;
    r.config.pattern = storage::Pattern::InPlace;
    EXPECT_NE(backend::refusal(r).find("boundary.x_max.type = \"outflow\""), std::string::npos);
    r = {};
    r.config.lattice = lattice::Kind::D3Q13;
    r.config.collision = physics::CollisionKind::MRT;
    r.smagorinsky = 0.1;
    EXPECT_NE(backend::refusal(r).find("model.smagorinsky"), std::string::npos);
}

// The CPU engine refuses a subdomain with in-place streaming rather than skip its
// halo exchange (the registry refuses it first, with the key).
TEST(Offered, EnginesRefuseWhatTheyDoNotDo) {
    auto s = test::periodic_box(lattice::Kind::D2Q9, 8, 8, 1, 0.8);
    s.pattern = storage::Pattern::InPlace;
    s.halo.messages.resize(1);
    EXPECT_THROW(backend::make_cpu_engine(s), CaseError);
}

}  // namespace
}  // namespace barracuda
