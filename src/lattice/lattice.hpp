// What every velocity set offers, and the run-time name of each.
//
// A lattice is a type with: D (spatial dimensions), Q (velocities), cs2 (sound
// speed squared), name, and constexpr host/device functions c(i, axis) (axis 0..2,
// zero for unused axes), w(i) and opposite(i). D3Q13 adds `sublattice` (one sub-lattice
// stored: storage::Grid::sublattice) and `cell_volume`, read through sublattice_v and
// cell_volume() below, which the other lattices answer with false and 1.
#pragma once
#include <concepts>
#include <cstdint>
#include <string_view>

#include "common/hd.hpp"
#include "lattice/d2q9.hpp"
#include "lattice/d3q13.hpp"
#include "lattice/d3q15.hpp"
#include "lattice/d3q19.hpp"
#include "lattice/d3q27.hpp"

namespace barracuda::lattice {

template <class L>
concept VelocitySet = requires(int i, int a) {
    { L::D } -> std::convertible_to<int>;
    { L::Q } -> std::convertible_to<int>;
    { L::cs2 } -> std::convertible_to<double>;
    { L::c(i, a) } -> std::convertible_to<int>;
    { L::w(i) } -> std::convertible_to<double>;
    { L::opposite(i) } -> std::convertible_to<int>;
};

/// c_i . v, with the vanishing components of c_i left out and unit ones added or
/// subtracted. The plain sum of c_ia v_a is not simplified by a compiler that keeps IEEE
/// semantics (0 * v_a is NaN for an infinite v_a, and 0 + x is not x for x = -0): on
/// the GPU it cost a multiply-add per zero component, about 30 instructions a D3Q19
/// cell in the equilibria (Nsight Compute, issue 20). The same value as the plain sum
/// but for the sign of a zero result: the products are exact, and the sums the same.
template <class L, class T>
BARRACUDA_HD constexpr T c_dot(int i, const T (&v)[3]) {
    T s = T(-0.0);  // x + (-0) = x for every x: folded away
    for (int a = 0; a < 3; ++a) {
        const int c = L::c(i, a);
        if (c == 1) s += v[a];
        else if (c == -1) s -= v[a];
        else if (c != 0) s += T(c) * v[a];
    }
    return s;
}

/// c_dot with sums that no product in v is fused into (common/hd.hpp, unfused_sum): the
/// same value in every kernel that inlines it, whatever products v's components are.
template <class L, class T>
BARRACUDA_HD T c_dot_unfused(int i, const T (&v)[3]) {
    T s = T(-0.0);
    bool first = true;
    for (int a = 0; a < 3; ++a) {
        const int c = L::c(i, a);
        if (c == 0) continue;
        const T term = c == 1 ? v[a] : (c == -1 ? -v[a] : T(c) * v[a]);
        s = first ? term : unfused_sum(s, term);
        first = false;
    }
    return s;
}

/// c_i along a run-time axis. With i a compile-time constant (unrolled loops)
/// this is two selects; indexing the table with a run-time axis would make the
/// GPU compiler copy the whole table to local memory.
template <class L>
BARRACUDA_HD constexpr int c_along(int i, int axis) {
    return axis == 0 ? L::c(i, 0) : (axis == 1 ? L::c(i, 1) : L::c(i, 2));
}

/// The velocity c_i mirrored in the plane normal to `axis` (its component along the
/// axis negated): the direction a free-slip wall turns c_i into.
template <class L>
constexpr int mirrored(int i, int axis) {
    for (int j = 0; j < L::Q; ++j) {
        bool same = true;
        for (int a = 0; a < 3; ++a) same = same && L::c(j, a) == (a == axis ? -L::c(i, a) : L::c(i, a));
        if (same) return j;
    }
    return i;
}
/// mirrored() packed five bits per velocity, twelve velocities per word: word w of axis a.
template <class L, int Axis, int Word>
inline constexpr std::uint64_t mirror_code = [] {
    std::uint64_t r = 0;
    for (int i = 12 * Word; i < L::Q && i < 12 * (Word + 1); ++i) r |= std::uint64_t(mirrored<L>(i, Axis)) << (5 * (i - 12 * Word));
    return r;
}();
/// mirrored() for a run-time axis as shifts and masks of constants (as c(i, axis),
/// lattice/packed.hpp): no loop for the compiler to fold, no table in local memory.
template <class L>
BARRACUDA_HD constexpr int mirrored_along(int i, int axis) {
    static_assert(L::Q <= 36, "three words of twelve");
    const auto word = [&](std::uint64_t w0, std::uint64_t w1, std::uint64_t w2) { return i < 12 ? w0 : (i < 24 ? w1 : w2); };
    const std::uint64_t code = axis == 0   ? word(mirror_code<L, 0, 0>, mirror_code<L, 0, 1>, mirror_code<L, 0, 2>)
                               : axis == 1 ? word(mirror_code<L, 1, 0>, mirror_code<L, 1, 1>, mirror_code<L, 1, 2>)
                                           : word(mirror_code<L, 2, 0>, mirror_code<L, 2, 1>, mirror_code<L, 2, 2>);
    return int((code >> (5 * (i % 12))) & 31u);
}

/// Whether L stores one sub-lattice only (D3Q13; storage::Grid::sublattice).
template <class L>
constexpr bool stores_sublattice() {
    if constexpr (requires { L::sublattice; }) return L::sublattice;
    else return false;
}
template <class L>
inline constexpr bool sublattice_v = stores_sublattice<L>();
/// Volume of the cell a stored node stands for (1, or 2 on D3Q13's sub-lattice).
template <class L>
constexpr double cell_volume() {
    if constexpr (sublattice_v<L>) return L::cell_volume;
    else return 1.0;
}

enum class Kind { D2Q9, D3Q13, D3Q15, D3Q19, D3Q27 };

constexpr std::string_view name_of(Kind k) {
    switch (k) {
        case Kind::D2Q9: return "D2Q9";
        case Kind::D3Q13: return "D3Q13";
        case Kind::D3Q15: return "D3Q15";
        case Kind::D3Q19: return "D3Q19";
        case Kind::D3Q27: return "D3Q27";
    }
    return "?";
}
constexpr int dimensions_of(Kind k) { return k == Kind::D2Q9 ? 2 : 3; }
/// D3Q13 stores one of its two independent sub-lattices (half the nodes of the box).
constexpr bool stores_sublattice(Kind k) { return k == Kind::D3Q13; }
constexpr int velocities_of(Kind k) {
    switch (k) {
        case Kind::D2Q9: return 9;
        case Kind::D3Q13: return 13;
        case Kind::D3Q15: return 15;
        case Kind::D3Q19: return 19;
        case Kind::D3Q27: return 27;
    }
    return 0;
}

/// The velocity set named by K, as a type.
template <Kind K>
struct TypeOf;
template <>
struct TypeOf<Kind::D2Q9> { using type = D2Q9; };
template <>
struct TypeOf<Kind::D3Q13> { using type = D3Q13; };
template <>
struct TypeOf<Kind::D3Q15> { using type = D3Q15; };
template <>
struct TypeOf<Kind::D3Q19> { using type = D3Q19; };
template <>
struct TypeOf<Kind::D3Q27> { using type = D3Q27; };
template <Kind K>
using Type = typename TypeOf<K>::type;

/// Calls f(L{}) with the velocity set named by k.
template <class F>
decltype(auto) visit(Kind k, F&& f) {
    switch (k) {
        case Kind::D2Q9: return f(D2Q9{});
        case Kind::D3Q13: return f(D3Q13{});
        case Kind::D3Q15: return f(D3Q15{});
        case Kind::D3Q19: return f(D3Q19{});
        case Kind::D3Q27: break;
    }
    return f(D3Q27{});
}

}  // namespace barracuda::lattice
