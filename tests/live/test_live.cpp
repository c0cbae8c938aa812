// The live view (barracuda run --serve, src/live): slices against the engine's own
// fields and an analytic vorticity, the session's checks of requests, steering and
// pausing through Simulation::run's hook, and the server's security with a real HTTP
// client. The browser test (tests/browser) drives the page itself.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <cmath>
#include <thread>

#include "common/error.hpp"
#include "io/case_file.hpp"
#include "live/frame.hpp"
#include "live/server.hpp"
#include "live/session.hpp"
#include "live/slice.hpp"

namespace {

using namespace barracuda;
using namespace std::chrono_literals;

// Plane Poiseuille flow in 3D: periodic along x and z, walls on y, driven by a body
// force. TRT with Lambda = 3/16 puts the half-way walls exactly, so the steady profile
// is u_x = g / (2 nu) (y + 1/2) (H - 1/2 - y) to round-off, and its vorticity
// |du_x/dy| = g / (2 nu) |H - 1 - 2 y| (central differences of a parabola are exact).
const char* channel = R"(
title = "live channel"
[model]
lattice = "D3Q19"
collision = "trt"
trt_magic = 0.1875
precision = "fp64"
tau = 1.0
[domain]
size = [4, 16, 6]
periodic = [true, false, true]
[force]
body = [1e-5, 0, 0]
[run]
steps = 100
)";

// A channel with an inlet and an outlet, for steering.
const char* inflow = R"(
title = "live inflow"
[model]
lattice = "D2Q9"
collision = "trt"
viscosity = 0.05
[domain]
size = [40, 16]
[boundary.x_min]
type = "velocity"
velocity = [0.04, 0.0]
[boundary.x_max]
type = "pressure"
density = 1.0
[run]
steps = 1000000
)";

TEST(LiveAddress, ParsesAndRefusesPublicWithoutTheFlag) {
    live::ServeOptions o;
    live::parse_serve_address("", o);
    EXPECT_EQ(o.host, "127.0.0.1");
    EXPECT_EQ(o.port, 0);
    live::parse_serve_address("8080", o);
    EXPECT_EQ(o.port, 8080);
    live::parse_serve_address("localhost:9000", o);
    EXPECT_EQ(o.host, "localhost");
    EXPECT_EQ(o.port, 9000);
    live::ServeOptions p;
    EXPECT_THROW(live::parse_serve_address("0.0.0.0:8080", p), CaseError);
    try {
        live::parse_serve_address("0.0.0.0:8080", p);
    } catch (const CaseError& e) {
        EXPECT_NE(std::string(e.what()).find("--serve-public"), std::string::npos) << e.what();
    }
    p.public_bind = true;
    live::parse_serve_address("0.0.0.0:8080", p);
    EXPECT_EQ(p.host, "0.0.0.0");
    for (const char* bad : {"70000", "abc", ":80", "127.0.0.1:-1", "host/x:80"}) {
        live::ServeOptions q;
        EXPECT_THROW(live::parse_serve_address(bad, q), CaseError) << bad;
    }
}

TEST(LiveSlice, EqualsTheEngineFieldsAndTheAnalyticVorticity) {
    sim::Simulation s(io::parse_case_string(channel), sim::BackendChoice::Cpu);
    s.advance(6000);  // viscous time H^2 / nu = 768 steps: steady to round-off
    std::vector<double> rho, u;
    s.owned_fields(rho, u);
    const auto& n = s.spec().size;
    const auto kinds = sim::output_node_kinds(s.spec());
    const auto at = [&](int x, int y, int z) { return std::size_t(x) + std::size_t(n[0]) * (std::size_t(y) + std::size_t(n[1]) * std::size_t(z)); };
    // Planes normal to each axis: values as fields() gives them (as float).
    for (const auto& spec : {live::SliceSpec{0, 2, live::Field::Ux}, live::SliceSpec{1, 5, live::Field::Density},
                             live::SliceSpec{2, 3, live::Field::Speed}}) {
        const auto slice = live::take_slice(s, spec, kinds);
        const int a = spec.axis == 0 ? 1 : 0, b = spec.axis == 2 ? 1 : 2;
        ASSERT_EQ(slice.width, n[std::size_t(a)]);
        ASSERT_EQ(slice.height, n[std::size_t(b)]);
        for (int j = 0; j < slice.height; ++j)
            for (int i = 0; i < slice.width; ++i) {
                std::array<int, 3> g{};
                g[std::size_t(spec.axis)] = spec.index, g[std::size_t(a)] = i, g[std::size_t(b)] = j;
                const auto c = at(g[0], g[1], g[2]);
                const double want = spec.field == live::Field::Ux        ? u[3 * c]
                                    : spec.field == live::Field::Density ? rho[c]
                                                                         : std::hypot(u[3 * c], u[3 * c + 1], u[3 * c + 2]);
                EXPECT_EQ(slice.value[std::size_t(j) * std::size_t(slice.width) + std::size_t(i)], float(want));
            }
    }
    // Vorticity: in the plane (normal x and z: d/dy along the plane) and across it (normal
    // y: d/dy from the neighbouring planes).
    const double g = 1e-5, nu = (1.0 - 0.5) / 3.0, H = n[1];
    for (const auto& spec : {live::SliceSpec{0, 1, live::Field::Vorticity}, live::SliceSpec{2, 2, live::Field::Vorticity},
                             live::SliceSpec{1, 5, live::Field::Vorticity}, live::SliceSpec{1, 11, live::Field::Vorticity}}) {
        const auto slice = live::take_slice(s, spec, kinds);
        for (int j = 0; j < slice.height; ++j)
            for (int i = 0; i < slice.width; ++i) {
                const int y = spec.axis == 1 ? spec.index : spec.axis == 0 ? i : j;
                if (y == 0 || y == n[1] - 1) continue;  // one-sided there
                const double want = g / (2 * nu) * std::abs(H - 1 - 2.0 * y);
                // 1e-6 of the largest vorticity: the profile's error after 6000 steps in FP64,
                // and the float the slice holds.
                EXPECT_NEAR(slice.value[std::size_t(j) * std::size_t(slice.width) + std::size_t(i)], want,
                            1e-6 * g / (2 * nu) * H)
                    << "axis " << spec.axis << " index " << spec.index << " at " << i << ", " << j;
            }
    }
}

TEST(LiveSlice, ChecksNameTheValueAndTheRange) {
    const auto spec = io::parse_case_string(inflow);
    EXPECT_EQ(live::check_slice({2, 0, live::Field::Speed}, spec), "");
    EXPECT_NE(live::check_slice({0, 0, live::Field::Speed}, spec).find("2D case"), std::string::npos);
    EXPECT_NE(live::check_slice({2, 1, live::Field::Speed}, spec).find("allowed 0..0"), std::string::npos);
    EXPECT_NE(live::check_slice({2, 0, live::Field::Temperature}, spec).find("[thermal]"), std::string::npos);
    EXPECT_NE(live::check_slice({3, 0, live::Field::Speed}, spec).find("axis 3"), std::string::npos);
}

TEST(LiveFrame, DrawsAPngWithTheRangeAsked) {
    live::Slice s;
    s.width = 3, s.height = 2;
    s.value = {0, 1, 2, 3, 4, NAN};
    s.kind = {0, 0, 0, 1, 0, 0};
    s.label = "x";
    const auto automatic = live::range_of(s, {});
    EXPECT_EQ(automatic[0], 0);  // the solid node (3) and NaN are left out
    EXPECT_EQ(automatic[1], 4);
    const auto fixed = live::range_of(s, {false, -1, 1});
    EXPECT_EQ(fixed[0], -1);
    EXPECT_EQ(fixed[1], 1);
    const auto png = live::frame_png(s, automatic, "title");
    ASSERT_GT(png.size(), 8u);
    EXPECT_EQ(png.substr(1, 3), "PNG");
}

TEST(LiveSession, OffersTheCasesSteerableValues) {
    const auto spec = io::parse_case_string(inflow);
    const auto st = live::steerables(spec);
    ASSERT_EQ(st.size(), 3u);
    EXPECT_EQ(st[0].key, "boundary.x_min.velocity");
    EXPECT_EQ(st[0].value, "[0.04, 0]");
    EXPECT_EQ(st[1].key, "boundary.x_max.density");
    EXPECT_EQ(st[2].key, "force.body");
}

TEST(LiveSession, RefusesBadRequestsAndSteersBetweenChunks) {
    sim::Simulation s(io::parse_case_string(inflow), sim::BackendChoice::Cpu);
    live::Session::Options o;
    o.case_text = inflow;
    live::Session session(s, nullptr, o);
    using R = live::Request;
    // Refused before anything is queued, with the reason.
    EXPECT_NE(session.request({R::Step, 0}).find("allowed 1 to 1000000"), std::string::npos);
    EXPECT_NE(session.request({R::Slice, 1, {0, 0, live::Field::Speed}}).find("2D case"), std::string::npos);
    R bad_key{R::Steer};
    bad_key.key = "model.tau", bad_key.value = "0.8";
    EXPECT_NE(session.request(bad_key).find("cannot be steered"), std::string::npos);
    R too_fast{R::Steer};
    too_fast.key = "boundary.x_min.velocity", too_fast.value = "[0.9, 0]";
    EXPECT_NE(session.request(too_fast).find("must be < 0.4"), std::string::npos);
    R newline{R::Steer};
    newline.key = "boundary.x_min.velocity", newline.value = "[0.05, 0]\nsnapshot";
    EXPECT_NE(session.request(newline).find("control characters"), std::string::npos);
    R not_toml{R::Steer};
    not_toml.key = "boundary.x_min.velocity", not_toml.value = "[0.05,";
    EXPECT_FALSE(session.request(not_toml).empty());

    // A good steer reaches the simulation at the next chunk's end, and is logged.
    R steer{R::Steer};
    steer.key = "boundary.x_min.velocity", steer.value = "[0.05, 0]";
    ASSERT_EQ(session.request(steer), "");
    s.advance(10);
    auto v = session.between(s.time());
    EXPECT_FALSE(v.snapshot);
    EXPECT_EQ(v.max_steps, 0);
    EXPECT_DOUBLE_EQ(s.spec().faces[0].velocity[0], 0.05);
    EXPECT_NE(session.status_json().find("steered: boundary.x_min.velocity = [0.05, 0]"), std::string::npos);

    // A snapshot is asked of the run; "step 5" pauses after five steps.
    ASSERT_EQ(session.request({R::Snapshot}), "");
    EXPECT_TRUE(session.between(s.time()).snapshot);
    ASSERT_EQ(session.request({R::Step, 5}), "");
    v = session.between(s.time());
    EXPECT_EQ(v.max_steps, 5);
    s.advance(3);
    EXPECT_EQ(session.between(s.time()).max_steps, 2);
    s.advance(2);

    // Paused: between() waits until resumed (a slice asked meanwhile is taken at once).
    std::atomic<bool> returned{false};
    std::thread solver([&] {
        session.between(s.time());
        returned = true;
    });
    std::this_thread::sleep_for(300ms);
    EXPECT_FALSE(returned);
    session.viewer_seen();
    ASSERT_EQ(session.request({R::Slice, 1, {2, 0, live::Field::Vorticity}}), "");
    for (int k = 0; k < 50 && (!session.frame() || session.frame()->spec.field != live::Field::Vorticity); ++k)
        std::this_thread::sleep_for(20ms);
    ASSERT_TRUE(session.frame());
    EXPECT_EQ(session.frame()->spec.field, live::Field::Vorticity);
    EXPECT_EQ(session.frame()->step, s.time());
    EXPECT_FALSE(returned);
    ASSERT_EQ(session.request({R::Resume}), "");
    solver.join();
    EXPECT_TRUE(returned);
}

// A sink that counts what the run hands it.
struct Counting : sim::OutputSink {
    std::vector<std::int64_t> written;
    void write(std::int64_t step, std::vector<double>, std::vector<double>, std::vector<double>) override {
        written.push_back(step);
    }
};

TEST(LiveRun, TheControlBoundsChunksAndWritesSnapshots) {
    auto spec = io::parse_case_string(inflow, {"run.steps=100", "output.interval=0"});
    sim::Simulation s(spec, sim::BackendChoice::Cpu);
    std::vector<std::int64_t> seen;
    std::int64_t snapped = -1;
    sim::ChunkControl control;
    control.between = [&](std::int64_t step) {
        seen.push_back(step);
        sim::ChunkVerdict v;
        v.max_steps = 7;
        if (step >= 20 && snapped < 0) v.snapshot = true, snapped = step;
        return v;
    };
    Counting sink;
    const auto r = s.run(&sink, {}, {}, {}, &control);
    EXPECT_EQ(r.steps, 100);
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen.front(), 0);  // asked before the first step
    for (std::size_t k = 1; k < seen.size(); ++k) EXPECT_LE(seen[k] - seen[k - 1], 7);
    // Step 0 and the end as the case says, and the snapshot where it was asked.
    ASSERT_GE(snapped, 20);
    EXPECT_EQ(sink.written, (std::vector<std::int64_t>{0, snapped, 100}));
}

// The inflow case served on a free port with the token "secret".
struct Served {
    static live::Session::Options session_options() {
        live::Session::Options o;
        o.case_text = inflow;
        return o;
    }
    static live::ServeOptions serve_options() {
        live::ServeOptions o;
        o.token = "secret";
        return o;
    }
    sim::Simulation simulation{io::parse_case_string(inflow), sim::BackendChoice::Cpu};
    live::Session session{simulation, nullptr, session_options()};
    live::Server server{session, serve_options()};
};

// The server with a real client: the token, the page's files only, sizes, bad requests.
TEST(LiveServer, AsksForTheTokenAndRefusesBadRequests) {
    Served served;
    auto& session = served.session;
    auto& server = served.server;
    httplib::Client c("127.0.0.1", server.port());
    const httplib::Headers with = {{"X-Barracuda-Token", "secret"}};
    const httplib::Headers wrong = {{"X-Barracuda-Token", "secrex"}};
    EXPECT_EQ(server.url(), "http://127.0.0.1:" + std::to_string(server.port()) + "/?token=secret");

    auto page = c.Get("/");
    ASSERT_TRUE(page);
    EXPECT_EQ(page->status, 200);
    EXPECT_NE(page->body.find("Barracuda live view"), std::string::npos);
    EXPECT_EQ(c.Get("/app.js")->status, 200);
    for (const char* path : {"/../CMakeLists.txt", "/%2e%2e/etc/passwd", "/src/live/web/app.js", "/nothing.html"})
        EXPECT_EQ(c.Get(path)->status, 404) << path;

    EXPECT_EQ(c.Get("/api/status")->status, 403);
    EXPECT_EQ(c.Get("/api/status", wrong)->status, 403);
    EXPECT_EQ(c.Get("/api/status?token=secret")->status, 200);
    auto status = c.Get("/api/status", with);
    ASSERT_EQ(status->status, 200);
    EXPECT_NE(status->body.find("\"paused\":false"), std::string::npos);
    EXPECT_EQ(c.Get("/api/frame.png", with)->status, 503);  // no frame yet

    EXPECT_EQ(c.Post("/api/control", "action=pause", "application/x-www-form-urlencoded")->status, 403);
    EXPECT_EQ(c.Post("/api/control", wrong, "action=pause", "application/x-www-form-urlencoded")->status, 403);
    for (const char* body : {"action=fly", "action=step&steps=x", "action=step&steps=99999999999999999999",
                             "action=slice&axis=2&index=0&field=pressure", "action=slice&axis=a&index=0&field=speed",
                             "action=steer&key=model.tau&value=1", "%zz=%%", "action"}) {
        auto r = c.Post("/api/control", with, body, "application/x-www-form-urlencoded");
        ASSERT_TRUE(r) << body;
        EXPECT_EQ(r->status, 400) << body << ": " << r->body;
        EXPECT_NE(r->body.find("\"error\""), std::string::npos) << body;
    }
    const std::string big(8000, 'a');
    EXPECT_EQ(c.Post("/api/control", with, "action=steer&value=" + big, "application/x-www-form-urlencoded")->status, 413);
    EXPECT_EQ(c.Post("/api/control", with, "action=pause", "application/x-www-form-urlencoded")->status, 202);

    EXPECT_EQ(c.Post("/api/control", with, "action=resume", "application/x-www-form-urlencoded")->status, 202);

    // A frame once the solver takes one (a viewer has asked for something).
    session.between(0);
    EXPECT_NE(c.Get("/api/status", with)->body.find("\"text\":\"resumed\""), std::string::npos);
    auto png = c.Get("/api/frame.png", with);
    ASSERT_EQ(png->status, 200);
    EXPECT_EQ(png->get_header_value("Content-Type"), "image/png");
    EXPECT_EQ(c.Get("/api/frame.png?lo=1&hi=0", with)->status, 400);
    EXPECT_EQ(c.Get("/api/frame.png?lo=0&hi=0.1", with)->status, 200);
    session.close();
}

// The first line of the answer to a request written by hand (what httplib's client
// would not send: chunked bodies, bodies without a length).
std::string raw_request(int port, const std::string& text) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(std::uint16_t(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return "no connection";
    }
    (void)!::send(fd, text.data(), text.size(), 0);
    char buf[512] = {};
    const auto got = ::recv(fd, buf, sizeof buf - 1, 0);
    ::close(fd);
    const std::string answer(buf, got > 0 ? std::size_t(got) : 0);
    return answer.substr(0, answer.find("\r\n"));
}

TEST(LiveServer, RefusesBodiesItCannotMeasureBeforeReadingThem) {
    Served served;
    auto& session = served.session;
    auto& server = served.server;
    // A chunked body (never ending) is refused at once, token or not, on any path.
    EXPECT_EQ(raw_request(server.port(), "POST /api/control HTTP/1.1\r\nHost: x\r\nX-Barracuda-Token: secret\r\n"
                                         "Transfer-Encoding: chunked\r\n\r\n100000\r\naaaa"),
              "HTTP/1.1 411 Length Required");
    EXPECT_EQ(raw_request(server.port(), "POST /nothing HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"),
              "HTTP/1.1 411 Length Required");
    EXPECT_EQ(raw_request(server.port(), "POST /api/control HTTP/1.1\r\nHost: x\r\n\r\naction=pause"),
              "HTTP/1.1 411 Length Required");
    EXPECT_EQ(raw_request(server.port(), "POST /index.html HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"),
              "HTTP/1.1 405 Method Not Allowed");
    EXPECT_EQ(raw_request(server.port(), "DELETE /api/status HTTP/1.1\r\nHost: x\r\n\r\n"),
              "HTTP/1.1 405 Method Not Allowed");
    session.close();
}

TEST(LiveServer, StopsRightAfterItStarts) {
    // A run that ends at once must not wait on the server's listening thread (it hung
    // when stop() came before the thread listened). The test's timeout is the check.
    sim::Simulation s(io::parse_case_string(inflow), sim::BackendChoice::Cpu);
    live::Session session(s, nullptr, {});
    for (int k = 0; k < 20; ++k) live::Server server(session, {});
}

TEST(LiveServer, ASecondServerCannotShareThePort) {
    sim::Simulation s(io::parse_case_string(inflow), sim::BackendChoice::Cpu);
    live::Session session(s, nullptr, {});
    live::Server first(session, {});
    live::ServeOptions o;
    o.port = first.port();
    EXPECT_THROW(live::Server second(session, o), ResourceError);
}

TEST(LiveServer, OpenViewLetsAnyoneWatchButNotSteer) {
    sim::Simulation s(io::parse_case_string(inflow), sim::BackendChoice::Cpu);
    live::Session session(s, nullptr, {});
    live::ServeOptions o;
    o.open_view = true;
    live::Server server(session, o);
    EXPECT_EQ(server.token().size(), 32u);  // a random one
    httplib::Client c("127.0.0.1", server.port());
    EXPECT_EQ(c.Get("/api/status")->status, 200);
    EXPECT_EQ(c.Post("/api/control", "action=pause", "application/x-www-form-urlencoded")->status, 403);
    session.close();
}

}  // namespace

namespace {

// On a GPU: the slice the CUDA engine gives equals the CPU engine's (FP64, the same
// case and steps: the GPU oracle's agreement, tests/gpu), for every field.
TEST(LiveSlice, CudaEqualsTheCpuOracle) {
    const auto spec = io::parse_case_string(channel, {"domain.size=[12, 16, 10]"});
    std::unique_ptr<sim::Simulation> gpu;
    try {
        gpu = std::make_unique<sim::Simulation>(spec, sim::BackendChoice::Cuda);
    } catch (const ResourceError& e) {
        GTEST_SKIP() << e.what();
    } catch (const CaseError& e) {  // this build has no CUDA engine for the case
        GTEST_SKIP() << e.what();
    }
    sim::Simulation cpu(spec, sim::BackendChoice::Cpu);
    gpu->advance(200);
    cpu.advance(200);
    const auto kinds = sim::output_node_kinds(spec);
    for (auto field : live::fields_of(spec))
        for (int axis = 0; axis < 3; ++axis) {
            const live::SliceSpec s{axis, spec.size[std::size_t(axis)] / 2, field};
            const auto a = live::take_slice(*gpu, s, kinds), b = live::take_slice(cpu, s, kinds);
            ASSERT_EQ(a.value.size(), b.value.size());
            for (std::size_t k = 0; k < a.value.size(); ++k)
                EXPECT_NEAR(a.value[k], b.value[k], 1e-6 * (std::abs(b.value[k]) + 1e-6))
                    << live::field_name(field) << " axis " << axis << " at " << k;
        }
}

}  // namespace
