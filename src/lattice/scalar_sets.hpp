// Velocity sets of a transported scalar (temperature): the nearest neighbours
// only, with or without a rest population. An advection-diffusion equation needs
// just the first two moments of its equilibrium to be right (Guo, Shi & Zheng
// 2002, eq. 9-10), so these few velocities carry it at a fraction of the flow
// lattice's bytes. Ordering as the flow lattices: rest first (if any), then
// opposite pairs.
//
//   set   Q  w_0   w_i    cs2    diffusivity D = cs2 (tau_T - 1/2)
//   D2Q4  4  -     1/4    1/2    (Guo, Shi & Zheng 2002, their 2D model)
//   D2Q5  5  1/3   1/6    1/3
//   D3Q6  6  -     1/6    1/3    (seed 004, Delbosc et al. 2014, §2.3)
//   D3Q7  7  1/4   1/8    1/4    (the D3Q7 of FluidX3D's TEMPERATURE extension)
#pragma once
#include <cstdint>
#include <string_view>

#include "common/hd.hpp"
#include "lattice/packed.hpp"

namespace barracuda::lattice {

/// The common shape of the four sets: D dimensions, a rest population or not, and
/// the rest weight w0 (the moving weights share 1 - w0). Each set below is its own
/// type with its name (nvcc's generated host stubs cannot spell a template argument
/// that is a pointer to a string).
template <int Dim, bool Rest, int W0Num, int W0Den>
struct AxisSet {
    static constexpr int D = Dim;
    static constexpr int Q = 2 * Dim + (Rest ? 1 : 0);
    static constexpr double w0 = double(W0Num) / double(W0Den);
    static constexpr double w_moving = (1.0 - w0) / (2 * Dim);
    /// sum_i w_i c_ix^2 = 2 w_moving.
    static constexpr double cs2 = 2 * w_moving;

    static constexpr int first_moving = Rest ? 1 : 0;
    /// A scalar's populations, not a flow's shifted ones (storage/access.hpp's half_exponent).
    static constexpr bool is_scalar_set = true;
    /// Velocity i: 0 (rest, if any), then +x, -x, +y, -y, +z, -z.
    BARRACUDA_HD static constexpr int c(int i, int axis) {
        const int k = i - first_moving;
        if (k < 0 || k / 2 != axis) return 0;
        return (k & 1) ? -1 : 1;
    }
    BARRACUDA_HD static constexpr double w(int i) { return i < first_moving ? w0 : w_moving; }
    BARRACUDA_HD static constexpr int opposite(int i) {
        if (i < first_moving) return i;
        const int k = i - first_moving;
        return first_moving + ((k & 1) ? k - 1 : k + 1);
    }
};

struct D2Q4 : AxisSet<2, false, 0, 1> {
    static constexpr const char* name = "D2Q4";
};
struct D2Q5 : AxisSet<2, true, 1, 3> {
    static constexpr const char* name = "D2Q5";
};
struct D3Q6 : AxisSet<3, false, 0, 1> {
    static constexpr const char* name = "D3Q6";
};
struct D3Q7 : AxisSet<3, true, 1, 4> {
    static constexpr const char* name = "D3Q7";
};

/// What a run couples to its flow (the configuration table's sixth column): nothing,
/// a scalar (temperature) on one of the four sets, the Shan-Chen interaction of
/// the flow's own density (kernel/pseudopotential.hpp: a per-cell field, no lattice),
/// a second fluid component on the flow's own lattice with the two-component
/// Shan-Chen interaction (kernel/binary.hpp), or the free-energy model's order
/// parameter on the flow's own lattice (kernel/free_energy.hpp).
enum class CoupledKind { None, D2Q4, D2Q5, D3Q6, D3Q7, ShanChen, ShanChenBinary, FreeEnergy };

constexpr std::string_view name_of(CoupledKind k) {
    switch (k) {
        case CoupledKind::None: return "none";
        case CoupledKind::D2Q4: return "D2Q4";
        case CoupledKind::D2Q5: return "D2Q5";
        case CoupledKind::D3Q6: return "D3Q6";
        case CoupledKind::D3Q7: return "D3Q7";
        case CoupledKind::ShanChen: return "shan-chen";
        case CoupledKind::ShanChenBinary: return "shan-chen-binary";
        case CoupledKind::FreeEnergy: return "free-energy";
    }
    return "?";
}
constexpr int velocities_of(CoupledKind k) {
    switch (k) {
        case CoupledKind::D2Q4: return 4;
        case CoupledKind::D2Q5: return 5;
        case CoupledKind::D3Q6: return 6;
        case CoupledKind::D3Q7: return 7;
        case CoupledKind::None:
        case CoupledKind::ShanChen:
        case CoupledKind::ShanChenBinary:
        case CoupledKind::FreeEnergy: break;
    }
    return 0;
}
/// A scalar set's dimensions (0 for none and the multiphase models, which fit either).
constexpr int dimensions_of(CoupledKind k) {
    return k == CoupledKind::D2Q4 || k == CoupledKind::D2Q5 ? 2 : k == CoupledKind::D3Q6 || k == CoupledKind::D3Q7 ? 3 : 0;
}
/// Whether the sixth column names a Shan-Chen model (a macro-field pass, [multiphase]).
constexpr bool is_shan_chen(CoupledKind k) { return k == CoupledKind::ShanChen || k == CoupledKind::ShanChenBinary; }
/// Whether the sixth column names a binary fluid: a second distribution on the flow's own
/// lattice whose part updates the whole cell (kernel/binary.hpp, kernel/free_energy.hpp).
constexpr bool is_binary_fluid(CoupledKind k) { return k == CoupledKind::ShanChenBinary || k == CoupledKind::FreeEnergy; }
/// Whether the sixth column names a multiphase model ([multiphase]: a macro-field pass).
constexpr bool is_multiphase(CoupledKind k) { return is_shan_chen(k) || k == CoupledKind::FreeEnergy; }
/// Per-cell fields the macro-field pass of a multiphase model writes and its neighbours read
/// (psi; psi_A and psi_B; phi), 0 for the others: the halo plan of the fields (sim) and the
/// kernel parts' `fields` (kernel/scalar.hpp asserts they agree).
constexpr int macro_fields(CoupledKind k) {
    return k == CoupledKind::ShanChenBinary ? 2 : k == CoupledKind::ShanChen || k == CoupledKind::FreeEnergy ? 1 : 0;
}
/// Populations a cell stores besides the flow's Q: a scalar's, or a binary fluid's second set (Q).
constexpr int second_velocities(CoupledKind k, int flow_q) {
    return is_binary_fluid(k) ? flow_q : velocities_of(k);
}
/// Whether the sixth column names a scalar's lattice (a second distribution).
constexpr bool is_scalar(CoupledKind k) { return velocities_of(k) > 0; }
/// cs2 of a set, for converting a diffusivity into a relaxation time at the edge.
constexpr double cs2_of(CoupledKind k) {
    switch (k) {
        case CoupledKind::D2Q4: return D2Q4::cs2;
        case CoupledKind::D2Q5: return D2Q5::cs2;
        case CoupledKind::D3Q6: return D3Q6::cs2;
        case CoupledKind::D3Q7: return D3Q7::cs2;
        case CoupledKind::None:
        case CoupledKind::ShanChen:
        case CoupledKind::ShanChenBinary:
        case CoupledKind::FreeEnergy: break;
    }
    return 0;
}

/// No scalar: the flow engines' fifth type.
struct NoScalar {
    static constexpr int Q = 0;
    static constexpr const char* name = "none";
};

template <CoupledKind K>
struct ScalarTypeOf { using type = NoScalar; };
template <>
struct ScalarTypeOf<CoupledKind::D2Q4> { using type = D2Q4; };
template <>
struct ScalarTypeOf<CoupledKind::D2Q5> { using type = D2Q5; };
template <>
struct ScalarTypeOf<CoupledKind::D3Q6> { using type = D3Q6; };
template <>
struct ScalarTypeOf<CoupledKind::D3Q7> { using type = D3Q7; };
/// The Shan-Chen interaction: no lattice of its own (kernel/pseudopotential.hpp).
struct ShanChenField {
    static constexpr int Q = 0;
    static constexpr const char* name = "shan-chen";
};
template <>
struct ScalarTypeOf<CoupledKind::ShanChen> { using type = ShanChenField; };
/// The second component of the two-component Shan-Chen model: populations on the flow's
/// own lattice (kernel/binary.hpp), so no set of its own here either.
struct SecondComponent {
    static constexpr int Q = 0;
    static constexpr const char* name = "shan-chen-binary";
};
template <>
struct ScalarTypeOf<CoupledKind::ShanChenBinary> { using type = SecondComponent; };
/// The free-energy model's order parameter: populations on the flow's own lattice
/// (kernel/free_energy.hpp).
struct OrderParameter {
    static constexpr int Q = 0;
    static constexpr const char* name = "free-energy";
};
template <>
struct ScalarTypeOf<CoupledKind::FreeEnergy> { using type = OrderParameter; };
template <CoupledKind K>
using ScalarType = typename ScalarTypeOf<K>::type;

}  // namespace barracuda::lattice
