// The ranks of a run and what they say to one another. With MPI (built with
// BARRACUDA_WITH_MPI and launched by mpirun) there is one rank per process;
// otherwise, or when the binary is started without mpirun, a single rank whose
// exchanges and reductions do nothing. Nothing outside this file includes mpi.h.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace barracuda::parallel {

/// A buffer sent to or received from one peer (host memory, or device memory
/// when the MPI library is CUDA-aware and the engine says so).
struct Transfer {
    void* data = nullptr;
    std::size_t bytes = 0;
    int peer = -1;
    int tag = 0;
};

class Comm {
public:
    /// Initialises MPI when the process was launched by an MPI launcher (and the
    /// binary has MPI); call once at the start of main. Safe to call without MPI.
    static void init(int& argc, char**& argv);
    /// Finalises MPI if init started it.
    static void finalize();
    static Comm& world();

    int rank() const { return rank_; }
    int size() const { return size_; }
    /// Rank among the ranks on this node (one GPU per local rank) and their number.
    int local_rank() const { return local_rank_; }
    int local_size() const { return local_size_; }
    bool with_mpi() const { return mpi_; }
    /// Whether every rank runs on one node.
    bool all_same_node() const {
        for (int n : node_of_)
            if (n != node_of_[0]) return false;
        return true;
    }
    /// Whether `rank` runs on this rank's node (shared memory; GPUs that can reach each other).
    bool same_node(int rank) const {
        return rank >= 0 && std::size_t(rank) < node_of_.size() && node_of_[std::size_t(rank)] == node_of_[std::size_t(rank_)];
    }
    /// Whether device pointers may be handed to MPI (MPIX_Query_cuda_support()).
    bool cuda_aware() const { return cuda_aware_; }
    /// Whether this binary was built with MPI at all (for error messages).
    static bool built_with_mpi();
    /// The MPI library's name and version, or "none".
    std::string library() const;

    /// Posts the receives, then the sends; wait() completes them all.
    void start(const std::vector<Transfer>& receives, const std::vector<Transfer>& sends);
    void wait();

    /// Every rank's `bytes` bytes, concatenated in rank order, on every rank.
    std::vector<unsigned char> all_gather(const void* data, std::size_t bytes) const;
    /// Rank `root`'s bytes on every rank (resized to the root's size).
    void broadcast(std::vector<unsigned char>& data, int root = 0) const;
    /// Every rank's variable-size bytes concatenated in rank order on `root` (empty elsewhere),
    /// with each rank's size in `sizes` on root.
    std::vector<unsigned char> gather(const std::vector<unsigned char>& data, std::vector<std::size_t>* sizes,
                                      int root = 0) const;
    double max(double v) const;
    double min(double v) const;
    /// Element-wise sums over all ranks, added in rank order on every rank (the same bits
    /// for the same decomposition, whatever the MPI library's reduction order).
    std::vector<double> sum(const std::vector<double>& values) const;
    /// Logical or of a flag over all ranks (e.g. "some rank failed").
    bool any(bool flag) const;
    /// A problem that one rank may meet alone (kind 0: none; the kinds are the caller's),
    /// made every rank's: the lowest rank's with one, or {-1, 0, ""} when none has one.
    /// Collective; so that no rank waits for another that has stopped.
    struct Problem {
        int rank = -1, kind = 0;
        std::string text;
    };
    Problem first_problem(int kind, const std::string& text) const;
    void barrier() const;
    /// Ends every rank of the run with `code` (after an error one rank cannot share).
    [[noreturn]] void abort(int code) const;

private:
    int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
    bool mpi_ = false, cuda_aware_ = false;
    std::vector<int> node_of_{0};  // per rank: the world rank of its node's first rank
    // The MPI requests of start() live in comm.cpp: mpi.h stays out of this header.
};

}  // namespace barracuda::parallel
