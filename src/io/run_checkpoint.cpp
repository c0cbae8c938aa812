#include "io/run_checkpoint.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
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
        if (name.rfind("checkpoint", 0) == 0 && entry.path().extension() == ".bin") found.push_back(name);
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
    tag_ = "case=" + spec.fingerprint + " ranks=" + std::to_string(sub.ranks()) + " grid=" + std::to_string(d[0]) +
           "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]) + " rank=" + std::to_string(sub.rank);
    grid_ = std::to_string(sub.ranks()) + (sub.ranks() == 1 ? " rank" : " ranks as [") +
            (sub.ranks() == 1 ? std::string() : std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " +
                                                     std::to_string(d[2]) + "]");
    char name[40];
    if (sub.decomposed()) std::snprintf(name, sizeof name, "checkpoint_r%04d.bin", sub.rank);
    else std::snprintf(name, sizeof name, "checkpoint.bin");
    path_ = std::move(directory) / name;
}

RunCheckpoints::Resumed RunCheckpoints::restore(sim::Simulation& sim) const {
    std::string error;
    Resumed r;
    std::optional<Checkpoint> c;
    try {
        c = read_checkpoint(path_);
        if (!c) error = missing(path_);
    } catch (const OutputError& e) {
        error = std::string("--restart: ") + e.what();
    }
    if (c && error.empty()) {
        if (tag_field(c->tag, "case") != tag_field(tag_, "case")) {
            error = "--restart: " + path_.string() +
                    " was written by another case; a restart may change run.steps, run.backend and [output] only";
        } else if (tag_field(c->tag, "ranks") != tag_field(tag_, "ranks") ||
                   tag_field(c->tag, "grid") != tag_field(tag_, "grid") || c->tag != tag_) {
            error = "--restart: " + path_.string() + " was written by a run on " + tag_field(c->tag, "ranks") +
                    " rank(s) as " + tag_field(c->tag, "grid") + "; this run has " + grid_ +
                    ": restart on the same ranks";
        } else if (c->values.size() != 2) {
            error = "--restart: " + path_.string() + " is not a checkpoint of barracuda run";
        }
    }
    if (error.empty()) r = {c->time, std::int64_t(c->values[0]), std::int64_t(c->values[1])};
    share_verdict(error);

    // Each rank writes its own file: a run stopped between two ranks' writes leaves
    // files of different steps, which cannot go on together. (The same verdict on
    // every rank: all of them see every step.)
    const auto& comm = parallel::Comm::world();
    const auto bytes = comm.all_gather(&r.step, sizeof r.step);
    std::vector<std::int64_t> steps(std::size_t(comm.size()));
    std::memcpy(steps.data(), bytes.data(), steps.size() * sizeof(std::int64_t));
    for (int k = 1; k < comm.size(); ++k)
        if (steps[std::size_t(k)] != steps[0])
            throw CaseError("--restart: the ranks' checkpoints are of different steps (rank 0: " +
                            std::to_string(steps[0]) + ", rank " + std::to_string(k) + ": " +
                            std::to_string(steps[std::size_t(k)]) + "); the run stopped while writing them");
    if (r.step >= steps_)
        throw CaseError("--restart: the checkpoint is at step " + std::to_string(r.step) + " and run.steps = " +
                        std::to_string(steps_) + ": nothing left to run; raise run.steps (--set run.steps=N) to go on");
    try {
        sim.restore(r.step, c->state);
    } catch (const CaseError& e) {  // another engine: lattice, precision, pattern, grid
        error = std::string("--restart: ") + e.what();
    }
    share_verdict(error);
    return r;
}

void RunCheckpoints::save(sim::Simulation& sim, std::int64_t force_samples, std::int64_t every) const {
    write_checkpoint(path_, {sim.time(), tag_, sim.engine().save_state(), {double(force_samples), double(every)}});
}

}  // namespace barracuda::io
