#include "io/run_checkpoint.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "parallel/comm.hpp"

namespace barracuda::io {

namespace {

std::string tag_field(const std::string& tag, const std::string& key) {
    const auto at = tag.find(key + "=");
    if (at == std::string::npos) return {};
    const auto from = at + key.size() + 1;
    return tag.substr(from, tag.find(' ', from) - from);
}

/// Every rank's error text (empty where it had none); throws the first on every rank.
void share_verdict(const std::string& mine) {
    const auto& comm = parallel::Comm::world();
    if (comm.size() == 1) {
        if (!mine.empty()) throw CaseError(mine);
        return;
    }
    if (!comm.any(!mine.empty())) return;
    for (int r = 0; r < comm.size(); ++r) {
        std::vector<unsigned char> text;
        if (comm.rank() == r) text.assign(mine.begin(), mine.end());
        comm.broadcast(text, r);
        if (!text.empty()) throw CaseError("rank " + std::to_string(r) + ": " + std::string(text.begin(), text.end()));
    }
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
    : steps_(spec.run.steps) {
    const auto& d = sub.dims;
    // The force samples' interval: forces.interval, or output.interval when it is not
    // given, which a restart may change.
    const std::int64_t forces_every = spec.forces.obstacles.empty() ? 0 : sim::force_interval(spec);
    tag_ = "case=" + spec.fingerprint + " forces_every=" + std::to_string(forces_every) +
           " ranks=" + std::to_string(sub.ranks()) + " grid=" + std::to_string(d[0]) + "x" + std::to_string(d[1]) +
           "x" + std::to_string(d[2]) + " rank=" + std::to_string(sub.rank);
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
    // leaves some at the new step and some at the previous one).
    std::string error;
    std::int64_t mine[2] = {-1, -1};  // steps of the latest and the previous file; -1: none
    try {
        const auto latest = read_checkpoint_time(path_), before = read_checkpoint_time(previous_);
        mine[0] = latest.value_or(-1), mine[1] = before.value_or(-1);
        if (!latest && !before) error = missing(path_);
    } catch (const OutputError& e) {
        error = std::string("--restart: ") + e.what();
    }
    share_verdict(error);
    const auto& comm = parallel::Comm::world();
    const auto bytes = comm.all_gather(mine, sizeof mine);
    std::vector<std::int64_t> all(2 * std::size_t(comm.size()));
    std::memcpy(all.data(), bytes.data(), all.size() * sizeof(std::int64_t));
    std::int64_t step = -1;
    for (const std::int64_t candidate : all) {
        bool everywhere = candidate > step;
        for (int k = 0; everywhere && k < comm.size(); ++k)
            everywhere = all[2 * std::size_t(k)] == candidate || all[2 * std::size_t(k) + 1] == candidate;
        if (everywhere) step = candidate;
    }
    if (step < 0) {  // the same verdict on every rank: all of them see every step
        std::string held;
        for (int k = 0; k < comm.size(); ++k)
            held += (k ? "; rank " : "rank ") + std::to_string(k) + ": " + std::to_string(all[2 * std::size_t(k)]) +
                    ", " + std::to_string(all[2 * std::size_t(k) + 1]);
        throw CaseError("--restart: the ranks hold checkpoints of no common step (" + held + ")");
    }
    bool fell_back = false;
    for (int k = 0; k < comm.size(); ++k) fell_back = fell_back || all[2 * std::size_t(k)] != step;
    if (fell_back && comm.rank() == 0)
        std::cerr << "note: the latest checkpoints are not all of one step (the run stopped while saving them); "
                     "going on from step " << step << ", the newest every rank holds\n";
    if (step >= steps_)
        throw CaseError("--restart: the checkpoint is at step " + std::to_string(step) + " and run.steps = " +
                        std::to_string(steps_) + ": nothing left to run; raise run.steps (--set run.steps=N) to go on");

    const auto& file = step == mine[0] ? path_ : previous_;
    Resumed r;
    std::optional<Checkpoint> c;
    try {
        c = read_checkpoint(file);
        if (!c) error = missing(file);
    } catch (const OutputError& e) {
        error = std::string("--restart: ") + e.what();
    }
    if (c && error.empty()) {
        if (tag_field(c->tag, "case") != tag_field(tag_, "case")) {
            error = "--restart: " + file.string() +
                    " was written by another case; a restart may change run.steps, run.backend and [output] only";
        } else if (tag_field(c->tag, "forces_every") != tag_field(tag_, "forces_every")) {
            error = "--restart: " + file.string() + " was written by a run sampling forces every " +
                    tag_field(c->tag, "forces_every") + " steps, this one every " + tag_field(tag_, "forces_every") +
                    " (forces.interval, or output.interval when it is not given): keep the interval";
        } else if (tag_field(c->tag, "ranks") == tag_field(tag_, "ranks") &&
                   tag_field(c->tag, "grid") == tag_field(tag_, "grid") && c->tag != tag_) {
            error = "--restart: " + file.string() + " holds rank " + tag_field(c->tag, "rank") +
                    "'s state, not rank " + tag_field(tag_, "rank") + "'s: the files were renamed or mixed up";
        } else if (c->tag != tag_) {
            error = "--restart: " + file.string() + " was written by a run on " + tag_field(c->tag, "ranks") +
                    " rank(s) as " + tag_field(c->tag, "grid") + "; this run has " + grid_ +
                    ": restart on the same ranks";
        } else if (c->values.size() != 2) {
            error = "--restart: " + file.string() + " is not a checkpoint of barracuda run";
        }
    }
    if (error.empty()) {
        r = {c->time, std::int64_t(c->values[0]), std::int64_t(c->values[1])};
        try {
            sim.restore(r.step, c->state);
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
    write_checkpoint(path_, {sim.time(), tag_, sim.engine().save_state(), {double(force_samples), double(every)}});
}

}  // namespace barracuda::io
