// The validation suite's registry (`barracuda validate`). A case is one file in
// validate/cases/ that registers itself at start-up:
//
//   namespace { const bool registered = validation::add_case({.name = "my-case", ..., .run = run_my_case}); }
//
// Its run function builds sim::CaseSpec values in code, runs them through
// sim::Simulation (the path `barracuda run` takes: validation, memory check,
// engine choice) and returns comparisons against a published or analytic
// reference, each with its tolerance, plus the panels of one plot.
#pragma once
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/png_plot.hpp"
#include "sim/case_spec.hpp"

namespace barracuda::validation {

enum class Variant { Short, Full };

struct Context {
    Variant variant = Variant::Short;
    sim::BackendChoice backend = sim::BackendChoice::Auto;
    /// A progress line for the terminal (one per run inside the case).
    std::function<void(const std::string&)> log = [](const std::string&) {};
    /// Where the long runs keep checkpoints (`--checkpoint DIR`) and from which they go on
    /// when run again; empty: none. The report is the same with or without stops.
    std::filesystem::path checkpoints;
    /// `--stop-after`: a long run that passes this time saves its checkpoint and throws
    /// Stopped; the same command goes on from there.
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
    bool past_deadline() const { return std::chrono::steady_clock::now() > deadline; }
    bool full() const { return variant == Variant::Full; }
};

/// A run that stopped at Context::deadline after saving its checkpoint: not a result.
struct Stopped : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// One checked number: |error| <= tolerance passes.
struct Comparison {
    std::string what;       // the quantity and the configuration, e.g. "BGK: max |u - u_Ghia| / U"
    double result = NAN;    // ours
    double reference = NAN; // the reference value (NAN: none, e.g. an agreement between our own runs)
    double error = NAN;     // as defined in `what` (absolute, relative, a ratio...)
    double tolerance = NAN;
    bool pass() const { return std::isfinite(error) && error <= tolerance; }
};

struct Outcome {
    std::string setup;                   // what actually ran (resolution, models, steps)
    std::vector<Comparison> comparisons;
    std::vector<io::PlotPanel> plot;     // one PNG per case, panels side by side
    std::vector<std::string> notes;      // anything a reader of the report should know
};

struct Case {
    std::string name;        // command-line name: lower case, words joined by '-'
    std::string title;       // one line
    std::string citation;    // the reference: authors, year, journal, table or figure
    std::string compares;    // what is compared, and how the error is measured
    std::string short_setup; // the CI variant (CPU, about a minute on 2 cores)
    std::string full_setup;  // the paper's resolution, for a GPU
    bool full_only = false;  // no short variant: skipped by --short
    std::function<Outcome(const Context&)> run;
};

/// Adds a case (a duplicate name is a programming error: aborts at start-up).
bool add_case(Case c);
/// All cases, sorted by name.
const std::vector<Case>& cases();
const Case* find_case(const std::string& name);

// ---- helpers for comparisons -----------------------------------------------------------

/// |result - reference| / |reference|.
inline Comparison relative(std::string what, double result, double reference, double tolerance) {
    return {std::move(what), result, reference, std::abs(result - reference) / std::abs(reference), tolerance};
}
/// |result - reference|.
inline Comparison absolute(std::string what, double result, double reference, double tolerance) {
    return {std::move(what), result, reference, std::abs(result - reference), tolerance};
}
/// A measure that is itself the error (a deviation, a residual): it must stay below the tolerance.
inline Comparison bound(std::string what, double value, double tolerance, double reference = NAN) {
    return {std::move(what), value, reference, value, tolerance};
}

}  // namespace barracuda::validation
