#include "sim/wall_links.hpp"

#include <limits>

#include "boundary/bounce_back.hpp"
#include "kernel/links.hpp"
#include "lattice/lattice.hpp"
#include "sim/force_links.hpp"

namespace barracuda::sim {

namespace {

template <class L>
std::vector<kernel::WallLink> build(const CaseSpec& spec, const storage::Grid& g, const boundary::Parameters& faces,
                                    const std::vector<std::uint8_t>& kind, const std::vector<std::int32_t>& owner) {
    const std::vector<int> list_of = force_list_of(spec);
    // A body over every node along a periodic axis spans the period: the node set
    // cannot tell it from an endless one, and the user means that one (a plate
    // over 0..n-1 of a periodic channel, not a plate with a gap from n-1 to n).
    std::vector<geometry::Body> bodies;
    for (const auto& o : spec.obstacles) {
        geometry::Body b = o.body();
        for (std::size_t a = 0; a < 3; ++a) {
            const bool along = b.kind == geometry::Body::Kind::Box || (b.kind != geometry::Body::Kind::Sphere && int(a) == b.axis);
            if (along && g.periodic[a] && b.min[a] <= 0 && b.max[a] >= g.n[a] - 1) {
                b.min[a] = -std::numeric_limits<double>::infinity();
                b.max[a] = std::numeric_limits<double>::infinity();
            }
        }
        bodies.push_back(b);
    }
    std::array<int, 3> wrap{0, 0, 0};  // the period along periodic axes
    for (std::size_t a = 0; a < 3; ++a)
        if (g.periodic[a]) wrap[a] = g.n[a];
    std::vector<kernel::WallLink> out;
    for (int z = 0; z < g.n[2]; ++z)
        for (int y = 0; y < g.n[1]; ++y)
            for (int x = 0; x < g.n[0]; ++x) {
                if (!g.holds(x, y, z)) continue;  // the other sub-lattice (D3Q13)
                const storage::index_t cell = g.index(x, y, z);
                if (kernel::path_of(kind[cell]) == kernel::Solid) continue;
                const int pos[3] = {x, y, z};
                for (int i = 1; i < L::Q; ++i) {
                    // The solid end x + c_i is the source of the opposite link (wrapped on
                    // periodic axes; a link across another face is a wall or open link).
                    const kernel::LinkSource end = kernel::link_source<L>(storage::layout_of<storage::LayoutOf<L>>(g), faces, kind.data(), pos, L::opposite(i));
                    if (end.kind != kernel::LinkKind::SolidNode || owner[end.from] < 0) continue;
                    const auto o = std::size_t(owner[end.from]);
                    if (!spec.obstacles[o].interpolated) continue;
                    // A start inside the body (another obstacle's fluid pocket, say) has no
                    // entry point: half-way.
                    const geometry::Point start{double(x), double(y), double(z)};
                    const geometry::Point step{double(L::c(i, 0)), double(L::c(i, 1)), double(L::c(i, 2))};
                    const double q = bodies[o].contains_wrapped(start, wrap)
                                         ? 0.5
                                         : geometry::wall_fraction(bodies[o], start, step, wrap);
                    const kernel::LinkSource src = kernel::link_source<L>(storage::layout_of<storage::LayoutOf<L>>(g), faces, kind.data(), pos, i);
                    double velocity[3];
                    for (std::size_t a = 0; a < 3; ++a) velocity[a] = spec.obstacles[o].velocity[a];
                    kernel::WallLink l{};
                    l.cell = cell;
                    l.from = src.kind == kernel::LinkKind::Streamed ? src.from : -1;
                    l.q = q;
                    l.term = boundary::moving_wall_term<L, double>(L::opposite(i), velocity);
                    l.dir = i;
                    l.list = list_of[o];
                    out.push_back(l);
                }
            }
    return out;  // in cell order, as visited
}

}  // namespace

std::vector<kernel::WallLink> wall_links(const CaseSpec& spec, const storage::Grid& grid,
                                         const boundary::Parameters& faces, const std::vector<std::uint8_t>& kind,
                                         const std::vector<std::int32_t>& owner) {
    return lattice::visit(spec.model.lattice, [&](auto lat) { return build<decltype(lat)>(spec, grid, faces, kind, owner); });
}

}  // namespace barracuda::sim
