// A run never silently overwrites an earlier run's results.
#pragma once
#include <filesystem>
#include <string>

namespace barracuda::io {

struct OutputDirectory {
    std::filesystem::path path;  // the directory the run writes to
    bool renamed = false;        // true when the requested one held results and a new one was chosen
};

/// If `requested` does not exist or is empty, creates it and returns it. If it
/// holds files, picks `requested-1`, `requested-2`, ... (the first that does not
/// exist), creates it and returns it with renamed = true; the caller says so.
/// Throws OutputError if nothing can be created.
OutputDirectory prepare_output_directory(const std::filesystem::path& requested);

}  // namespace barracuda::io
