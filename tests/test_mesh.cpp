// Obstacles from files. Voxel images (io/voxel_file.hpp, shape = "voxels"): raw and
// NRRD (raw, gzip) read and labelled, refusals, a voxel box running bit for bit as
// the box shape. STL surfaces (geometry/mesh.hpp, shape = "stl"): the reader's refusals,
// the inside test against analytic shapes, and flows: a box read from an STL runs
// bit for bit as the box shape, and Poiseuille flow in a pipe made from an STL tube
// against the analytic profile, with half-way and interpolated bounce-back.
#include <gtest/gtest.h>
#include <unistd.h>
#include <png.h>
#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "backend/engine.hpp"
#include "common/error.hpp"
#include "geometry/mesh.hpp"
#include "geometry/shapes.hpp"
#include "io/case_file.hpp"
#include "io/input_file.hpp"
#include "io/output_dir.hpp"
#include "io/run_writer.hpp"
#include "io/voxel_file.hpp"
#include "mesh_support.hpp"
#include "sim/monitors.hpp"
#include "sim/simulation.hpp"

namespace barracuda {
namespace {

using geometry::Mesh;
using geometry::Point;

std::string temp_path(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / ("barracuda_mesh_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

std::string refusal(const std::string& bytes) {
    try {
        Mesh::parse_stl(bytes);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

TEST(Mesh, ReadsBinaryAndAsciiAndRefusesDamagedFiles) {
    const auto box = test::box_mesh({1.5, 2.5, 3.5}, {6.5, 5.5, 9.5});
    const std::string binary = test::binary_stl(box), ascii = test::ascii_stl(box);
    EXPECT_EQ(Mesh::parse_stl(binary).triangles().size(), 12u);
    EXPECT_EQ(Mesh::parse_stl(ascii).triangles().size(), 12u);
    EXPECT_EQ(Mesh::parse_stl(binary).open_edges(), 0u);
    const Mesh from_ascii = Mesh::parse_stl(ascii), from_binary = Mesh::parse_stl(binary);
    for (std::size_t k = 0; k < 12; ++k)  // the same vertices
        for (int i = 0; i < 3; ++i) EXPECT_EQ(from_ascii.triangles()[k].v[i], from_binary.triangles()[k].v[i]);

    // Each damaged file is refused with what is wrong; none crashes.
    EXPECT_NE(refusal(binary.substr(0, binary.size() - 7)).find("truncated"), std::string::npos);
    EXPECT_NE(refusal(ascii.substr(0, ascii.size() / 2)).find("truncated"), std::string::npos);
    EXPECT_NE(refusal("").find("too short"), std::string::npos);
    EXPECT_NE(refusal(std::string(200, 'x')).find("not an STL"), std::string::npos);
    std::string bad = ascii;
    bad.replace(bad.find("vertex ") + 7, 3, "1e9x");
    EXPECT_NE(refusal(bad).find("line 4: '1e9x"), std::string::npos) << refusal(bad);
    bad = ascii;
    bad.replace(bad.find("endloop"), 7, "endlop ");
    EXPECT_NE(refusal(bad).find("unexpected 'endlop'"), std::string::npos) << refusal(bad);
    auto nan = box;
    nan[3].v[1][2] = NAN;
    EXPECT_NE(refusal(test::binary_stl(nan)).find("not finite"), std::string::npos);
    EXPECT_NE(refusal(test::binary_stl({box[0], box[1]})).find("at least 4"), std::string::npos);
    // A missing triangle leaves three edges in one triangle only.
    auto open = box;
    open.pop_back();
    EXPECT_EQ(Mesh::parse_stl(test::binary_stl(open)).open_edges(), 3u);
    try {
        io::read_input_file(temp_path("absent.stl"));
        ADD_FAILURE() << "a missing file was read";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos);
    }
}

// Every node of a 24^3 box against the analytic sphere: a UV sphere of 48 x 96 facets
// lies within r (1 - cos(pi/48)) = 0.0054 r of the true surface, so only nodes that
// close to it may be classified differently.
TEST(Mesh, InsideTestAgreesWithTheShapes) {
    const Point c = {11.3, 12.1, 10.7};
    const double r = 7.4;
    const Mesh sphere(test::sphere_mesh(c, r, 48, 96));
    geometry::Body exact;
    exact.kind = geometry::Body::Kind::Sphere, exact.center = c, exact.radius = r;
    int inside = 0, differ = 0;
    for (int z = 0; z < 24; ++z)
        for (int y = 0; y < 24; ++y)
            for (int x = 0; x < 24; ++x) {
                const Point p = {double(x), double(y), double(z)};
                const bool m = sphere.contains(p), e = exact.contains(p);
                inside += e;
                if (m != e) {
                    ++differ;
                    const double d = std::sqrt((x - c[0]) * (x - c[0]) + (y - c[1]) * (y - c[1]) + (z - c[2]) * (z - c[2]));
                    EXPECT_LT(std::abs(d - r), 0.0055 * r) << x << " " << y << " " << z;
                }
            }
    EXPECT_GT(inside, 1500);
    EXPECT_LT(differ, 20);
    // A box whose faces pass through nodes (every ray from those nodes grazes an edge
    // or lies in a face): nodes strictly inside are in, strictly outside out.
    const Mesh box(test::box_mesh({2, 3, 4}, {9, 8, 7}));
    for (int z = 0; z < 12; ++z)
        for (int y = 0; y < 12; ++y)
            for (int x = 0; x < 12; ++x) {
                const bool in = x > 2 && x < 9 && y > 3 && y < 8 && z > 4 && z < 7;
                const bool out = x < 2 || x > 9 || y < 3 || y > 8 || z < 4 || z > 7;
                if (in || out) EXPECT_EQ(box.contains({double(x), double(y), double(z)}), in) << x << " " << y << " " << z;
            }
    // Rotated a quarter turn about z, then moved: the box [2,9]x[3,8] goes to [-8,-3]x[2,9], + (20, 0, 0).
    const Mesh turned = box.transformed(1.0, {0, 0, 90}, {20, 0, 0});
    EXPECT_NEAR(turned.lower()[0], 12, 1e-12);
    EXPECT_NEAR(turned.upper()[0], 17, 1e-12);
    EXPECT_NEAR(turned.lower()[1], 2, 1e-12);
    EXPECT_NEAR(turned.upper()[1], 9, 1e-12);
    EXPECT_TRUE(turned.contains({15, 5, 5.5}));
    EXPECT_FALSE(turned.contains({15, 10, 5.5}));
}

/// A channel along x with a box obstacle, given as the box shape or as an STL file.
std::string channel(const std::string& obstacle, const std::string& bounce_back) {
    return R"(
[model]
lattice = "D3Q19"
collision = "trt"
precision = "fp64"
tau = 0.6
[domain]
size = [32, 16, 12]
[boundary.x_min]
type = "velocity"
velocity = [0.05, 0, 0]
[boundary.x_max]
type = "pressure"
density = 1.0
[[obstacle]]
name = "block"
bounce_back = ")" + bounce_back + "\"\n" + obstacle;
}

std::vector<double> velocity_after(const sim::CaseSpec& spec, int steps) {
    auto e = backend::make_cpu_engine(sim::engine_setup(spec));
    e->initialize_uniform(1.0, {0.05, 0, 0});
    e->step(steps);
    std::vector<double> rho, u;
    e->fields(rho, u);
    return u;
}

// Faces half-way between nodes: the same solid nodes and, with interpolated bounce-back,
// q = 1/2 on every link, so the flows agree bit for bit.
TEST(Mesh, StlBoxRunsAsTheBoxShape) {
    const std::string file = temp_path("block.stl");
    test::write_file(file, test::binary_stl(test::box_mesh({0, 0, 0}, {5, 6, 4})));
    for (const char* bb : {"half-way", "interpolated"}) {
        SCOPED_TRACE(bb);
        const auto shape = io::parse_case_string(channel("shape = \"box\"\nmin = [9.5, 4.5, 3.5]\nmax = [14.5, 10.5, 7.5]\n", bb));
        // The file's box from the origin, moved into place.
        const auto stl = io::parse_case_string(channel("shape = \"stl\"\nfile = \"" + file +
                                                           "\"\nscale = 1.0\ntranslate = [9.5, 4.5, 3.5]\n", bb));
        const auto a = velocity_after(shape, 30), b = velocity_after(stl, 30);
        ASSERT_EQ(a.size(), b.size());
        EXPECT_EQ(a, b);
    }
}

/// The refusal of the channel case with this obstacle ("" when it is accepted).
std::string refused(const std::string& obstacle) {
    try {
        io::parse_case_string(channel(obstacle, "half-way"));
    } catch (const CaseError& e) {
        return e.what();
    }
    return "";
}

TEST(Mesh, CaseRefusesBadStlObstacles) {
    const std::string open = temp_path("open.stl"), good = temp_path("good.stl");
    auto box = test::box_mesh({0, 0, 0}, {4, 4, 4});
    test::write_file(good, test::ascii_stl(box));
    box.pop_back();
    test::write_file(open, test::ascii_stl(box));
    EXPECT_NE(refused("shape = \"stl\"\n").find("obstacle[0].file"), std::string::npos);
    EXPECT_NE(refused("shape = \"stl\"\nfile = \"" + temp_path("none.stl") + "\"\n").find("cannot open"),
              std::string::npos);
    EXPECT_NE(refused("shape = \"stl\"\nfile = \"" + open + "\"\n").find("not closed: 3 edges"), std::string::npos);
    EXPECT_NE(refused("shape = \"stl\"\nfile = \"" + good + "\"\nscale = 0\n").find("scale"), std::string::npos);
    EXPECT_NE(refused("shape = \"stl\"\nfile = \"" + good + "\"\ntranslate = [100, 0, 0]\n").find("outside the domain"),
              std::string::npos);
    EXPECT_NE(refused("shape = \"stl\"\nfile = \"" + good + "\"\nradius = 3\n").find("obstacle[0].radius"),
              std::string::npos);
    EXPECT_NE(refused("shape = \"box\"\nmin = [1, 1, 1]\nmax = [3, 3, 3]\nfile = \"" + good + "\"\n").find("no file"),
              std::string::npos);
    EXPECT_NE(refused("shape = \"stl\"\nfile = \"" + good + "\"\nvelocity = [0.01, 0, 0]\n").find("cannot move"),
              std::string::npos);
    EXPECT_EQ(refused("shape = \"stl\"\nfile = \"" + good + "\"\ntranslate = [10, 5, 4]\n"), "");
}

// Poiseuille flow in a pipe of radius R along x (periodic), driven by a body force g:
// u(r) = g (R^2 - r^2) / (4 nu), against the profile over the fluid nodes (relative L2),
// R = 4.6 and 9.2. The wall is an STL tube of 128 facets around, whose inner surface
// lies within R (1 - cos(pi/128)) = 0.0003 R inside the circle: the flow through it
// must match the analytic pipe shape's to that (a radius 0.0003 R smaller changes
// the profile by ~0.1%). Measured on this setup (TRT, nu = 0.1): interpolated
// bounce-back 0.84% and 0.53% (the pipe shape: 0.80%, 0.46%), half-way 7.0% and 6.7%;
// neither converges at second order in a pipe here (docs/validation.md), so the test
// bounds the errors, not the order.
double pipe_error(double radius, bool interpolated, bool analytic = false) {
    const int n = int(std::ceil(2 * radius)) + 4;
    const double c = 0.5 * (n - 1), nu = 0.1, g = 1e-6;
    const std::string file = temp_path("tube_" + std::to_string(radius) + ".stl");
    test::write_file(file, test::binary_stl(test::tube_mesh(-2, 6, c, c, radius, 2 * radius + 4, 128)));
    const std::string shape =
        analytic ? "shape = \"pipe\"\naxis = \"x\"\ncenter = [0, " + std::to_string(c) + ", " + std::to_string(c) +
                       "]\nradius = " + std::to_string(radius) + "\n"
                 : "shape = \"stl\"\nfile = \"" + file + "\"\n";
    const auto spec = io::parse_case_string(
        "[model]\nlattice = \"D3Q19\"\ncollision = \"trt\"\nprecision = \"fp64\"\nviscosity = 0.1\n[domain]\nsize = [4, " +
        std::to_string(n) + ", " + std::to_string(n) + "]\nperiodic = [true, false, false]\n[force]\nbody = [" +
        std::to_string(g) + ", 0, 0]\n[[obstacle]]\nname = \"tube\"\n" + shape + "bounce_back = \"" +
        (interpolated ? "interpolated" : "half-way") + "\"\n");
    sim::Simulation run(spec, sim::BackendChoice::Cpu);
    run.advance(std::int64_t(3 * radius * radius / nu) + 2000);  // ~3 diffusion times R^2 / nu
    std::vector<double> rho, u;
    run.engine().fields(rho, u);
    double err2 = 0, ref2 = 0;
    for (int z = 0; z < n; ++z)
        for (int y = 0; y < n; ++y) {
            const double r2 = (y - c) * (y - c) + (z - c) * (z - c);
            if (r2 >= radius * radius) continue;
            const double exact = g * (radius * radius - r2) / (4 * nu);
            const double got = u[3 * std::size_t(1 + 4 * (y + n * z))];
            err2 += (got - exact) * (got - exact);
            ref2 += exact * exact;
        }
    return std::sqrt(err2 / ref2);
}

TEST(Mesh, PoiseuilleInAnStlPipe) {
    double interpolated[2], halfway[2], shape[2];
    const double radii[2] = {4.6, 9.2};
    for (int k = 0; k < 2; ++k) {
        interpolated[k] = pipe_error(radii[k], true);
        halfway[k] = pipe_error(radii[k], false);
        shape[k] = pipe_error(radii[k], true, true);
        std::printf("  pipe R = %.1f: STL interpolated %.4f, half-way %.4f; the pipe shape, interpolated %.4f\n", radii[k],
                    interpolated[k], halfway[k], shape[k]);
        EXPECT_LT(interpolated[k], 0.012);
        EXPECT_LT(std::abs(interpolated[k] - shape[k]), 0.0015);  // the facets' 0.0003 R
        EXPECT_LT(interpolated[k], halfway[k] / 3);
    }
    std::printf("  orders (R 4.6 -> 9.2): interpolated %.2f, half-way %.2f\n", std::log2(interpolated[0] / interpolated[1]),
                std::log2(halfway[0] / halfway[1]));
    EXPECT_LT(interpolated[1], interpolated[0]);
}

/// The 32 x 16 x 12 image of the channel's block: value `solid` on [10, 14] x [5, 10] x [4, 7].
std::vector<std::uint16_t> block_image(std::uint16_t solid) {
    std::vector<std::uint16_t> v(32 * 16 * 12, 7);
    for (int z = 4; z <= 7; ++z)
        for (int y = 5; y <= 10; ++y)
            for (int x = 10; x <= 14; ++x) v[std::size_t(x + 32 * (y + 16 * z))] = solid;
    return v;
}

std::string bytes_of(const std::vector<std::uint16_t>& v, bool big) {
    std::string s;
    for (std::uint16_t x : v) {
        const char lo = char(x & 0xff), hi = char(x >> 8);
        s += big ? std::string{hi, lo} : std::string{lo, hi};
    }
    return s;
}

std::string nrrd(const std::string& encoding, const std::string& data) {
    return "NRRD0004\n# made by a test\ntype: uint16\ndimension: 3\nsizes: 32 16 12\nendian: big\nencoding: " +
           encoding + "\nspacings: 1 1 1\n\n" + data;
}

std::string gzip_of(const std::string& plain) {
    uLongf size = compressBound(uLong(plain.size()));
    std::string out(size, '\0');
    compress2(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(plain.data()), uLong(plain.size()), 6);
    out.resize(size);
    return out;
}

std::string voxel_refusal(const std::string& bytes, const std::optional<io::RawLayout>& raw) {
    try {
        io::parse_voxels(bytes, raw, {{300}, std::nullopt});
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

TEST(Voxels, ReadRawAndNrrdAndRefuseDamagedFiles) {
    const auto image = block_image(300);
    const std::string big = bytes_of(image, true);
    const io::RawLayout raw{{32, 16, 12}, io::VoxelType::U16, true};
    const io::VoxelLabels labels{{300}, std::nullopt};
    const auto from_raw = io::parse_voxels(big, raw, labels);
    EXPECT_EQ(from_raw.solid, io::parse_voxels(bytes_of(image, false), io::RawLayout{{32, 16, 12}, io::VoxelType::U16, false}, labels).solid);
    EXPECT_EQ(from_raw.solid, io::parse_voxels(nrrd("raw", big), std::nullopt, labels).solid);
    EXPECT_EQ(from_raw.solid, io::parse_voxels(nrrd("gzip", gzip_of(big)), std::nullopt, labels).solid);
    EXPECT_EQ(from_raw.solid, io::parse_voxels(big, raw, {{}, 200.0}).solid);  // a threshold: 300 >= 200 > 7
    int solid = 0;
    for (auto v : from_raw.solid) solid += v;
    EXPECT_EQ(solid, 5 * 6 * 4);

    EXPECT_NE(voxel_refusal(big.substr(1), raw).find("truncated"), std::string::npos);
    EXPECT_NE(voxel_refusal(big, std::nullopt).find("needs dimensions and type"), std::string::npos);
    EXPECT_NE(voxel_refusal(nrrd("raw", big.substr(5)), std::nullopt).find("truncated"), std::string::npos);
    EXPECT_NE(voxel_refusal(nrrd("raw", big), raw).find("leave those keys out"), std::string::npos);
    EXPECT_NE(voxel_refusal(nrrd("bzip2", big), std::nullopt).find("'bzip2' is not offered"), std::string::npos);
    std::string damaged = gzip_of(big);
    damaged.resize(damaged.size() / 2);
    EXPECT_NE(voxel_refusal(nrrd("gzip", damaged), std::nullopt).find("gzip data is damaged"), std::string::npos);
    EXPECT_NE(voxel_refusal("NRRD0004\ntype: uint16\ndimension: 3\nsizes: 32 16 12\nencoding: raw\n\n" + big, std::nullopt)
                  .find("'endian'"), std::string::npos);
    EXPECT_NE(voxel_refusal("NRRD0004\ntype: uint16\ndimension: 2\nsizes: 32 16\nendian: big\nencoding: raw\n\n", std::nullopt)
                  .find("needs 3"), std::string::npos);
    EXPECT_NE(voxel_refusal("NRRD0004\ndata file: a.raw\n\n", std::nullopt).find("detached"), std::string::npos);
    EXPECT_NE(voxel_refusal("NRRD0004\ntype: uint16\n", std::nullopt).find("empty line"), std::string::npos);

    // Spacing 2: each voxel covers 2^3 nodes about its centre at origin + 2 (i, j, k).
    geometry::Voxels coarse = from_raw;
    coarse.spacing = 2;
    EXPECT_TRUE(coarse.contains({20, 10, 8}));     // voxel (10, 5, 4)
    EXPECT_TRUE(coarse.contains({28.9, 20.9, 14.9}));  // voxel (14, 10, 7), centred at (28, 20, 14)
    EXPECT_FALSE(coarse.contains({29.1, 20, 14}));  // voxel (15, 10, 7): fluid
    EXPECT_FALSE(coarse.contains({-1.1, 0, 0}));   // outside the image
}

std::string base64_of(const std::string& bytes) {
    static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        std::uint32_t v = 0;
        const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
        for (std::size_t k = 0; k < 3; ++k) v = v << 8 | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
        for (std::size_t k = 0; k < 4; ++k) out += k <= n ? alphabet[(v >> (18 - 6 * k)) & 63] : '=';
    }
    return out;
}

template <class U>
std::string integer_bytes(U v) {
    return std::string(reinterpret_cast<const char*>(&v), sizeof v);  // little-endian host (the writer's assumption too)
}

/// The block image as VTK image data: point data (32 x 16 x 12 points) of UInt16,
/// in the given format: "ascii", "binary" (base64, header apart as VTK writes it),
/// "appended" raw with a zlib-compressed array and a UInt64 header, or cell data.
std::string vti(const std::string& format) {
    const auto image = block_image(300);
    const std::string little = bytes_of(image, false);
    const bool cells = format == "cells";
    std::string head = std::string("<?xml version=\"1.0\"?>\n<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\"") +
                       (format == "appended" ? " header_type=\"UInt64\" compressor=\"vtkZLibDataCompressor\"" : "") +
                       ">\n<ImageData WholeExtent=\"" + (cells ? "0 32 0 16 0 12" : "0 31 0 15 0 11") +
                       "\" Origin=\"0 0 0\" Spacing=\"1 1 1\">\n<Piece Extent=\"0 31 0 15 0 11\">\n" +
                       (cells ? "<PointData/>\n<CellData Scalars=\"label\">\n" : "<PointData Scalars=\"label\">\n") +
                       "<DataArray type=\"UInt16\" Name=\"label\" format=\"" + (cells ? "binary" : format) + "\"" +
                       (format == "appended" ? " offset=\"0\"/>\n" : ">\n");
    std::string body, tail = std::string(cells ? "</CellData>\n" : "</PointData>\n") + "</Piece>\n</ImageData>\n";
    if (format == "ascii") {
        for (auto v : image) body += std::to_string(v) + " ";
        body += "\n</DataArray>\n";
    } else if (format == "binary" || cells) {
        body = base64_of(integer_bytes(std::uint32_t(little.size()))) + base64_of(little) + "\n</DataArray>\n";
    } else {
        const std::string packed = gzip_of(little);
        tail += "<AppendedData encoding=\"raw\">\n_" + integer_bytes(std::uint64_t(1)) + integer_bytes(std::uint64_t(little.size())) +
                integer_bytes(std::uint64_t(0)) + integer_bytes(std::uint64_t(packed.size())) + packed + "\n</AppendedData>\n";
    }
    return head + body + tail + "</VTKFile>\n";
}

TEST(Voxels, ReadVtkImagesAndRefuseDamagedOnes) {
    const io::VoxelLabels labels{{300}, std::nullopt};
    const auto expected = io::parse_voxels(bytes_of(block_image(300), true), io::RawLayout{{32, 16, 12}, io::VoxelType::U16, true}, labels);
    for (const char* format : {"ascii", "binary", "appended", "cells"}) {
        SCOPED_TRACE(format);
        const auto v = io::parse_voxels(vti(format), std::nullopt, labels);
        EXPECT_EQ(v.n, expected.n);
        EXPECT_EQ(v.solid, expected.solid);
    }
    // Truncated anywhere, or corrupted: a clear error, never a crash (every cut of the appended file).
    const std::string file = vti("appended");
    for (std::size_t cut = 0; cut < file.size(); cut += 7) EXPECT_NE(voxel_refusal(file.substr(0, cut), std::nullopt), "");
    EXPECT_NE(voxel_refusal(vti("binary").substr(0, 400), std::nullopt).find("VTI"), std::string::npos);
    std::string flipped = vti("appended");
    flipped[flipped.find('_') + 40] ^= 0x5a;  // inside the zlib stream
    EXPECT_NE(voxel_refusal(flipped, std::nullopt), "");
    std::string typed = vti("binary");
    typed.replace(typed.find("UInt16"), 6, "Int64");
    EXPECT_NE(voxel_refusal(typed, std::nullopt).find("'Int64' is not offered"), std::string::npos);
    std::string polydata = vti("ascii");
    polydata.replace(polydata.find("\"ImageData\""), 11, "\"PolyData\"");
    EXPECT_NE(voxel_refusal(polydata, std::nullopt).find("ImageData (.vti)"), std::string::npos);
    EXPECT_NE(voxel_refusal(vti("ascii"), io::RawLayout{{32, 16, 12}, io::VoxelType::U16, true}).find("leave those keys out"),
              std::string::npos);
}

/// One greyscale PNG of w x h samples at 8 or 16 bits (libpng, as the project's PNG output).
std::string grey_png(int w, int h, int depth, const std::function<unsigned(int, int)>& value) {
    std::string out;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    png_set_write_fn(png, &out, [](png_structp p, png_bytep data, png_size_t n) {
        static_cast<std::string*>(png_get_io_ptr(p))->append(reinterpret_cast<const char*>(data), n);
    }, nullptr);
    png_set_IHDR(png, info, png_uint_32(w), png_uint_32(h), depth, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    std::vector<unsigned char> row(std::size_t(w) * std::size_t(depth / 8));
    for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
            const unsigned v = value(x, y);
            if (depth == 16) row[std::size_t(2 * x)] = (unsigned char)(v >> 8), row[std::size_t(2 * x + 1)] = (unsigned char)(v & 0xff);
            else row[std::size_t(x)] = (unsigned char)v;
        }
        png_write_row(png, row.data());
    }
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    return out;
}

std::vector<std::string> block_slices(int depth) {
    const auto image = block_image(300);
    std::vector<std::string> slices;
    for (int z = 0; z < 12; ++z)
        slices.push_back(grey_png(32, 16, depth, [&](int x, int y) {
            const unsigned v = image[std::size_t(x + 32 * (y + 16 * z))];
            return depth == 8 ? (v == 300 ? 200u : 7u) : v;
        }));
    return slices;
}

TEST(Voxels, ReadPngStacksAndRefuseDamagedOnes) {
    const auto expected = io::parse_voxels(bytes_of(block_image(300), true), io::RawLayout{{32, 16, 12}, io::VoxelType::U16, true},
                                           {{300}, std::nullopt});
    EXPECT_EQ(io::parse_png_stack(block_slices(16), {{300}, std::nullopt}).solid, expected.solid);
    EXPECT_EQ(io::parse_png_stack(block_slices(8), {{}, 100.0}).solid, expected.solid);
    const auto refusal = [](const std::vector<std::string>& slices) {
        try {
            io::parse_png_stack(slices, {{}, 100.0});
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    auto slices = block_slices(8);
    const std::string whole = slices[3];
    for (std::size_t cut = 0; cut < whole.size(); cut += 5) {  // every cut of one slice: a clear error
        slices[3] = whole.substr(0, cut);
        EXPECT_NE(refusal(slices).find("slice 3: "), std::string::npos) << cut;
    }
    slices[3] = whole;
    slices[3][whole.size() / 2] ^= 0x33;  // a corrupted byte: the CRC or the zlib stream says so
    EXPECT_NE(refusal(slices).find("slice 3: damaged PNG data"), std::string::npos) << refusal(slices);
    slices[3] = grey_png(31, 16, 8, [](int, int) { return 0u; });
    EXPECT_NE(refusal(slices).find("slice 3 is 31 x 16 at 8 bits where slice 0 is 32 x 16"), std::string::npos);
    slices[3] = block_slices(16)[3];
    EXPECT_NE(refusal(slices).find("at 16 bits where slice 0 is 32 x 16 at 8 bits"), std::string::npos);
    slices[3] = "GIF89a";
    EXPECT_NE(refusal(slices).find("slice 3: not a PNG file"), std::string::npos);
}

// The channel's block from a voxel image (raw and NRRD gzip files) runs bit for bit
// as the box shape: the same solid nodes.
TEST(Voxels, VoxelBlockRunsAsTheBoxShape) {
    const std::string raw = temp_path("block.raw"), gz = temp_path("block.nrrd");
    const std::string big = bytes_of(block_image(300), true);
    test::write_file(raw, big);
    test::write_file(gz, nrrd("gzip", gzip_of(big)));
    const std::string vti_file = temp_path("block.vti"), stack = temp_path("block_%03d.png");
    test::write_file(vti_file, vti("appended"));
    const auto slices = block_slices(16);
    for (std::size_t z = 0; z < slices.size(); ++z) {
        char name[32];
        std::snprintf(name, sizeof name, "block_%03zu.png", z + 1);  // numbered from 1
        test::write_file(temp_path(name), slices[z]);
    }
    const auto shape = io::parse_case_string(channel("shape = \"box\"\nmin = [9.5, 4.5, 3.5]\nmax = [14.5, 10.5, 7.5]\n", "half-way"));
    const auto a = velocity_after(shape, 30);
    for (const std::string& obstacle :
         {"shape = \"voxels\"\nfile = \"" + raw + "\"\ndimensions = [32, 16, 12]\ntype = \"uint16\"\nbyte_order = \"big\"\nsolid = [300]\n",
          "shape = \"voxels\"\nfile = \"" + gz + "\"\nthreshold = 100\n",
          "shape = \"voxels\"\nfile = \"" + vti_file + "\"\nsolid = [300]\n",
          "shape = \"voxels\"\nfile = \"" + stack + "\"\nsolid = [300]\n"}) {
        const auto b = velocity_after(io::parse_case_string(channel(obstacle, "half-way")), 30);
        EXPECT_EQ(a, b);
    }
    EXPECT_NE(refused("shape = \"voxels\"\nfile = \"" + raw + "\"\ndimensions = [32, 16, 11]\ntype = \"uint16\"\nsolid = [300]\n")
                  .find("truncated, or other dimensions or type"), std::string::npos);
    EXPECT_NE(refused("shape = \"voxels\"\nfile = \"" + gz + "\"\n").find("obstacle[0].solid"), std::string::npos);
    EXPECT_NE(refused("shape = \"voxels\"\nfile = \"" + temp_path("none_%d.png") + "\"\nsolid = [1]\n").find("no slice of the stack"),
              std::string::npos);
    EXPECT_NE(refused("shape = \"voxels\"\nfile = \"" + temp_path("x_%s.png") + "\"\nsolid = [1]\n").find("one %d or %0Nd"),
              std::string::npos);
    EXPECT_NE(refused("shape = \"voxels\"\nfile = \"" + gz + "\"\nthreshold = 1\ntranslate = [0, 40, 0]\n").find("the image spans"),
              std::string::npos);
    EXPECT_NE(refused("shape = \"voxels\"\nfile = \"" + gz + "\"\nthreshold = 1\nscale = 2\n").find("obstacle[0].scale"),
              std::string::npos);
}

// Darcy's permeability (permeability.csv, io/run_writer.cpp): a channel between two
// solid slabs, periodic along the force, is a porous medium of porosity phi = H / 16.
// TRT with Lambda = 3/16 puts half-way walls exactly half-way, so the nodes carry the
// parabola u = g y (H - y) / (2 nu) exactly; its mean over the H nodes (the midpoint
// rule: the integral's H^2/6 plus 1/12) gives the superficial velocity
// phi g (H^2 + 1/2) / (12 nu), so k = nu U / g = phi (H^2 + 1/2) / 12 to round-off
// once steady (8000 steps, ~40 diffusion times H^2 / nu); in SI k is in m^2.
TEST(Permeability, ChannelBetweenSlabsGivesTheNodesExactK) {
    for (bool si : {false, true}) {
        SCOPED_TRACE(si ? "SI" : "lattice units");
        const auto dir = std::filesystem::temp_directory_path() /
                         ("barracuda-permeability-" + std::to_string(::getpid()) + (si ? "-si" : ""));
        std::filesystem::remove_all(dir);
        // 16 rows: slabs on rows 0-2 and 13-15, H = 10 fluid rows between walls at 2.5 and 12.5.
        const std::string units = si ? "[units]\ncell = 0.001\nvelocity = 0.01\nlattice_velocity = 0.1\n" : "";
        const std::string text = units + std::string("[model]\nlattice = \"D3Q19\"\ncollision = \"trt\"\nprecision = \"fp64\"\n") +
                                 (si ? "viscosity = 1e-5\n" : "viscosity = 0.1\n") +
                                 "[domain]\nsize = [4, 16, 4]\nperiodic = [true, false, true]\n[force]\nbody = [" +
                                 (si ? "0.002" : "1e-6") + ", 0, 0]\n[[obstacle]]\nname = \"low\"\nshape = \"box\"\nmin = [" +
                                 (si ? "0.0005, 0.0005, 0.0005]\nmax = [0.0035, 0.0025, 0.0035]" : "0, 0, 0]\nmax = [3, 2, 3]") +
                                 "\n[[obstacle]]\nname = \"high\"\nshape = \"box\"\nmin = [" +
                                 (si ? "0.0005, 0.0135, 0.0005]\nmax = [0.0035, 0.0155, 0.0035]" : "0, 13, 0]\nmax = [3, 15, 3]") +
                                 "\n[run]\nsteps = 8000\ncheck_interval = 1000\n[output]\ninterval = 4000\nformats = []\n";
        const auto spec = io::parse_case_string(text);
        ASSERT_EQ(sim::darcy_axis(spec), 0);
        sim::Simulation run(spec, sim::BackendChoice::Cpu);
        io::RunWriter writer(spec, io::claim_output_directory(dir));
        run.run(&writer, {});
        const auto& k = writer.last_permeability();
        EXPECT_EQ(k.step, 8000);
        const double phi = 10.0 / 16, exact = phi * (100 + 0.5) / 12;  // cells^2
        EXPECT_NEAR(k.porosity, phi, 1e-15);
        EXPECT_NEAR(k.k, exact, 1e-6 * exact);
        writer.flush();
        std::ifstream csv(dir / "permeability.csv");
        std::string header, row, last;
        std::getline(csv, header);
        EXPECT_EQ(header, si ? "step,time,porosity,superficial_velocity_m_per_s,permeability_m2"
                             : "step,time,porosity,superficial_velocity,permeability");
        int rows = 0;
        while (std::getline(csv, row)) last = row, ++rows;
        EXPECT_EQ(rows, 3);  // steps 0, 4000 and 8000
        const double written = std::stod(last.substr(last.rfind(',') + 1));
        EXPECT_NEAR(written, exact * (si ? 1e-6 : 1.0), 1e-6 * exact * (si ? 1e-6 : 1.0));
        std::filesystem::remove_all(dir);
    }
}

}  // namespace
}  // namespace barracuda
