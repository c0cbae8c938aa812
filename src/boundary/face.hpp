// Boundary conditions on the six faces of the box. Node kinds and their values
// are data handed to the fused kernel; the per-cell rules are in rules.hpp.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace barracuda::boundary {

enum class FaceType : unsigned char {
    Periodic,    // the axis wraps; set through the domain's periodicity
    Wall,        // half-way bounce-back, wall half a spacing outside the last node layer
    MovingWall,  // half-way bounce-back with the wall-momentum term (Toelke & Krafczyk 2008, eq. 9)
    Velocity,    // prescribed velocity on the face nodes
    Pressure,    // prescribed density (pressure p = cs2 rho) on the face nodes
    FreeSlip,    // specular reflection half a spacing outside the last node layer: no
                 // normal velocity, no shear stress (a symmetry plane, a slip wall)
    Outflow,     // zero normal gradient: the unknown populations are those the next node
                 // inside receives (Neumann extrapolation; two-copy streaming only)
};

enum class Method : unsigned char {
    ZouHe,        // Zou & He 1997, generalised: non-equilibrium bounce-back + transverse momentum correction
    Equilibrium,  // face node set to the equilibrium of the prescribed state
    Regularized,  // Latt, Chopard, Malaspinas, Deville & Michler 2008: every population rebuilt
                  // from the face state and the stress of the non-equilibrium bounce-back
    BounceBack,   // velocity faces only: half-way bounce-back with the momentum of a wall moving at
                  // the prescribed velocity (Toelke & Krafczyk 2008, eq. 9; Ladd 1994), the face half
                  // a spacing outside the face nodes, which collide like any fluid node. Link-wise like
                  // the walls and obstacles, so it stays consistent where the face meets a moving wall.
};

enum class Profile : unsigned char {
    Uniform,    // the given velocity on every node of the face
    Parabolic,  // the given velocity times 4 s (1 - s) along each non-periodic in-face axis,
                // s = (i + 1/2) / n: zero on the half-way walls, the given value on the centre line
};

struct FaceSpec {
    FaceType type = FaceType::Wall;
    Method method = Method::ZouHe;
    Profile profile = Profile::Uniform;  // Velocity faces
    std::array<double, 3> velocity{0, 0, 0};  // MovingWall, Velocity
    double density = 1.0;                     // Pressure
    // Values given as expressions of position and time (sim/expression.hpp) on velocity and
    // pressure faces: a non-empty text replaces that velocity component / the density.
    std::array<std::string, 3> velocity_expression{};
    std::string density_expression;
    // An absorbing layer in front of the face (boundary/sponge.hpp): width 0, none. The
    // target state is the layer's density and velocity.
    int sponge_width = 0;
    double sponge_strength = 0;
    std::optional<double> sponge_density = 1.0;  // none: each node keeps its own (mass-conserving)
    std::array<double, 3> sponge_velocity{0, 0, 0};
    bool has_expression() const {
        return !density_expression.empty() || !velocity_expression[0].empty() || !velocity_expression[1].empty() ||
               !velocity_expression[2].empty();
    }
    bool operator==(const FaceSpec&) const = default;
};

enum Face : int { XMin = 0, XMax, YMin, YMax, ZMin, ZMax };

constexpr std::string_view face_name(int f) {
    constexpr std::string_view names[6] = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};
    return names[f];
}
constexpr std::string_view type_name(FaceType t) {
    switch (t) {
        case FaceType::Periodic: return "periodic";
        case FaceType::Wall: return "wall";
        case FaceType::MovingWall: return "moving_wall";
        case FaceType::Velocity: return "velocity";
        case FaceType::Pressure: return "pressure";
        case FaceType::FreeSlip: return "free_slip";
        case FaceType::Outflow: return "outflow";
    }
    return "?";
}

/// Node kinds stored per cell (one byte). Face nodes are recognised from their
/// coordinates, so the array only needs to tell fluid from solid; the other
/// values appear in output to show the user what each face node is.
enum NodeKind : unsigned char {
    Fluid = 0,
    Solid = 1,
    WallFace = 2,      // output only
    VelocityFace = 3,  // output only
    PressureFace = 4,  // output only
    OutflowFace = 5,   // output only
};

}  // namespace barracuda::boundary
