// Output writers: atomic files, VTK ImageData (raw and zlib), PVD series, PNG
// slices and the output-directory rule. Files are read back and decoded here
// independently of the writers.
#include <gtest/gtest.h>
#include <png.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "io/atomic_file.hpp"
#include "io/output_dir.hpp"
#include "io/png_slice.hpp"
#include "io/case_file.hpp"
#include "io/run_writer.hpp"
#include "io/vtk.hpp"
#include "sim/monitors.hpp"

namespace fs = std::filesystem;
using namespace barracuda;

namespace {

// A fresh directory per test, removed afterwards.
class TempDir {
public:
    TempDir() {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        path_ = fs::temp_directory_path() / ("barracuda_test_io_" + std::string(info->test_suite_name()) + "_" +
                                             info->name() + "_" + std::to_string(::getpid()));
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const fs::path& path() const { return path_; }
    fs::path operator/(const std::string& name) const { return path_ / name; }

private:
    fs::path path_;
};

std::string read_all(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> names_in(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    return names;
}

bool contains_tmp(const fs::path& dir) {
    for (const auto& n : names_in(dir))
        if (n.find(".tmp-") != std::string::npos) return true;
    return false;
}

// Fields with a distinct value in every cell and component.
io::FieldSet make_fields(int nx, int ny, int nz) {
    io::FieldSet f;
    f.size = {nx, ny, nz};
    const auto cells = std::size_t(f.cells());
    for (std::size_t c = 0; c < cells; ++c) {
        f.density.push_back(1.0 + 1e-3 * double(c) + 1.0 / 3.0);
        f.velocity.push_back(0.01 * double(c % nx));
        f.velocity.push_back(-0.02 * double(c) / 7.0);
        f.velocity.push_back(std::sqrt(double(c)) * 1e-3);
        f.node_kind.push_back(std::uint8_t(c % 5));
    }
    return f;
}

std::uint64_t u64_at(const std::string& s, std::size_t at) {
    std::uint64_t v;
    std::memcpy(&v, s.data() + at, sizeof v);
    return v;
}

template <class T>
std::string bytes_of(const std::vector<T>& v) {
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

// What a reader needs: the file, where the appended data starts (after '_')
// and each DataArray's offset by name.
struct Vti {
    std::string text;
    std::size_t base = 0;
    std::map<std::string, std::size_t> offsets;
};

Vti parse_vti(const fs::path& file) {
    Vti v;
    v.text = read_all(file);
    const std::size_t appended = v.text.find("<AppendedData encoding=\"raw\">");
    EXPECT_NE(appended, std::string::npos);
    v.base = v.text.find('_', appended) + 1;
    for (std::size_t at = v.text.find("<DataArray"); at < appended; at = v.text.find("<DataArray", at + 1)) {
        const std::size_t end = v.text.find("/>", at);
        const std::string element = v.text.substr(at, end - at);
        const auto attribute = [&](const std::string& key) {
            const std::size_t k = element.find(key + "=\"") + key.size() + 2;
            return element.substr(k, element.find('"', k) - k);
        };
        EXPECT_EQ(attribute("format"), "appended");
        v.offsets[attribute("Name")] = std::stoull(attribute("offset"));
    }
    return v;
}

// Raw layout: UInt64 byte count, then the bytes. Returns the bytes; `end` gets
// the position just past them.
std::string decode_raw(const Vti& v, const std::string& name, std::size_t* end = nullptr) {
    const std::size_t at = v.base + v.offsets.at(name);
    const std::uint64_t n = u64_at(v.text, at);
    if (end) *end = at + 8 + n;
    return v.text.substr(at + 8, n);
}

// zlib layout: [blocks, block size, last partial size, compressed sizes...], then the blocks.
std::string decode_zlib(const Vti& v, const std::string& name, std::uint64_t* blocks_out = nullptr,
                        std::uint64_t* last_out = nullptr, std::size_t* end = nullptr) {
    const std::size_t at = v.base + v.offsets.at(name);
    const std::uint64_t blocks = u64_at(v.text, at), block = u64_at(v.text, at + 8), last = u64_at(v.text, at + 16);
    EXPECT_LE(block, std::uint64_t(1) << 20);
    if (blocks_out) *blocks_out = blocks;
    if (last_out) *last_out = last;
    std::string out;
    std::size_t data = at + 8 * (3 + blocks);
    for (std::uint64_t b = 0; b < blocks; ++b) {
        const std::uint64_t compressed = u64_at(v.text, at + 8 * (3 + b));
        const std::uint64_t expected = (b + 1 == blocks && last != 0) ? last : block;
        std::vector<Bytef> buf(expected);
        uLongf len = expected;
        EXPECT_EQ(uncompress(buf.data(), &len, reinterpret_cast<const Bytef*>(v.text.data() + data), compressed), Z_OK);
        EXPECT_EQ(len, expected);
        out.append(reinterpret_cast<const char*>(buf.data()), len);
        data += compressed;
    }
    if (end) *end = data;
    return out;
}

std::vector<double> to_doubles(const std::string& bytes) {
    std::vector<double> v(bytes.size() / sizeof(double));
    std::memcpy(v.data(), bytes.data(), v.size() * sizeof(double));
    return v;
}

// An RGB image read back with libpng's simplified API.
struct Image {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgb;
    std::array<int, 3> at(int x, int y) const {
        const std::uint8_t* p = &rgb[(std::size_t(y) * width + x) * 3];
        return {p[0], p[1], p[2]};
    }
    bool white(int x, int y) const { return at(x, y) == std::array<int, 3>{255, 255, 255}; }
};

Image read_png(const fs::path& file) {
    png_image img;
    std::memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    Image out;
    if (!png_image_begin_read_from_file(&img, file.c_str())) {
        ADD_FAILURE() << "cannot read " << file << ": " << img.message;
        return out;
    }
    img.format = PNG_FORMAT_RGB;
    out.width = int(img.width), out.height = int(img.height);
    out.rgb.resize(PNG_IMAGE_SIZE(img));
    EXPECT_TRUE(png_image_finish_read(&img, nullptr, out.rgb.data(), 0, nullptr)) << img.message;
    return out;
}

// The plot is the first non-white pixel in reading order (no title); its
// extent runs until the white gap before the colour bar.
struct PlotBox {
    int x = -1, y = -1, w = 0, h = 0;
};

PlotBox find_plot(const Image& im) {
    PlotBox box;
    for (int y = 0; y < im.height && box.x < 0; ++y)
        for (int x = 0; x < im.width; ++x)
            if (!im.white(x, y)) {
                box.x = x, box.y = y;
                break;
            }
    if (box.x < 0) return box;
    while (box.x + box.w < im.width && !im.white(box.x + box.w, box.y)) ++box.w;
    while (box.y + box.h < im.height && !im.white(box.x, box.y + box.h)) ++box.h;
    return box;
}

}  // namespace

// ---------------------------------------------------------------- atomic file

TEST(IoAtomic, WritesAndReplacesWithoutLeavingTemporaries) {
    TempDir dir;
    const fs::path file = dir / "a.txt";
    io::write_file_atomically(file, "first content");
    EXPECT_EQ(read_all(file), "first content");
    io::write_file_atomically(file, std::string_view("new\0bytes", 9));
    EXPECT_EQ(read_all(file), std::string("new\0bytes", 9));
    io::write_file_atomically(dir / "empty", "");
    EXPECT_EQ(fs::file_size(dir / "empty"), 0u);
    EXPECT_FALSE(contains_tmp(dir.path()));
    EXPECT_EQ(names_in(dir.path()).size(), 2u);
}

TEST(IoAtomic, FailureThrowsOutputErrorNamingThePath) {
    TempDir dir;
    const fs::path file = dir / "missing" / "a.txt";
    try {
        io::write_file_atomically(file, "x");
        FAIL() << "expected OutputError";
    } catch (const OutputError& e) {
        EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("No such file"), std::string::npos) << e.what();
    }
    // Renaming onto a directory fails after the temporary was written: it must be removed.
    fs::create_directory(dir / "taken");
    fs::create_directory(dir / "taken" / "inside");
    EXPECT_THROW(io::write_file_atomically(dir / "taken", "x"), OutputError);
    EXPECT_FALSE(contains_tmp(dir.path()));
}

// ----------------------------------------------------------------------- VTI

TEST(IoVti, RawAppendedDataDecodesToTheExactValues) {
    TempDir dir;
    const io::FieldSet f = make_fields(5, 4, 3);
    const fs::path file = dir / "f.vti";
    io::write_vti(file, f, {});
    const Vti v = parse_vti(file);

    EXPECT_EQ(v.text.rfind("<?xml", 0), 0u);
    EXPECT_NE(v.text.find("<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" "
                          "header_type=\"UInt64\">"),
              std::string::npos);
    EXPECT_EQ(v.text.find("compressor"), std::string::npos);
    EXPECT_NE(v.text.find("WholeExtent=\"0 4 0 3 0 2\" Origin=\"0 0 0\" Spacing=\"1 1 1\""), std::string::npos);
    EXPECT_NE(v.text.find("<Piece Extent=\"0 4 0 3 0 2\">"), std::string::npos);
    EXPECT_NE(v.text.find("type=\"Float64\" Name=\"density\" NumberOfComponents=\"1\""), std::string::npos);
    EXPECT_NE(v.text.find("type=\"Float64\" Name=\"velocity\" NumberOfComponents=\"3\""), std::string::npos);
    EXPECT_NE(v.text.find("type=\"UInt8\" Name=\"node_kind\" NumberOfComponents=\"1\""), std::string::npos);
    ASSERT_EQ(v.offsets.size(), 3u);
    EXPECT_EQ(v.offsets.at("density"), 0u);

    std::size_t end = 0;
    EXPECT_EQ(to_doubles(decode_raw(v, "density")), f.density);
    EXPECT_EQ(to_doubles(decode_raw(v, "velocity")), f.velocity);
    EXPECT_EQ(decode_raw(v, "node_kind", &end), bytes_of(f.node_kind));
    // Arrays follow each other with nothing in between, and the file closes right after the last.
    EXPECT_EQ(v.offsets.at("velocity"), 8 + 60 * 8u);
    EXPECT_EQ(v.offsets.at("node_kind"), v.offsets.at("velocity") + 8 + 180 * 8u);
    EXPECT_EQ(v.text.substr(end), "\n  </AppendedData>\n</VTKFile>\n");
    EXPECT_FALSE(contains_tmp(dir.path()));
}

TEST(IoVti, ZlibBlocksDecompressToTheExactValues) {
    TempDir dir;
    const io::FieldSet f = make_fields(5, 4, 3);
    const fs::path file = dir / "f.vti";
    io::write_vti(file, f, {.zlib = true});
    const Vti v = parse_vti(file);
    EXPECT_NE(v.text.find("header_type=\"UInt64\" compressor=\"vtkZLibDataCompressor\""), std::string::npos);

    std::uint64_t blocks = 0, last = 0;
    std::size_t end = 0;
    EXPECT_EQ(to_doubles(decode_zlib(v, "density", &blocks, &last)), f.density);
    EXPECT_EQ(blocks, 1u);
    EXPECT_EQ(last, 60 * 8u);  // one partial block
    EXPECT_EQ(to_doubles(decode_zlib(v, "velocity")), f.velocity);
    EXPECT_EQ(decode_zlib(v, "node_kind", nullptr, nullptr, &end), bytes_of(f.node_kind));
    EXPECT_EQ(v.text.substr(end), "\n  </AppendedData>\n</VTKFile>\n");
}

TEST(IoVti, ZlibSplitsLargeArraysIntoBlocksOfOneMebibyte) {
    TempDir dir;
    // 64*64*32 cells: density is exactly 1 MiB, velocity exactly 3 MiB (full last blocks);
    // 64*64*33 adds a partial last block.
    for (int nz : {32, 33}) {
        io::FieldSet f = make_fields(64, 64, nz);
        f.node_kind.clear();
        const fs::path file = dir / ("big" + std::to_string(nz) + ".vti");
        io::write_vti(file, f, {.zlib = true});
        const Vti v = parse_vti(file);
        EXPECT_EQ(v.offsets.count("node_kind"), 0u);
        std::uint64_t blocks = 0, last = 0;
        EXPECT_EQ(to_doubles(decode_zlib(v, "density", &blocks, &last)), f.density);
        EXPECT_EQ(blocks, nz == 32 ? 1u : 2u);
        EXPECT_EQ(last, nz == 32 ? 0u : 64 * 64 * 8u);
        EXPECT_EQ(to_doubles(decode_zlib(v, "velocity", &blocks, &last)), f.velocity);
        EXPECT_EQ(blocks, nz == 32 ? 3u : 4u);
        EXPECT_EQ(last, nz == 32 ? 0u : (3 * 64 * 64 * 33 * 8u) % (1u << 20));
    }
}

TEST(IoVti, WritesOnlyNonEmptyArraysAndChecksLengths) {
    TempDir dir;
    io::FieldSet f = make_fields(5, 4, 3);
    f.velocity.clear();
    f.node_kind.clear();
    io::write_vti(dir / "d.vti", f, {});
    const Vti v = parse_vti(dir / "d.vti");
    ASSERT_EQ(v.offsets.size(), 1u);
    EXPECT_EQ(to_doubles(decode_raw(v, "density")), f.density);
    EXPECT_EQ(v.text.find("Vectors="), std::string::npos);

    io::FieldSet bad = make_fields(5, 4, 3);
    bad.velocity.pop_back();
    EXPECT_THROW(io::write_vti(dir / "bad.vti", bad, {}), OutputError);
    bad = make_fields(5, 4, 3);
    bad.node_kind.push_back(0);
    EXPECT_THROW(io::write_vti(dir / "bad.vti", bad, {.zlib = true}), OutputError);
    EXPECT_FALSE(fs::exists(dir / "bad.vti"));
}

// ----------------------------------------------------------------------- PVD

TEST(IoPvd, ListsEntriesInOrderAndRewritesOnEachAdd) {
    TempDir dir;
    io::PvdSeries pvd(dir / "series.pvd");
    EXPECT_EQ(pvd.path(), dir / "series.pvd");
    pvd.add(0.0, "vti/f_000000.vti");
    const std::string one = read_all(dir / "series.pvd");
    EXPECT_NE(one.find("file=\"vti/f_000000.vti\""), std::string::npos);
    pvd.add(0.5, "vti/f_000100.vti");
    pvd.add(1e6, "vti/a&b.vti");
    const std::string text = read_all(dir / "series.pvd");

    EXPECT_EQ(text.rfind("<?xml version=\"1.0\"?>", 0), 0u);
    EXPECT_NE(text.find("<VTKFile type=\"Collection\""), std::string::npos);
    const std::size_t open = text.find("<Collection>"), close = text.find("</Collection>");
    const std::size_t a = text.find("<DataSet timestep=\"0\""), b = text.find("<DataSet timestep=\"0.5\""),
                      c = text.find("<DataSet timestep=\"1e+06\"");
    ASSERT_NE(a, std::string::npos);
    ASSERT_NE(b, std::string::npos);
    ASSERT_NE(c, std::string::npos);
    EXPECT_LT(open, a);
    EXPECT_LT(a, b);
    EXPECT_LT(b, c);
    EXPECT_LT(c, close);
    EXPECT_NE(text.find("file=\"vti/f_000100.vti\"", b), std::string::npos);
    EXPECT_NE(text.find("file=\"vti/a&amp;b.vti\"", c), std::string::npos);
    EXPECT_EQ(text.substr(text.size() - 11), "</VTKFile>\n");
    EXPECT_FALSE(contains_tmp(dir.path()));
}

// The RunWriter tests' box: 4 x 3 x 2 cells of D3Q19 with `formats`, and fields whose
// density and x velocity grow with the cell index.
struct WriterBox {
    static constexpr std::size_t cells = 24;
    sim::CaseSpec spec;
    std::vector<double> rho = std::vector<double>(cells), u = std::vector<double>(3 * cells, 0.0);
    explicit WriterBox(const std::string& formats)
        : spec(io::parse_case_string("[model]\nlattice = \"D3Q19\"\ntau = 0.8\n[domain]\nsize = [4, 3, 2]\n[output]\nformats = " +
                                     formats + "\n")) {
        for (std::size_t c = 0; c < cells; ++c) rho[c] = 1.0 + 1e-3 * double(c), u[3 * c] = 0.01 * double(c);
    }
};

// A run's instants (io::RunWriter) are written on a thread of their own, one at a time:
// after flush() the VTI holds the fields handed over, the series lists it and the PNG is
// there, each written whole; a write that fails is not lost but thrown by the next
// write() or flush(), on the run's thread.
TEST(IoRunWriter, InstantsWrittenBehindArriveWholeAndTheirErrorsAreThrown) {
    TempDir dir;
    WriterBox box("[\"vti\", \"png\"]");
    const auto& spec = box.spec;
    const std::size_t cells = WriterBox::cells;
    auto& rho = box.rho;
    const auto& u = box.u;
    {
        io::RunWriter writer(spec, io::claim_output_directory(dir / "out"));
        writer.write(0, rho, u, {});
        rho[5] = 7;  // the caller's arrays are its own again once write() returns
        writer.write(10, rho, u, {});
        writer.flush();
        for (const char* name : {"fields_00000000.vti", "fields_00000010.vti", "slice_00000000.png",
                                 "slice_00000010.png", "fields.pvd"})
            EXPECT_TRUE(fs::is_regular_file(dir / "out" / name)) << name;
        for (const std::int64_t step : {0, 10}) {
            char name[32];
            std::snprintf(name, sizeof name, "fields_%08lld.vti", static_cast<long long>(step));
            const Vti v = parse_vti(dir / "out" / name);
            const std::string bytes = decode_raw(v, "density");
            ASSERT_EQ(bytes.size(), cells * sizeof(double));
            double at5 = 0;
            std::memcpy(&at5, bytes.data() + 5 * sizeof(double), sizeof(double));
            EXPECT_EQ(at5, step == 0 ? 1.005 : 7.0) << name;
        }
        const std::string series = read_all(dir / "out" / "fields.pvd");
        EXPECT_LT(series.find("fields_00000000.vti"), series.find("fields_00000010.vti"));
        EXPECT_EQ(writer.last_png(), dir / "out" / "slice_00000010.png");
        EXPECT_FALSE(contains_tmp(dir / "out"));
    }
    io::RunWriter writer(spec, io::claim_output_directory(dir / "gone"));
    fs::remove_all(dir / "gone");  // the directory vanishes under the run
    EXPECT_NO_THROW(writer.write(0, rho, u, {}));
    try {
        writer.flush();
        ADD_FAILURE() << "a failed write was lost";
    } catch (const OutputError& e) {
        EXPECT_NE(std::string(e.what()).find("gone"), std::string::npos) << e.what();
    }
}

// The means' VTI is written on a thread of its own beside the run's last instant (seed
// 004's window closes at the run's end): after flush() mean.vti holds the means handed
// over and the instant is there too; a failed mean write is thrown by flush(), not lost.
TEST(IoRunWriter, MeansWrittenBehindArriveWholeAndTheirErrorsAreThrown) {
    TempDir dir;
    const WriterBox box("[\"vti\"]");
    const auto& spec = box.spec;
    const std::size_t cells = WriterBox::cells;
    const auto &rho = box.rho, &u = box.u;
    sim::MeanFields mean;
    mean.from = 10, mean.to = 20, mean.samples = 11;
    mean.rho = rho, mean.u = u, mean.fluctuation.assign(cells, 0.5);
    mean.rho[7] = 3;
    {
        io::RunWriter writer(spec, io::claim_output_directory(dir / "out"));
        writer.write_mean(mean);
        mean.rho[7] = 4;  // the caller's means are its own again once write_mean() returns
        writer.write(20, rho, u, {});  // the run's last instant, written beside the means
        writer.flush();
        for (const char* name : {"mean.vti", "fields_00000020.vti", "fields.pvd"})
            EXPECT_TRUE(fs::is_regular_file(dir / "out" / name)) << name;
        const std::string bytes = decode_raw(parse_vti(dir / "out" / "mean.vti"), "density");
        ASSERT_EQ(bytes.size(), cells * sizeof(double));
        double at7 = 0;
        std::memcpy(&at7, bytes.data() + 7 * sizeof(double), sizeof(double));
        EXPECT_EQ(at7, 3.0);
        const auto& files = writer.files();
        EXPECT_NE(std::find(files.begin(), files.end(), dir / "out" / "mean.vti"), files.end());
        EXPECT_FALSE(contains_tmp(dir / "out"));
    }
    io::RunWriter writer(spec, io::claim_output_directory(dir / "gone"));
    fs::remove_all(dir / "gone");  // the directory vanishes under the run
    EXPECT_NO_THROW(writer.write_mean(mean));
    try {
        writer.flush();
        ADD_FAILURE() << "a failed mean write was lost";
    } catch (const OutputError& e) {
        EXPECT_NE(std::string(e.what()).find("gone"), std::string::npos) << e.what();
    }
}

// ----------------------------------------------------------------------- PNG

TEST(IoPng, SliceColoursOrientationSolidAndSize) {
    TempDir dir;
    // 8 x 6 x 3, slice z = 1: |u| grows with x and y, largest at (7, 5), zero at (0, 0).
    // The other layers hold larger speeds that must not enter the range.
    io::FieldSet f;
    f.size = {8, 6, 3};
    const std::size_t cells = std::size_t(f.cells());
    f.velocity.assign(3 * cells, 5.0);
    f.node_kind.assign(cells, 0);
    for (int y = 0; y < 6; ++y)
        for (int x = 0; x < 8; ++x) {
            const std::size_t c = x + 8 * (y + 6 * 1);
            f.velocity[3 * c + 0] = 0.01 * x;
            f.velocity[3 * c + 1] = 0.01 * y;
            f.velocity[3 * c + 2] = 0.0;
        }
    const std::size_t solid = 3 + 8 * (2 + 6 * 1);
    f.node_kind[solid] = 1;
    f.velocity[3 * solid] = 1.0;  // a solid's speed does not count either

    const fs::path file = dir / "slice.png";
    io::write_png_slice(file, f, {.axis = 2, .index = 1, .min_pixels = 100, .title = ""});
    EXPECT_FALSE(contains_tmp(dir.path()));
    const Image im = read_png(file);
    ASSERT_GT(im.width, 0);
    EXPECT_GE(std::max(im.width, im.height), 100);

    const PlotBox box = find_plot(im);
    ASSERT_GE(box.x, 0);
    ASSERT_EQ(box.w % 8, 0);
    const int zoom = box.w / 8;
    EXPECT_GE(zoom * 8, 100);
    EXPECT_EQ(box.h, zoom * 6);
    // Cell (i, j) of the slice, with j pointing up.
    const auto cell = [&](int i, int j) { return im.at(box.x + i * zoom + zoom / 2, box.y + (5 - j) * zoom + zoom / 2); };

    EXPECT_EQ(cell(3, 2), (std::array<int, 3>{128, 128, 128}));
    EXPECT_EQ(cell(7, 5), (std::array<int, 3>{0xfd, 0xe7, 0x25}));  // top of the viridis map
    EXPECT_EQ(cell(0, 0), (std::array<int, 3>{0x44, 0x01, 0x54}));  // bottom of the viridis map
    EXPECT_NE(cell(7, 5), cell(0, 0));
    EXPECT_NE(cell(7, 0), cell(0, 5));  // not symmetric: x contributes as much as y, but 7 > 5
    // Right of the plot: the colour bar, max colour at its top, min at its bottom.
    int bar_x = box.x + box.w;
    while (bar_x < im.width && im.white(bar_x, box.y + box.h / 2)) ++bar_x;
    ASSERT_LT(bar_x, im.width);
    EXPECT_EQ(im.at(bar_x + 1, box.y), (std::array<int, 3>{0xfd, 0xe7, 0x25}));
    EXPECT_EQ(im.at(bar_x + 1, box.y + box.h - 1), (std::array<int, 3>{0x44, 0x01, 0x54}));
    // Labels (black text) to the right of the bar.
    int dark = 0;
    for (int y = 0; y < im.height; ++y)
        for (int x = bar_x; x < im.width; ++x) dark += im.at(x, y) == std::array<int, 3>{0, 0, 0};
    EXPECT_GT(dark, 50);
}

TEST(IoPng, OtherAxesTitleAndErrors) {
    TempDir dir;
    const io::FieldSet f = make_fields(8, 6, 3);
    // Normal x: the plane is y (6, across) by z (3, up); the default scales it to at least 384 px.
    io::write_png_slice(dir / "x.png", f, {.axis = 0, .index = 7, .min_pixels = 384, .title = "Re=100 t=1.5e+03 (x)"});
    const Image im = read_png(dir / "x.png");
    EXPECT_GE(im.width, 384);
    EXPECT_GE(im.height, 192);

    io::FieldSet no_velocity = f;
    no_velocity.velocity.clear();
    EXPECT_THROW(io::write_png_slice(dir / "e.png", no_velocity, {}), OutputError);
    io::SliceOptions out_of_range;
    out_of_range.index = 3;  // nz = 3
    EXPECT_THROW(io::write_png_slice(dir / "e.png", f, out_of_range), OutputError);
    io::SliceOptions bad_axis;
    bad_axis.axis = 3;
    EXPECT_THROW(io::write_png_slice(dir / "e.png", f, bad_axis), OutputError);
    EXPECT_THROW(io::write_png_slice(dir / "missing" / "e.png", f, {}), OutputError);
    EXPECT_FALSE(fs::exists(dir / "e.png"));
}

// ---------------------------------------------------------- output directory

TEST(IoOutputDir, UsesMissingOrEmptyAndNumbersAroundResults) {
    TempDir dir;
    const fs::path out = dir / "nested" / "run";
    auto r = io::prepare_output_directory(out);
    EXPECT_EQ(r.path, out);
    EXPECT_FALSE(r.renamed);
    EXPECT_TRUE(fs::is_directory(out));
    ASSERT_TRUE(r.lock);

    // Held by a run (its lock): another run goes elsewhere even though it is empty.
    auto other = io::prepare_output_directory(out);
    EXPECT_EQ(other.path, dir / "nested" / "run-1");
    EXPECT_TRUE(other.renamed);
    other = {};

    r = {};  // the run ended without writing: empty (but for its lock file) and free again
    r = io::prepare_output_directory(out);
    EXPECT_EQ(r.path, out);
    EXPECT_FALSE(r.renamed);
    r = {};

    std::ofstream(out / "result.vti") << "x";
    r = io::prepare_output_directory(out);
    EXPECT_EQ(r.path, dir / "nested" / "run-2");  // run-1 exists (the other run's): the next number
    EXPECT_TRUE(r.renamed);
    EXPECT_TRUE(fs::is_directory(r.path));
    r = {};

    r = io::prepare_output_directory(out);  // "run-2" exists (even empty): next number
    EXPECT_EQ(r.path, dir / "nested" / "run-3");
    EXPECT_TRUE(r.renamed);
    EXPECT_EQ(read_all(out / "result.vti"), "x");  // the earlier results are untouched
}

TEST(IoOutputDir, FileInTheWayAndTrailingSlash) {
    TempDir dir;
    std::ofstream(dir / "out") << "not a directory";
    try {
        io::prepare_output_directory(dir / "out");
        ADD_FAILURE() << "a file given as the output directory was accepted";
    } catch (const OutputError& e) {
        EXPECT_NE(std::string(e.what()).find("is a file, not a directory"), std::string::npos) << e.what();
    }

    fs::create_directory(dir / "res");
    std::ofstream(dir / "res" / "a") << "x";
    auto r = io::prepare_output_directory(dir.path() / "res" / "");
    EXPECT_EQ(r.path, dir / "res-1");
    EXPECT_TRUE(r.renamed);
}

TEST(IoOutputDir, ARunDirectoryIsLockedForRestarts) {
    TempDir dir;
    auto first = io::lock_run_directory(dir.path());
    try {
        io::lock_run_directory(dir.path());
        ADD_FAILURE() << "a directory held by a run was locked again";
    } catch (const OutputError& e) {
        EXPECT_NE(std::string(e.what()).find("is in use by another barracuda run (process " + std::to_string(::getpid())),
                  std::string::npos)
            << e.what();
    }
    first = {};
    EXPECT_NO_THROW(io::lock_run_directory(dir.path()));  // released with its holder
}
