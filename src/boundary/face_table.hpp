// The six faces' boundary conditions as plain data the fused kernel can take
// by value (host and device).
#pragma once
#include "boundary/face.hpp"
#include "common/hd.hpp"

namespace barracuda::boundary {

struct FaceTable {
    FaceType type[6];
    Method method[6];
    Profile profile[6];
    double velocity[6][3];
    double density[6];

    /// Inward unit normal of face f along its axis: +1 on a min face, -1 on a max face.
    BARRACUDA_HD static constexpr int inward(int f) { return (f & 1) ? -1 : 1; }
    BARRACUDA_HD static constexpr int axis(int f) { return f >> 1; }
    BARRACUDA_HD bool is_open(int f) const { return type[f] == FaceType::Velocity || type[f] == FaceType::Pressure; }
    BARRACUDA_HD bool is_wall(int f) const { return type[f] == FaceType::Wall || type[f] == FaceType::MovingWall; }
};

}  // namespace barracuda::boundary
