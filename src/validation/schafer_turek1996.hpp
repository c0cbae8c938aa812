// Benchmark of laminar flow around a cylinder in a channel: Schäfer, M. & Turek, S.
// (1996), "Benchmark computations of laminar flow around a cylinder", in Flow
// Simulation with High-Performance Computers II, Notes on Numerical Fluid Mechanics
// 52, Vieweg, 547-566. Test case 2D-1 (steady, Re = 20): a channel of height
// H = 0.41 and length 2.2, a cylinder of diameter D = 0.1 centred at (0.2, 0.2),
// the inflow U(y) = 4 U_m y (H - y) / H^2 with U_m = 0.3, nu = 1e-3, no slip on
// the channel walls and the cylinder, Re = U_mean D / nu with U_mean = 2 U_m / 3.
// C_d = 2 F_x / (rho U_mean^2 D), C_l = 2 F_y / (rho U_mean^2 D) (rho = 1).
// The paper gives the interval the accurate contributions fell in (its Table 4);
// the centre values are the reference solution of John & Matthies (2001), the
// digits every later study quotes.
#pragma once

namespace barracuda::validation {

struct SchaferTurek2D1 {
    static constexpr double drag = 5.5795, drag_low = 5.57, drag_high = 5.59;
    static constexpr double lift = 0.0106, lift_low = 0.0104, lift_high = 0.0110;
    static constexpr double height = 0.41, length = 2.2, diameter = 0.1, centre = 0.2;  // m
    static constexpr double reynolds = 20;
};

}  // namespace barracuda::validation
