// Absorbing (sponge) layers in front of open faces: after the collision, a node at
// depth d < W from the face relaxes towards the equilibrium of a target state,
//   f_i <- f_i - sigma(d) (f_i - f_i^eq(rho_t, u_t)),   sigma(d) = sigma_max ((W - d) / W)^2,
// the damping-term sponge of Israeli & Orszag (1981, J. Comput. Phys. 41:115) in the
// lattice Boltzmann form analysed by Xu & Sagaut (2013, J. Comput. Phys. 245:14).
// Why: a velocity face reflects a pressure wave fully, and at tau -> 1/2 sound is
// hardly damped, so the waves an unsteady obstacle sends out build up between two
// prescribed faces until a node diverges (measured: the sphere in a pipe at Re = 300,
// docs/validation.md). In the layer the density and momentum perturbations about the
// target decay by (1 - sigma) per step; a wave crossing the layer in and out again at
// the speed of sound loses the factor exp(-2 int sigma dx / cs) = exp(-2 sigma_max W / (3 cs))
// of its amplitude (tests/test_sponge.cpp checks this). The quadratic ramp keeps the
// reflection off the layer's own gradient small. The target state itself is left
// exactly unchanged, so a uniform inflow that equals it is not disturbed.
#pragma once
#include "common/hd.hpp"
#include "physics/equilibrium.hpp"

namespace barracuda::boundary {

struct SpongeLayer {
    int width = 0;          // W in nodes; 0: no layer
    double strength = 0;    // sigma_max, at the face's node layer
    double density = 1.0;   // target rho_t (unless keep_density)
    // Relax towards f^eq(rho, u_t) with the node's own rho: the layer then adds and removes
    // no mass. The default of velocity and outflow faces, which do not fix the density: a
    // fixed rho_t at both ends of a duct fights the pressure drop the flow needs and
    // drains mass from the inflow layer (measured: the sphere in a pipe at Re 200 lost
    // 1.0% of its drag with rho_t = 1 at both ends).
    bool keep_density = false;
    double velocity[3] = {0, 0, 0};  // target u_t

    /// sigma at depth d (0: the face's own node layer).
    BARRACUDA_HD double rate(int depth) const {
        if (depth < 0 || depth >= width) return 0;
        const double r = double(width - depth) / width;
        return strength * r * r;
    }
};

/// f_i <- f_i - sigma (f_i - f_i^eq(target)) on shifted populations (f~ = f - w: the
/// shift cancels in the difference).
template <class L, class Eq, class T>
BARRACUDA_HD void absorb(T (&f)[L::Q], T sigma, const SpongeLayer& layer) {
    T drho = T(layer.density - 1.0);
    if (layer.keep_density) {
        drho = T(0);
        BARRACUDA_UNROLL
        for (int i = 0; i < L::Q; ++i) drho += f[i];
    }
    const T u[3] = {T(layer.velocity[0]), T(layer.velocity[1]), T(layer.velocity[2])};
    BARRACUDA_UNROLL
    for (int i = 0; i < L::Q; ++i) f[i] -= sigma * (f[i] - physics::equilibrium_shifted<L, Eq>(i, drho, u));
}

}  // namespace barracuda::boundary
