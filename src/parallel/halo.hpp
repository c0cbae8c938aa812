// Which populations cross each face, edge and corner of a subdomain (seed 003
// §3.6): after a step, a rank sends to the neighbour at offset d the
// post-collision populations of its outermost owned layer(s) on that side whose
// velocity points at the neighbour (c_i,a = d_a on every axis where d_a != 0),
// and receives the same set into its ghost cells on that side. Nothing else is
// exchanged: D3Q19 moves 5 populations per face cell and 1 per edge cell, none
// per corner.
#pragma once
#include <cstdint>
#include <vector>

#include "lattice/lattice.hpp"
#include "lattice/scalar_sets.hpp"
#include "parallel/decomposition.hpp"
#include "storage/grid.hpp"

namespace barracuda::parallel {

/// One neighbour's traffic. Offsets are into a population array laid out as
/// [i * cells + cell] over the local box; both sides list their cells in the same
/// (x-fastest, global) order, so the k-th sent value lands in the k-th receive slot.
struct HaloMessage {
    int peer = -1;
    int send_tag = 0, recv_tag = 0;  // offset codes: a peer that is a neighbour on two sides gets two messages
    std::vector<storage::index_t> send, recv;
};

struct HaloPlan {
    std::vector<HaloMessage> messages;
    /// Offsets from `split` on are a coupled scalar's, into its own array at offset -
    /// split (the flow's Q * cells of the local box); below it, the flow's.
    storage::index_t split = 0;
    std::int64_t values() const {
        std::int64_t n = 0;
        for (const auto& m : messages) n += std::int64_t(m.send.size());
        return n;
    }
};

/// The flow lattice's plan, with a coupled scalar's populations (lattice/scalar_sets.hpp)
/// or a binary fluid's second set (the flow's lattice) added to the same messages
/// (HaloPlan::split).
HaloPlan make_halo_plan(lattice::Kind lattice, const Subdomain& sub,
                        lattice::CoupledKind scalar = lattice::CoupledKind::None);

/// Tags of the macro-field exchange: past the populations' (0-26) and their notes.
constexpr int field_tag_base = 100;

/// The multiphase models' macro fields (psi, phi: kernel/pseudopotential.hpp, binary.hpp,
/// free_energy.hpp), written by the first pass of a step and read at the neighbours by
/// the second: after the first pass each rank sends every field of its outermost owned
/// layer towards each neighbour of `populations` (the peers the flow lattice reaches)
/// and receives the neighbour's into its ghost layer. Offsets are into the fields'
/// array, [field * cells + cell] over the local box.
HaloPlan make_field_plan(const HaloPlan& populations, const Subdomain& sub, int fields);

}  // namespace barracuda::parallel
