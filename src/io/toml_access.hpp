// Typed, checked access to a parsed TOML document for the case-file reader.
// Private to src/io: the rest of the program sees only sim::CaseSpec.
//
// Every failure throws CaseError naming the full dotted key (obstacle[1].radius),
// the value found and what was expected, prefixed with where the value came
// from ("cavity.toml:12:7: " or "--set model.tau=abc: ") so the user can find it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "io/toml.hpp"

namespace barracuda::io::detail {

/// Optimal string alignment distance (Levenshtein plus adjacent transpositions),
/// so that "tua" is one edit away from "tau".
std::size_t edit_distance(std::string_view a, std::string_view b);

/// `candidates` entry closest to `word`, or empty when none is close enough to
/// be a plausible typo.
std::string closest_match(std::string_view word, std::span<const std::string_view> candidates);

/// Shortest round-trip text of a double ("0.064", "1e-06").
std::string format_number(double v);

/// A value as it appears in messages: string "abc", integer 3, array [1, 2], table.
std::string describe(const toml::node& node);

/// Where values came from: the case's source name and the --set overrides.
class Origin {
public:
    explicit Origin(std::string source_name) : source_(std::move(source_name)) {}
    const std::string& source() const { return source_; }

    void add_override(std::string dotted_key, std::string text) {
        overrides_.emplace_back(std::move(dotted_key), std::move(text));
    }
    /// Whether an override set exactly this dotted key.
    bool overridden(std::string_view dotted_key) const;
    /// "--set a.b=c: " when `key` was set (or created) by an override, else
    /// "file:line:col: " when the node carries a position, else "".
    std::string where(std::string_view key, const toml::source_region* region) const;
    [[noreturn]] void fail(std::string_view key, const toml::source_region* region, const std::string& message) const;
    [[noreturn]] void fail(std::string_view key, const toml::node* node, const std::string& message) const {
        fail(key, node ? &node->source() : nullptr, message);
    }

private:
    std::string source_;
    std::vector<std::pair<std::string, std::string>> overrides_;  // dotted key, original text
};

/// Applies "a.b.c=value" overrides to `root` (see io::parse_case_string) and
/// records them in `origin` for messages.
void apply_overrides(toml::table& root, const std::vector<std::string>& overrides, Origin& origin);

/// Rejects any key of `root` not in `known`. `known` lists full dotted keys of
/// values; "name[]" stands for every element of an array of tables. Tables are
/// implied by the keys below them. The message suggests the closest known key.
void check_known_keys(const toml::table& root, std::span<const std::string> known, const Origin& origin);

/// One table of the case ([model], [boundary.x_min], obstacle[2]) with typed
/// getters. A Section over an absent table behaves as empty, so optional
/// tables need no special case. Getters return nullopt for an absent key.
class Section {
public:
    Section(const Origin& origin, const toml::table* table, std::string path)
        : origin_(&origin), table_(table), path_(std::move(path)) {}

    bool present() const { return table_ != nullptr; }
    const std::string& path() const { return path_; }
    const Origin& origin() const { return *origin_; }
    std::string key(std::string_view k) const { return path_.empty() ? std::string(k) : path_ + "." + std::string(k); }
    const toml::node* get(std::string_view k) const { return table_ ? table_->get(k) : nullptr; }
    bool has(std::string_view k) const { return get(k) != nullptr; }

    std::optional<double> number(std::string_view k) const;  // integers accepted; must be finite
    std::optional<std::int64_t> integer(std::string_view k) const;  // whole-valued floats accepted
    std::optional<bool> boolean(std::string_view k) const;
    std::optional<std::string> string(std::string_view k) const;
    std::optional<std::vector<double>> numbers(std::string_view k, std::size_t min_n, std::size_t max_n) const;
    std::optional<std::vector<std::int64_t>> integers(std::string_view k, std::size_t min_n, std::size_t max_n) const;
    std::optional<std::vector<bool>> booleans(std::string_view k, std::size_t min_n, std::size_t max_n) const;
    std::optional<std::vector<std::string>> strings(std::string_view k) const;
    /// A non-empty array of arrays of min_n..max_n numbers each (points).
    std::optional<std::vector<std::vector<double>>> number_lists(std::string_view k, std::size_t min_n,
                                                                 std::size_t max_n) const;
    /// A number, or a string (an expression for sim::Expression).
    using NumberOrText = std::variant<double, std::string>;
    std::optional<NumberOrText> number_or_text(std::string_view k) const;
    std::optional<std::vector<NumberOrText>> numbers_or_texts(std::string_view k, std::size_t min_n,
                                                              std::size_t max_n) const;

    /// One of a fixed set of words (compared without regard to case).
    /// Returns the index into `allowed`.
    std::optional<std::size_t> choice(std::string_view k, std::span<const std::string_view> allowed) const;

    Section table(std::string_view k) const;                       // absent: an empty Section
    std::vector<Section> table_array(std::string_view k) const;    // [[k]]; elements named k[i]

    /// "<where>key 'path.k': message"
    [[noreturn]] void fail(std::string_view k, const std::string& message) const;
    /// "<where>path.k = <value>: message"
    [[noreturn]] void fail_value(std::string_view k, const std::string& message) const;
    /// "<where>missing key 'path.k': message"
    [[noreturn]] void fail_missing(std::string_view k, const std::string& message) const;

private:
    [[noreturn]] void fail_type(std::string_view k, std::string_view expected) const;
    const toml::array* array_of(std::string_view k, std::size_t min_n, std::size_t max_n,
                                std::string_view expected) const;

    const Origin* origin_;
    const toml::table* table_;
    std::string path_;
};

}  // namespace barracuda::io::detail
