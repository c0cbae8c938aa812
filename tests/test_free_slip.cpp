// Free-slip faces (kernel/stream_collide.hpp): specular reflection half a
// spacing outside the last node layer. For a flow uniform along the wall the
// free-slip face is a mirror plane, so a channel of N nodes between a wall and
// a free-slip face must reproduce, node for node, the lower half of a channel
// of 2N nodes between two walls: the reflected populations are exactly what
// the mirror-image node would have streamed in. Checked while the flow is
// still developing (every population of every step, not only a steady profile)
// and for the steady state against the closed form of the half channel.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "backend/engine.hpp"
#include "support.hpp"

namespace barracuda {
namespace {

using boundary::FaceType;
using physics::CollisionKind;

struct Param {
    lattice::Kind lattice;
    CollisionKind collision;
    storage::Pattern pattern;
};

std::string name_of(const Param& p) {
    return std::string(lattice::name_of(p.lattice)) + "_" + physics::name_of(p.collision) + "_" +
           (p.pattern == storage::Pattern::TwoCopy ? "two_copy" : "in_place");
}

/// Velocity along x over the wall-normal axis (y in 2D, z in 3D) after `steps`, for a
/// channel of n nodes across, driven by a body force along x.
std::vector<double> channel(const Param& p, int n, FaceType top, int steps) {
    const bool three_d = p.lattice != lattice::Kind::D2Q9;
    auto s = three_d ? test::periodic_box(p.lattice, 2, 3, n, 0.8, storage::Precision::FP64, p.collision)
                     : test::periodic_box(p.lattice, 2, n, 1, 0.8, storage::Precision::FP64, p.collision);
    s.pattern = p.pattern;
    test::set_faces(s, three_d ? 2 : 1, FaceType::Wall, top);
    s.force[0] = 1e-5;
    auto e = backend::make_cpu_engine(s);
    test::initialize_at_rest(*e, s);
    e->step(steps);
    std::vector<double> rho, u;
    e->fields(rho, u);
    const std::size_t stride = three_d ? 2 * 3 : 2;  // cells per layer across the channel
    std::vector<double> ux(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) ux[std::size_t(k)] = u[3 * (stride * std::size_t(k))];
    return ux;
}

class FreeSlip : public ::testing::TestWithParam<Param> {};

TEST_P(FreeSlip, IsTheMirrorPlaneOfAChannelTwiceAsWide) {
    const int n = 12;
    const auto half = channel(GetParam(), n, FaceType::FreeSlip, 400);
    const auto full = channel(GetParam(), 2 * n, FaceType::Wall, 400);
    double worst = 0, peak = 0;
    for (int k = 0; k < n; ++k) {
        worst = std::max(worst, std::abs(half[std::size_t(k)] - full[std::size_t(k)]));
        peak = std::max(peak, std::abs(full[std::size_t(k)]));
    }
    EXPECT_GT(peak, 1e-4);
    // The same arithmetic in another order (sums over a different set of nodes): rounding only.
    EXPECT_LT(worst, 1e-12 * peak) << name_of(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Lattices, FreeSlip,
    ::testing::Values(Param{lattice::Kind::D2Q9, CollisionKind::BGK, storage::Pattern::TwoCopy},
                      Param{lattice::Kind::D2Q9, CollisionKind::MRT, storage::Pattern::InPlace},
                      Param{lattice::Kind::D3Q15, CollisionKind::TRT, storage::Pattern::TwoCopy},
                      Param{lattice::Kind::D3Q19, CollisionKind::TRT, storage::Pattern::InPlace},
                      Param{lattice::Kind::D3Q19, CollisionKind::MRT, storage::Pattern::TwoCopy},
                      Param{lattice::Kind::D3Q27, CollisionKind::Regularized, storage::Pattern::InPlace}),
    [](const auto& info) { return name_of(info.param); });

// The steady half channel against its closed form: u(y) = g/(2 nu) (2 H y' - y'^2) with
// y' = y + 1/2 from the wall and H = n the distance to the free-slip plane. TRT's
// Lambda = 3/16 places the wall exactly, so the error is round-off plus the
// convergence criterion (tolerance 1e-6 of u_max).
TEST(FreeSlipChannel, SteadyProfileIsHalfAPoiseuilleParabola) {
    const Param p{lattice::Kind::D2Q9, CollisionKind::TRT, storage::Pattern::TwoCopy};
    const int n = 10;
    const auto u = channel(p, n, FaceType::FreeSlip, 20000);
    const double nu = (0.8 - 0.5) / 3, g = 1e-5;
    const double umax = g / (2 * nu) * n * n;
    for (int k = 0; k < n; ++k) {
        const double y = k + 0.5;
        EXPECT_NEAR(u[std::size_t(k)], g / (2 * nu) * (2 * n * y - y * y), 1e-6 * umax) << "node " << k;
    }
}

}  // namespace
}  // namespace barracuda
