// What the backends offer, from the one table that declares it
// (src/configurations.txt, expanded by CMake into the generated units and into
// the table read here), and every other "is this offered" rule of a run. The case
// checker (sim/case_check.cpp), the engine makers, `barracuda bench` and
// `barracuda info` all ask here.
#pragma once
#include <array>
#include <span>
#include <string>
#include <string_view>

#include "backend/configuration.hpp"
#include "backend/engine.hpp"
#include "boundary/face.hpp"

namespace barracuda::backend {

/// A run as the offer rules see it: its configuration and what else they depend on.
struct Request {
    Configuration config;
    bool several_ranks = false;  // an MPI run with more than one subdomain
    double smagorinsky = 0;      // the LES constant (0: none)
    std::array<boundary::FaceType, 6> face_type{};  // Periodic on a periodic axis
    std::array<boundary::Method, 6> face_method{};
};
Request request_of(const EngineSetup& s);

/// The table's rows as written (comments and spacing dropped), in its order.
std::span<const std::string_view> offered_rows();
/// Every configuration the rows expand to.
std::span<const Configuration> offered_configurations();
bool is_offered(const Configuration& c);
/// Whether this binary holds the CUDA engine of configuration c: every offered one,
/// unless it was built with a subset (CMake's BARRACUDA_CUDA_UNITS) or without CUDA.
bool cuda_engine_built(const Configuration& c);

/// Why the request is not offered, naming the case key, its value and what is
/// allowed (a configuration outside the table: the rows that are); empty if offered.
std::string refusal(const Request& r);

/// The table, one row per line, each line starting with `indent`.
std::string offered_table_text(std::string_view indent);

}  // namespace barracuda::backend
