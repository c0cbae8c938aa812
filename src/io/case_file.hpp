// Case files in TOML (toml++) -> sim::CaseSpec. Key names, types, units,
// defaults and ranges are documented in docs/case-file.md.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "sim/case_spec.hpp"

namespace barracuda::io {

/// Parses a case. `overrides` are "dotted.key=value" strings (from --set) whose
/// value is parsed as a TOML value (a bare word that is not valid TOML is taken
/// as a string), applied before the case is read. Throws CaseError naming the
/// key, the value and what is allowed, for: syntax errors (with line/column),
/// unknown keys (with the closest known key as a hint), wrong types, and values
/// outside their allowed sets. Range checks that involve several keys are in
/// sim::check_case, which this function calls last.
/// `given`: obstacles made in code (the Python module's solid masks), in lattice units,
/// after the case's own: [forces] may name them and the checks see them.
sim::CaseSpec parse_case_string(std::string_view toml_text, const std::vector<std::string>& overrides = {},
                                std::string_view source_name = "case", const std::vector<sim::Obstacle>& given = {});
/// A case file's text (throws CaseError "cannot read case file '...'").
std::string read_case_text(const std::filesystem::path& file);
sim::CaseSpec parse_case_file(const std::filesystem::path& file, const std::vector<std::string>& overrides = {},
                              const std::vector<sim::Obstacle>& given = {});

/// Whether two canonical case texts (sim::CaseSpec::canonical) describe the same case
/// once read: a key given with its default value, or a value written differently (1
/// and 1.0), changes the text but not the case. `source`: the case file both came
/// from, for its relative obstacle files. False when either text cannot be read.
bool same_case(const std::string& canonical_a, const std::string& canonical_b, std::string_view source);

/// The built-in default case (a 3D lid-driven cavity), as TOML text, so that
/// it passes through the same parser and checks as any case file.
std::string_view default_case_toml();

}  // namespace barracuda::io
