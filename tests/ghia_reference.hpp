// The Re = 100 lid-driven cavity reference of Ghia, Ghia & Shin (1982), J.
// Comput. Phys. 48, 387-411, Tables I and II (../shared/reference/ghia1982_cavity2d.csv),
// and the sampling of a nodal N x N cavity solution at its points. Shared by
// the cavity test and the reduced-precision tests.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace barracuda::test {

struct GhiaPoint {
    double pos, value;
};

/// Column pairs (position, value) of the CSV for Re = 100: u(y) on the vertical
/// centre line and v(x) on the horizontal one, in units of the lid speed.
inline void read_ghia(std::vector<GhiaPoint>& u, std::vector<GhiaPoint>& v) {
    std::ifstream in(std::string(BARRACUDA_REFERENCE_DIR) + "/ghia1982_cavity2d.csv");
    ASSERT_TRUE(in) << "reference file missing: " << BARRACUDA_REFERENCE_DIR << "/ghia1982_cavity2d.csv";
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#' || line[0] == 'y') continue;
        std::stringstream s(line);
        double col[8];
        char comma;
        for (int k = 0; k < 8; ++k) {
            s >> col[k];
            if (k < 7) s >> comma;
        }
        u.push_back({col[0], col[1]});
        v.push_back({col[4], col[5]});
    }
}

/// Linear interpolation of a nodal profile f(i) at x = (i + 1/2)/N, with the
/// wall values (0, or the lid speed) at x = 0 and 1.
inline double sample(const std::vector<double>& f, double x, double at0, double at1) {
    const int N = int(f.size());
    const double s = x * N - 0.5;
    if (s <= 0) return at0 + (f[0] - at0) * (x * N / 0.5);
    if (s >= N - 1) return at1 + (f[N - 1] - at1) * ((1 - x) * N / 0.5);
    const int i = int(std::floor(s));
    const double t = s - i;
    return (1 - t) * f[i] + t * f[i + 1];
}

/// Centre-line profiles of an N x N cavity velocity field (three values per
/// cell, x fastest) in units of the lid speed U: ux[j] = u/U on the vertical
/// centre line x = 1/2, vy[i] = v/U on the horizontal one y = 1/2 (N even: the
/// lines lie between nodes N/2 - 1 and N/2).
inline void centre_lines(const std::vector<double>& u, int N, double U, std::vector<double>& ux,
                         std::vector<double>& vy) {
    ux.assign(N, 0.0);
    vy.assign(N, 0.0);
    for (int j = 0; j < N; ++j) ux[j] = 0.5 * (u[3 * (N / 2 - 1 + N * j)] + u[3 * (N / 2 + N * j)]) / U;
    for (int i = 0; i < N; ++i) vy[i] = 0.5 * (u[3 * (i + N * (N / 2 - 1)) + 1] + u[3 * (i + N * (N / 2)) + 1]) / U;
}

/// Largest deviation |u/U - Ghia| over the tabulated points of both centre lines.
inline double ghia_max_deviation(const std::vector<double>& u, int N, double U, const std::vector<GhiaPoint>& gu,
                                 const std::vector<GhiaPoint>& gv) {
    std::vector<double> ux, vy;
    centre_lines(u, N, U, ux, vy);
    double worst = 0;
    for (const auto& p : gu) worst = std::max(worst, std::abs(sample(ux, p.pos, 0.0, 1.0) - p.value));
    for (const auto& p : gv) worst = std::max(worst, std::abs(sample(vy, p.pos, 0.0, 0.0) - p.value));
    return worst;
}

}  // namespace barracuda::test
