// Storage layer: binary16 conversion and the equivalence of the streaming
// patterns. The in-place (AA) pattern performs exactly the same arithmetic as
// the two-copy pattern, only at other addresses, so on the same backend the
// two must agree bit for bit, with every boundary rule in play.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <random>

#include "support.hpp"
#include "common/error.hpp"
#include "storage/half.hpp"
#include "storage/layout.hpp"
#include "storage/two_copy.hpp"
#include "lattice/scalar_sets.hpp"

namespace barracuda {
namespace {

using storage::Half;

float bits_to_float(std::uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

TEST(Half, EveryHalfSurvivesTheRoundTrip) {
    for (std::uint32_t b = 0; b < 0x10000u; ++b) {
        const Half h{std::uint16_t(b)};
        const float f = storage::to_float(h);
        if (std::isnan(f)) {
            EXPECT_TRUE(std::isnan(storage::to_float(storage::to_half(f)))) << b;
            continue;
        }
        EXPECT_EQ(storage::to_half(f).bits, h.bits) << "half bits " << b;
    }
}

TEST(Half, KnownValues) {
    EXPECT_EQ(storage::to_half(1.0f).bits, 0x3c00);
    EXPECT_EQ(storage::to_half(-2.0f).bits, 0xc000);
    EXPECT_EQ(storage::to_half(65504.0f).bits, 0x7bff);  // largest finite
    EXPECT_EQ(storage::to_half(65520.0f).bits, 0x7c00);  // the tie above it rounds to even: infinity
    EXPECT_EQ(storage::to_half(6.103515625e-05f).bits, 0x0400);  // smallest normal, 2^-14
    EXPECT_EQ(storage::to_half(5.9604644775390625e-08f).bits, 0x0001);  // smallest subnormal, 2^-24
    EXPECT_EQ(storage::to_half(2.98023223876953125e-08f).bits, 0x0000);  // 2^-25: tie, rounds to even 0
    EXPECT_EQ(storage::to_half(1.0f + 1.0f / 2048).bits, 0x3c00);        // tie between 1 and 1+2^-10: even
    EXPECT_EQ(storage::to_half(1.0f + 3.0f / 2048).bits, 0x3c02);        // tie: rounds up to even
    EXPECT_FLOAT_EQ(storage::to_float(Half{0x3555}), 0.333251953125f);
}

#if defined(__FLT16_MAX__)
// GCC's _Float16 converts with the same rounding (nearest, ties to even): an
// independent oracle for the hand-written conversion over random bit patterns.
TEST(Half, MatchesTheCompilersFloat16OnRandomFloats) {
    std::mt19937 rng(7);
    for (int n = 0; n < 2000000; ++n) {
        const float f = bits_to_float(rng());
        if (std::isnan(f)) continue;
        const _Float16 ref = static_cast<_Float16>(f);
        std::uint16_t ref_bits;
        std::memcpy(&ref_bits, &ref, 2);
        ASSERT_EQ(storage::to_half(f).bits, ref_bits) << "float " << f;
    }
}
#endif

// Truncation (the GPU's cvt.rz.f16.f32, emulated on the host): the binary16 value
// nearest to zero of the two around f, the largest finite one beyond it.
TEST(Half, TowardZeroKeepsTheLowerMagnitude) {
    std::mt19937 rng(11);
    for (int n = 0; n < 2000000; ++n) {
        const float f = bits_to_float(rng());
        if (std::isnan(f)) {
            EXPECT_TRUE(std::isnan(storage::to_float(storage::to_half_toward_zero(f))));
            continue;
        }
        const Half h = storage::to_half_toward_zero(f);
        const float a = std::abs(storage::to_float(h));
        ASSERT_EQ(h.bits >> 15, std::signbit(f) ? 1u : 0u) << f;
        if (std::isinf(f)) {
            ASSERT_TRUE(std::isinf(a)) << f;
            continue;
        }
        ASSERT_LE(a, std::abs(f)) << f;
        const Half next{std::uint16_t((h.bits & 0x7fffu) + 1u)};
        if ((h.bits & 0x7fffu) < 0x7bffu) ASSERT_GT(storage::to_float(next), std::abs(f)) << f;
    }
    EXPECT_EQ(storage::to_half_toward_zero(65535.0f).bits, 0x7bff);   // beyond the largest finite: it
    EXPECT_EQ(storage::to_half_toward_zero(-1e30f).bits, 0xfbff);
    EXPECT_EQ(storage::to_half_toward_zero(1.0f + 1.0f / 1500).bits, 0x3c00);
    EXPECT_EQ(storage::to_half_toward_zero(5.9604644775390625e-08f * 1.99f).bits, 0x0001);  // subnormal
}

// Stochastic rounding: always one of the two neighbouring binary16 values, and
// exact in expectation where the result is a normal binary16 number (the flow's
// populations are scaled so that they are, storage/access.hpp). 2^16 draws: the
// mean's standard error is at most ulp / 2 / 256, so 4 standard errors (ulp / 128)
// separate it from the bias of round-to-nearest (up to ulp / 2) by a factor 64.
TEST(Half, StochasticRoundingIsUnbiased) {
    for (const float v : {0.0123456f, -0.0031f, 0.333333f, 7.77e-5f, -65500.3f, 6.1035e-5f * 1.7f}) {
        const float lo = storage::to_float(storage::to_half(v));
        double sum = 0;
        float a = lo, b = lo;
        for (std::uint32_t n = 0; n < 65536; ++n) {
            const float h = storage::to_float(storage::to_half_stochastic(v, storage::rounding_draw(n, 3, 17)));
            sum += h;
            a = std::min(a, h), b = std::max(b, h);
        }
        const double ulp = double(b - a);
        EXPECT_GT(ulp, 0.0) << v;  // v is not a binary16 value: both neighbours occur
        EXPECT_LE(std::abs(a - v), ulp) << v;
        EXPECT_LE(std::abs(b - v), ulp) << v;
        EXPECT_NEAR(sum / 65536, double(v), ulp / 128) << v;
    }
    // Values that are binary16 numbers are kept exactly; NaN stays NaN whatever the draw.
    for (const float v : {0.5f, -0.0078125f, 6.103515625e-05f})
        EXPECT_EQ(storage::to_half_stochastic(v, 0xffffffffu).bits, storage::to_half(v).bits);
    // 0x7fffffff: the GPU's canonical NaN, whose payload the word would carry into the sign bit.
    for (const float nan : {std::nanf(""), bits_to_float(0x7fffffffu), bits_to_float(0xffc00000u)})
        for (const std::uint32_t r : {0u, 0x1fffu, 0xffffffffu})
            EXPECT_TRUE(std::isnan(storage::to_float(storage::to_half_stochastic(nan, r)))) << r;
}

// The scale 2^E enters through the exponent field (half.hpp): the same binary16 as
// rounding the product, for values of every sign and size up to 2^(128 - E), zeros
// and float subnormals; NaN stays NaN and infinity infinite.
TEST(Half, ScaleByTheExponentEqualsTheProduct) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> exponent(-140.0f, 110.0f);
    std::vector<float> values = {0.0f, -0.0f, 1e-45f, -1e-45f, 1.17e-38f, -3.0e-39f, 1.0f, -1.0f, 7.99f, -8.01f,
                                 65504.0f / 8192, 1e30f, -1e30f, 0x1p114f, -0x1p114f, INFINITY, std::nanf("")};
    for (int k = 0; k < 20000; ++k) values.push_back((k % 2 ? -1.0f : 1.0f) * std::exp2(exponent(rng)));
    for (const float v : values)
        for (const std::uint32_t r : {0u, 0x80000000u, 0xffffffffu, std::uint32_t(rng())}) {
            const Half scaled = storage::to_half_stochastic<13>(v, r), product = storage::to_half_stochastic(v * 0x1p13f, r);
            if (std::isnan(v)) EXPECT_TRUE(std::isnan(storage::to_float(scaled)));
            else if (std::isinf(v)) EXPECT_EQ(scaled.bits, 0x7c00u);  // kept infinite (the product's bits + word: NaN)
            else EXPECT_EQ(scaled.bits, product.bits) << v << " " << r;
        }
}

// The flow's populations are stored times 2^13 (storage/access.hpp): a round trip
// keeps binary16's relative precision down to 2^-27, where unscaled storage would
// have fallen to subnormals below 2^-14; a scalar set's values are stored as they are.
TEST(Half, FlowPopulationsAreScaled) {
    using Flow = storage::TwoCopy<lattice::D3Q19, Half, float>;
    using Scalar = storage::TwoCopy<lattice::D3Q7, Half, float>;
    static_assert(Flow::E == 13 && Scalar::E == 0);
    std::vector<Half> a(2 * 4), b(2 * 4);  // populations 0 and 1 of 4 cells (found by AddressSanitizer: was 4)
    const Flow flow{a.data(), b.data(), 4};
    for (const float v : {3.0e-7f, -1.0e-6f, 0.25f, 7.99f}) {
        flow.put(1, 0, 0, true, v);
        const float back = storage::from_storage<float, Flow::E>(b[std::size_t(1 * 4)]);
        EXPECT_LE(std::abs(back - v), std::abs(v) * 0x1p-11f) << v;
    }
    Scalar{a.data(), b.data(), 4}.put(0, 0, 0, true, 20.0f);
    EXPECT_EQ(b[0].bits, storage::to_half(20.0f).bits);
}

// A store without a step clock (initial states, walls' overwrites) rounds to nearest
// through the same stochastic path, with nearest_word (storage/access.hpp): half a
// binary16 unit added, then truncated. It differs from to_half (ties to even) only at
// exact ties, which are left out here.
TEST(Half, StoreWithoutClockRoundsToNearest) {
    using Flow = storage::TwoCopy<lattice::D3Q19, Half, float>;
    std::vector<Half> a(2 * 4), b(2 * 4);
    const Flow flow{a.data(), b.data(), 4};
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> magnitude(-20.0f, 3.0f);
    int compared = 0;
    for (int k = 0; k < 20000; ++k) {
        const float v = (k % 2 ? -1.0f : 1.0f) * std::exp2(magnitude(rng));
        const float scaled = v * 0x1p13f;
        std::uint32_t bits;
        std::memcpy(&bits, &scaled, 4);
        if ((bits & 0x1fffu) == 0x1000u) continue;  // a tie
        flow.put(1, 0, 0, true, v);
        EXPECT_EQ(b[std::size_t(1 * 4)].bits, storage::to_half(scaled).bits) << v;
        ++compared;
    }
    EXPECT_GT(compared, 19000);
}

// The layouts' division by multiplication (storage/layout.hpp, Divisor): the same
// quotient as the division for divisors and dividends at the edges of 32 bits and
// at random.
TEST(Storage, DivisorMatchesTheDivision) {
    std::mt19937 rng(3);
    std::vector<std::uint32_t> divisors = {1, 2, 3, 5, 7, 64, 100, 255, 256, 257, 641, 1400, 65535, 65536, 65537,
                                           0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu};
    for (int k = 0; k < 200; ++k) divisors.push_back(rng() | 1u), divisors.push_back(rng() >> (rng() % 32) | 1u);
    for (const std::uint32_t d : divisors) {
        const storage::detail::Divisor by(d);
        std::vector<std::uint32_t> dividends = {0, 1, d - 1, d, d + 1, 0xfffffffeu, 0xffffffffu};
        for (std::uint32_t q : {2u, 3u, 1000u, 0xffffffffu / d}) dividends.push_back(q * d - 1), dividends.push_back(q * d);
        for (int k = 0; k < 2000; ++k) dividends.push_back(rng());
        for (const std::uint32_t n : dividends) ASSERT_EQ(by.quotient(n), n / d) << n << " / " << d;
    }
}

// The bulk path's neighbours (storage/layout.hpp, StepCursor): 32-bit steps modulo
// 2^32 reach the cell that hop() reaches, for every node and link of small boxes with
// periodic and closed axes, and at the corners and edges of boxes of nearly 2^32 cells
// (a dense layout addresses fewer: their last cells' indices are near 2^32 and a wrapped
// step is a large negative one). Layouts need no memory, so the big boxes cost none.
template <class L, class Layout>
void check_bulk_neighbours(const Layout& box, const std::vector<std::array<int, 3>>& nodes) {
    for (const auto& node : nodes) {
        const int pos[3] = {node[0], node[1], node[2]};
        if (!box.holds(pos[0], pos[1], pos[2])) continue;
        const storage::index_t cell = box.index(pos[0], pos[1], pos[2]);
        const auto cursor = box.cursor(pos);
        for (int i = 0; i < L::Q; ++i)
            for (int sign : {-1, 1}) {
                const auto hop = box.template hop<L>(pos, i, sign);
                if (hop.exits) continue;  // a bulk cell has none: its neighbours are all inside
                ASSERT_EQ((Layout::template neighbour<L>(cursor, cell, i, sign)), hop.cell)
                    << L::name << " node " << pos[0] << " " << pos[1] << " " << pos[2] << " link " << i << " sign " << sign;
            }
    }
}

std::vector<std::array<int, 3>> every_node(const int (&n)[3]) {
    std::vector<std::array<int, 3>> nodes;
    for (int z = 0; z < n[2]; ++z)
        for (int y = 0; y < n[1]; ++y)
            for (int x = 0; x < n[0]; ++x) nodes.push_back({x, y, z});
    return nodes;
}

TEST(Storage, BulkNeighboursAreTheLinksCells) {
    for (const auto& periodic : {std::array{true, true, true}, std::array{false, true, false}}) {
        const bool p[3] = {periodic[0], periodic[1], periodic[2]};
        check_bulk_neighbours<lattice::D3Q19>(storage::DenseBox{{7, 5, 6}, p}, every_node({7, 5, 6}));
        check_bulk_neighbours<lattice::D3Q27>(storage::DenseBox{{4, 6, 5}, p}, every_node({4, 6, 5}));
        check_bulk_neighbours<lattice::D2Q9>(storage::DenseBox{{9, 7, 1}, p}, every_node({9, 7, 1}));
        check_bulk_neighbours<lattice::D3Q13>(storage::SublatticeBox{{8, 6, 4}, p}, every_node({8, 6, 4}));
    }
    // 2^32 - 2^21 cells: 2047 x 2048 x 1024, periodic; the corners, the edges' middles and
    // the last row.
    const int n[3] = {2047, 2048, 1024};
    std::vector<std::array<int, 3>> nodes;
    for (int x : {0, 1, 1023, 2045, 2046})
        for (int y : {0, 1, 1024, 2047})
            for (int z : {0, 1, 512, 1022, 1023}) nodes.push_back({x, y, z});
    const storage::DenseBox big{n, {true, true, true}};
    ASSERT_LE(big.cells(), storage::max_box_cells);
    ASSERT_GT(big.cells(), storage::max_box_cells - (storage::index_t(1) << 22));
    check_bulk_neighbours<lattice::D3Q27>(big, nodes);
    // D3Q13's sub-lattice of 4094 x 2048 x 1024 nodes (x even): 2^32 - 2^21 cells.
    for (int y : {0, 2047})
        for (int z : {0, 1023}) nodes.push_back({4092, y, z}), nodes.push_back({4093, y, z});
    const storage::SublatticeBox half{{4094, 2048, 1024}, {true, true, true}};
    ASSERT_LE(half.cells(), storage::max_box_cells);
    check_bulk_neighbours<lattice::D3Q13>(half, nodes);
}

// The engines refuse a dense box beyond max_box_cells before allocating anything
// (backend/offered.cpp): `barracuda bench` builds its engines without sim::Simulation's
// check, and a box of 2^32 cells would wrap the stores' 32-bit cell count to zero.
TEST(Storage, EnginesRefuseDenseBoxesBeyondTheirAddresses) {
    backend::EngineSetup s;
    s.lattice = lattice::Kind::D2Q9;
    s.grid.n[0] = 65536, s.grid.n[1] = 65536, s.grid.n[2] = 1;  // 2^32 cells, D2Q9 FP16 fits an H200
    ASSERT_GT(s.grid.cells(), storage::max_box_cells);
    try {
        backend::make_cpu_engine(s);
        ADD_FAILURE() << "a dense box of 2^32 cells was accepted";
    } catch (const CaseError& e) {
        EXPECT_NE(std::string(e.what()).find("4294967295"), std::string::npos) << e.what();
    }
}

struct PatternCase {
    lattice::Kind lattice;
    physics::CollisionKind collision;
    storage::Precision precision;
    boundary::Method method;
};

class PatternEquivalence : public ::testing::TestWithParam<PatternCase> {};

TEST_P(PatternEquivalence, InPlaceEqualsTwoCopyBitForBit) {
    const auto c = GetParam();
    // An odd number of steps leaves the in-place copy in its shuffled (odd) layout:
    // populations and fields must still read back identically.
    for (const int steps : {1, 24, 25}) {
        auto two = test::every_boundary_channel(c.lattice, c.collision, physics::EquilibriumKind::Compressible,
                                                c.precision, c.method, storage::Pattern::TwoCopy);
        auto one = two;
        one.pattern = storage::Pattern::InPlace;
        auto a = backend::make_cpu_engine(two);
        auto b = backend::make_cpu_engine(one);
        test::initialize_wavy(*a, two);
        test::initialize_wavy(*b, one);
        a->step(steps);
        b->step(steps);
        std::vector<double> fa, fb, ra, ua, rb, ub;
        a->populations(fa);
        b->populations(fb);
        a->fields(ra, ua);
        b->fields(rb, ub);
        ASSERT_EQ(fa, fb) << steps << " steps: populations differ";
        ASSERT_EQ(ra, rb) << steps << " steps: densities differ";
        ASSERT_EQ(ua, ub) << steps << " steps: velocities differ";
        EXPECT_LT(b->memory_bytes(), a->memory_bytes());
    }
}

std::vector<PatternCase> pattern_cases() {
    std::vector<PatternCase> out;
    using P = storage::Precision;
    for (auto lat : {lattice::Kind::D2Q9, lattice::Kind::D3Q15, lattice::Kind::D3Q19, lattice::Kind::D3Q27})
        for (auto prec : {P::FP64, P::FP32, P::FP16})
            out.push_back({lat, physics::CollisionKind::BGK, prec, boundary::Method::ZouHe});
    out.push_back({lattice::Kind::D3Q19, physics::CollisionKind::TRT, P::FP32, boundary::Method::Equilibrium});
    out.push_back({lattice::Kind::D3Q19, physics::CollisionKind::MRT, P::FP64, boundary::Method::ZouHe});
    out.push_back({lattice::Kind::D2Q9, physics::CollisionKind::MRT, P::FP16, boundary::Method::Equilibrium});
    // Bounce-back inflow: its links keep their population in place like a wall's.
    out.push_back({lattice::Kind::D3Q19, physics::CollisionKind::TRT, P::FP32, boundary::Method::BounceBack});
    return out;
}

INSTANTIATE_TEST_SUITE_P(Storage, PatternEquivalence, ::testing::ValuesIn(pattern_cases()),
                         [](const auto& info) {
                             const auto& c = info.param;
                             return std::string(lattice::name_of(c.lattice)) + "_" +
                                    physics::name_of(c.collision) + "_" + storage::name_of(c.precision) + "_" +
                                    (c.method == boundary::Method::ZouHe         ? "zouhe"
                                     : c.method == boundary::Method::BounceBack ? "bounceback"
                                                                                : "equilibrium");
                         });

TEST(Storage, MemoryPerCellFollowsPatternAndPrecision) {
    using storage::memory_bytes_per_cell;
    // D3Q19: 2 x 19 x 4 + 1 = 153 two-copy FP32; in place: 77 FP32, 39 FP16 (FluidX3D: 93 and 55).
    EXPECT_EQ(memory_bytes_per_cell(19, storage::Precision::FP32, storage::Pattern::TwoCopy), 153);
    EXPECT_EQ(memory_bytes_per_cell(19, storage::Precision::FP32, storage::Pattern::InPlace), 77);
    EXPECT_EQ(memory_bytes_per_cell(19, storage::Precision::FP16, storage::Pattern::InPlace), 39);
    EXPECT_EQ(memory_bytes_per_cell(19, storage::Precision::FP64, storage::Pattern::InPlace), 153);
}

}  // namespace
}  // namespace barracuda
