// Case files: parsing, overrides, and the whole-case checks. Every bad input
// must give a CaseError whose message names the key and the offending value.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "io/case_file.hpp"
#include "sim/face_values.hpp"
#include "sim/simulation.hpp"
#include "sim/case_check.hpp"

namespace {

using barracuda::CaseError;
using barracuda::boundary::FaceType;
using barracuda::io::parse_case_file;
using barracuda::io::parse_case_string;
namespace sim = barracuda::sim;
namespace lattice = barracuda::lattice;
namespace bc = barracuda::boundary;

// A small valid case; tests replace its parts to make one thing wrong.
std::string make_case(std::string_view model = "lattice = \"D2Q9\"\ntau = 0.8",
                      std::string_view domain = "size = [64, 32]", std::string_view rest = "") {
    return "title = \"test\"\n[model]\n" + std::string(model) + "\n[domain]\n" + std::string(domain) + "\n" +
           std::string(rest) + "\n";
}

std::string message_of(std::string_view text, const std::vector<std::string>& overrides = {}) {
    try {
        parse_case_string(text, overrides, "test.toml");
    } catch (const CaseError& e) {
        return e.what();
    }
    return {};
}

// The case must be rejected with a CaseError whose message contains every part.
void expect_error(std::string_view text, std::initializer_list<std::string_view> parts,
                  const std::vector<std::string>& overrides = {}) {
    const std::string msg = message_of(text, overrides);
    ASSERT_FALSE(msg.empty()) << "no CaseError for:\n" << text;
    for (std::string_view p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
}

void expect_valid_error(const sim::CaseSpec& spec, std::initializer_list<std::string_view> parts) {
    try {
        sim::check_case(spec);
        ADD_FAILURE() << "check_case accepted the case";
    } catch (const CaseError& e) {
        const std::string msg = e.what();
        for (std::string_view p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
    }
}

std::filesystem::path cases_dir() { return std::filesystem::path(BARRACUDA_SOURCE_DIR) / "cases"; }

// --- Valid input -----------------------------------------------------------

TEST(CaseFile, DefaultCaseIsTheLidDrivenCavity) {
    const sim::CaseSpec s = parse_case_string(barracuda::io::default_case_toml());
    EXPECT_EQ(s.model.lattice, lattice::Kind::D3Q19);
    EXPECT_EQ(s.model.collision, sim::Collision::BGK);
    EXPECT_EQ(s.model.equilibrium, sim::Equilibrium::Compressible);
    EXPECT_EQ(s.model.precision, sim::Precision::FP32);
    EXPECT_DOUBLE_EQ(s.model.tau, 3 * 0.048 + 0.5);
    EXPECT_EQ(s.size, (std::array<int, 3>{48, 48, 48}));
    EXPECT_EQ(s.periodic, (std::array<bool, 3>{false, false, false}));
    for (int f = 0; f < 6; ++f)
        EXPECT_EQ(s.faces[f].type, f == bc::YMax ? FaceType::MovingWall : FaceType::Wall) << bc::face_name(f);
    EXPECT_EQ(s.faces[bc::YMax].velocity, (std::array<double, 3>{0.1, 0, 0}));
    EXPECT_EQ(s.run.steps, 4000);
    EXPECT_EQ(s.output.interval, 1000);
    EXPECT_TRUE(s.output.vti);
    EXPECT_TRUE(s.output.png);
    EXPECT_EQ(s.output.slice_axis, 2);
    EXPECT_EQ(s.output.directory, "barracuda-out");
    // Re = U N / nu
    EXPECT_NEAR(0.1 * 48 / ((s.model.tau - 0.5) / 3), 100.0, 1e-9);
}

TEST(CaseFile, EveryExampleCaseParses) {
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(cases_dir())) {
        if (entry.path().extension() != ".toml") continue;
        ++count;
        SCOPED_TRACE(entry.path().string());
        EXPECT_NO_THROW(parse_case_file(entry.path()));
    }
    EXPECT_GE(count, 6);
}

// docs/case-file.md shows a complete case; it must stay a valid one.
TEST(CaseFile, DocumentedExampleParses) {
    std::ifstream in(std::filesystem::path(BARRACUDA_SOURCE_DIR) / "docs" / "case-file.md");
    ASSERT_TRUE(in) << "docs/case-file.md not found";
    const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto section = doc.find("## A complete example");
    ASSERT_NE(section, std::string::npos);
    const auto begin = doc.find("```toml\n", section);
    ASSERT_NE(begin, std::string::npos);
    const auto end = doc.find("```", begin + 8);
    ASSERT_NE(end, std::string::npos);
    const sim::CaseSpec s = parse_case_string(doc.substr(begin + 8, end - begin - 8), {}, "docs/case-file.md");
    EXPECT_EQ(s.obstacles.size(), 2u);
    EXPECT_EQ(s.model.collision, sim::Collision::MRT);
}

TEST(CaseFile, Cavity3dExampleIsTheDefault) {
    const sim::CaseSpec a = parse_case_file(cases_dir() / "cavity3d_re100.toml");
    const sim::CaseSpec b = parse_case_string(barracuda::io::default_case_toml());
    EXPECT_EQ(a.title, b.title);
    EXPECT_EQ(a.model.lattice, b.model.lattice);
    EXPECT_DOUBLE_EQ(a.model.tau, b.model.tau);
    EXPECT_EQ(a.size, b.size);
    for (int f = 0; f < 6; ++f) {
        EXPECT_EQ(a.faces[f].type, b.faces[f].type);
        EXPECT_EQ(a.faces[f].velocity, b.faces[f].velocity);
    }
    EXPECT_EQ(a.run.steps, b.run.steps);
    EXPECT_EQ(a.output.interval, b.output.interval);
}

// Seed 004's room: its SI values convert to the seed's lattice parameters, and its inlet
// patch has the seed's 171 nodes (9 x 19) at 0.1 in lattice units.
TEST(CaseFile, RoomCaseIsSeed004sChamber) {
    const sim::CaseSpec room = parse_case_file(cases_dir() / "room_seed004.toml");
    EXPECT_EQ(room.size, (std::array<int, 3>{160, 86, 127}));
    EXPECT_NEAR(room.model.tau, 0.500345, 1e-6);
    EXPECT_NEAR(room.units.dt(), 0.0055, 1e-4);
    EXPECT_TRUE(room.thermal.enabled);
    sim::FaceValues values(room, barracuda::parallel::Subdomain::whole(room.size, room.periodic));
    std::vector<double> v;
    values.evaluate(bc::XMin, 1.0, v);
    int inlet = 0;
    for (std::size_t k = 0; k < v.size() / 4; ++k)
        if (v[4 * k] > 0) {
            ++inlet;
            EXPECT_NEAR(v[4 * k], 0.1, 1e-12);
        }
    EXPECT_EQ(inlet, 171);
    const auto theta = sim::face_temperatures(room, barracuda::parallel::Subdomain::whole(room.size, room.periodic), bc::XMin);
    int warm = 0;
    for (double t : theta) warm += t > 6.9 ? 1 : 0;  // 22 C against the reference 15 C
    EXPECT_EQ(warm, 171);
}

TEST(CaseFile, ExampleCasesSayWhatTheirNamesSay) {
    const sim::CaseSpec cav = parse_case_file(cases_dir() / "cavity2d_re100.toml");
    EXPECT_EQ(cav.model.lattice, lattice::Kind::D2Q9);
    EXPECT_EQ(cav.size, (std::array<int, 3>{128, 128, 1}));
    EXPECT_EQ(cav.faces[bc::YMax].type, FaceType::MovingWall);
    EXPECT_NEAR(0.1 * 128 / ((cav.model.tau - 0.5) / 3), 100.0, 1e-9);

    const sim::CaseSpec pois = parse_case_file(cases_dir() / "poiseuille2d.toml");
    EXPECT_EQ(pois.faces[bc::XMin].type, FaceType::Periodic);
    EXPECT_EQ(pois.faces[bc::XMax].type, FaceType::Periodic);
    EXPECT_EQ(pois.faces[bc::YMin].type, FaceType::Wall);
    EXPECT_EQ(pois.faces[bc::YMax].type, FaceType::Wall);
    EXPECT_GT(pois.body_force[0], 0);

    const sim::CaseSpec ch = parse_case_file(cases_dir() / "channel_zou_he.toml");
    EXPECT_EQ(ch.faces[bc::XMin].type, FaceType::Velocity);
    EXPECT_EQ(ch.faces[bc::XMin].method, bc::Method::ZouHe);
    EXPECT_EQ(ch.faces[bc::XMin].velocity, (std::array<double, 3>{0.05, 0, 0}));
    EXPECT_EQ(ch.faces[bc::XMax].type, FaceType::Pressure);
    EXPECT_DOUBLE_EQ(ch.faces[bc::XMax].density, 1.0);

    const sim::CaseSpec cyl = parse_case_file(cases_dir() / "cylinder2d.toml");
    ASSERT_EQ(cyl.obstacles.size(), 1u);
    EXPECT_EQ(cyl.obstacles[0].kind, sim::Obstacle::Shape::Cylinder);
    EXPECT_EQ(cyl.obstacles[0].axis, 2);
    const double re = 0.05 * 2 * cyl.obstacles[0].radius / ((cyl.model.tau - 0.5) / 3);
    EXPECT_NEAR(re, 20.0, 1e-9);

    const sim::CaseSpec sph = parse_case_file(cases_dir() / "sphere3d.toml");
    EXPECT_EQ(sph.model.lattice, lattice::Kind::D3Q19);
    ASSERT_EQ(sph.obstacles.size(), 1u);
    EXPECT_EQ(sph.obstacles[0].kind, sim::Obstacle::Shape::Sphere);
}

TEST(CaseFile, DefaultsForAMinimalCase) {
    const sim::CaseSpec s = parse_case_string(make_case());
    EXPECT_EQ(s.size, (std::array<int, 3>{64, 32, 1}));
    EXPECT_EQ(s.model.collision, sim::Collision::BGK);
    EXPECT_DOUBLE_EQ(s.model.trt_magic, 3.0 / 16.0);
    EXPECT_DOUBLE_EQ(s.initial_density, 1.0);
    EXPECT_EQ(s.initial_velocity, (std::array<double, 3>{0, 0, 0}));
    // Faces without a table are walls; a 2D lattice's z axis wraps.
    for (int f = 0; f < 4; ++f) EXPECT_EQ(s.faces[f].type, FaceType::Wall);
    EXPECT_EQ(s.faces[bc::ZMin].type, FaceType::Periodic);
    EXPECT_EQ(s.faces[bc::ZMax].type, FaceType::Periodic);
    EXPECT_EQ(s.run.backend, sim::BackendChoice::Auto);
    EXPECT_EQ(s.output.slice_axis, 2);
}

TEST(CaseFile, ViscosityConvertsToTau) {
    const sim::CaseSpec s = parse_case_string(make_case("lattice = \"D2Q9\"\nviscosity = 0.1"));
    EXPECT_DOUBLE_EQ(s.model.tau, 0.8);
}

TEST(CaseFile, IntegersAreAcceptedForNumbers) {
    const sim::CaseSpec s = parse_case_string(make_case("lattice = \"D2Q9\"\ntau = 1", "size = [64, 32]",
                                                        "[initial]\ndensity = 1\nvelocity = [0, 0]"));
    EXPECT_DOUBLE_EQ(s.model.tau, 1.0);
    EXPECT_DOUBLE_EQ(s.initial_density, 1.0);
}

TEST(CaseFile, WholeFloatsAreAcceptedForIntegers) {
    const sim::CaseSpec s = parse_case_string(make_case(), {"run.steps=1e5"});
    EXPECT_EQ(s.run.steps, 100000);
}

TEST(CaseFile, OverridesChangeValues) {
    const sim::CaseSpec s = parse_case_string(barracuda::io::default_case_toml(),
                                              {"model.tau=0.8", "run.backend=cpu", "output.directory=runs/a b",
                                               "domain.size=[32, 32, 16]", "model.collision=mrt"});
    EXPECT_DOUBLE_EQ(s.model.tau, 0.8);  // replaces the case's viscosity
    EXPECT_EQ(s.run.backend, sim::BackendChoice::Cpu);
    EXPECT_EQ(s.output.directory, "runs/a b");
    EXPECT_EQ(s.size, (std::array<int, 3>{32, 32, 16}));
    EXPECT_EQ(s.model.collision, sim::Collision::MRT);
}

TEST(CaseFile, OverridesCreateTablesAndReachArrayElements) {
    const sim::CaseSpec s = parse_case_file(cases_dir() / "cylinder2d.toml",
                                            {"force.body=[1e-6, 0]", "boundary.y_min.type=moving_wall",
                                             "boundary.y_min.velocity=[0.01, 0]", "obstacle[0].radius=4",
                                             "domain.size[0]=300"});
    EXPECT_EQ(s.body_force, (std::array<double, 3>{1e-6, 0, 0}));
    EXPECT_EQ(s.faces[bc::YMin].type, FaceType::MovingWall);
    EXPECT_DOUBLE_EQ(s.faces[bc::YMin].velocity[0], 0.01);
    EXPECT_DOUBLE_EQ(s.obstacles[0].radius, 4.0);
    EXPECT_EQ(s.size[0], 300);
}

TEST(CaseFile, ObstacleShapesAndDefaults) {
    const sim::CaseSpec s = parse_case_string(make_case("lattice = \"D3Q19\"\ntau = 0.6", "size = [40, 30, 20]", R"(
[[obstacle]]
shape = "box"
min = [1, 2, 3]
max = [4, 5, 6]
[[obstacle]]
name = "ball"
shape = "sphere"
center = [20, 15, 10]
radius = 3.5
bounce_back = "interpolated"
[[obstacle]]
shape = "cylinder"
axis = "y"
center = [10, 0, 10]
radius = 2
min = 5
)"));
    ASSERT_EQ(s.obstacles.size(), 3u);
    EXPECT_EQ(s.obstacles[0].name, "obstacle0");
    EXPECT_EQ(s.obstacles[0].max, (std::array<double, 3>{4, 5, 6}));
    EXPECT_EQ(s.obstacles[1].name, "ball");
    EXPECT_DOUBLE_EQ(s.obstacles[1].radius, 3.5);
    EXPECT_EQ(s.obstacles[2].axis, 1);
    EXPECT_DOUBLE_EQ(s.obstacles[2].min[1], 5.0);
    EXPECT_DOUBLE_EQ(s.obstacles[2].max[1], 29.0);  // whole domain by default
    EXPECT_FALSE(s.obstacles[0].interpolated);        // half-way by default
    EXPECT_TRUE(s.obstacles[1].interpolated);
    expect_error(make_case() + "[[obstacle]]\nshape = \"sphere\"\ncenter = [5, 5]\nradius = 2\nbounce_back = \"curved\"\n",
                 {"obstacle[0].bounce_back", "curved", "interpolated"});
}

// --- Bad input: the parser -------------------------------------------------

TEST(CaseFile, UnknownKeyNamesTheClosestKnownKey) {
    expect_error(make_case("lattice = \"D2Q9\"\ntau = 0.8\ncolision = \"trt\""),
                 {"unknown key 'model.colision'", "did you mean 'model.collision'?", "test.toml:5:1:"});
    expect_error(make_case("lattice = \"D2Q9\"\ntua = 0.8"), {"'model.tua'", "'model.tau'"});
    expect_error(make_case() + "[modle]\n", {"'modle'", "'model'"});
    expect_error(make_case() + "[[obstacle]]\nshape = \"sphere\"\ncenter = [5, 5]\nradus = 2\n",
                 {"'obstacle[0].radus'", "'obstacle[0].radius'"});
    expect_error(make_case() + "[boundary.xmin]\ntype = \"wall\"\n", {"'boundary.xmin'", "'boundary.x_min'"});
    // A key in the wrong table is found by its name.
    expect_error("tau = 0.8\n" + make_case(), {"unknown key 'tau'", "did you mean 'model.tau'?"});
    // No hint when nothing is close.
    const std::string msg = message_of(make_case() + "[run]\nbanana = 3\n");
    EXPECT_NE(msg.find("'run.banana'"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("did you mean"), std::string::npos) << msg;
}

TEST(CaseFile, WrongTypeNamesKeyExpectedAndGot) {
    expect_error(make_case("lattice = \"D2Q9\"\ntau = \"abc\""),
                 {"key 'model.tau': expected a number, got string \"abc\"", "test.toml:4:7:"});
    expect_error(make_case() + "[run]\nsteps = 1.5\n", {"key 'run.steps'", "an integer", "1.5"});
    expect_error(make_case("lattice = \"D2Q9\"\ntau = 0.8", "size = [64, \"32\"]"),
                 {"key 'domain.size'", "integers", "[64, \"32\"]"});
    expect_error(make_case("lattice = \"D2Q9\"\ntau = 0.8", "size = [64]"), {"key 'domain.size'", "2 or 3", "[64]"});
    expect_error(make_case() + "[output]\nformats = \"png\"\n", {"key 'output.formats'", "string \"png\""});
    expect_error(make_case() + "[run]\nbackend = 1\n", {"key 'run.backend'", "integer 1"});
    expect_error(make_case() + "[force]\nbody = [1e-5, nan]\n", {"key 'force.body'", "nan"});
}

TEST(CaseFile, WordNotInTheAllowedSet) {
    expect_error(make_case("lattice = \"D2Q8\"\ntau = 0.8"),
                 {"model.lattice = \"D2Q8\"", "\"D2Q9\", \"D3Q13\", \"D3Q15\", \"D3Q19\", \"D3Q27\"", "did you mean \"D2Q9\"?"});
    expect_error(make_case() + "[run]\nbackend = \"gpu\"\n", {"run.backend = \"gpu\"", "\"cuda\""});
    expect_error(make_case() + "[output]\nfields = [\"density\", \"vorticity\"]\n",
                 {"output.fields", "\"vorticity\""});
}

TEST(CaseFile, TauAndViscosity) {
    expect_error(make_case("lattice = \"D2Q9\"\ntau = 0.5"), {"model.tau = 0.5", "must be > 0.5"});
    expect_error(make_case("lattice = \"D2Q9\"\ntau = 0.3"), {"model.tau = 0.3", "must be > 0.5"});
    expect_error(make_case("lattice = \"D2Q9\"\nviscosity = 0"), {"model.viscosity = 0", "must be > 0"});
    expect_error(make_case("lattice = \"D2Q9\"\nviscosity = -0.01"), {"model.viscosity = -0.01", "must be > 0"});
    expect_error(make_case("lattice = \"D2Q9\"\ntau = 0.6\nviscosity = 0.1"),
                 {"model.tau = 0.6", "model.viscosity = 0.1", "both"});
    expect_error(make_case("lattice = \"D2Q9\""), {"missing key 'model.tau'", "model.viscosity"});
}

TEST(CaseFile, VelocityAtOrAboveTheLimit) {
    expect_error(make_case() + "[initial]\nvelocity = [0.4, 0]\n",
                 {"initial.velocity = [0.4, 0]", "|u| = 0.4", "< 0.4", "refine the grid"});
    expect_error(make_case() + "[initial]\nvelocity = [0.3, 0.3]\n", {"initial.velocity = [0.3, 0.3]", "|u| = 0.42"});
    expect_error(make_case() + "[boundary.x_min]\ntype = \"velocity\"\nvelocity = [0.45, 0]\n",
                 {"boundary.x_min.velocity = [0.45, 0]", "|u| = 0.45", "< 0.4"});
    expect_error(make_case() + "[boundary.y_max]\ntype = \"moving_wall\"\nvelocity = [0.5, 0]\n",
                 {"boundary.y_max.velocity = [0.5, 0]", "|u| = 0.5", "< 0.4"});
    // Just below the limit is fine.
    EXPECT_NO_THROW(parse_case_string(make_case() + "[initial]\nvelocity = [0.39, 0]\n"));
}

TEST(CaseFile, SizeBelowOne) {
    expect_error(make_case("lattice = \"D2Q9\"\ntau = 0.8", "size = [0, 32]"), {"domain.size = [0, 32]", ">= 1"});
    expect_error(make_case("lattice = \"D3Q19\"\ntau = 0.8", "size = [16, -4, 16]"),
                 {"domain.size = [16, -4, 16]", ">= 1"});
}

// Issue 21: a title is printed to the terminal and drawn into images; control
// characters (a terminal escape here) come out as \xNN, never raw.
TEST(CaseFile, TitleControlCharactersAreEscaped) {
    std::string text = make_case();
    text.replace(0, text.find('\n'), "title = \"red \\u001b[31malert\\u0007 done\"");
    const auto spec = parse_case_string(text, {}, "test.toml");
    EXPECT_EQ(spec.title, "red \\x1b[31malert\\x07 done");
}

TEST(CaseFile, LatticeDimensionMustMatchSize) {
    expect_error(make_case("lattice = \"D3Q19\"\ntau = 0.8", "size = [64, 64]"),
                 {"domain.size = [64, 64, 1]: lattice D3Q19 is 3D and needs three sizes with nz > 1"});
    expect_error(make_case("lattice = \"D2Q9\"\ntau = 0.8", "size = [64, 64, 8]"),
                 {"domain.size = [64, 64, 8]", "D2Q9 is 2D", "nz = 1"});
}

TEST(CaseFile, ObstacleOutsideTheDomain) {
    expect_error(make_case() + R"(
[[obstacle]]
shape = "box"
min = [1, 1]
max = [4, 4]
[[obstacle]]
name = "cyl"
shape = "cylinder"
center = [70, 10]
radius = 3
)",
                 {"obstacle[1] (\"cyl\").center = [70, 10]: outside the domain [0, 63] x [0, 31]"});
    expect_error(make_case() + "[[obstacle]]\nshape = \"box\"\nmin = [1, 1]\nmax = [10, 32]\n",
                 {"obstacle[0] (\"obstacle0\").max = [10, 32]", "outside the domain"});
    expect_error(make_case() + "[[obstacle]]\nshape = \"box\"\nmin = [5, 1]\nmax = [5, 10]\n",
                 {"obstacle[0]", "min = [5, 1]", "below max"});
    expect_error(make_case() + "[[obstacle]]\nshape = \"sphere\"\ncenter = [5, 5]\nradius = 0\n",
                 {"obstacle[0] (\"obstacle0\").radius = 0", "> 0"});
    expect_error(make_case() + "[[obstacle]]\nshape = \"sphere\"\ncenter = [5, 5]\nmin = [1, 1]\n",
                 {"key 'obstacle[0].min'", "a sphere takes"});
    expect_error(make_case("lattice = \"D3Q19\"\ntau = 0.6", "size = [16, 16, 16]",
                           "[[obstacle]]\nshape = \"sphere\"\ncenter = [5, 5]\nradius = 2\n"),
                 {"key 'obstacle[0].center'", "3 numbers", "[5, 5]"});
}

TEST(CaseFile, BoundaryTables) {
    expect_error(make_case("lattice = \"D2Q9\"\ntau = 0.8", "size = [64, 32]\nperiodic = [true, false]",
                           "[boundary.x_min]\ntype = \"wall\"\n"),
                 {"key 'boundary.x_min'", "x axis is periodic"});
    expect_error(make_case("lattice = \"D2Q9\"\ntau = 0.8", "size = [64, 32]\nperiodic = [true, false, false]"),
                 {"key 'domain.periodic'", "3 entries", "domain.size has 2"});
    expect_error(make_case() + "[boundary.z_min]\ntype = \"wall\"\n", {"key 'boundary.z_min'", "2D"});
    expect_error(make_case() + "[boundary.y_min]\ntype = \"wall\"\nvelocity = [0.1, 0]\n",
                 {"key 'boundary.y_min.velocity'", "moving_wall"});
    expect_error(make_case() + "[boundary.y_min]\ntype = \"moving_wall\"\n", {"missing key 'boundary.y_min.velocity'"});
    expect_error(make_case() + "[boundary.y_min]\ntype = \"moving_wall\"\nvelocity = [0.1, 0.1]\n",
                 {"boundary.y_min.velocity = [0.1, 0.1]", "y component must be 0"});
    expect_error(make_case() + "[boundary.y_min]\ntype = \"wall\"\nmethod = \"zou_he\"\n",
                 {"key 'boundary.y_min.method'"});
    expect_error(make_case() + "[boundary.x_max]\ntype = \"pressure\"\ndensity = 0\n",
                 {"boundary.x_max.density = 0", "> 0"});
    expect_error(make_case("lattice = \"D2Q9\"\ntau = 0.8\nstreaming = \"in-place\"") +
                     "[boundary.x_max]\ntype = \"outflow\"\n",
                 {"boundary.x_max.type = \"outflow\"", "two-copy"});
    expect_error(make_case() + "[boundary.x_max]\ntype = \"exit\"\n", {"boundary.x_max.type", "\"outflow\""});
    // A velocity face opposite a pressure face is the usual channel.
    EXPECT_NO_THROW(parse_case_string(make_case() + "[boundary.x_min]\ntype = \"velocity\"\nvelocity = [0.05, 0]\n"
                                                    "[boundary.x_max]\ntype = \"pressure\"\ndensity = 1.0\n"));
}

TEST(CaseFile, MrtAvailability) {
    // MRT on every lattice; D3Q13 offers nothing else; each lattice takes only the rates it has.
    expect_error(make_case("lattice = \"D3Q13\"\ntau = 0.6\ncollision = \"bgk\"", "size = [16, 16, 16]"),
                 {"model.collision = \"bgk\": lattice D3Q13 offers \"mrt\" only"});
    expect_error(make_case("lattice = \"D2Q9\"\ntau = 0.6\ncollision = \"mrt\"\n[model.mrt]\ns_pi = 1.2"),
                 {"key 'model.mrt.s_pi'", "D3Q19"});
    expect_error(make_case("lattice = \"D3Q15\"\ntau = 0.6\ncollision = \"mrt\"\n[model.mrt]\ns_pi = 1.2",
                           "size = [16, 16, 16]"),
                 {"key 'model.mrt.s_pi'", "D3Q15 has no such moments"});
    expect_error(make_case("lattice = \"D3Q13\"\ntau = 0.6", "size = [15, 16, 16]"),
                 {"domain.size = [15, 16, 16]", "even nx, got 15"});
    expect_error(make_case("lattice = \"D2Q9\"\ntau = 0.6\ncollision = \"mrt\"\n[model.mrt]\ns_q = 2.0"),
                 {"model.mrt.s_q = 2", "(0, 2)"});
}

TEST(CaseFile, RunAndOutputRanges) {
    expect_error(make_case() + "[run]\nsteps = 0\n", {"run.steps = 0", ">= 1"});
    expect_error(make_case() + "[run]\ncheck_interval = 0\n", {"run.check_interval = 0", ">= 1"});
    expect_error(make_case() + "[run]\ndensity_range = [0.5, 0.9]\n", {"run.density_range = [0.5, 0.9]"});
    expect_error(make_case() + "[run]\nsteady_tolerance = -1\n", {"run.steady_tolerance = -1"});
    expect_error(make_case() + "[output]\ninterval = -5\n", {"output.interval = -5", ">= 0"});
    expect_error(make_case() + "[output]\nslice_position = 1.5\n", {"output.slice_position = 1.5", "[0, 1]"});
    expect_error(make_case() + "[output]\nslice_axis = \"x\"\n", {"output.slice_axis = \"x\"", "2D"});
    expect_error(make_case() + "[initial]\ndensity = 0\n", {"initial.density = 0", "> 0"});
    expect_error(make_case() + "[force]\nbody = [0, 0, 1e-5]\n", {"force.body = [0, 0, 1e-05]", "z component"});
}

TEST(CaseFile, MalformedOverride) {
    expect_error(make_case(), {"--set \"model.tau\"", "key=value"}, {"model.tau"});
    expect_error(make_case(), {"--set \"=0.8\""}, {"=0.8"});
    expect_error(make_case(), {"--set \"model..tau=1\"", "model..tau"}, {"model..tau=1"});
    expect_error(make_case(), {"--set \"model.tau.x=1\"", "'model.tau'", "not a table"}, {"model.tau.x=1"});
    expect_error(make_case(), {"--set \"obstacle[0].radius=1\"", "'obstacle'"}, {"obstacle[0].radius=1"});
    // Overrides go through the same checks as the file, and say where the value came from.
    expect_error(make_case(), {"--set model.colision=trt: ", "'model.colision'", "'model.collision'"},
                 {"model.colision=trt"});
    expect_error(make_case(), {"--set model.tau=abc: ", "key 'model.tau': expected a number, got string \"abc\""},
                 {"model.tau=abc"});
}

TEST(CaseFile, SyntaxErrorGivesSourceLineAndColumn) {
    const std::string text = "title = \"x\"\n[model]\nlattice = \"D2Q9\n";
    expect_error(text, {"test.toml:3:", "TOML syntax error"});
    expect_error("[model]\ntau = 0.8\ntau = 0.9\n", {"test.toml:3:", "syntax error"});

    const std::filesystem::path file = std::filesystem::temp_directory_path() / "barracuda_test_syntax.toml";
    {
        std::ofstream out(file);
        out << "[model]\nlattice = \"D2Q9\"\ntau = = 0.8\n";
    }
    try {
        parse_case_file(file);
        ADD_FAILURE() << "no CaseError";
    } catch (const CaseError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(file.string() + ":3:"), std::string::npos) << msg;
    }
    std::filesystem::remove(file);
}

TEST(CaseFile, MissingFile) {
    try {
        parse_case_file("/nonexistent/barracuda/case.toml");
        ADD_FAILURE() << "no CaseError";
    } catch (const CaseError& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/barracuda/case.toml"), std::string::npos) << e.what();
    }
}

// --- check_case and fill_model_defaults on specs built in code ------------

sim::CaseSpec valid_2d() {
    sim::CaseSpec s;
    s.model.lattice = lattice::Kind::D2Q9;
    s.size = {32, 16, 1};
    s.periodic = {false, false, true};
    s.faces[bc::ZMin].type = s.faces[bc::ZMax].type = FaceType::Periodic;
    return s;
}

TEST(CaseValidation, AValidSpecPasses) { EXPECT_NO_THROW(sim::check_case(valid_2d())); }

TEST(CaseValidation, MrtDefaultsAreFilled) {
    // D2Q9: every free rate follows tau (sim::mrt_rates), so nothing is filled.
    sim::CaseSpec s = valid_2d();
    sim::fill_model_defaults(s);
    EXPECT_DOUBLE_EQ(s.model.mrt.s_e, 0);
    EXPECT_DOUBLE_EQ(s.model.mrt.s_eps, 0);
    EXPECT_DOUBLE_EQ(s.model.mrt.s_q, 0);
    EXPECT_DOUBLE_EQ(sim::mrt_rates(s.model).s_e, 1 / s.model.tau);

    const sim::CaseSpec p = parse_case_string(
        make_case("lattice = \"D3Q19\"\ntau = 0.6\ncollision = \"mrt\"\n[model.mrt]\ns_e = 1.5", "size = [8, 8, 8]"));
    EXPECT_DOUBLE_EQ(p.model.mrt.s_e, 1.5);  // given: kept
    EXPECT_DOUBLE_EQ(p.model.mrt.s_eps, 1.4);
    EXPECT_DOUBLE_EQ(p.model.mrt.s_pi, 1.4);
    EXPECT_DOUBLE_EQ(p.model.mrt.s_q, 0);  // the odd moments: from tau
    EXPECT_DOUBLE_EQ(p.model.mrt.s_m, 0);
    EXPECT_NEAR(sim::mrt_rates(p.model).s_m, 1 / (0.5 + (3.0 / 16) / 0.1), 1e-12);
}

TEST(CaseValidation, PeriodicAxesAndFacesAgree) {
    sim::CaseSpec s = valid_2d();
    s.periodic[0] = true;  // faces still walls
    expect_valid_error(s, {"boundary.x_min.type = \"wall\"", "periodic"});
    s = valid_2d();
    s.faces[bc::YMax].type = FaceType::Periodic;  // axis not periodic
    expect_valid_error(s, {"boundary.y_max.type = \"periodic\"", "not periodic"});
}

TEST(CaseValidation, RatesChecked) {
    sim::CaseSpec s = valid_2d();
    s.model.collision = sim::Collision::MRT;
    s.model.mrt.s_e = 2;  // 0 is "from tau" (sim::mrt_rates); 2 does not relax
    expect_valid_error(s, {"model.mrt.s_e = 2", "(0, 2)"});
    s.model.mrt.s_e = 0;
    s.model.mrt.s_q = -1;
    expect_valid_error(s, {"model.mrt.s_q = -1", "(0, 2)"});
    s.model.trt_magic = 0;
    s.model.collision = sim::Collision::TRT;
    expect_valid_error(s, {"model.trt_magic = 0"});
}

// --- estimate_memory -----------------------------------------------------------

TEST(CaseMemory, KnownCases) {
    const sim::MemoryEstimate d = sim::estimate_memory(parse_case_string(barracuda::io::default_case_toml()));
    const std::int64_t cells = 48 * 48 * 48;
    EXPECT_EQ(d.population_bytes, 2 * 19 * 4 * cells);  // D3Q19 fp32: 16,809,984
    EXPECT_EQ(d.population_bytes, 16809984);
    EXPECT_EQ(d.node_kind_bytes, cells);
    EXPECT_EQ(d.output_bytes, 32 * cells);
    EXPECT_EQ(d.device_total(), 16809984 + 110592);

    sim::CaseSpec s = valid_2d();
    s.size = {128, 128, 1};
    s.model.precision = sim::Precision::FP64;
    EXPECT_EQ(sim::estimate_memory(s).population_bytes, 2 * 9 * 8 * 128 * 128);
}

TEST(CaseMemory, LargeCasesDoNotOverflow) {
    sim::CaseSpec s;
    s.model.lattice = lattice::Kind::D3Q27;
    s.model.precision = sim::Precision::FP64;
    s.size = {1024, 1024, 1024};
    const sim::MemoryEstimate m = sim::estimate_memory(s);
    EXPECT_EQ(m.population_bytes, std::int64_t(2) * 27 * 8 * (std::int64_t(1) << 30));
    EXPECT_EQ(m.output_bytes, std::int64_t(32) << 30);
}

}  // namespace

namespace {

// The fingerprint a restart checks (barracuda run --restart): the same for the same
// case however it is written, the same when only run.steps, run.backend or
// [output] change, different for any other key.
TEST(CaseFingerprint, HoldsWhatARestartMayNotChange) {
    const std::string base = make_case("lattice = \"D2Q9\"\ntau = 0.8", "size = [64, 32]",
                                       "[run]\nsteps = 100\n[output]\ninterval = 10\n");
    const auto fp = [](std::string_view text, const std::vector<std::string>& overrides = {}) {
        return parse_case_string(text, overrides, "test.toml").fingerprint;
    };
    const std::string reference = fp(base);
    EXPECT_EQ(reference.size(), 16u);
    // Layout, comments and key order do not count.
    EXPECT_EQ(fp("# a comment\ntitle = \"test\"\n[domain]\nsize = [ 64,32 ]\n[model]\ntau = 0.80\nlattice = \"D2Q9\"\n"
                 "[output]\ninterval = 10\n[run]\nsteps = 100\n"),
              reference);
    EXPECT_EQ(fp(base, {"run.steps=500"}), reference);
    EXPECT_EQ(fp(base, {"run.backend=cpu"}), reference);
    EXPECT_EQ(fp(base, {"output.interval=20", "output.directory=elsewhere"}), reference);
    // A case without [run]: --set run.steps makes the table, which must not count.
    const std::string bare = make_case();
    EXPECT_EQ(fp(bare, {"run.steps=500"}), fp(bare));
    EXPECT_EQ(fp(bare, {"run.steps=500", "run.backend=cpu"}), fp(bare));
    EXPECT_NE(fp(base, {"model.tau=0.9"}), reference);
    EXPECT_NE(fp(base, {"domain.size=[64, 34]"}), reference);
    EXPECT_NE(fp(base, {"run.check_interval=50"}), reference);
    // What a restart may change besides: the title; and the relaxation time is compared
    // as tau, however the case gives it (issue 21).
    EXPECT_EQ(fp(base, {"title=other"}), reference);
    // tau = 0.8 is nu = 0.1 (nu = (tau - 1/2) / 3): the same case.
    EXPECT_EQ(fp(make_case("lattice = \"D2Q9\"\nviscosity = 0.1", "size = [64, 32]",
                           "[run]\nsteps = 100\n[output]\ninterval = 10\n")),
              reference);
}

// A case said otherwise reads as the same case (io::same_case, a restart's second
// test when the fingerprints differ): keys given with their default values, numbers
// written otherwise, obstacles (arrays of tables, whose canonical text heads each
// element [obstacle.N]); any change to what the case is still counts (issue 21).
TEST(CaseFingerprint, SameCaseReadsBothTexts) {
    const auto with_obstacles = [](std::string_view first, std::string_view second) {
        return make_case("lattice = \"D2Q9\"\ntau = 0.8", "size = [64, 32]",
                         "[[obstacle]]\nshape = \"sphere\"\ncenter = [20, 16]\nradius = 4\n" + std::string(first) +
                             "[[obstacle]]\nshape = \"box\"\nmin = [40, 0]\n" + std::string(second));
    };
    const std::string base = with_obstacles("", "max = [44, 8]\n");
    const auto canonical = [](const std::string& text, const std::vector<std::string>& overrides = {}) {
        return parse_case_string(text, overrides, "test.toml").canonical;
    };
    const std::string reference = canonical(base);
    EXPECT_TRUE(barracuda::io::same_case(reference, reference, "test.toml"));
    const std::string same[] = {canonical(base, {"model.collision=bgk"}),
                                canonical(base, {"model.equilibrium=compressible", "model.forcing=guo"}),
                                canonical(base, {"boundary.x_min.type=wall", "run.check_interval=100"}),
                                canonical(base, {"model.trt_magic=0.1875", "domain.periodic=[false, false]"}),
                                canonical(with_obstacles("velocity = [0, 0]\n", "max = [44, 8]\n"))};
    for (const std::string& text : same) {
        EXPECT_NE(text, reference);  // the text differs...
        EXPECT_TRUE(barracuda::io::same_case(reference, text, "test.toml")) << text;  // ...the case does not
    }
    const std::string other[] = {canonical(base, {"model.collision=trt"}), canonical(base, {"run.check_interval=50"}),
                                 canonical(with_obstacles("", "max = [44, 9]\n"))};
    for (const std::string& text : other) EXPECT_FALSE(barracuda::io::same_case(reference, text, "test.toml")) << text;
    // A text this build cannot read is not shown to be the same.
    EXPECT_FALSE(barracuda::io::same_case(reference, "[model]\nno_such_key = 1\n", "test.toml"));
}

}  // namespace
