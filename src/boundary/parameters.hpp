// The boundary parameters of the fused kernel: the six faces' conditions and
// values, the absorbing layers and the moving obstacles' velocities, as plain
// data the kernel takes by value (host and device). Engines hold them as
// EngineSetup::faces.
#pragma once
#include "boundary/face.hpp"
#include "boundary/sponge.hpp"
#include "common/hd.hpp"

namespace barracuda::boundary {

struct Parameters {
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
    // Faces whose values are expressions (sim/face_values.hpp): (ux, uy, uz, rho) per node of
    // the face's layer of the local box, node at face_node(); device memory on the GPU. Null:
    // the constants above (and the profile).
    const double* values[6] = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};

    // Absorbing layers in front of faces (boundary/sponge.hpp), counted in the whole box so
    // that a layer runs on across the ranks' subdomains; has_sponge: any width > 0.
    SpongeLayer sponge[6] = {};
    bool has_sponge = false;

    /// Inward unit normal of face f along its axis: +1 on a min face, -1 on a max face.
    BARRACUDA_HD static constexpr int inward(int f) { return (f & 1) ? -1 : 1; }
    BARRACUDA_HD static constexpr int axis(int f) { return f >> 1; }
    /// The two axes that span face f (k = 0, 1), in increasing order.
    BARRACUDA_HD static constexpr int in_face_axis(int f, int k) {
        return k == 0 ? (axis(f) == 0 ? 1 : 0) : (axis(f) == 2 ? 1 : 2);
    }
    /// Index of the node at pos among the nodes of face f of a box of n cells.
    BARRACUDA_HD static constexpr long long face_node(int f, const int (&pos)[3], const int (&n)[3]) {
        return pos[in_face_axis(f, 0)] + (long long)n[in_face_axis(f, 0)] * pos[in_face_axis(f, 1)];
    }
    /// Depth of the node at pos of the local box of n cells below face f of the whole box
    /// (0: the face's node layer).
    BARRACUDA_HD int whole_depth(int f, const int (&pos)[3], const int (&n)[3]) const {
        const int a = axis(f);
        const int x = pos[a] + origin[a], whole_n = extent[a] ? extent[a] : n[a];
        return (f & 1) ? whole_n - 1 - x : x;
    }
    BARRACUDA_HD bool is_open(int f) const { return type[f] == FaceType::Velocity || type[f] == FaceType::Pressure; }
    /// A velocity face whose links bounce back with its velocity (Method::BounceBack).
    BARRACUDA_HD bool is_bounce_back(int f) const {
        return type[f] == FaceType::Velocity && method[f] == Method::BounceBack;
    }
    BARRACUDA_HD bool is_wall(int f) const {
        return type[f] == FaceType::Wall || type[f] == FaceType::MovingWall || type[f] == FaceType::FreeSlip;
    }
    /// Which wall a link crossing two faces at an edge takes: a resting wall, then a
    /// moving one, then a free-slip one (no-slip wins where they meet).
    BARRACUDA_HD int wall_rank(int f) const {
        return type[f] == FaceType::Wall ? 2 : (type[f] == FaceType::MovingWall ? 1 : 0);
    }
};

}  // namespace barracuda::boundary
