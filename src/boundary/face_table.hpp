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
    // Where the local box lies in the whole one (a rank's subdomain, parallel/decomposition.hpp),
    // for values that depend on the position on a face (profiles): the whole box's coordinate
    // of local cell 0, its size (0: the local grid is the whole box) and its periodicity.
    int origin[3] = {0, 0, 0};
    int extent[3] = {0, 0, 0};
    bool whole_periodic[3] = {false, false, false};
    /// Moving obstacles the kernels can tell apart: their number m = 1..7 takes bits
    /// 3-5 of the node-class byte (kernel::moving_solid).
    static constexpr int max_moving_obstacles = 7;
    // Surface velocities of the moving obstacles (kernel::moving_solid(m) uses row m - 1).
    double obstacle_velocity[max_moving_obstacles][3] = {};

    /// Inward unit normal of face f along its axis: +1 on a min face, -1 on a max face.
    BARRACUDA_HD static constexpr int inward(int f) { return (f & 1) ? -1 : 1; }
    BARRACUDA_HD static constexpr int axis(int f) { return f >> 1; }
    BARRACUDA_HD bool is_open(int f) const { return type[f] == FaceType::Velocity || type[f] == FaceType::Pressure; }
    BARRACUDA_HD bool is_wall(int f) const { return type[f] == FaceType::Wall || type[f] == FaceType::MovingWall; }
};

}  // namespace barracuda::boundary
