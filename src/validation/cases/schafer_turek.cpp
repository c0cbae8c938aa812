// Schäfer & Turek (1996) test case 2D-1: steady flow around a cylinder in a
// channel at Re = 20 (validation/schafer_turek1996.hpp), drag and lift against the
// benchmark, for FP64, FP32 and FP16 storage (issue 20: FP16's C_d within 0.5% of
// FP32's; on the short grid FP16 against FP64, FP32 being within 1e-6 of it).
//
// Set-up: D2Q9 TRT, the cylinder D cells across (short 10, full 40), so the channel
// is 4.1 D cells high between half-way walls and 22 D long; the parabolic inflow by
// Zou-He on x_min, the outflow at rho = 1 on x_max, the cylinder by interpolated
// bounce-back (Bouzidi et al. 2001) with its centre at (2 D, 2 D) from the
// channel's lower-left corner. Forces by momentum exchange (the same as forces.csv).
//
// The inflow speed: C_d carries a compressibility error that grows as U_m^2 (Ma^2)
// and does not shrink with the grid. Measured on the H100 at U_m = 0.05: C_d 5.6875,
// 5.6546, 5.6380, 5.6329 at D = 10, 20, 40, 80 (tau 0.55 to 0.9), converging to about
// 0.9% above 5.5795; at D = 10, U_m = 0.1 gives 5.841, 2.7% above U_m = 0.05, three
// times that 0.9% as U^2 says. So the full grid runs at U_m = 0.025 (Ma = 0.043: about
// 0.2% left) and the short one, for speed, at 0.05.
//
// The FP64 run goes on until C_d changes by less than 1e-7 (short grid: 1e-5) of
// itself over 500 steps; every precision then runs that many steps and C_d and C_l are averaged
// over the next 1000 (20 samples): FP16's stochastic rounding leaves a fluctuation
// of ~1e-4 that the mean damps (docs/validation.md).
#include <cmath>
#include <string>

#include "common/error.hpp"
#include "validation/case.hpp"
#include "validation/flow.hpp"
#include "validation/schafer_turek1996.hpp"

namespace barracuda::validation {
namespace {

using Reference = SchaferTurek2D1;

struct Coefficients {
    double drag = NAN, lift = NAN;
};

sim::CaseSpec channel(int d, double u_max, sim::Precision precision) {
    const double u_mean = 2 * u_max / 3, nu = u_mean * d / Reference::reynolds;
    const int ny = int(std::lround(Reference::height / Reference::diameter * d));
    const int nx = int(std::lround(Reference::length / Reference::diameter * d));
    auto s = periodic_box(lattice::Kind::D2Q9, {nx, ny, 1}, 3 * nu + 0.5, sim::Collision::TRT);
    s.title = "Schafer-Turek 2D-1";
    s.model.precision = precision;
    s.periodic[0] = s.periodic[1] = false;
    s.faces[boundary::XMin].type = boundary::FaceType::Velocity;
    s.faces[boundary::XMin].profile = boundary::Profile::Parabolic;
    s.faces[boundary::XMin].velocity = {u_max, 0, 0};
    s.faces[boundary::XMax].type = boundary::FaceType::Pressure;
    s.faces[boundary::XMax].density = 1.0;
    s.faces[boundary::YMin].type = s.faces[boundary::YMax].type = boundary::FaceType::Wall;
    // Node i stands at (i + 1/2) dx from the wall; the centre 2 D from each lower wall.
    sim::Obstacle cylinder;
    cylinder.name = "cylinder";
    cylinder.kind = sim::Obstacle::Shape::Cylinder;
    cylinder.axis = 2;
    const double c = Reference::centre / Reference::diameter * d - 0.5;
    cylinder.center = {c, c, 0};
    cylinder.radius = 0.5 * d;
    cylinder.min[2] = 0, cylinder.max[2] = 0;
    cylinder.interpolated = true;
    s.obstacles.push_back(cylinder);
    s.forces.obstacles = {"cylinder"};
    s.forces.reference_velocity = u_mean;
    s.forces.reference_area = d;
    return s;
}

/// C_d and C_l of a run of `steps` steps (0: FP64 to steady, the count returned in
/// `steps`), averaged over the following 1000 steps.
Coefficients run_channel(const Context& ctx, int d, double u_max, sim::Precision precision, std::int64_t& steps) {
    const auto spec = channel(d, u_max, precision);
    const double scale = 0.5 * spec.forces.reference_velocity * spec.forces.reference_velocity * d;
    ctx.log(std::string(storage::name_of(precision)) + ", D = " + std::to_string(d) + " cells" +
            (steps > 0 ? ", " + std::to_string(steps) + " steps" : ", to steady state"));
    sim::Simulation s(spec, ctx.backend);
    {  // The inflow's parabola everywhere: the start is near the steady flow but at the
       // cylinder, and the run converges in a fraction of the steps it needs from rest.
        const int nx = spec.size[0], ny = spec.size[1];
        const double u_max = spec.faces[boundary::XMin].velocity[0];
        std::vector<double> rho(std::size_t(nx) * ny, 1.0), u(3 * rho.size(), 0.0);
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x) {
                const double t = (y + 0.5) / ny;
                u[3 * (std::size_t(x) + std::size_t(nx) * y)] = 4 * u_max * t * (1 - t);
            }
        s.engine().initialize(rho, u);
    }
    const std::int64_t every = 500, limit = ctx.full() ? 2'000'000 : 400'000;
    const double steady = ctx.full() ? 1e-7 : 1e-5;
    if (steps == 0) {
        double previous = NAN;
        while (steps < limit) {
            s.advance(every);
            steps += every;
            check_state(s, "Schafer-Turek 2D-1");
            const double cd = s.forces_all()[0][0] / scale;
            if (std::abs(cd - previous) < steady * std::abs(cd)) break;
            previous = cd;
        }
        if (steps >= limit) throw DivergenceError("Schafer-Turek 2D-1: C_d not steady after " + std::to_string(limit) + " steps");
    } else {
        s.advance(steps);
    }
    Coefficients out{0, 0};
    const int samples = 20;
    for (int k = 0; k < samples; ++k) {
        s.advance(50);
        const auto f = s.forces_all()[0];
        out.drag += f[0] / scale / samples;
        out.lift += f[1] / scale / samples;
    }
    check_state(s, "Schafer-Turek 2D-1");
    return out;
}

Outcome run(const Context& ctx) {
    // The short grid runs FP64 and FP16 (FP32 equals FP64 to 1e-6 there, and the
    // precision tests cover it), the full one all three.
    const int d = ctx.full() ? 40 : 10;
    const double u_max = ctx.full() ? 0.025 : 0.05;  // see the top: the compressibility error
    std::int64_t steps = 0;
    const Coefficients c64 = run_channel(ctx, d, u_max, sim::Precision::FP64, steps);
    std::int64_t fixed = steps;
    const Coefficients c32 = ctx.full() ? run_channel(ctx, d, u_max, sim::Precision::FP32, fixed) : c64;
    const Coefficients c16 = run_channel(ctx, d, u_max, sim::Precision::FP16, fixed);
    const char* base = ctx.full() ? "FP32" : "FP64";

    Outcome out;
    const auto spec = channel(d, u_max, sim::Precision::FP64);
    out.setup = "D2Q9 TRT, D = " + std::to_string(d) + " cells, " + std::to_string(spec.size[0]) + " x " +
                std::to_string(spec.size[1]) + ", U_m = " + format("%g", u_max) + ", tau = " +
                format("%.4f", spec.model.tau) +
                ", Zou-He parabolic inflow, outflow rho = 1, interpolated bounce-back on the cylinder; " +
                std::to_string(steps) + " steps (FP64 steady to " + (ctx.full() ? "1e-7" : "1e-5") +
                " per 500 steps), C_d and C_l the mean of the next 1000";
    // Against the benchmark: the discretisation error at this resolution. At D = 10 the
    // staircase of the channel walls and the cylinder's curvature on 31 links leave a few
    // percent (measured 1.9% at U_m = 0.05, with its 0.9% of compressibility); 4% bounds
    // it. At D = 40 and U_m = 0.025 the grid's error and the compressibility's are each a
    // few tenths of a percent; 1% is asked (the LBM literature with interpolated walls
    // lands within about 0.5% of 5.5795 at this resolution).
    out.comparisons.push_back(relative("C_d, FP64, against Schafer & Turek (2D-1)", c64.drag, Reference::drag,
                                       ctx.full() ? 0.01 : 0.04));
    if (ctx.full())
        // The lift is 500 times smaller and set by the asymmetry of 0.01 m in 0.41: 10%.
        out.comparisons.push_back(relative("C_l, FP64, against Schafer & Turek (2D-1)", c64.lift, Reference::lift, 0.10));
    // FP32 against FP64: populations stored shifted keep FP32 round-off near 1e-7 per
    // step; a steady drag differs by far less than 1e-4 (measured 1.0e-6 at D = 10).
    if (ctx.full()) out.comparisons.push_back(relative("C_d, FP32 against FP64", c32.drag, c64.drag, 1e-4));
    // FP16 against FP32 (short grid: FP64): issue 20's bar.
    out.comparisons.push_back(relative(std::string("C_d, FP16 against ") + base, c16.drag, c32.drag, 0.005));
    const std::string fp32 = ctx.full() ? ", FP32 " : ", (FP32 not run) ";
    out.notes.push_back("C_d FP64 " + format("%.5f", c64.drag) + fp32 + format("%.5f", c32.drag) + ", FP16 " +
                        format("%.5f", c16.drag) + " (Schafer & Turek: " + format("%.4f", Reference::drag_low) +
                        " ... " + format("%.4f", Reference::drag_high) + ")");
    out.notes.push_back("C_l FP64 " + format("%.5f", c64.lift) + fp32 + format("%.5f", c32.lift) + ", FP16 " +
                        format("%.5f", c16.lift) + " (Schafer & Turek: " + format("%.4f", Reference::lift_low) +
                        " ... " + format("%.4f", Reference::lift_high) + ")");
    io::PlotPanel drag{"drag coefficient", "storage (1 FP64, 2 FP32, 3 FP16)", "C_d", false, false, {}};
    drag.series.push_back({"Barracuda", ctx.full() ? std::vector<double>{1, 2, 3} : std::vector<double>{1, 3},
                           ctx.full() ? std::vector<double>{c64.drag, c32.drag, c16.drag}
                                      : std::vector<double>{c64.drag, c16.drag},
                           true, true});
    drag.series.push_back({"Schafer & Turek", {1, 3}, {Reference::drag, Reference::drag}, true, false});
    out.plot = {drag};
    return out;
}

const bool registered = add_case({
    .name = "schafer-turek-2d1",
    .title = "Cylinder in a channel, Re = 20 (Schafer & Turek 2D-1): drag and lift, FP64/FP32/FP16",
    .citation = "Schafer, M. & Turek, S. (1996), Benchmark computations of laminar flow around a cylinder, Notes on "
                "Numerical Fluid Mechanics 52, 547-566, test case 2D-1 (Table 4); centre values of John & Matthies "
                "(2001)",
    .compares = "C_d (and on the full grid C_l) of FP64 against the benchmark; FP32's C_d against FP64's, FP16's "
                "against FP32's",
    .short_setup = "D2Q9 TRT, D = 10 cells (220 x 41), U_m = 0.05, FP64 to steady state (1e-5), FP16 as many "
                   "steps (CPU)",
    .full_setup = "D2Q9 TRT, D = 40 cells (880 x 164), U_m = 0.025",
    .full_only = false,
    .run = run,
});

}  // namespace
}  // namespace barracuda::validation
