// The report of a `barracuda validate` run: DIR/report.md (a table per case),
// DIR/report.json (the same numbers) and DIR/<case>.png (the case's plot).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "validation/case.hpp"

namespace barracuda::validation {

struct CaseReport {
    const Case* spec = nullptr;
    enum class Status { Pass, Fail, Error, NotRun } status = Status::NotRun;
    std::string message;  // Error: what went wrong; NotRun: why
    Outcome outcome;
    double wall_seconds = 0;
    std::string plot;  // file name inside the directory, empty if none
};

const char* status_name(CaseReport::Status s);

struct ReportHeader {
    std::string variant, backend, device, commit, command;
};

/// Writes report.md and report.json into dir (atomically); throws OutputError.
void write_report(const std::filesystem::path& dir, const ReportHeader& h, const std::vector<CaseReport>& reports);

}  // namespace barracuda::validation
