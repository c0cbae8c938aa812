// The tables of sparse storage (TiledBox, storage/layout.hpp; seed 001 §3): which
// 4 x 4 x 4 tiles of a box are stored and where. Built on the host from the box's
// node kinds: a tile is stored when one of its nodes inside the box is not solid.
#pragma once
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "storage/layout.hpp"

namespace barracuda::storage {

struct TileTables {
    int t[3] = {0, 0, 0};             // tiles along each axis
    std::vector<std::int32_t> map;    // per tile of the box: its stored index (absent: `absent`)
    std::vector<std::int32_t> origin; // per stored tile (and the absent one): its packed tile of the box
    std::int32_t absent = 0;          // tiles stored with a fluid node; the absent tile's index
    /// Per stored tile (and the absent one), its 27 neighbour tiles' stored indices
    /// (TiledBox::near); empty where a periodic axis's size is no multiple of 4.
    std::vector<std::int32_t> near;

    /// The tables of a box of n nodes (x fastest) whose node c is stored when
    /// keep(c): a tile is stored when one of its nodes inside the box is kept.
    /// periodic: the box's periodic axes (the neighbour-tile table wraps there).
    /// neighbours: build the neighbour-tile table (not needed to count tiles).
    /// Runs on every core (a box of 10^9 nodes: seconds); keep must be safe to call
    /// from several threads. Tile indices are 32-bit: a box of more than
    /// max_box_tiles tiles throws std::length_error (sim/ refuses such a case first).
    template <class Keep>
    static TileTables build(const int (&n)[3], const bool (&periodic)[3], Keep&& keep, bool neighbours = true) {
        TileTables out;
        index_t box_tiles = 1;
        for (int a = 0; a < 3; ++a) {
            out.t[a] = (n[a] + TiledBox::edge - 1) / TiledBox::edge;
            box_tiles *= out.t[a];
        }
        if (box_tiles > max_box_tiles)
            throw std::length_error("sparse storage: the box has too many tiles for 32-bit tile indices");
        std::vector<char> any(std::size_t(box_tiles), 0);
        // One layer of tiles along z per iteration: its tiles' flags are its own.
#pragma omp parallel for schedule(dynamic, 1)
        for (int tz = 0; tz < out.t[2]; ++tz)
            for (int z = TiledBox::edge * tz; z < std::min(TiledBox::edge * (tz + 1), n[2]); ++z)
                for (int y = 0; y < n[1]; ++y)
                    for (int x = 0; x < n[0]; ++x)
                        if (keep(x + index_t(n[0]) * (y + index_t(n[1]) * z)))
                            any[std::size_t((x >> 2) + index_t(out.t[0]) * ((y >> 2) + index_t(out.t[1]) * tz))] = 1;
        out.map.assign(std::size_t(box_tiles), 0);
        for (index_t k = 0; k < box_tiles; ++k)
            if (any[std::size_t(k)]) {
                out.map[std::size_t(k)] = std::int32_t(out.origin.size());
                out.origin.push_back(std::int32_t(k));
            }
        out.absent = std::int32_t(out.origin.size());
        out.origin.push_back(std::int32_t(box_tiles));  // beyond the box: its cells lie outside
        for (index_t k = 0; k < box_tiles; ++k)
            if (!any[std::size_t(k)]) out.map[std::size_t(k)] = out.absent;
        bool aligned = true;
        for (int a = 0; a < 3; ++a) aligned = aligned && (!periodic[a] || n[a] % TiledBox::edge == 0);
        if (aligned && neighbours) {
            out.near.assign(std::size_t(out.origin.size()) * 27, out.absent);
#pragma omp parallel for schedule(static)
            for (std::int32_t s = 0; s < out.absent; ++s) {
                const std::int32_t k = out.origin[std::size_t(s)];
                const int tile[3] = {k % out.t[0], (k / out.t[0]) % out.t[1], k / (out.t[0] * out.t[1])};
                for (int j = 0; j < 27; ++j) {
                    int to[3] = {tile[0] + j % 3 - 1, tile[1] + (j / 3) % 3 - 1, tile[2] + j / 9 - 1};
                    bool inside = true;
                    for (int a = 0; a < 3; ++a) {
                        if (to[a] < 0 || to[a] >= out.t[a]) {
                            if (periodic[a]) to[a] = (to[a] + out.t[a]) % out.t[a];
                            else inside = false;  // beyond a wall: no bulk cell links there
                        }
                    }
                    if (inside)
                        out.near[std::size_t(s) * 27 + std::size_t(j)] =
                            out.map[std::size_t(to[0] + index_t(out.t[0]) * (to[1] + index_t(out.t[1]) * to[2]))];
                }
            }
        }
        return out;
    }

    /// The most tiles a box may have: the absent tile's origin is the box's tile count,
    /// and stored indices and origins are 32-bit (2^31 - 1 tiles: 1.4e11 nodes).
    static constexpr index_t max_box_tiles = index_t(INT32_MAX);
    static index_t box_tiles_of(const int (&n)[3]) {
        index_t out = 1;
        for (int a = 0; a < 3; ++a) out *= (n[a] + TiledBox::edge - 1) / TiledBox::edge;
        return out;
    }

    std::int64_t box_tiles() const { return std::int64_t(t[0]) * t[1] * t[2]; }
    std::int64_t stored_tiles() const { return absent; }

    TiledBox layout(const int (&n)[3], const bool (&periodic)[3]) const {
        return {{n[0], n[1], n[2]}, {periodic[0], periodic[1], periodic[2]}, {t[0], t[1], t[2]},
                map.data(),         origin.data(),                          absent,
                near.empty() ? nullptr : near.data()};
    }
};

}  // namespace barracuda::storage
