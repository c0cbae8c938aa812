#include "io/checkpoint.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <string_view>

#include "common/error.hpp"
#include "io/atomic_file.hpp"

namespace barracuda::io {
namespace {

constexpr std::string_view magic = "BARRACUDA-CHECKPOINT\n";
// 2: the caller's tag after the time (7cdfdfe); a version-1 file is refused by name.
// 3: a CRC-32 of every byte before it at the end (issue 21: three flipped bytes in
// the populations went unnoticed and gave other results). Version 2 is still read,
// unchecked.
// 4: FP16 populations stored times 2^13 (storage/access.hpp's half_exponent, issue 20):
// an FP16 checkpoint of an earlier version is refused by name; FP32 and FP64 ones are
// read as before.
constexpr std::uint32_t version = 4;
constexpr std::uint32_t oldest_version = 2;

/// zlib's CRC-32 (IEEE 802.3) over any length (its length argument is 32 bits).
std::uint32_t crc_update(std::uint32_t crc, const void* data, std::uint64_t n) {
    const auto* p = static_cast<const Bytef*>(data);
    while (n > 0) {
        const auto chunk = uInt(std::min<std::uint64_t>(n, 1u << 30));
        crc = std::uint32_t(::crc32(crc, p, chunk));
        p += chunk, n -= chunk;
    }
    return crc;
}

template <class V>
void put(std::string& out, const V& v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof(V));
}
template <class E>
void put_array(std::string& out, const E* data, std::size_t n) {
    put(out, std::uint64_t(n));
    out.append(reinterpret_cast<const char*>(data), n * sizeof(E));
}

/// Reads the file in order after its header, straight into the vectors that keep the
/// values (no copy of the whole file); every read first checks that the bytes are there.
struct Reader {
    std::ifstream in;
    const std::filesystem::path& path;
    std::uint64_t size = 0, at = 0;
    std::uint32_t file_version = 0;
    std::uint32_t crc = std::uint32_t(::crc32(0, nullptr, 0));  // of every byte read so far

    explicit Reader(const std::filesystem::path& p) : in(p, std::ios::binary), path(p) {
        std::error_code ec;
        size = std::filesystem::file_size(p, ec);
        if (!in || ec) throw OutputError("cannot read checkpoint " + p.string());
        header();
    }
    void need(std::uint64_t n) const {
        if (size - at < n) throw OutputError("checkpoint " + path.string() + ": truncated (" + std::to_string(size) + " bytes)");
    }
    void read(void* to, std::uint64_t n) {
        need(n);
        if (n && !in.read(static_cast<char*>(to), std::streamsize(n)))
            throw OutputError("cannot read checkpoint " + path.string());
        crc = crc_update(crc, to, n);
        at += n;
    }
    template <class V>
    V get() {
        V v;
        read(&v, sizeof(V));
        return v;
    }
    template <class E>
    std::vector<E> get_array() {
        const auto n = get<std::uint64_t>();
        if (n > (size - at) / sizeof(E)) need(size - at + 1);
        std::vector<E> v(n);
        read(v.data(), n * sizeof(E));
        return v;
    }
    /// The magic text and the version, checked (by the constructor).
    void header() {
        std::string m(magic.size(), '\0');
        if (size < magic.size()) throw OutputError("checkpoint " + path.string() + ": not a Barracuda checkpoint");
        read(m.data(), m.size());
        if (m != magic) throw OutputError("checkpoint " + path.string() + ": not a Barracuda checkpoint");
        file_version = get<std::uint32_t>();
        if (file_version < oldest_version || file_version > version)
            throw OutputError("checkpoint " + path.string() + ": version " + std::to_string(file_version) +
                              ", this build reads " + std::to_string(oldest_version) + " to " + std::to_string(version));
    }
    /// The end: the checksum of everything before it (version 3), and nothing after.
    void finish() {
        if (file_version >= 3) {
            const std::uint32_t computed = crc;
            const auto stored = get<std::uint32_t>();
            if (stored != computed) {
                char b[96];
                std::snprintf(b, sizeof b, "checksum %08x, the content's is %08x", stored, computed);
                throw OutputError("checkpoint " + path.string() + ": damaged (" + b +
                                  "): it was changed or cut after it was written");
            }
        }
        if (at != size)
            throw OutputError("checkpoint " + path.string() + ": " + std::to_string(size - at) + " bytes after the end");
    }
};

bool checkpoint_exists(const std::filesystem::path& path) {
    std::error_code ec;
    const bool there = std::filesystem::exists(path, ec);
    if (ec) throw OutputError("cannot look for checkpoint " + path.string() + ": " + ec.message());
    return there;
}

}  // namespace

void write_checkpoint(const std::filesystem::path& path, const Checkpoint& c) {
    // The populations are written from the state itself, not copied into the rest.
    std::string head(magic);
    put(head, version);
    put(head, c.time);
    put_array(head, c.tag.data(), c.tag.size());
    put_array(head, c.state.engine.data(), c.state.engine.size());
    put(head, std::uint8_t(c.state.odd));
    put(head, c.state.clock);
    put(head, std::uint64_t(c.state.populations.size()));
    std::string tail;
    put_array(tail, c.state.wall_momenta.data(), c.state.wall_momenta.size());
    put_array(tail, c.values.data(), c.values.size());
    std::uint32_t crc = crc_update(std::uint32_t(::crc32(0, nullptr, 0)), head.data(), head.size());
    crc = crc_update(crc, c.state.populations.data(), c.state.populations.size());
    crc = crc_update(crc, tail.data(), tail.size());
    put(tail, crc);
    const std::string_view parts[] = {
        head, {reinterpret_cast<const char*>(c.state.populations.data()), c.state.populations.size()}, tail};
    write_file_atomically(path, parts);
}

std::optional<Checkpoint> read_checkpoint(const std::filesystem::path& path) {
    if (!checkpoint_exists(path)) return std::nullopt;
    Reader r(path);
    Checkpoint c;
    c.time = r.get<std::int64_t>();
    const auto tag = r.get_array<char>();
    c.tag.assign(tag.begin(), tag.end());
    const auto key = r.get_array<char>();
    c.state.engine.assign(key.begin(), key.end());
    if (r.file_version < 4 && c.state.engine.find(" fp16 ") != std::string::npos)
        throw OutputError("checkpoint " + path.string() + ": version " + std::to_string(r.file_version) +
                          " with FP16 storage, whose values this build scales differently (version 4); "
                          "run the case again from its start");
    c.state.odd = r.get<std::uint8_t>() != 0;
    c.state.clock = r.get<std::uint32_t>();
    c.state.populations = r.get_array<std::uint8_t>();
    c.state.wall_momenta = r.get_array<double>();
    c.values = r.get_array<double>();
    r.finish();
    return c;
}

std::optional<std::int64_t> read_checkpoint_time(const std::filesystem::path& path) {
    if (!checkpoint_exists(path)) return std::nullopt;
    Reader r(path);
    return r.get<std::int64_t>();
}

}  // namespace barracuda::io
