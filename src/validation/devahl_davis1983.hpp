// Benchmark solution of natural convection in a square cavity: de Vahl Davis, G.
// (1983), "Natural convection of air in a square cavity: a bench mark numerical
// solution", Int. J. Numer. Methods Fluids 3, 249-264, Table IV (the extrapolated
// "benchmark" values). Pr = 0.71; the left wall hot, the right wall cold, top and
// bottom adiabatic, gravity along -y. Velocities in units of kappa/L (kappa the
// thermal diffusivity), positions in units of L from the bottom-left corner.
#pragma once
#include <array>

namespace barracuda::validation {

struct DeVahlDavisRow {
    double rayleigh;
    double u_max;    // max of u on the vertical mid-line x = 1/2
    double y_u_max;  // its height
    double v_max;    // max of v on the horizontal mid-line y = 1/2
    double x_v_max;  // its position
    double nu_mean;  // the Nusselt number averaged over the cavity
};

inline constexpr std::array<DeVahlDavisRow, 4> de_vahl_davis1983 = {{
    {1e3, 3.649, 0.813, 3.697, 0.178, 1.118},
    {1e4, 16.178, 0.823, 19.617, 0.119, 2.243},
    {1e5, 34.73, 0.855, 68.59, 0.066, 4.519},
    {1e6, 64.63, 0.850, 219.36, 0.0379, 8.800},
}};

}  // namespace barracuda::validation
