// Layout follows the VTK XML file-format documentation
// (https://docs.vtk.org/en/latest/vtk_file_formats/vtkxml_file_format.html and
// the "VTK XML Formats" page of the Kitware wiki, section "Appended Data
// Section"): the DataArray offset attribute counts bytes from the first byte
// after the '_' of <AppendedData>; each array there starts with a header of
// `header_type` integers (UInt64 here). Uncompressed, the header is the byte
// count. Compressed, it is [number of blocks, uncompressed block size,
// uncompressed size of the last block if partial (0 when it is full),
// compressed size of each block], followed by the compressed blocks.
#include "io/vtk.hpp"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "common/error.hpp"
#include "io/atomic_file.hpp"

namespace barracuda::io {

namespace {

// The file says byte_order="LittleEndian" and the arrays are copied as they lie in memory.
static_assert(std::endian::native == std::endian::little, "the VTK writer assumes a little-endian host");

constexpr std::size_t block_size = std::size_t(1) << 20;
// Flow fields in Float64 shrink little at any level; the fastest one keeps
// output from stalling a run.
constexpr int zlib_level = Z_BEST_SPEED;

struct Array {
    const char* name;
    const char* type;
    int components;
    std::string_view bytes;
};

template <class T>
std::string_view as_bytes(const std::vector<T>& v) {
    return {reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T)};
}

void put_u64(char* at, std::uint64_t v) { std::memcpy(at, &v, sizeof v); }

void append_raw(std::string& out, std::string_view bytes) {
    out.resize(out.size() + 8);
    put_u64(out.data() + out.size() - 8, bytes.size());
    out.append(bytes);
}

std::size_t block_count(std::size_t bytes) { return (bytes + block_size - 1) / block_size; }

// Most bytes one array can take in the appended section, header included.
std::size_t stored_size_bound(std::size_t bytes, bool zlib) {
    if (!zlib) return 8 + bytes;
    const std::size_t blocks = block_count(bytes);
    std::size_t bound = 8 * (3 + blocks);
    for (std::size_t b = 0; b < blocks; ++b) bound += compressBound(std::min(block_size, bytes - b * block_size));
    return bound;
}

void append_zlib(std::string& out, std::string_view bytes, const std::filesystem::path& file) {
    const std::size_t blocks = block_count(bytes.size());
    const std::size_t header_at = out.size();
    out.resize(header_at + 8 * (3 + blocks));  // filled in once the compressed sizes are known
    put_u64(out.data() + header_at, blocks);
    put_u64(out.data() + header_at + 8, block_size);
    put_u64(out.data() + header_at + 16, bytes.size() % block_size);

    for (std::size_t b = 0; b < blocks; ++b) {
        const std::string_view in = bytes.substr(b * block_size, block_size);
        uLongf len = compressBound(in.size());
        const std::size_t at = out.size();
        out.resize(at + len);  // compress directly into the file image: no second copy
        const int rc = compress2(reinterpret_cast<Bytef*>(out.data() + at), &len,
                                 reinterpret_cast<const Bytef*>(in.data()), in.size(), zlib_level);
        if (rc != Z_OK) throw OutputError("cannot write " + file.string() + ": zlib error " + std::to_string(rc));
        out.resize(at + len);
        put_u64(out.data() + header_at + 8 * (3 + b), len);
    }
}

std::string format_double(double v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest form that reads back exactly
    return std::string(buf, r.ptr);
}

std::string xml_escape(std::string_view s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

}  // namespace

namespace {
// Point extent of the unit cells [offset, offset + size) (VtiOptions::piece).
std::string cell_extent(const std::array<int, 3>& offset, const std::array<int, 3>& size) {
    std::string e;
    for (int a = 0; a < 3; ++a)
        e += (a ? " " : "") + std::to_string(offset[std::size_t(a)]) + " " +
             std::to_string(offset[std::size_t(a)] + size[std::size_t(a)]);
    return e;
}
}  // namespace

void write_vti(const std::filesystem::path& file, const FieldSet& fields, const VtiOptions& options) {
    const auto& n = fields.size;
    if (n[0] < 1 || n[1] < 1 || n[2] < 1)
        throw OutputError("cannot write " + file.string() + ": grid size must be at least 1 on every axis");

    std::vector<Array> arrays;
    const auto add = [&](const char* name, const char* type, int components, std::size_t length, auto bytes) {
        if (length == 0) return;  // empty fields are not written
        const auto expected = std::size_t(fields.cells()) * components;
        if (length != expected)
            throw OutputError("cannot write " + file.string() + ": field " + name + " has " + std::to_string(length) +
                              " values, expected " + std::to_string(expected));
        arrays.push_back({name, type, components, bytes});
    };
    add("density", "Float64", 1, fields.density.size(), as_bytes(fields.density));
    add("velocity", "Float64", 3, fields.velocity.size(), as_bytes(fields.velocity));
    add("temperature", "Float64", 1, fields.temperature.size(), as_bytes(fields.temperature));
    add("pressure", "Float64", 1, fields.pressure.size(), as_bytes(fields.pressure));
    add("density_a", "Float64", 1, fields.density_a.size(), as_bytes(fields.density_a));
    add("density_b", "Float64", 1, fields.density_b.size(), as_bytes(fields.density_b));
    add("phi", "Float64", 1, fields.phi.size(), as_bytes(fields.phi));
    add("velocity_fluctuation", "Float64", 1, fields.fluctuation.size(), as_bytes(fields.fluctuation));
    add("node_kind", "UInt8", 1, fields.node_kind.size(), as_bytes(fields.node_kind));

    // Binary part first: the offsets in the XML header are positions in it.
    // Room is reserved for the header so that prepending it below moves the
    // bytes in place instead of holding a second copy of every field.
    constexpr std::size_t header_room = 4096;
    std::string out;
    std::size_t total = header_room;
    for (const auto& a : arrays) total += stored_size_bound(a.bytes.size(), options.zlib);
    out.reserve(total);
    std::vector<std::size_t> offsets;
    for (const auto& a : arrays) {
        offsets.push_back(out.size());
        if (options.zlib) append_zlib(out, a.bytes, file);
        else append_raw(out, a.bytes);
    }

    std::string extent = "0 " + std::to_string(n[0] - 1) + " 0 " + std::to_string(n[1] - 1) + " 0 " +
                         std::to_string(n[2] - 1);
    std::string whole = extent, origin = "0 0 0";
    const char* data = "PointData";
    if (options.piece) {
        extent = cell_extent(fields.offset, n);
        whole = cell_extent({0, 0, 0}, options.whole);
        origin = "-0.5 -0.5 -0.5";
        data = "CellData";
    }
    std::string xml = "<?xml version=\"1.0\"?>\n";
    xml += "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\"";
    if (options.zlib) xml += " compressor=\"vtkZLibDataCompressor\"";
    xml += ">\n  <ImageData WholeExtent=\"" + whole + "\" Origin=\"" + origin + "\" Spacing=\"1 1 1\">\n";
    xml += "    <Piece Extent=\"" + extent + "\">\n      <" + data;
    if (!fields.density.empty()) xml += " Scalars=\"density\"";
    if (!fields.velocity.empty()) xml += " Vectors=\"velocity\"";
    xml += ">\n";
    for (std::size_t i = 0; i < arrays.size(); ++i) {
        xml += "        <DataArray type=\"" + std::string(arrays[i].type) + "\" Name=\"" + arrays[i].name +
               "\" NumberOfComponents=\"" + std::to_string(arrays[i].components) +
               "\" format=\"appended\" offset=\"" + std::to_string(offsets[i]) + "\"/>\n";
    }
    xml += "      </" + std::string(data) + ">\n    </Piece>\n  </ImageData>\n  <AppendedData encoding=\"raw\">\n   _";

    out.insert(0, xml);
    out += "\n  </AppendedData>\n</VTKFile>\n";
    write_file_atomically(file, out);
}

void write_pvti(const std::filesystem::path& file, const std::array<int, 3>& whole, const FieldSet& like,
                const std::vector<PvtiPiece>& pieces) {
    std::string xml = "<?xml version=\"1.0\"?>\n";
    xml += "<VTKFile type=\"PImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n";
    xml += "  <PImageData WholeExtent=\"" + cell_extent({0, 0, 0}, whole) +
           "\" GhostLevel=\"0\" Origin=\"-0.5 -0.5 -0.5\" Spacing=\"1 1 1\">\n    <PCellData";
    if (!like.density.empty()) xml += " Scalars=\"density\"";
    if (!like.velocity.empty()) xml += " Vectors=\"velocity\"";
    xml += ">\n";
    if (!like.density.empty()) xml += "      <PDataArray type=\"Float64\" Name=\"density\" NumberOfComponents=\"1\"/>\n";
    if (!like.velocity.empty()) xml += "      <PDataArray type=\"Float64\" Name=\"velocity\" NumberOfComponents=\"3\"/>\n";
    if (!like.temperature.empty())
        xml += "      <PDataArray type=\"Float64\" Name=\"temperature\" NumberOfComponents=\"1\"/>\n";
    if (!like.pressure.empty())
        xml += "      <PDataArray type=\"Float64\" Name=\"pressure\" NumberOfComponents=\"1\"/>\n";
    for (const auto& [name, field] : {std::pair{"density_a", &like.density_a}, std::pair{"density_b", &like.density_b},
                                      std::pair{"phi", &like.phi}})
        if (!field->empty())
            xml += std::string("      <PDataArray type=\"Float64\" Name=\"") + name + "\" NumberOfComponents=\"1\"/>\n";
    if (!like.fluctuation.empty())
        xml += "      <PDataArray type=\"Float64\" Name=\"velocity_fluctuation\" NumberOfComponents=\"1\"/>\n";
    if (!like.node_kind.empty()) xml += "      <PDataArray type=\"UInt8\" Name=\"node_kind\" NumberOfComponents=\"1\"/>\n";
    xml += "    </PCellData>\n";
    for (const auto& p : pieces)
        xml += "    <Piece Extent=\"" + cell_extent(p.offset, p.size) + "\" Source=\"" + xml_escape(p.file) + "\"/>\n";
    xml += "  </PImageData>\n</VTKFile>\n";
    write_file_atomically(file, xml);
}

PvdSeries::PvdSeries(std::filesystem::path pvd_file) : file_(std::move(pvd_file)) {}

void PvdSeries::add(double time, const std::string& relative_file) {
    entries_.emplace_back(time, relative_file);
    try {
        write();
    } catch (...) {
        entries_.pop_back();  // keep the list equal to what the file on disk holds
        throw;
    }
}

void PvdSeries::reset(std::vector<std::pair<double, std::string>> entries) {
    entries_ = std::move(entries);
    write();
}

void PvdSeries::write() const {
    std::string xml = "<?xml version=\"1.0\"?>\n";
    xml += "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n  <Collection>\n";
    for (const auto& [t, f] : entries_)
        xml += "    <DataSet timestep=\"" + format_double(t) + "\" group=\"\" part=\"0\" file=\"" + xml_escape(f) +
               "\"/>\n";
    xml += "  </Collection>\n</VTKFile>\n";
    write_file_atomically(file_, xml);
}

}  // namespace barracuda::io
