#include "validation/report.hpp"

#include <cmath>
#include <cstdio>

#include "io/atomic_file.hpp"

namespace barracuda::validation {

namespace {

std::string num(double v) {
    if (!std::isfinite(v)) return "";
    char b[32];
    std::snprintf(b, sizeof b, "%.4g", v);
    return b;
}

std::string json_string(const std::string& s) {
    std::string o = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') o += '\\', o += char(c);
        else if (c == '\n') o += "\\n";
        else if (c < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", c);
            o += b;
        } else o += char(c);
    }
    return o + "\"";
}

std::string json_number(double v) {
    if (!std::isfinite(v)) return "null";
    char b[40];
    std::snprintf(b, sizeof b, "%.9g", v);
    return b;
}

// Markdown table cells: a '|' would end the cell.
std::string cell(std::string s) {
    for (std::size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.replace(i, 1, "\\|");
    return s;
}

}  // namespace

const char* status_name(CaseReport::Status s) {
    switch (s) {
        case CaseReport::Status::Pass: return "pass";
        case CaseReport::Status::Fail: return "FAIL";
        case CaseReport::Status::Error: return "ERROR";
        case CaseReport::Status::NotRun: return "not run";
    }
    return "?";
}

void write_report(const std::filesystem::path& dir, const ReportHeader& h, const std::vector<CaseReport>& reports) {
    std::string md = "# Barracuda validation report\n\n";
    md += "- variant: " + h.variant + "\n- backend: " + h.backend + " (" + h.device + ")\n- commit: " + h.commit +
          "\n- command: `" + h.command + "`\n\n";
    int pass = 0, fail = 0, other = 0;
    for (const auto& r : reports)
        (r.status == CaseReport::Status::Pass ? pass : r.status == CaseReport::Status::NotRun ? other : fail)++;
    md += std::to_string(pass) + " passed, " + std::to_string(fail) + " failed, " + std::to_string(other) +
          " not run.\n\n";
    md += "| case | reference | quantity | result | reference value | error | tolerance | pass/fail | wall time |\n";
    md += "|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& r : reports) {
        const std::string head = "`" + r.spec->name + "` | " + cell(r.spec->citation);
        const std::string wall = r.status == CaseReport::Status::NotRun ? "" : num(r.wall_seconds) + " s";
        if (r.outcome.comparisons.empty()) {
            md += "| " + head + " | " + cell(r.spec->compares) + " | | | | | " + status_name(r.status) + ": " +
                  cell(r.message) + " | " + wall + " |\n";
            continue;
        }
        bool first = true;
        for (const auto& c : r.outcome.comparisons) {
            md += "| " + (first ? head : std::string(" | ")) + " | " + cell(c.what) + " | " + num(c.result) + " | " +
                  num(c.reference) + " | " + num(c.error) + " | " + num(c.tolerance) + " | " +
                  (c.pass() ? "pass" : "FAIL") + " | " + (first ? wall : "") + " |\n";
            first = false;
        }
    }
    md += "\n";
    for (const auto& r : reports) {
        md += "## " + r.spec->name + ": " + r.spec->title + "\n\n";
        md += "- reference: " + r.spec->citation + "\n- compared: " + r.spec->compares + "\n";
        md += "- status: " + std::string(status_name(r.status)) + (r.message.empty() ? "" : " (" + r.message + ")") + "\n";
        if (!r.outcome.setup.empty()) md += "- ran: " + r.outcome.setup + "\n";
        for (const auto& n : r.outcome.notes) md += "- " + n + "\n";
        if (!r.plot.empty()) md += "\n![" + r.spec->name + "](" + r.plot + ")\n";
        md += "\n";
    }

    std::string j = "{\n  \"variant\": " + json_string(h.variant) + ",\n  \"backend\": " + json_string(h.backend) +
                    ",\n  \"device\": " + json_string(h.device) + ",\n  \"commit\": " + json_string(h.commit) +
                    ",\n  \"command\": " + json_string(h.command) + ",\n  \"cases\": [";
    for (std::size_t i = 0; i < reports.size(); ++i) {
        const auto& r = reports[i];
        j += std::string(i ? "," : "") + "\n    {\"name\": " + json_string(r.spec->name) +
             ", \"title\": " + json_string(r.spec->title) + ", \"citation\": " + json_string(r.spec->citation) +
             ", \"status\": " + json_string(status_name(r.status)) + ", \"message\": " + json_string(r.message) +
             ", \"wall_seconds\": " + json_number(r.wall_seconds) + ", \"setup\": " + json_string(r.outcome.setup) +
             ", \"plot\": " + json_string(r.plot) + ",\n     \"comparisons\": [";
        for (std::size_t k = 0; k < r.outcome.comparisons.size(); ++k) {
            const auto& c = r.outcome.comparisons[k];
            j += std::string(k ? "," : "") + "\n       {\"what\": " + json_string(c.what) +
                 ", \"result\": " + json_number(c.result) + ", \"reference\": " + json_number(c.reference) +
                 ", \"error\": " + json_number(c.error) + ", \"tolerance\": " + json_number(c.tolerance) +
                 ", \"pass\": " + (c.pass() ? "true" : "false") + "}";
        }
        j += "],\n     \"notes\": [";
        for (std::size_t k = 0; k < r.outcome.notes.size(); ++k)
            j += std::string(k ? ", " : "") + json_string(r.outcome.notes[k]);
        j += "]}";
    }
    j += "\n  ]\n}\n";
    io::write_file_atomically(dir / "report.md", md);
    io::write_file_atomically(dir / "report.json", j);
}

}  // namespace barracuda::validation
