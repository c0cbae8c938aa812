// A run never silently overwrites an earlier run's results, and no two runs
// share a directory: the run that claims a directory holds a lock on it
// (flock on <dir>/.barracuda.lock, released by the kernel when the process
// ends, however it ends) until it is done.
#pragma once
#include <filesystem>
#include <memory>
#include <string>

namespace barracuda::io {

/// An exclusive lock on a run directory, held while the object lives.
class DirectoryLock {
public:
    /// The lock file's name inside a run directory.
    static constexpr const char* file_name = ".barracuda.lock";
    /// Takes the lock of `dir` (creating its lock file), or returns null when another
    /// process holds it. Throws OutputError when the lock file cannot be made (the
    /// directory is not writable).
    static std::unique_ptr<DirectoryLock> try_lock(const std::filesystem::path& dir);
    /// Writes this process's id into the lock file (for the message another run gives).
    void record_holder(const std::filesystem::path& dir) const;
    ~DirectoryLock();
    DirectoryLock(const DirectoryLock&) = delete;
    DirectoryLock& operator=(const DirectoryLock&) = delete;

private:
    explicit DirectoryLock(int fd) : fd_(fd) {}
    int fd_;
};

struct OutputDirectory {
    std::filesystem::path path;  // the directory the run writes to
    bool renamed = false;        // true when the requested one held results and a new one was chosen
    std::shared_ptr<DirectoryLock> lock;  // held for the run (rank 0 of a decomposed run)
};

/// If `requested` does not exist, or is empty and no other run holds it, creates
/// it, locks it and returns it. Otherwise picks `requested-1`, `requested-2`, ...
/// (the first that does not exist), creates and locks it and returns it with
/// renamed = true; the caller says so. Throws OutputError if nothing can be
/// created or written.
OutputDirectory prepare_output_directory(const std::filesystem::path& requested);

/// Locks an existing run directory to go on in it (barracuda run --restart).
/// Throws OutputError naming the other process when a run holds it, or when it is
/// not writable.
OutputDirectory lock_run_directory(const std::filesystem::path& dir);

}  // namespace barracuda::io
