#include "io/output_dir.hpp"

#include <system_error>

#include "common/error.hpp"

namespace barracuda::io {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const fs::path& dir, const std::error_code& ec) {
    throw OutputError("cannot create output directory " + dir.string() + ": " + ec.message());
}

// Creates `dir` (and its parents) if it does not exist. Returns true when the
// directory may be used: newly created, or existing and empty.
bool claim(const fs::path& dir) {
    std::error_code ec;
    if (dir.has_parent_path()) {
        fs::create_directories(dir.parent_path(), ec);
        if (ec) fail(dir, ec);
    }
    // create_directory() reports whether *this* call created it, so two runs
    // started at once cannot both claim the same new directory.
    if (fs::create_directory(dir, ec)) return true;
    if (ec) {
        if (ec != std::errc::file_exists) fail(dir, ec);
        return false;  // something that is not a directory is in the way
    }
    const bool empty = fs::is_directory(dir, ec) && fs::is_empty(dir, ec);
    if (ec) fail(dir, ec);
    return empty;
}

}  // namespace

OutputDirectory prepare_output_directory(const fs::path& requested) {
    if (claim(requested)) return {requested, false};

    // "out/" names the directory "out": number that, not an empty last element.
    fs::path base = requested;
    if (!base.has_filename() && base.has_parent_path()) base = base.parent_path();

    // Only a directory that did not exist counts: an empty "out-1" may belong
    // to a run that has just started.
    constexpr int max_tries = 10000;
    for (int n = 1; n <= max_tries; ++n) {
        fs::path candidate = base;
        candidate += "-" + std::to_string(n);
        std::error_code ec;
        if (fs::exists(candidate, ec)) continue;
        if (fs::create_directory(candidate, ec)) return {candidate, true};
        if (ec && ec != std::errc::file_exists) fail(candidate, ec);
    }
    throw OutputError("cannot create output directory: " + base.string() + " holds results and " + base.string() +
                      "-1 ... -" + std::to_string(max_tries) + " all exist");
}

}  // namespace barracuda::io
