// The live view's picture of a running case (barracuda run --serve): one field on one
// axis-aligned plane of nodes, taken from the engine where it runs (on the GPU, the
// moments of the plane's cells only: Engine::sample) and gathered on rank 0.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/simulation.hpp"

namespace barracuda::live {

/// The fields the view can draw.
enum class Field { Speed, Ux, Uy, Uz, Density, Temperature, Vorticity, NodeKind };

/// Its name in requests ("speed", "ux", ..., "node_kind").
std::string_view field_name(Field f);
std::optional<Field> field_named(std::string_view name);
/// What a case offers: temperature only with [thermal].
std::vector<Field> fields_of(const sim::CaseSpec& spec);
/// The label beside the colour bar, with the unit ("|u| (m/s)" in an SI case; "p - p0 (Pa)"
/// for the density of an SI case).
std::string field_label(Field f, const sim::CaseSpec& spec);

/// Which plane and what on it.
struct SliceSpec {
    int axis = 2;   // the plane's normal: 0 x, 1 y, 2 z
    int index = 0;  // node index along the axis
    Field field = Field::Speed;
    bool operator==(const SliceSpec&) const = default;
};

/// The default plane: through the middle of the box, normal to z (3D; the plane of a 2D case).
SliceSpec default_slice(const sim::CaseSpec& spec);
/// Empty when `s` fits the case; otherwise why not (naming the value and what is allowed).
std::string check_slice(const SliceSpec& s, const sim::CaseSpec& spec);

/// The field on the plane: width x height values, i along the plane's first axis (x, or y
/// for a plane normal to x), j along its second, row-major from j = 0 (the bottom).
struct Slice {
    SliceSpec spec;
    std::int64_t step = -1;
    int width = 0, height = 0;
    std::vector<float> value;        // in the case's units (SI where the case is)
    std::vector<std::uint8_t> kind;  // boundary::NodeKind of each node
    std::string label;
};

/// Collective (every rank of the run): the slice on rank 0 (empty elsewhere). `kinds`:
/// this rank's owned cells' output node kinds (sim::output_node_kinds of its subdomain),
/// gathered with the values.
/// Vorticity: |curl u| by central differences (one-sided at the box's ends), per step
/// (per second in an SI case).
Slice take_slice(sim::Simulation& simulation, const SliceSpec& s, const std::vector<std::uint8_t>& kinds);

}  // namespace barracuda::live
