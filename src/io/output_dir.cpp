#include "io/output_dir.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "common/error.hpp"

namespace barracuda::io {

namespace fs = std::filesystem;

std::unique_ptr<DirectoryLock> DirectoryLock::try_lock(const fs::path& dir) {
    const fs::path file = dir / file_name;
    const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        throw OutputError("cannot write in the output directory " + dir.string() + ": " + std::strerror(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int e = errno;
        ::close(fd);
        if (e == EWOULDBLOCK) return nullptr;
        throw OutputError("cannot lock the output directory " + dir.string() + ": " + std::strerror(e));
    }
    return std::unique_ptr<DirectoryLock>(new DirectoryLock(fd));
}

void DirectoryLock::record_holder(const fs::path& dir) const {
    // The holder's process id, for the message another run gives (the lock is the flock,
    // not the file's content: a run that was killed leaves the file, never the lock).
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) != ssize_t(pid.size()))
        throw OutputError("cannot write in the output directory " + dir.string() + ": " + std::strerror(errno));
}

DirectoryLock::~DirectoryLock() { ::close(fd_); }  // releases the flock

namespace {

[[noreturn]] void fail(const fs::path& dir, const std::error_code& ec) {
    throw OutputError("cannot create output directory " + dir.string() + ": " + ec.message());
}

/// The process id written in a directory's lock file, or "?".
std::string holder_of(const fs::path& dir) {
    std::string pid;
    if (FILE* f = std::fopen((dir / DirectoryLock::file_name).c_str(), "r")) {
        char b[32] = {};
        if (std::fgets(b, sizeof b, f)) pid = b;
        std::fclose(f);
    }
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == '\r')) pid.pop_back();
    return pid.empty() ? "?" : pid;
}

/// Whether `dir` holds nothing but (possibly) a lock file.
bool holds_no_results(const fs::path& dir, std::error_code& ec) {
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().filename() != DirectoryLock::file_name) return false;
    return !ec;
}

// Creates `dir` (and its parents) if it does not exist and locks it. Returns the lock
// when the directory may be used: newly created, or existing without results and not
// held by another run; null otherwise.
std::unique_ptr<DirectoryLock> claim(const fs::path& dir) {
    std::error_code ec;
    if (dir.has_parent_path()) {
        fs::create_directories(dir.parent_path(), ec);
        if (ec) fail(dir, ec);
    }
    fs::create_directory(dir, ec);
    if (ec) {
        if (ec != std::errc::file_exists) fail(dir, ec);
        return nullptr;  // something that is not a directory is in the way
    }
    if (!fs::is_directory(dir, ec)) return nullptr;
    // An earlier run's results: left as they are (not even their lock file is touched).
    if (!holds_no_results(dir, ec)) {
        if (ec) fail(dir, ec);
        return nullptr;
    }
    // Two runs may both find the directory new or empty; only one gets its lock, and
    // the other moves on. The check for results is made again under the lock, so that
    // it cannot miss a run that claimed and filled the directory meanwhile.
    auto lock = DirectoryLock::try_lock(dir);
    if (!lock) return nullptr;
    const bool empty = holds_no_results(dir, ec);
    if (ec) fail(dir, ec);
    if (!empty) return nullptr;
    lock->record_holder(dir);
    return lock;
}

}  // namespace

OutputDirectory prepare_output_directory(const fs::path& requested) {
    std::error_code ec;
    if (fs::exists(requested, ec) && !fs::is_directory(requested, ec))
        throw OutputError("the output directory " + requested.string() + " is a file, not a directory");
    if (auto lock = claim(requested)) return {requested, false, std::move(lock)};

    // "out/" names the directory "out": number that, not an empty last element.
    fs::path base = requested;
    if (!base.has_filename() && base.has_parent_path()) base = base.parent_path();

    // Only a directory that did not exist counts: an empty "out-1" may belong
    // to a run that has just started.
    constexpr int max_tries = 10000;
    for (int n = 1; n <= max_tries; ++n) {
        fs::path candidate = base;
        candidate += "-" + std::to_string(n);
        if (fs::exists(candidate, ec)) continue;
        if (fs::create_directory(candidate, ec)) {
            if (auto lock = DirectoryLock::try_lock(candidate)) {
                lock->record_holder(candidate);
                return {candidate, true, std::move(lock)};
            }
            continue;  // another run created and locked it first
        }
        if (ec && ec != std::errc::file_exists) fail(candidate, ec);
    }
    throw OutputError("cannot create output directory: " + base.string() + " holds results and " + base.string() +
                      "-1 ... -" + std::to_string(max_tries) + " all exist");
}

OutputDirectory lock_run_directory(const fs::path& dir) {
    auto lock = DirectoryLock::try_lock(dir);
    if (!lock)
        throw OutputError("the run directory " + dir.string() + " is in use by another barracuda run (process " +
                          holder_of(dir) + "); wait for it to finish or stop it first");
    lock->record_holder(dir);
    return {dir, false, std::move(lock)};
}

}  // namespace barracuda::io
