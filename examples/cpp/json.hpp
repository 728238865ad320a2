// json.hpp: a small JSON reader for bots, in one header (public domain / CC0).
//
// Parses one JSON text into a json::Value. Enough for the rollarena protocol (objects,
// arrays, strings with escapes, numbers, true/false/null), and small enough to read.
//
//     json::Value msg = json::parse(line);      // throws json::Error if it is not JSON
//     std::string type = msg["type"].str();      // "" if absent or not a string
//     for (const json::Value& row : msg["state"]["board"].items()) ...
#pragma once

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace json {

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Value {
public:
    enum class Type { Null, Bool, Number, String, Array, Object };

    Type type() const { return type_; }
    bool is(Type t) const { return type_ == t; }

    // The string, or "" for anything else.
    const std::string& str() const { return string_; }
    // The number (or 1/0 for true/false), or `fallback` for anything else.
    double num(double fallback = 0) const {
        return type_ == Type::Number || type_ == Type::Bool ? number_ : fallback;
    }
    // The elements of an array (empty for anything else).
    const std::vector<Value>& items() const { return items_; }
    // Whether an object has the member.
    bool has(const std::string& key) const { return members_.count(key) > 0; }
    // The members of an object (empty for anything else).
    const std::map<std::string, Value>& members() const { return members_; }
    // The value written back as JSON (to send a move exactly as the arbiter listed it).
    std::string dump() const {
        switch (type_) {
            case Type::Null: return "null";
            case Type::Bool: return number_ ? "true" : "false";
            case Type::Number: {
                if (number_ == static_cast<double>(static_cast<long long>(number_)))
                    return std::to_string(static_cast<long long>(number_));
                char buf[32];
                std::snprintf(buf, sizeof buf, "%.17g", number_);
                return buf;
            }
            case Type::String: return quote(string_);
            case Type::Array: {
                std::string out = "[";
                for (const Value& v : items_) out += (out.size() > 1 ? "," : "") + v.dump();
                return out + "]";
            }
            case Type::Object: {
                std::string out = "{";
                for (const auto& [k, v] : members_)
                    out += (out.size() > 1 ? "," : "") + quote(k) + ":" + v.dump();
                return out + "}";
            }
        }
        return "null";
    }
    // A string as a JSON string literal.
    static std::string quote(const std::string& s) {
        std::string out = "\"";
        for (unsigned char c : s) {
            if (c == '"' || c == '\\') {
                out += '\\';
                out += static_cast<char>(c);
            } else if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
        return out + "\"";
    }
    // The member of an object, or a null value.
    const Value& operator[](const std::string& key) const {
        static const Value null;
        auto it = members_.find(key);
        return it == members_.end() ? null : it->second;
    }

private:
    friend class Parser;
    Type type_ = Type::Null;
    double number_ = 0;
    std::string string_;
    std::vector<Value> items_;
    std::map<std::string, Value> members_;
};

class Parser {
public:
    explicit Parser(const std::string& text) : s_(text) {}

    Value parse() {
        Value v = value(0);
        skip();
        if (i_ != s_.size()) fail("trailing characters");
        return v;
    }

private:
    const std::string& s_;
    size_t i_ = 0;

    [[noreturn]] void fail(const char* what) const {
        throw Error(std::string("bad JSON at ") + std::to_string(i_) + ": " + what);
    }
    void skip() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
            i_++;
    }
    char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
    bool literal(const char* word) {
        size_t n = std::char_traits<char>::length(word);
        if (s_.compare(i_, n, word) != 0) return false;
        i_ += n;
        return true;
    }

    Value value(int depth) {
        if (depth > 64) fail("nested too deep");
        skip();
        Value v;
        char c = peek();
        if (c == '{') {
            v.type_ = Value::Type::Object;
            i_++;
            skip();
            if (peek() == '}') { i_++; return v; }
            for (;;) {
                skip();
                if (peek() != '"') fail("expected a member name");
                std::string key = string();
                skip();
                if (peek() != ':') fail("expected ':'");
                i_++;
                v.members_[key] = value(depth + 1);
                skip();
                if (peek() == ',') { i_++; continue; }
                if (peek() == '}') { i_++; return v; }
                fail("expected ',' or '}'");
            }
        }
        if (c == '[') {
            v.type_ = Value::Type::Array;
            i_++;
            skip();
            if (peek() == ']') { i_++; return v; }
            for (;;) {
                v.items_.push_back(value(depth + 1));
                skip();
                if (peek() == ',') { i_++; continue; }
                if (peek() == ']') { i_++; return v; }
                fail("expected ',' or ']'");
            }
        }
        if (c == '"') {
            v.type_ = Value::Type::String;
            v.string_ = string();
            return v;
        }
        if (literal("true")) { v.type_ = Value::Type::Bool; v.number_ = 1; return v; }
        if (literal("false")) { v.type_ = Value::Type::Bool; return v; }
        if (literal("null")) return v;
        if (c == '-' || (c >= '0' && c <= '9')) {
            const char* start = s_.c_str() + i_;
            char* end = nullptr;
            v.type_ = Value::Type::Number;
            v.number_ = std::strtod(start, &end);
            i_ += static_cast<size_t>(end - start);
            return v;
        }
        fail("unexpected character");
    }

    unsigned hex4() {
        if (i_ + 4 > s_.size()) fail("short \\u escape");
        unsigned v = 0;
        for (int k = 0; k < 4; k++) {
            char c = s_[i_++];
            v <<= 4;
            if (c >= '0' && c <= '9') v |= unsigned(c - '0');
            else if (c >= 'a' && c <= 'f') v |= unsigned(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') v |= unsigned(c - 'A' + 10);
            else fail("bad \\u escape");
        }
        return v;
    }

    static void utf8(std::string& out, unsigned long c) {
        if (c < 0x80) {
            out += char(c);
        } else if (c < 0x800) {
            out += char(0xC0 | (c >> 6));
            out += char(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            out += char(0xE0 | (c >> 12));
            out += char(0x80 | ((c >> 6) & 0x3F));
            out += char(0x80 | (c & 0x3F));
        } else {
            out += char(0xF0 | (c >> 18));
            out += char(0x80 | ((c >> 12) & 0x3F));
            out += char(0x80 | ((c >> 6) & 0x3F));
            out += char(0x80 | (c & 0x3F));
        }
    }

    std::string string() {
        std::string out;
        i_++;  // the opening quote
        for (;;) {
            if (i_ >= s_.size()) fail("unterminated string");
            char c = s_[i_++];
            if (c == '"') return out;
            if (c != '\\') { out += c; continue; }
            if (i_ >= s_.size()) fail("unterminated string");
            c = s_[i_++];
            switch (c) {
            case 'n': out += '\n'; break;
            case 't': out += '\t'; break;
            case 'r': out += '\r'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'u': {
                unsigned long cp = hex4();
                if (cp >= 0xD800 && cp < 0xDC00 && s_.compare(i_, 2, "\\u") == 0) {
                    i_ += 2;
                    unsigned long lo = hex4();
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                }
                utf8(out, cp);
                break;
            }
            default: out += c;  // \" \\ \/
            }
        }
    }
};

// Parses a whole JSON text; throws json::Error if it is not one.
inline Value parse(const std::string& text) { return Parser(text).parse(); }

}  // namespace json
