// Macroscopic fields of one output instant, as the writers see them: host
// arrays in x-fastest order (cell = x + nx * (y + ny * z)).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace barracuda::io {

struct FieldSet {
    std::array<int, 3> size{1, 1, 1};
    std::array<int, 3> offset{0, 0, 0};  // a rank's piece: where it starts in the whole box
    std::vector<double> density;         // one per cell (empty: not written)
    std::vector<double> velocity;        // three per cell, interleaved (empty: not written)
    std::vector<double> temperature;     // one per cell, a [thermal] case's (empty: not written)
    std::vector<double> pressure;        // one per cell, an SI case's p - p_0 in Pa, or [multiphase]'s p (empty: not written)
    // A two-component case's (kernel/binary.hpp; density is then rho_A + rho_B): each
    // component's density and the order parameter phi = (rho_A - rho_B) / (rho_A + rho_B).
    std::vector<double> density_a, density_b, phi;
    /// One per cell, time averages only: sqrt(<u.u> - <u>.<u>), the velocity's rms
    /// fluctuation (empty: not written).
    std::vector<double> fluctuation;
    std::vector<std::uint8_t> node_kind;  // one per cell, boundary::NodeKind (empty: not written)

    std::int64_t cells() const { return std::int64_t(size[0]) * size[1] * size[2]; }
};

}  // namespace barracuda::io
