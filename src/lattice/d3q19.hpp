// D3Q19 velocity set: rest, 6 face neighbours, 12 edge neighbours.
// Ordering: rest first, then opposite pairs (i, i+1) for odd i.
#pragma once
#include "common/hd.hpp"
#include "lattice/packed.hpp"

namespace barracuda::lattice {

struct D3Q19 {
    static constexpr int D = 3;
    static constexpr int Q = 19;
    static constexpr double cs2 = 1.0 / 3.0;
    static constexpr const char* name = "D3Q19";

    static constexpr int velocities[19][3] = {{0, 0, 0},  {1, 0, 0},   {-1, 0, 0},  {0, 1, 0},  {0, -1, 0},
                                  {0, 0, 1},  {0, 0, -1},  {1, 1, 0},   {-1, -1, 0}, {1, -1, 0},
                                  {-1, 1, 0}, {1, 0, 1},   {-1, 0, -1}, {1, 0, -1}, {-1, 0, 1},
                                  {0, 1, 1},  {0, -1, -1}, {0, 1, -1},  {0, -1, 1}};
    static constexpr std::uint64_t code_x = pack_axis(velocities, 0);
    static constexpr std::uint64_t code_y = pack_axis(velocities, 1);
    static constexpr std::uint64_t code_z = pack_axis(velocities, 2);

    BARRACUDA_HD static constexpr int c(int i, int axis) {
        return unpack(axis == 0 ? code_x : (axis == 1 ? code_y : code_z), i);
    }
    BARRACUDA_HD static constexpr double w(int i) {
        return i == 0 ? 1.0 / 3.0 : (i < 7 ? 1.0 / 18.0 : 1.0 / 36.0);
    }
    BARRACUDA_HD static constexpr int opposite(int i) { return i == 0 ? 0 : ((i & 1) ? i + 1 : i - 1); }
};

}  // namespace barracuda::lattice
