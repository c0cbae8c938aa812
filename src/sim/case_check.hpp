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

/// Fills MRT defaults for the chosen lattice where the case left them at 0, except
/// the rates of the odd moments (s_q, s_m; D3Q13 aside), which follow tau: see
/// mrt_rates.
void fill_model_defaults(CaseSpec& spec);

/// The MRT rates of a run: the case's where given, fill_model_defaults' constants,
/// and, where the case gave none, the odd non-conserved moments' (heat flux q,
/// third-order m) at TRT's omega- (physics::trt_omega_minus) for Lambda =
/// model.trt_magic: with 3/16, half-way bounce-back walls sit exactly half-way for
/// Poiseuille flow whatever tau is (Ginzburg, Verhaeghe & d'Humieres 2008).
/// Why: the published sets relax q and m at constant rates near 2 (D2Q9 s_q = 1.9,
/// Lallemand & Luo 2000; D3Q19 s_m = 1.98, d'Humieres et al. 2002), which barely
/// damp the ghost modes a Zou-He face or a corner excites every step: a D2Q9
/// channel (tau 0.56, u 0.075) diverged at step 300 at the inlet corner and a D3Q19
/// duct (tau 0.59, u 0.05) at step 100, where TRT ran (issue 20). With q and m at
/// omega- both run, and MRT keeps its tuned even rates (bulk viscosity e, eps, pi),
/// except on D2Q9: there Lallemand & Luo's s_e = 1.64, s_eps = 1.54 still diverged
/// where TRT ran (Zou-He inlet with velocity or free-slip sides, tau 0.52: the
/// validation case stability-map), and every other pair tried did too except
/// s_e = s_eps = 1/tau, which with s_q = omega- is TRT. Given rates are kept as given.
MrtRates mrt_rates(const ModelSpec& model);

/// The scalar's face conditions of a [thermal] case, in theta = T - T_0 (obstacle rows
/// are filled by engine_setup, which numbers the obstacles).
boundary::ScalarFaces scalar_faces(const CaseSpec& spec);

/// Bytes of accelerator (or host, for the CPU backend) memory a run needs:
/// two copies of Q populations, one node-kind byte per cell, and the host
/// buffers of the output fields.
struct MemoryEstimate {
    std::int64_t population_bytes = 0;
    std::int64_t node_kind_bytes = 0;
    std::int64_t output_bytes = 0;  // host side: density + velocity in double
    std::int64_t monitor_bytes = 0;  // [average]'s running sums, beside the populations
    std::int64_t device_total() const { return population_bytes + node_kind_bytes + monitor_bytes; }
};
MemoryEstimate estimate_memory(const CaseSpec& spec);

}  // namespace barracuda::sim
