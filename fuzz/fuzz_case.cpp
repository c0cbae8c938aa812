// libFuzzer target: a case file's text through the whole reader and checker
// (io/case_file.cpp: TOML, known keys, types, sim/case_check.cpp). Any input must
// end in a parsed case or a CaseError; nothing is allocated for a case here.
#include <cstdint>
#include <string_view>

#include "common/error.hpp"
#include "io/case_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        barracuda::io::parse_case_string(text, {}, "fuzz.toml");
    } catch (const barracuda::CaseError&) {
    }
    return 0;
}
