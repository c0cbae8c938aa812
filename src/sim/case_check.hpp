// Checks a whole case before any memory is allocated. Every message names the
// key, the value and what is allowed.
#pragma once
#include <cstdint>
#include <string>

#include "backend/offered.hpp"
#include "sim/case_spec.hpp"

namespace barracuda::sim {

/// Throws CaseError for: tau <= 0.5; size < 1 on an axis; a 2D lattice with
/// nz != 1 or a 3D lattice with nz == 1 ... (see docs/case-file.md);
/// a boundary on a periodic axis or a missing one on a non-periodic axis;
/// lattice velocities at or above max_lattice_velocity; obstacles outside the
/// domain; MRT on a lattice without it; bad output/run settings; a force report
/// on an obstacle name the case does not have, or without positive reference values.
void check_case(const CaseSpec& spec);

/// The message for a force report naming an obstacle the case does not have:
/// "\"name\" is not the name of any [[obstacle]]; the obstacles are \"a\", \"b\"".
std::string unknown_obstacle_text(const CaseSpec& spec, const std::string& name);

/// The case as the backend's offer rules see it (backend/offered.hpp).
backend::Request offer_request(const CaseSpec& spec, bool several_ranks);

/// Fills MRT defaults for the chosen lattice where the case left them at 0.
void fill_model_defaults(CaseSpec& spec);

/// Bytes of accelerator (or host, for the CPU backend) memory a run needs:
/// two copies of Q populations, one node-kind byte per cell, and the host
/// buffers of the output fields.
struct MemoryEstimate {
    std::int64_t population_bytes = 0;
    std::int64_t node_kind_bytes = 0;
    std::int64_t output_bytes = 0;  // host side: density + velocity in double
    std::int64_t device_total() const { return population_bytes + node_kind_bytes; }
};
MemoryEstimate estimate_memory(const CaseSpec& spec);

}  // namespace barracuda::sim
