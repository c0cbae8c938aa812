// Errors a user can act on. Each message names the key (or option), the value
// given and what is allowed; the CLI maps each kind to a documented exit code.
#pragma once
#include <stdexcept>
#include <string>

namespace barracuda {

/// Bad case input: unknown key, wrong type, value out of range, combination not offered.
struct CaseError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The machine cannot run the case: no GPU for backend = cuda, not enough memory.
struct ResourceError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The run became unstable (NaN/Inf or density out of range).
struct DivergenceError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Output could not be written, or would overwrite an earlier run.
struct OutputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace barracuda
