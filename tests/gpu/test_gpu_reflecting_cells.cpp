// The reflecting boundary cells on the GPU (record_warp_kernel, FP16: reflecting_kernel;
// kernel/reflecting_cells.hpp)
// against the CPU oracle, in the small room of tests/support.hpp: every kind of
// reflecting link (walls held by expressions, flux, moving wall, heater, cold sphere,
// bounce-back inlet with expressions, the Zou-He outlet with an absorbing layer and a
// zero-gradient temperature) beside general cells (free slip, the outlet's nodes next
// to the moving lid). The CPU's reflecting path
// equals its general path bit for bit (tests/test_reflecting_cells.cpp). Tolerance: the
// oracle's for FP32 (tests/gpu/test_gpu_oracle.cpp). Skipped without a CUDA GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "backend/device_info.hpp"
#include "backend/engine.hpp"
#include "gpu_support.hpp"
#include "io/case_file.hpp"
#include "sim/simulation.hpp"
#include "../sparse_cases.hpp"
#include "../support.hpp"

namespace barracuda {
namespace {

double max_relative(const std::vector<double>& a, const std::vector<double>& b) {
    double diff = 0, scale = 1e-30;
    for (std::size_t k = 0; k < a.size(); ++k) {
        if (!std::isfinite(b[k])) return INFINITY;
        diff = std::max(diff, std::abs(a[k] - b[k])), scale = std::max(scale, std::abs(a[k]));
    }
    return diff / scale;
}

/// Where two states of state_after (populations by direction, then temperatures) differ:
/// how many values, and the first one's population (or temperature) and node, for a
/// failure to say which path's arithmetic parted.
std::string where_they_differ(const std::vector<double>& a, const std::vector<double>& b, const backend::EngineSetup& s) {
    const std::size_t cells = std::size_t(s.grid.n[0]) * s.grid.n[1] * s.grid.n[2];
    std::size_t count = 0, first = a.size();
    for (std::size_t k = 0; k < a.size() && k < b.size(); ++k)
        if (std::memcmp(&a[k], &b[k], sizeof(double)) != 0) count += 1, first = std::min(first, k);
    if (count == 0) return "none differ";
    const std::size_t set = first / cells, cell = first % cells;
    const int x = int(cell % s.grid.n[0]), y = int(cell / s.grid.n[0] % s.grid.n[1]), z = int(cell / s.grid.n[0] / s.grid.n[1]);
    char text[200];
    std::snprintf(text, sizeof text, "%zu of %zu values differ; the first: %s %zu at (%d, %d, %d), %.17g against %.17g", count,
                  a.size(), set * cells + cells >= a.size() ? "temperature" : "population", set, x, y, z, a[first], b[first]);
    return text;
}

/// The small room of tests/support.hpp with the given streaming, into s; false (and said
/// so) where this build cannot run it on the GPU.
bool small_room(const char* pattern, backend::EngineSetup& s, const char* precision = "fp32") {
    if (!test::case_offered([&] {
            s = sim::engine_setup(io::parse_case_string(
                test::small_room, {std::string("model.streaming=\"") + pattern + "\"",
                                   std::string("model.precision=\"") + precision + "\""}));
        }))
        return false;
    return test::gpu_engine_built({s.lattice, s.precision, s.equilibrium, s.collision, s.pattern, s.scalar});
}

/// The populations, then the temperatures, of an engine made from s after its wavy start
/// and one call of step() for each count given.
std::vector<double> state_after(backend::Engine& e, const backend::EngineSetup& s,
                                std::initializer_list<std::int64_t> calls) {
    test::initialize_wavy(e, s);
    for (const auto n : calls) e.step(n);
    std::vector<double> f, theta;
    e.populations(f);
    e.scalar_field(theta);
    f.insert(f.end(), theta.begin(), theta.end());
    return f;
}

TEST(GpuOracle, ReflectingCellsMatchCpu) {
    if (backend::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU on this machine";
    for (const char* pattern : {"two-copy", "in-place"}) {
        SCOPED_TRACE(pattern);
        backend::EngineSetup s;
        if (!small_room(pattern, s)) continue;
        // The CPU's populations and temperatures after 9 steps (odd: in place ends on the
        // other parity), against the GPU's with reflecting cells and with the general path
        // alone (the same case's own round-off between the backends: tau = 0.52 and LES
        // amplify it, so the reflecting cells must do no worse than the general path).
        auto state = [&](bool gpu, bool general) {
            s.general_boundaries = general;
            return state_after(*(gpu ? backend::make_cuda_engine(s) : backend::make_cpu_engine(s)), s, {9});
        };
        const auto cpu = state(false, false), reflecting = state(true, false), general = state(true, true);
        ASSERT_EQ(cpu.size(), reflecting.size());
        const double by_reflecting = max_relative(cpu, reflecting), by_general = max_relative(cpu, general);
        std::printf("  %s: GPU against CPU, largest relative difference %.3g (reflecting cells), %.3g (general path)\n",
                    pattern, by_reflecting, by_general);
        EXPECT_LT(by_reflecting, 2e-5);
        EXPECT_LE(by_reflecting, 2 * by_general);  // both 2.15e-7 on the H100 (2026-11-26)
    }
}

// The forms of the records' update (backend::RecordForm: whole warps, every warp whole
// or every fluid cell packed without the bulk kernel, packed beside the bulk kernel,
// interleaved with its blocks in one launch) give the same populations and temperatures
// bit for bit, and so does the timed choice between them, whose trials run the run's own
// steps (33 a candidate, over the calls of 32 and 268 steps: nine candidates take 297;
// or, in one call of 600, a graph of 32 untimed and one timed each) and which drops the graphs captured in a
// candidate's form; each engine says it stepped in the form asked (record_form_in_use). The
// small room: records of every kind, open faces' among them; FP16 storage too.
TEST(GpuOracle, RecordFormsAgreeBitForBit) {
    if (backend::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU on this machine";
    for (const char* precision : {"fp32", "fp16"})
    for (const char* pattern : {"two-copy", "in-place"}) {
        SCOPED_TRACE(std::string(precision) + " " + pattern);
        backend::EngineSetup s;
        if (!small_room(pattern, s, precision)) continue;
        using backend::RecordForm;
        auto state = [&](RecordForm form, std::int64_t steps) {
            s.record_form = form;  // first 32 steps: a graph captured in the form of the moment
            const auto e = backend::make_cuda_engine(s);
            auto f = state_after(*e, s, {32, steps - 32});
            // The test can fail: a form the box does not qualify for falls back to the default
            // (the room does: its 24-cell rows put a face cell in every warp), and a timed
            // choice whose trial did not end would still be Timed.
            if (form == RecordForm::Timed) EXPECT_NE(int(e->record_form_in_use()), int(RecordForm::Timed));
            else EXPECT_EQ(int(e->record_form_in_use()), int(form)) << "the form asked did not run";
            return f;
        };
        if (std::getenv("BARRACUDA_FIRST_STEP")) {  // where the forms part after one step (diagnosis)
            auto first = [&](backend::RecordForm form) {
                s.record_form = form;
                return state_after(*backend::make_cuda_engine(s), s, {1});
            };
            const auto w1 = first(RecordForm::WholeWarps), p1 = first(RecordForm::Packed), i1 = first(RecordForm::Interleaved);
            std::printf("  one step: whole/packed %s\n  one step: whole/interleaved %s\n  one step: packed/interleaved %s\n",
                        where_they_differ(w1, p1, s).c_str(), where_they_differ(w1, i1, s).c_str(),
                        where_they_differ(p1, i1, s).c_str());
        }
        const auto whole = state(RecordForm::WholeWarps, 41);
        bool same = true;  // every other form against whole warps
        for (const auto& [form, name] : {std::pair{RecordForm::Packed, "packed"},
                                         std::pair{RecordForm::Interleaved, "interleaved"},
                                         std::pair{RecordForm::AllWarps, "every warp whole"},
                                         std::pair{RecordForm::AllPacked, "every fluid cell packed"}}) {
            const auto other = state(form, 41);
            ASSERT_EQ(whole.size(), other.size());
            EXPECT_EQ(0, std::memcmp(whole.data(), other.data(), whole.size() * sizeof(double)))
                << "whole warps against " << name << ": " << where_they_differ(whole, other, s);
            same = same && whole == other;
        }
        const auto whole_long = state(RecordForm::WholeWarps, 300), timed = state(RecordForm::Timed, 300);
        EXPECT_EQ(0, std::memcmp(whole_long.data(), timed.data(), whole_long.size() * sizeof(double)))
            << "whole warps against the timed choice";
        // One call of 600 steps: the candidates timed as graphs (try_forms), 64 steps each.
        s.record_form = RecordForm::Timed;
        const auto timed_engine = backend::make_cuda_engine(s);
        const auto timed_graphs = state_after(*timed_engine, s, {600});
        EXPECT_NE(int(timed_engine->record_form_in_use()), int(RecordForm::Timed));
        const auto whole_600 = state(RecordForm::WholeWarps, 600);
        EXPECT_EQ(0, std::memcmp(whole_600.data(), timed_graphs.data(), whole_600.size() * sizeof(double)))
            << "whole warps against the choice timed in graphs";
        std::printf("  %s %s: whole warps = every warp = every cell = packed = interleaved after 41 steps, = timed "
                    "after 300 and 600: %s\n",
                    precision, pattern,
                    same && whole_long == timed &&
                            whole_600 == timed_graphs
                        ? "bit for bit"
                        : "DIFFER");
    }
}

// Plain cells (kernel/links.hpp): in sparse storage the GPU drops their records and finds
// their links from the neighbours' classes (plain_warp_kernel, and record_warp_kernel
// beside records). Their update must be the records' bit for bit (BARRACUDA_RECORD_ALL
// keeps every record), in each record form, FP32 and FP16, both patterns: the porous box
// (every record plain) in 26 x 22 x 18 (periodic sizes of no multiple of 4: no
// neighbour-tile table, the kernels' path through the tile map) and in 28 x 24 x 20 (the
// table: the warps' neighbourhoods in shared memory, wrapping), and the duct (walls, open
// faces, a moving box and a sphere with interpolated links beside plain cells; the
// table). The CPU oracle of the same cases: GpuSparse.DenseAndSparseAgreeOnTheGpuAndWithTheCpu.
TEST(GpuOracle, PlainCellsUpdateAsTheirRecords) {
    if (backend::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU on this machine";
    using backend::RecordForm;
    int compared = 0;
    for (const char* precision : {"fp32", "fp16"})
        for (const char* pattern : {"two-copy", "in-place"})
            for (int shape : {0, 1, 2}) {  // porous box, the same aligned to tiles, duct
                const bool porous = shape < 2;
                const std::string model = std::string("lattice = \"D3Q19\"\ncollision = \"trt\"\nprecision = \"") +
                                          precision + "\"\nstreaming = \"" + pattern + "\"";
                const std::string label = std::string(precision) + " " + pattern +
                                          (shape == 0 ? " porous box" : shape == 1 ? " porous box 28x24x20" : " duct");
                SCOPED_TRACE(label);
                backend::EngineSetup s;
                if (!test::case_offered([&] {
                        std::string text = porous ? test::porous_case(model, 1) : test::duct_case(model, 1);
                        if (shape == 1) text.replace(text.find("[26, 22, 18]"), 12, "[28, 24, 20]");
                        s = sim::engine_setup(test::with_storage(text, "sparse"));
                    }))
                    continue;
                if (!test::gpu_engine_built(
                        {s.lattice, s.precision, s.equilibrium, s.collision, s.pattern, s.scalar, s.storage}))
                    continue;
                for (const RecordForm form : {RecordForm::WholeWarps, RecordForm::Packed, RecordForm::Interleaved}) {
                    s.record_form = form;
                    ::setenv("BARRACUDA_RECORD_ALL", "1", 1);
                    const auto with_records = backend::make_cuda_engine(s);
                    ::unsetenv("BARRACUDA_RECORD_ALL");
                    const auto with_plain = backend::make_cuda_engine(s);
                    // The test can fail: the plain cells' records are gone.
                    EXPECT_LT(with_plain->memory_bytes(), with_records->memory_bytes());
                    const auto records = state_after(*with_records, s, {32, 9});
                    const auto plain = state_after(*with_plain, s, {32, 9});
                    ASSERT_EQ(records.size(), plain.size());
                    EXPECT_EQ(0, std::memcmp(records.data(), plain.data(), records.size() * sizeof(double)))
                        << "form " << int(form) << ": " << where_they_differ(records, plain, s);
                    ++compared;
                }
                std::printf("  %s: plain cells = records, every form, after 41 steps\n", label.c_str());
            }
    EXPECT_GT(compared, 0);
}

}  // namespace
}  // namespace barracuda
