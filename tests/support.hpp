// Small helpers shared by the solver tests: engine setups for boxes with
// given faces, and field norms.
#pragma once
#include <cmath>
#include <vector>

#include "backend/engine.hpp"

namespace barracuda::test {

/// A box with every face periodic; callers change faces as needed.
inline backend::EngineSetup periodic_box(lattice::Kind lat, int nx, int ny, int nz, double tau,
                                         storage::Precision prec = storage::Precision::FP64,
                                         physics::CollisionKind col = physics::CollisionKind::BGK) {
    backend::EngineSetup s;
    s.lattice = lat;
    s.collision = col;
    s.precision = prec;
    s.grid = {{nx, ny, nz}, {true, true, true}};
    for (int f = 0; f < 6; ++f) {
        s.faces.type[f] = boundary::FaceType::Periodic;
        s.faces.method[f] = boundary::Method::ZouHe;
        s.faces.density[f] = 1.0;
    }
    s.node_kind.assign(s.grid.cells(), boundary::Fluid);
    s.tau = tau;
    s.mrt = lat == lattice::Kind::D2Q9 ? physics::MrtRateSet{1 / tau, 1.64, 1.54, 1.9, 1, 1}
                                       : physics::MrtRateSet{1 / tau, 1.19, 1.4, 1.2, 1.4, 1.98};
    return s;
}

/// Makes the two faces of `axis` non-periodic with the given type.
inline void set_faces(backend::EngineSetup& s, int axis, boundary::FaceType lo, boundary::FaceType hi) {
    s.grid.periodic[axis] = false;
    s.faces.type[2 * axis] = lo;
    s.faces.type[2 * axis + 1] = hi;
}

inline void initialize_at_rest(backend::Engine& e, const backend::EngineSetup& s, double rho0 = 1.0) {
    const auto n = s.grid.cells();
    e.initialize(std::vector<double>(n, rho0), std::vector<double>(3 * n, 0.0));
}

}  // namespace barracuda::test
