// Velocity and pressure faces whose values are expressions of position and time
// (sim/expression.hpp): the host evaluates them on every node of the face and
// hands the values to the engine (boundary::Parameters::values), once when they
// do not depend on t, else before every step.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "parallel/decomposition.hpp"
#include "sim/case_spec.hpp"
#include "sim/expression.hpp"

namespace barracuda::sim {

/// "boundary.x_min.velocity[0]" or "boundary.x_min.density": the case key of an expression.
std::string face_expression_key(int face, int component);

class FaceValues {
public:
    /// Parses the case's expressions (throws CaseError naming the key, with the
    /// position of a syntax error) for the faces of `sub`'s local box.
    FaceValues(const CaseSpec& spec, const parallel::Subdomain& sub);

    bool any() const;
    bool time_dependent() const { return time_dependent_; }
    bool has(int face) const { return has_[std::size_t(face)]; }
    /// Nodes of the face's layer of the local box (boundary::Parameters::face_node order).
    std::size_t nodes(int face) const;
    /// (ux, uy, uz, rho) at every node of the face at time t. Throws CaseError naming the
    /// key, the node (whole-box coordinates) and t where a value is NaN/Inf, where |u|
    /// reaches max_lattice_velocity, or where the density is not positive.
    void evaluate(int face, double t, std::vector<double>& out) const;

private:
    std::array<boundary::FaceSpec, 6> faces_;
    std::array<int, 3> size_;
    UnitsSpec units_;  // an SI case: x, y, z in m, t in s, velocities in m/s
    parallel::Subdomain sub_;
    std::array<bool, 6> has_{};
    // Per face: velocity components 0-2 and density 3; nullopt: the case's constant.
    std::array<std::array<std::optional<Expression>, 4>, 6> expr_;
    // Per face: the density's gradient per node of a pressure face open to fluid at another
    // temperature than the reference (hydrostatic_gradient), zero elsewhere, and the node
    // where the density is the face's own.
    std::array<std::array<double, 3>, 6> gradient_{};
    std::array<std::array<double, 3>, 6> centre_{};
    bool time_dependent_ = false;
};

/// The hydrostatic density gradient (per node, lattice units) of a pressure face of a
/// [thermal] case with gravity whose fluid outside is at another temperature than the
/// reference T_0 (boundary.<face>.temperature): in the Boussinesq approximation the
/// reference fluid has a uniform pressure, and fluid at T_out has the gradient
/// grad p = -rho_0 beta (T_out - T_0) g, so grad rho = 3 grad p. Such a face holds its
/// density at its centre and this profile across it (an open window: the stack effect).
/// Zero for every other face.
std::array<double, 3> hydrostatic_gradient(const CaseSpec& spec, int face);

/// Evaluates every expression of the case over the whole box at the first step
/// (t = 1): parse errors, NaN/Inf and out-of-range values fail before any memory
/// is allocated (sim::check_case).
void check_face_expressions(const CaseSpec& spec);

}  // namespace barracuda::sim
