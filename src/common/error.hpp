// Errors a user can act on. Each message names the key (or option), the value
// given and what is allowed; the CLI maps each kind to a documented exit code.
#pragma once
#include <charconv>
#include <stdexcept>
#include <string>

namespace barracuda {

/// A number as messages show it: the shortest text that reads back as the same
/// double (0.1, not 0.10000000000000001 or 0.1 rounded to six digits).
inline std::string value_text(double v) {
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

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
