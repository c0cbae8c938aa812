#include "parallel/comm.hpp"

#include <cstring>

#include <cstdlib>
#include <stdexcept>

#ifdef BARRACUDA_WITH_MPI
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI: MPIX_Query_cuda_support
#endif
#endif

namespace barracuda::parallel {

namespace {
bool g_started = false;  // init() called MPI_Init
#ifdef BARRACUDA_WITH_MPI
std::vector<MPI_Request> g_pending;

void ok(int rc, const char* what) {
    if (rc != MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING];
        int n = 0;
        MPI_Error_string(rc, text, &n);
        throw std::runtime_error(std::string(what) + ": " + std::string(text, std::size_t(n)));
    }
}
#endif

// Launched by an MPI launcher? (Open MPI, MPICH/Hydra, PMIx, Slurm.) Without one, a
// plain `barracuda run` does not start MPI at all: singleton start-up is slow and
// fails in some containers.
bool launched_by_mpi() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
        if (std::getenv(v)) return true;
    return false;
}
}  // namespace

bool Comm::built_with_mpi() {
#ifdef BARRACUDA_WITH_MPI
    return true;
#else
    return false;
#endif
}

void Comm::init(int& argc, char**& argv) {
    Comm& w = world();
#ifdef BARRACUDA_WITH_MPI
    if (g_started || !launched_by_mpi()) return;
    int provided = 0;
    ok(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    g_started = true;
    w.mpi_ = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &w.rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &w.size_);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w.rank_, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &w.local_rank_);
    MPI_Comm_size(node, &w.local_size_);
    int leader = w.rank_;
    MPI_Bcast(&leader, 1, MPI_INT, 0, node);  // the node's first rank names the node
    MPI_Comm_free(&node);
    w.node_of_.assign(std::size_t(w.size_), 0);
    MPI_Allgather(&leader, 1, MPI_INT, w.node_of_.data(), 1, MPI_INT, MPI_COMM_WORLD);
#if defined(MPIX_CUDA_AWARE_SUPPORT)
    w.cuda_aware_ = MPIX_Query_cuda_support() == 1;
#endif
#else
    (void)argc, (void)argv, (void)w;
#endif
}

void Comm::finalize() {
#ifdef BARRACUDA_WITH_MPI
    if (g_started) MPI_Finalize();
#endif
    g_started = false;
}

Comm& Comm::world() {
    static Comm w;
    return w;
}

std::string Comm::library() const {
#ifdef BARRACUDA_WITH_MPI
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;
    MPI_Get_library_version(v, &n);
    std::string s(v, std::size_t(n));
    if (const auto eol = s.find_first_of("\r\n,"); eol != std::string::npos) s.resize(eol);
    return s;
#else
    return "none";
#endif
}

void Comm::start(const std::vector<Transfer>& receives, const std::vector<Transfer>& sends) {
#ifdef BARRACUDA_WITH_MPI
    if (!mpi_) return;
    for (const auto& r : receives) {
        g_pending.emplace_back();
        ok(MPI_Irecv(r.data, int(r.bytes), MPI_BYTE, r.peer, r.tag, MPI_COMM_WORLD, &g_pending.back()), "MPI_Irecv");
    }
    for (const auto& s : sends) {
        g_pending.emplace_back();
        ok(MPI_Isend(s.data, int(s.bytes), MPI_BYTE, s.peer, s.tag, MPI_COMM_WORLD, &g_pending.back()), "MPI_Isend");
    }
#else
    (void)receives, (void)sends;
#endif
}

void Comm::wait() {
#ifdef BARRACUDA_WITH_MPI
    if (g_pending.empty()) return;
    ok(MPI_Waitall(int(g_pending.size()), g_pending.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    g_pending.clear();
#endif
}

std::vector<unsigned char> Comm::all_gather(const void* data, std::size_t bytes) const {
    std::vector<unsigned char> out(bytes * std::size_t(size_));
#ifdef BARRACUDA_WITH_MPI
    if (mpi_) {
        ok(MPI_Allgather(data, int(bytes), MPI_BYTE, out.data(), int(bytes), MPI_BYTE, MPI_COMM_WORLD),
           "MPI_Allgather");
        return out;
    }
#endif
    const auto* p = static_cast<const unsigned char*>(data);
    out.assign(p, p + bytes);
    return out;
}

void Comm::broadcast(std::vector<unsigned char>& data, int root) const {
#ifdef BARRACUDA_WITH_MPI
    if (!mpi_) return;
    unsigned long long n = data.size();
    ok(MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, root, MPI_COMM_WORLD), "MPI_Bcast");
    data.resize(std::size_t(n));
    if (n) ok(MPI_Bcast(data.data(), int(n), MPI_BYTE, root, MPI_COMM_WORLD), "MPI_Bcast");
#else
    (void)data, (void)root;
#endif
}

std::vector<unsigned char> Comm::gather(const std::vector<unsigned char>& data, std::vector<std::size_t>* sizes,
                                        int root) const {
#ifdef BARRACUDA_WITH_MPI
    if (mpi_) {
        const unsigned long long mine = data.size();
        std::vector<unsigned long long> all(static_cast<std::size_t>(size_));
        ok(MPI_Gather(&mine, 1, MPI_UNSIGNED_LONG_LONG, all.data(), 1, MPI_UNSIGNED_LONG_LONG, root, MPI_COMM_WORLD),
           "MPI_Gather");
        std::vector<int> counts(static_cast<std::size_t>(size_)), displs(static_cast<std::size_t>(size_));
        std::size_t total = 0;
        for (std::size_t r = 0; r < all.size(); ++r) {
            counts[r] = int(all[r]);
            displs[r] = int(total);
            total += all[r];
        }
        std::vector<unsigned char> out(rank_ == root ? total : 0);
        ok(MPI_Gatherv(data.data(), int(mine), MPI_BYTE, out.data(), counts.data(), displs.data(), MPI_BYTE, root,
                       MPI_COMM_WORLD),
           "MPI_Gatherv");
        if (sizes && rank_ == root) sizes->assign(all.begin(), all.end());
        return out;
    }
#endif
    (void)root;
    if (sizes) sizes->assign(1, data.size());
    return data;
}

double Comm::max(double v) const {
#ifdef BARRACUDA_WITH_MPI
    if (mpi_) ok(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
#endif
    return v;
}

double Comm::min(double v) const {
#ifdef BARRACUDA_WITH_MPI
    if (mpi_) ok(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
#endif
    return v;
}

std::vector<double> Comm::sum(const std::vector<double>& values) const {
    if (size_ == 1 || values.empty()) return values;
    const std::size_t bytes = values.size() * sizeof(double);
    const auto all = all_gather(values.data(), bytes);
    std::vector<double> out(values.size(), 0.0);
    for (int r = 0; r < size_; ++r)
        for (std::size_t k = 0; k < values.size(); ++k) {
            double v;
            std::memcpy(&v, all.data() + std::size_t(r) * bytes + k * sizeof v, sizeof v);
            out[k] += v;
        }
    return out;
}

bool Comm::any(bool flag) const {
    int v = flag ? 1 : 0;
#ifdef BARRACUDA_WITH_MPI
    if (mpi_) ok(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD), "MPI_Allreduce");
#endif
    return v != 0;
}

Comm::Problem Comm::first_problem(int kind, const std::string& text) const {
    if (!any(kind != 0)) return {};
    for (int r = 0; r < size_; ++r) {
        std::vector<unsigned char> bytes;
        if (r == rank_) bytes.push_back(static_cast<unsigned char>(kind)), bytes.insert(bytes.end(), text.begin(), text.end());
        broadcast(bytes, r);
        if (!bytes.empty() && bytes[0] != 0) return {r, bytes[0], std::string(bytes.begin() + 1, bytes.end())};
    }
    return {};
}

void Comm::barrier() const {
#ifdef BARRACUDA_WITH_MPI
    if (mpi_) MPI_Barrier(MPI_COMM_WORLD);
#endif
}

void Comm::abort(int code) const {
#ifdef BARRACUDA_WITH_MPI
    if (mpi_) MPI_Abort(MPI_COMM_WORLD, code);
#endif
    std::exit(code);
}

}  // namespace barracuda::parallel
