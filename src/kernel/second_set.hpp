// A binary fluid's second population set on the flow's own lattice, pattern and
// precision (kernel/binary.hpp: component B; kernel/free_energy.hpp: the order
// parameter): how it is gathered beside the flow's and stored with it. Its links
// follow the flow's rules: streamed, bounced back at walls and obstacles, mirrored at
// free-slip faces (the models refuse open and moving faces).
#pragma once
#include <cstdint>

#include "boundary/open_face.hpp"
#include "boundary/parameters.hpp"
#include "kernel/links.hpp"
#include "lattice/lattice.hpp"
#include "storage/access.hpp"
#include "storage/layout.hpp"

namespace barracuda::kernel {

template <class L, class Eq, class Store>
struct Gather;  // kernel/stream_collide.hpp

template <class L, class Store>
struct SecondSet {
    using T = typename Store::compute_type;
    using Layout = typename Store::layout_type;
    using Cursor = typename Layout::Cursor;
    static constexpr int Q = L::Q;

    /// The set arriving at a bulk cell.
    BARRACUDA_HD static void gather_bulk(const Store& store, storage::index_t cell, const Cursor& s, T (&g)[Q]) {
        BARRACUDA_UNROLL
        for (int i = 0; i < Q; ++i) g[i] = store.streamed(i, cell, Layout::template neighbour<L>(s, cell, i, -1));
    }

    /// ... at a boundary cell, as the flow's Gather::gather_boundary classifies its links.
    BARRACUDA_HD static void gather_boundary(const Store& store, const Layout& layout, const boundary::Parameters& faces,
                                             const std::uint8_t* node_class, const int (&pos)[3],
                                             storage::index_t cell, T (&g)[Q]) {
        BARRACUDA_UNROLL
        for (int i = 0; i < Q; ++i) {
            const LinkSource link = link_source<L>(layout, faces, node_class, pos, i);
            if (link.kind == LinkKind::Streamed)
                g[i] = store.streamed(i, cell, link.from);
            else if (link.kind == LinkKind::Wall && faces.type[link.wall] == boundary::FaceType::FreeSlip)
                g[i] = store.reflected(L::opposite(lattice::mirrored_along<L>(i, boundary::Parameters::axis(link.wall))),
                                       cell);
            else
                g[i] = store.reflected(i, cell);
        }
    }

    /// Both sets at a fluid cell of path k (Bulk or not), the flow's f through `in`.
    template <class Eq>
    BARRACUDA_HD static void gather_both(const Gather<L, Eq, Store>& in, const Store& store, storage::index_t cell,
                                         std::uint8_t k, const int (&pos)[3], T (&f)[Q], T (&g)[Q]) {
        if (k == Bulk) {
            const Cursor s = in.layout.cursor(pos);
            in.gather_bulk(cell, s, f);
            gather_bulk(store, cell, s, g);
            return;
        }
        boundary::OpenFaceState<T> unused;  // no open faces with a binary fluid
        in.gather_boundary(cell, pos, f, unused);
        gather_boundary(store, in.layout, in.faces, in.node_class, pos, cell, g);
    }

    /// Both sets' post-collision populations of a bulk cell, streamed.
    template <class Eq>
    BARRACUDA_HD static void put_bulk(const Gather<L, Eq, Store>& in, const Store& store, storage::index_t cell,
                                      const Cursor& s, const T (&f)[Q], const T (&g)[Q]) {
        const std::uint32_t word = in.store.draw(cell);
        BARRACUDA_UNROLL
        for (int i = 0; i < Q; ++i) {
            const storage::index_t to = Layout::template neighbour<L>(s, cell, i, +1);
            in.store.put(i, cell, to, true, f[i], word);
            store.put(i, cell, to, true, g[i], storage::second_word(word));
        }
    }

    /// ... of a boundary cell: through the destinations where the pattern needs them.
    template <class Eq>
    BARRACUDA_HD static void put_boundary(const Gather<L, Eq, Store>& in, const Store& store, storage::index_t cell,
                                          const int (&pos)[3], const T (&f)[Q], const T (&g)[Q]) {
        const std::uint32_t word = in.store.draw(cell);
        BARRACUDA_UNROLL
        for (int i = 0; i < Q; ++i) {
            if (in.store.needs_destination()) {
                const LinkSource to = in.destination(pos, i);
                in.store.put(i, cell, to.from, to.kind == LinkKind::Streamed, f[i], word);
                store.put(i, cell, to.from, to.kind == LinkKind::Streamed, g[i], storage::second_word(word));
            } else {
                in.store.put(i, cell, cell, true, f[i], word);
                store.put(i, cell, cell, true, g[i], storage::second_word(word));
            }
        }
    }
};

}  // namespace barracuda::kernel
