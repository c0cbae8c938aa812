// barracuda bench: time the fused stream-collide kernel on a periodic box of
// fluid (every cell does the full update), report the median of several
// repetitions as MLUPS, bytes moved per cell update and effective bandwidth.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "apps/commands.hpp"
#include "apps/exit_codes.hpp"
#include "backend/device_info.hpp"
#include "backend/engine.hpp"
#include "common/error.hpp"
#include "sim/simulation.hpp"

namespace barracuda::apps {

namespace {

struct BenchRow {
    int size = 0;
    std::int64_t cells = 0, steps = 0;
    double mlups = 0, bytes_per_cell = 0, gbps = 0, memory_per_cell = 0;
};

lattice::Kind lattice_of(const std::string& s) {
    if (s == "D2Q9") return lattice::Kind::D2Q9;
    if (s == "D3Q15") return lattice::Kind::D3Q15;
    if (s == "D3Q27") return lattice::Kind::D3Q27;
    return lattice::Kind::D3Q19;
}

BenchRow bench_one(const BenchOptions& o, int n, bool cuda) {
    backend::EngineSetup s;
    s.lattice = lattice_of(o.lattice);
    s.collision = o.collision == "trt" ? physics::CollisionKind::TRT
                  : o.collision == "mrt" ? physics::CollisionKind::MRT
                                         : physics::CollisionKind::BGK;
    s.precision = o.precision == "fp64" ? storage::Precision::FP64 : storage::Precision::FP32;
    const bool two_d = s.lattice == lattice::Kind::D2Q9;
    s.grid = {{n, n, two_d ? 1 : n}, {true, true, true}};
    for (int f = 0; f < 6; ++f) s.faces.type[f] = boundary::FaceType::Periodic;
    s.node_kind.assign(s.grid.cells(), boundary::Fluid);
    s.tau = 0.6;
    s.mrt = {1.0 / s.tau, 1.19, 1.4, 1.2, 1.4, 1.98};
    if (two_d) s.mrt = {1.0 / s.tau, 1.64, 1.54, 1.9, 1.0, 1.0};
    auto engine = cuda ? backend::make_cuda_engine(s) : backend::make_cpu_engine(s);

    // A non-trivial state (never time on zeros): a sheared flow with density ripples.
    const auto cells = s.grid.cells();
    std::vector<double> rho(cells), u(3 * cells);
    for (std::int64_t c = 0; c < cells; ++c) {
        const double y = double((c / n) % n) / n;
        rho[c] = 1.0 + 0.01 * std::sin(6.283185307179586 * y);
        u[3 * c] = 0.05 * std::sin(6.283185307179586 * y);
        u[3 * c + 1] = 0.02;
        u[3 * c + 2] = two_d ? 0.0 : 0.01;
    }
    engine->initialize(rho, u);

    BenchRow row;
    row.size = n;
    row.cells = cells;
    const double target_updates = cuda ? 4e9 : 2e7;  // per repetition
    row.steps = o.steps > 0 ? o.steps : std::max<std::int64_t>(2, std::int64_t(target_updates / double(cells)));
    engine->step(std::max<std::int64_t>(2, row.steps / 4));  // warm-up
    std::vector<double> mlups;
    for (int r = 0; r < o.repetitions; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        engine->step(row.steps);  // returns after the device finished
        const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        mlups.push_back(double(cells) * double(row.steps) / sec / 1e6);
    }
    std::sort(mlups.begin(), mlups.end());
    row.mlups = mlups[mlups.size() / 2];
    row.bytes_per_cell = double(engine->bytes_per_cell_update());
    row.gbps = row.mlups * row.bytes_per_cell / 1e3;
    row.memory_per_cell = double(engine->memory_bytes()) / double(cells);
    return row;
}

}  // namespace

int bench_command(const BenchOptions& o) {
    try {
        sim::BackendChoice b = o.backend == "cpu"    ? sim::BackendChoice::Cpu
                               : o.backend == "cuda" ? sim::BackendChoice::Cuda
                                                     : sim::BackendChoice::Auto;
        b = sim::resolve_backend(b);
        const bool cuda = b == sim::BackendChoice::Cuda;
        std::vector<int> sizes = o.sizes;
        if (sizes.empty()) sizes = {o.lattice == "D2Q9" ? (cuda ? 4096 : 512) : (cuda ? 256 : 64)};
        std::string device = "CPU (OpenMP)";
        if (cuda) device = backend::cuda_devices().front().name;

        std::vector<BenchRow> rows;
        for (int n : sizes) rows.push_back(bench_one(o, n, cuda));
        if (o.json) {
            std::printf("{\n  \"device\": \"%s\",\n  \"backend\": \"%s\",\n  \"lattice\": \"%s\",\n  \"collision\": "
                        "\"%s\",\n  \"precision\": \"%s\",\n  \"pattern\": \"two-copy pull\",\n  \"results\": [\n",
                        device.c_str(), cuda ? "cuda" : "cpu", o.lattice.c_str(), o.collision.c_str(),
                        o.precision.c_str());
            for (std::size_t i = 0; i < rows.size(); ++i) {
                const auto& r = rows[i];
                std::printf("    {\"size\": %d, \"cells\": %lld, \"steps\": %lld, \"mlups\": %.1f, \"bytes_per_cell\": "
                            "%.0f, \"effective_gbps\": %.1f, \"memory_bytes_per_cell\": %.1f}%s\n",
                            r.size, static_cast<long long>(r.cells), static_cast<long long>(r.steps), r.mlups,
                            r.bytes_per_cell, r.gbps, r.memory_per_cell, i + 1 < rows.size() ? "," : "");
            }
            std::printf("  ]\n}\n");
        } else {
            std::printf("device: %s | %s %s %s, two-copy pull, median of %d\n", device.c_str(), o.lattice.c_str(),
                        o.collision.c_str(), o.precision.c_str(), o.repetitions);
            std::printf("%8s %14s %8s %12s %10s %10s %12s\n", "size", "cells", "steps", "MLUPS", "B/cell", "GB/s",
                        "mem B/cell");
            for (const auto& r : rows)
                std::printf("%8d %14lld %8lld %12.1f %10.0f %10.1f %12.1f\n", r.size, static_cast<long long>(r.cells),
                            static_cast<long long>(r.steps), r.mlups, r.bytes_per_cell, r.gbps, r.memory_per_cell);
        }
        return Ok;
    } catch (const CaseError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return CaseInvalid;
    } catch (const ResourceError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return NoResources;
    }
}

}  // namespace barracuda::apps
