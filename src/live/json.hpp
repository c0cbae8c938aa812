// Writing the little JSON the live view's server answers with (no parser needed: the
// requests are form-encoded, server.cpp).
#pragma once
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

namespace barracuda::live {

/// `text` as a JSON string literal, quotes included.
inline std::string json_string(std::string_view text) {
    std::string out = "\"";
    for (unsigned char c : text) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    char b[8];
                    std::snprintf(b, sizeof b, "\\u%04x", c);
                    out += b;
                } else {
                    out += char(c);
                }
        }
    }
    return out + "\"";
}

/// A number as JSON (null for NaN and infinities, which JSON lacks).
inline std::string json_number(double v) {
    if (!std::isfinite(v)) return "null";
    char b[32];
    std::snprintf(b, sizeof b, "%.9g", v);
    return b;
}

}  // namespace barracuda::live
