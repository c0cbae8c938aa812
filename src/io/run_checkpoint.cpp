#include "io/run_checkpoint.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <optional>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "io/case_file.hpp"
#include "parallel/comm.hpp"

namespace barracuda::io {

namespace {

/// The first line of a tag without its case fingerprint: the run's fields (the
/// canonical case text follows on the next lines; the case is compared on its own).
std::string fields_of(const std::string& tag) {
    const std::string line = tag.substr(0, tag.find('\n'));
    return line.compare(0, 5, "case=") == 0 ? line.substr(std::min(line.size(), line.find(' ') + 1)) : line;
}

/// "key = value" per "table.key" of a canonical case text (sim::CaseSpec::canonical).
std::map<std::string, std::string> case_entries(const std::string& text) {
    std::map<std::string, std::string> out;
    std::istringstream in(text);
    std::string line, table;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        if (line.front() == '[') {
            table = line.substr(1, line.find(']') - 1) + ".";
            continue;
        }
        const auto eq = line.find(" = ");
        if (eq == std::string::npos) continue;
        out[table + line.substr(0, eq)] = line.substr(eq + 3);
    }
    return out;
}

/// `text` (a canonical case text) with the entry "table.key" set to `value`, or removed
/// when `value` is empty; an entry it lacks is added under its table.
std::string with_entry(const std::string& text, const std::string& entry, const std::string& value) {
    const auto dot = entry.rfind('.');
    const std::string table = dot == std::string::npos ? "" : entry.substr(0, dot), key = entry.substr(dot + 1);
    std::istringstream in(text);
    std::string line, current, out;
    bool done = false;
    while (std::getline(in, line)) {
        if (!line.empty() && line.front() == '[') {
            if (!done && current == table && !value.empty()) out += key + " = " + value + "\n", done = true;
            current = line.substr(1, line.find(']') - 1);
        } else if (current == table && line.compare(0, key.size() + 3, key + " = ") == 0) {
            if (!value.empty()) out += key + " = " + value + "\n";
            done = true;
            continue;
        }
        out += line + "\n";
    }
    if (!done && !value.empty()) out += (current == table ? "" : "[" + table + "]\n") + key + " = " + value + "\n";
    return out;
}

/// The keys whose values differ between two canonical case texts and change the case,
/// as "key: a -> b": a key given in one with its default value (or written otherwise)
/// is not shown, as it does not make the cases differ (io::same_case).
std::string case_differences(const std::string& was, const std::string& now, const std::string& source) {
    const auto a = case_entries(was), b = case_entries(now);
    std::string out;
    int shown = 0;
    // Numbers as people write them (the text holds 17 significant digits: 0.65000000000000002).
    const auto shown_value = [](const std::string& v) {
        char* end = nullptr;
        const double d = std::strtod(v.c_str(), &end);
        if (v.empty() || *end != '\0') return v;
        char b[32];
        std::snprintf(b, sizeof b, "%.15g", d);
        return std::string(b);
    };
    auto add = [&](const std::string& key, const std::string& x, const std::string& y) {
        // Immaterial: `now` with this entry as in `was` is still the same case as `now`.
        if (same_case(now, with_entry(now, key, a.count(key) ? x : ""), source)) return;
        if (shown++ < 6) out += (out.empty() ? "" : ", ") + key + ": " + shown_value(x) + " -> " + shown_value(y);
    };
    for (const auto& [k, v] : a) {
        const auto it = b.find(k);
        if (it == b.end()) add(k, v, "(not given)");
        else if (it->second != v) add(k, v, it->second);
    }
    for (const auto& [k, v] : b)
        if (!a.count(k)) add(k, "(not given)", v);
    if (shown > 6) out += " and " + std::to_string(shown - 6) + " more";
    return out;
}

std::string tag_field(const std::string& full, const std::string& key) {
    const std::string tag = full.substr(0, full.find('\n'));
    const auto at = tag.find(key + "=");
    if (at == std::string::npos) return {};
    const auto from = at + key.size() + 1;
    return tag.substr(from, tag.find(' ', from) - from);
}

/// Every rank's error text (empty where it had none); throws the first on every rank.
void share_verdict(const std::string& mine) {
    const auto& comm = parallel::Comm::world();
    const auto first = comm.first_problem(mine.empty() ? 0 : 1, mine);
    if (first.kind == 0) return;
    throw CaseError(comm.size() == 1 ? first.text : "rank " + std::to_string(first.rank) + ": " + first.text);
}

/// Why there is no checkpoint at `path`; a run on another number of ranks names its files otherwise.
std::string missing(const std::filesystem::path& path) {
    std::vector<std::string> found;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(path.parent_path(), ec)) {
        const auto name = entry.path().filename().string();
        if (name.rfind("checkpoint", 0) == 0 && entry.path().extension() == ".bin" &&
            name.find(".previous") == std::string::npos)
            found.push_back(name);
    }
    std::sort(found.begin(), found.end());
    std::string others;
    for (const auto& name : found) others += (others.empty() ? "" : ", ") + name;
    std::string m = "--restart: no checkpoint " + path.string();
    if (!others.empty()) return m + " (the directory holds " + others + ": a run on another number of ranks)";
    return m + " (a run writes one with --checkpoint-every N)";
}

}  // namespace

RunCheckpoints::RunCheckpoints(const sim::CaseSpec& spec, const parallel::Subdomain& sub,
                               std::filesystem::path directory)
    : steps_(spec.run.steps), si_time_(spec.run.time > 0), source_(spec.source) {
    const auto& d = sub.dims;
    // The force samples' interval: forces.interval, or output.interval when it is not
    // given, which a restart may change.
    const std::int64_t forces_every = spec.forces.obstacles.empty() ? 0 : sim::force_interval(spec);
    tag_ = "case=" + spec.fingerprint + " forces_every=" + std::to_string(forces_every) +
           " ranks=" + std::to_string(sub.ranks()) + " grid=" + std::to_string(d[0]) + "x" + std::to_string(d[1]) +
           "x" + std::to_string(d[2]) + " rank=" + std::to_string(sub.rank) + "\n" + spec.canonical;
    grid_ = std::to_string(sub.ranks()) + (sub.ranks() == 1 ? " rank" : " ranks as [") +
            (sub.ranks() == 1 ? std::string() : std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " +
                                                     std::to_string(d[2]) + "]");
    char name[40], previous[48];
    if (sub.decomposed()) {
        std::snprintf(name, sizeof name, "checkpoint_r%04d.bin", sub.rank);
        std::snprintf(previous, sizeof previous, "checkpoint_r%04d.previous.bin", sub.rank);
    } else {
        std::snprintf(name, sizeof name, "checkpoint.bin");
        std::snprintf(previous, sizeof previous, "checkpoint.previous.bin");
    }
    path_ = directory / name;
    previous_ = std::move(directory) / previous;
}

RunCheckpoints::Resumed RunCheckpoints::restore(sim::Simulation& sim) const {
    // Which step to go on from: the newest that every rank holds, in its latest file or
    // the one before (save() keeps both; a run stopped while the ranks were saving
    // leaves some at the new step and some at the previous one). A file found damaged
    // (its checksum, io/checkpoint.hpp) drops out and the choice is made again, so that
    // a damaged latest file falls back to the previous one on every rank.
    const auto& comm = parallel::Comm::world();
    const std::filesystem::path files[2] = {path_, previous_};
    std::int64_t mine[2] = {-1, -1};  // steps of the latest and the previous file; -1: none or damaged
    std::string damaged[2];           // why a file was left out
    for (int k = 0; k < 2; ++k) {
        try {
            mine[k] = read_checkpoint_time(files[k]).value_or(-1);
        } catch (const OutputError& e) {
            damaged[k] = e.what();
        }
    }
    std::int64_t step = -1;
    std::optional<Checkpoint> c;
    std::string error;
    for (int attempt = 0; attempt < 3 && !c; ++attempt) {
        const auto bytes = comm.all_gather(mine, sizeof mine);
        std::vector<std::int64_t> all(2 * std::size_t(comm.size()));
        std::memcpy(all.data(), bytes.data(), all.size() * sizeof(std::int64_t));
        step = -1;
        for (const std::int64_t candidate : all) {
            bool everywhere = candidate > step;
            for (int k = 0; everywhere && k < comm.size(); ++k)
                everywhere = all[2 * std::size_t(k)] == candidate || all[2 * std::size_t(k) + 1] == candidate;
            if (everywhere) step = candidate;
        }
        if (step < 0) {  // the same verdict on every rank: all of them see every step
            std::string why;
            for (int k = 0; k < 2; ++k)
                if (!damaged[k].empty()) why += (why.empty() ? "" : "; ") + damaged[k];
            if (comm.size() == 1) {
                error = why.empty() ? missing(path_) : "--restart: no usable checkpoint: " + why;
            } else {
                std::string held;
                for (int k = 0; k < comm.size(); ++k)
                    held += (k ? "; rank " : "rank ") + std::to_string(k) + ": " + std::to_string(all[2 * std::size_t(k)]) +
                            ", " + std::to_string(all[2 * std::size_t(k) + 1]);
                error = all == std::vector<std::int64_t>(all.size(), -1) && why.empty()
                            ? missing(path_)
                            : "--restart: the ranks hold checkpoints of no common step (" + held + ", -1: none or damaged)" +
                                  (why.empty() ? "" : "; here: " + why);
            }
            break;
        }
        const int k = step == mine[0] ? 0 : 1;
        bool bad = false;
        try {
            c = read_checkpoint(files[k]);
        } catch (const OutputError& e) {
            damaged[k] = e.what(), mine[k] = -1, bad = true;
        }
        if (comm.any(bad)) c.reset();  // every rank chooses again
    }
    share_verdict(error);
    if (!c) share_verdict("--restart: the checkpoints could not be read (" + damaged[0] + "; " + damaged[1] + ")");
    const int used = step == mine[0] ? 0 : 1;
    const auto& file = files[used];
    if (comm.rank() == 0) {
        if (!damaged[0].empty())
            std::cerr << "note: " << damaged[0] << "; going on from " << file.string() << " (step " << step << ")\n";
        else if (used == 1)
            std::cerr << "note: the latest checkpoints are not all of one step (the run stopped while saving them); "
                         "going on from step " << step << ", the newest every rank holds\n";
    }
    if (step >= steps_)
        throw CaseError("--restart: the checkpoint is at step " + std::to_string(step) + " and run.steps = " +
                        std::to_string(steps_) + ": nothing left to run; " +
                        (si_time_ ? "raise run.time (--set run.time=SECONDS)" : "raise run.steps (--set run.steps=N)") +
                        " to go on");

    Resumed r;
    r.file = file;
    if (c && error.empty()) {
        // The two canonical case texts (after each tag's first line); an old tag may have none.
        const auto at = c->tag.find('\n');
        const std::string was = at == std::string::npos ? std::string() : c->tag.substr(at + 1),
                          now = tag_.substr(tag_.find('\n') + 1);
        const bool same = tag_field(c->tag, "case") == tag_field(tag_, "case") ||
                          (at != std::string::npos && same_case(was, now, source_));
        if (!same) {
            const std::string differ = at == std::string::npos ? std::string() : case_differences(was, now, source_);
            error = "--restart: " + file.string() + " was written by another case" +
                    (differ.empty() ? std::string() : " (" + differ + ")") +
                    "; a restart may change run.steps (run.time), run.backend, [output] and the title only";
        } else if (tag_field(c->tag, "forces_every") != tag_field(tag_, "forces_every")) {
            error = "--restart: " + file.string() + " was written by a run sampling forces every " +
                    tag_field(c->tag, "forces_every") + " steps, this one every " + tag_field(tag_, "forces_every") +
                    " (forces.interval, or output.interval when it is not given): keep the interval";
        } else if (tag_field(c->tag, "ranks") == tag_field(tag_, "ranks") &&
                   tag_field(c->tag, "grid") == tag_field(tag_, "grid") && fields_of(c->tag) != fields_of(tag_)) {
            error = "--restart: " + file.string() + " holds rank " + tag_field(c->tag, "rank") +
                    "'s state, not rank " + tag_field(tag_, "rank") + "'s: the files were renamed or mixed up";
        } else if (fields_of(c->tag) != fields_of(tag_)) {
            error = "--restart: " + file.string() + " was written by a run on " + tag_field(c->tag, "ranks") +
                    " rank(s) as " + tag_field(c->tag, "grid") + "; this run has " + grid_ +
                    ": restart on the same ranks";
        } else if (c->values.size() != 2 && c->values.size() < 4) {
            error = "--restart: " + file.string() + " is not a checkpoint of barracuda run";
        }
    }
    if (error.empty()) {
        r.step = c->time, r.force_samples = std::int64_t(c->values[0]), r.every = std::int64_t(c->values[1]);
        try {
            sim.restore(r.step, c->state);
            // [average]'s window so far (sample count, last step, sums) follows the two numbers.
            sim.restore_average_state(c->values.size() >= 4 ? std::vector<double>(c->values.begin() + 2, c->values.end())
                                                            : std::vector<double>{});
        } catch (const CaseError& e) {  // another engine: lattice, precision, pattern, grid
            error = std::string("--restart: ") + e.what();
        }
    }
    share_verdict(error);
    return r;
}

void RunCheckpoints::save(sim::Simulation& sim, std::int64_t force_samples, std::int64_t every) const {
    // The latest file becomes the previous one first: a stop at any point leaves every
    // rank one of the two steps (restore() picks the newest they share).
    std::error_code ec;
    if (std::filesystem::exists(path_, ec)) {
        std::filesystem::rename(path_, previous_, ec);
        if (ec) throw OutputError("cannot rename " + path_.string() + " to " + previous_.string() + ": " + ec.message());
    }
    std::vector<double> values{double(force_samples), double(every)};
    const auto average = sim.average_state();
    if (average.size() >= 2 && average[0] > 0) values.insert(values.end(), average.begin(), average.end());
    write_checkpoint(path_, {sim.time(), tag_, sim.engine().save_state(), std::move(values)});
}

}  // namespace barracuda::io
