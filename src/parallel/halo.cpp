#include "parallel/halo.hpp"

namespace barracuda::parallel {

namespace {

// Local cells of the layer on side d: for d_a = -1 the first owned layer (send) or
// the low ghost layer (receive), for +1 the last owned layer or the high ghost
// layer, for 0 the whole owned range.
std::vector<storage::index_t> layer(const Subdomain& s, const storage::Grid& g, int code, bool ghost) {
    int lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
        const auto A = std::size_t(a);
        const int d = offset_of(code, a);
        const int first = s.ghost_lo[A], last = s.ghost_lo[A] + s.owned_size[A] - 1;
        if (d == 0) lo[a] = first, hi[a] = last;
        else if (d < 0) lo[a] = hi[a] = ghost ? first - 1 : first;
        else lo[a] = hi[a] = ghost ? last + 1 : last;
    }
    std::vector<storage::index_t> cells;
    for (int z = lo[2]; z <= hi[2]; ++z)
        for (int y = lo[1]; y <= hi[1]; ++y)
            for (int x = lo[0]; x <= hi[0]; ++x) cells.push_back(g.index(x, y, z));
    return cells;
}

// The directions of set L crossing towards (send) and from (receive) the neighbour at `code`.
template <class L>
void directions(int code, std::vector<int>& send_dirs, std::vector<int>& recv_dirs) {
    for (int i = 0; i < L::Q; ++i) {
        bool towards = true, from = true;
        for (int a = 0; a < 3; ++a) {
            const int d = offset_of(code, a);
            if (d == 0) continue;
            towards = towards && L::c(i, a) == d;
            from = from && L::c(i, a) == -d;
        }
        if (towards) send_dirs.push_back(i);
        if (from) recv_dirs.push_back(i);
    }
}

// Appends a coupled scalar's crossing populations (set Ls) to the flow's messages, at
// offsets past the flow's Q * cells (the second array of HaloPlan::split). Every scalar
// set's velocities are among the flow lattice's, so a peer the scalar must reach has a
// flow message already.
template <class Ls>
void add_scalar(HaloPlan& out, const Subdomain& s) {
    const storage::Grid g = s.local_grid();
    const storage::index_t cells = g.cells();
    for (auto& m : out.messages) {
        const int code = m.send_tag;
        std::vector<int> send_dirs, recv_dirs;
        directions<Ls>(code, send_dirs, recv_dirs);
        const auto send_cells = layer(s, g, code, false), recv_cells = layer(s, g, code, true);
        for (int i : send_dirs)
            for (auto c : send_cells) m.send.push_back(out.split + storage::index_t(i) * cells + c);
        for (int i : recv_dirs)
            for (auto c : recv_cells) m.recv.push_back(out.split + storage::index_t(i) * cells + c);
    }
}

template <class L>
HaloPlan plan(const Subdomain& s) {
    HaloPlan out;
    const storage::Grid g = s.local_grid();
    const storage::index_t cells = g.cells();
    for (int code = 0; code < 27; ++code) {
        const int peer = s.neighbour[std::size_t(code)];
        if (peer < 0) continue;
        // Sent: populations of our outer layer moving towards the neighbour at d
        // (c_i,a = d_a on the axes where d_a != 0). Received into the ghost layer at
        // d: those that stream from it into our cells (c_i,a = -d_a), which are the
        // neighbour's sent set, since it sees us at -d.
        std::vector<int> send_dirs, recv_dirs;
        directions<L>(code, send_dirs, recv_dirs);
        if (send_dirs.empty()) continue;  // e.g. the corners of D3Q19
        HaloMessage m;
        m.peer = peer;
        m.send_tag = code;
        m.recv_tag = 26 - code;  // the neighbour sent with its offset, -d
        const auto send_cells = layer(s, g, code, false), recv_cells = layer(s, g, code, true);
        for (int i : send_dirs)
            for (auto c : send_cells) m.send.push_back(storage::index_t(i) * cells + c);
        for (int i : recv_dirs)
            for (auto c : recv_cells) m.recv.push_back(storage::index_t(i) * cells + c);
        out.messages.push_back(std::move(m));
    }
    out.split = storage::index_t(L::Q) * cells;
    return out;
}

}  // namespace

HaloPlan make_halo_plan(lattice::Kind lattice, const Subdomain& sub, lattice::CoupledKind scalar) {
    auto out = lattice::visit(lattice, [&](auto lat) { return plan<decltype(lat)>(sub); });
    // A binary fluid's second set (component B, the order parameter) is the flow's lattice.
    if (lattice::is_binary_fluid(scalar))
        lattice::visit(lattice, [&](auto lat) { add_scalar<decltype(lat)>(out, sub); });
    switch (scalar) {
        case lattice::CoupledKind::D2Q4: add_scalar<lattice::D2Q4>(out, sub); break;
        case lattice::CoupledKind::D2Q5: add_scalar<lattice::D2Q5>(out, sub); break;
        case lattice::CoupledKind::D3Q6: add_scalar<lattice::D3Q6>(out, sub); break;
        case lattice::CoupledKind::D3Q7: add_scalar<lattice::D3Q7>(out, sub); break;
        case lattice::CoupledKind::None:
        case lattice::CoupledKind::ShanChen:
        case lattice::CoupledKind::ShanChenBinary:
        case lattice::CoupledKind::FreeEnergy: break;  // above, or none
    }
    return out;
}

HaloPlan make_field_plan(const HaloPlan& populations, const Subdomain& sub, int fields) {
    HaloPlan out;
    const storage::Grid g = sub.local_grid();
    const storage::index_t cells = g.cells();
    for (const auto& p : populations.messages) {
        HaloMessage m;
        m.peer = p.peer;
        // Past the population tags (0-26) and their "in your buffer" notes: both exchanges
        // of a step may be in flight between the same two ranks on a GPU node.
        m.send_tag = field_tag_base + p.send_tag;
        m.recv_tag = field_tag_base + p.recv_tag;
        const int code = p.send_tag;
        const auto send_cells = layer(sub, g, code, false), recv_cells = layer(sub, g, code, true);
        for (int f = 0; f < fields; ++f) {
            for (auto c : send_cells) m.send.push_back(storage::index_t(f) * cells + c);
            for (auto c : recv_cells) m.recv.push_back(storage::index_t(f) * cells + c);
        }
        out.messages.push_back(std::move(m));
    }
    out.split = storage::index_t(fields) * cells;
    return out;
}

}  // namespace barracuda::parallel
