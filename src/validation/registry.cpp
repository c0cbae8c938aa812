// The registry of validate/case.hpp: a function-local vector, so cases can
// register from static initialisers in any translation unit, in any order.
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "validation/case.hpp"

namespace barracuda::validation {

namespace {
std::vector<Case>& storage() {
    static std::vector<Case> all;
    return all;
}
}  // namespace

bool add_case(Case c) {
    auto& all = storage();
    if (find_case(c.name)) {
        std::fprintf(stderr, "internal error: two validation cases are named '%s'\n", c.name.c_str());
        std::abort();
    }
    all.push_back(std::move(c));
    std::sort(all.begin(), all.end(), [](const Case& a, const Case& b) { return a.name < b.name; });
    return true;
}

const std::vector<Case>& cases() { return storage(); }

const Case* find_case(const std::string& name) {
    for (const auto& c : storage())
        if (c.name == name) return &c;
    return nullptr;
}

}  // namespace barracuda::validation
