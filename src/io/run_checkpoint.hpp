// Checkpoints of `barracuda run` (--checkpoint-every, --restart DIR): one file per
// rank in the run's output directory (io/checkpoint.hpp), tagged with the case's
// fingerprint (sim::CaseSpec::fingerprint) and the rank grid, so that a restart
// goes on only from a state of the same case on the same decomposition. The
// caller's values hold the force samples written so far and the interval, then,
// inside an [average] window, its sample count, last sampled step and running sums.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>

#include "io/checkpoint.hpp"
#include "parallel/decomposition.hpp"
#include "sim/case_spec.hpp"
#include "sim/simulation.hpp"

namespace barracuda::io {

class RunCheckpoints {
public:
    RunCheckpoints(const sim::CaseSpec& spec, const parallel::Subdomain& sub, std::filesystem::path directory);

    /// This rank's latest file: checkpoint.bin, or checkpoint_r<rank>.bin on several ranks.
    /// The one before it stays beside it as checkpoint[_r<rank>].previous.bin.
    const std::filesystem::path& path() const { return path_; }

    /// What the earlier sitting left: its step, force samples and checkpoint interval.
    struct Resumed {
        std::int64_t step = 0, force_samples = 0, every = 0;
        std::filesystem::path file;  // the file it came from (this rank's)
    };
    /// Collective: restores `sim` from the newest step every rank holds in its latest or
    /// previous file. A file whose checksum fails is left out (and said so), so that a
    /// damaged latest file falls back to the previous one. Throws CaseError on every
    /// rank, with the first failing rank's reason, when there is none left, when a file
    /// belongs to another case, force interval or rank grid, or when the step is not
    /// below run.steps.
    Resumed restore(sim::Simulation& sim) const;

    /// Writes this rank's checkpoint of `sim` (atomically), keeping the one before.
    void save(sim::Simulation& sim, std::int64_t force_samples, std::int64_t every) const;

private:
    std::string tag_;  // "case=<fingerprint> ranks=<n> grid=<a>x<b>x<c> rank=<r>"
    std::string grid_;  // "<n> rank(s) as [a, b, c]", for messages
    std::int64_t steps_;
    bool si_time_;        // the case gave run.time (SI), not run.steps
    std::string source_;  // the case file, for io::same_case
    std::filesystem::path path_;
    std::filesystem::path previous_;  // the checkpoint before the latest
};

}  // namespace barracuda::io
