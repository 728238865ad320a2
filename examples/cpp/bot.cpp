// A Rolit bot for rollarena: the C++ starter kit.
//
// It reads one JSON message per line on stdin and answers on stdout, one JSON message per
// line, flushed at once. It keeps the state it is sent (the board from `start` and `turn`,
// updated by `played`), plays the move that turns the most balls weighted by the tactical
// value of the square, and logs to stderr (stdout belongs to the arbiter).
//
// Build: g++ -O2 -std=c++17 -o bot bot.cpp
// Check: rollarena check ./bot
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "json.hpp"

namespace {

const char* const NAME = "starter-cpp";
const char* const VERSION = "1.0";

// The five tactical levels of the rules, as a bonus for taking a square.
enum Level { VERY_STRONG = 30, STRONG = 6, MEDIUM = 1, WEAK = -6, VERY_WEAK = -15 };

const int DIRECTIONS[8][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}};

const std::map<std::string, char> LETTERS = {
    {"red", 'R'}, {"yellow", 'Y'}, {"green", 'G'}, {"blue", 'B'}};

struct Square {
    int file, rank;
    bool operator<(const Square& o) const { return file != o.file ? file < o.file : rank < o.rank; }
    std::string name() const { return std::string(1, char('a' + file)) + std::to_string(rank + 1); }
    static std::optional<Square> parse(const std::string& s) {
        if (s.size() < 2 || s[0] < 'a' || s[0] > 'h') return std::nullopt;
        return Square{s[0] - 'a', std::stoi(s.substr(1)) - 1};
    }
};

// A board as rows of letters; row 0 is the highest rank; '.' for empty.
class Board {
public:
    Board() = default;
    explicit Board(const json::Value& rows) {
        for (const json::Value& row : rows.items()) rows_.push_back(row.str());
    }

    int size() const { return int(rows_.size()); }
    char at(int file, int rank) const { return rows_[size() - 1 - rank][file]; }
    void put(Square sq, char letter) {
        if (inside(sq.file, sq.rank)) rows_[size() - 1 - sq.rank][sq.file] = letter;
    }
    bool inside(int file, int rank) const {
        return file >= 0 && file < size() && rank >= 0 && rank < size();
    }

    // How many balls a ball of letter `me` on sq would turn.
    int flips(Square sq, char me) const {
        int total = 0;
        for (const auto& d : DIRECTIONS) {
            int f = sq.file + d[0], r = sq.rank + d[1], run = 0;
            while (inside(f, r) && at(f, r) != '.' && at(f, r) != me) {
                f += d[0];
                r += d[1];
                run++;
            }
            if (run > 0 && inside(f, r) && at(f, r) == me) total += run;
        }
        return total;
    }

    // Empty squares touching a ball; only the capturing ones if any capture.
    std::vector<Square> legal_moves(char me) const {
        std::vector<Square> touching, captures;
        for (int r = 0; r < size(); r++)
            for (int f = 0; f < size(); f++) {
                if (at(f, r) != '.') continue;
                bool touches = false;
                for (const auto& d : DIRECTIONS)
                    touches = touches || (inside(f + d[0], r + d[1]) && at(f + d[0], r + d[1]) != '.');
                if (!touches) continue;
                touching.push_back({f, r});
                if (flips({f, r}, me) > 0) captures.push_back({f, r});
            }
        return captures.empty() ? touching : captures;
    }

private:
    std::vector<std::string> rows_;
};

// The tactical value of a square: corners, edges, and the squares next to corners.
int level(Square sq, int n) {
    int last = n - 1;
    bool edge_f = sq.file == 0 || sq.file == last, edge_r = sq.rank == 0 || sq.rank == last;
    bool near_f = sq.file == 1 || sq.file == last - 1, near_r = sq.rank == 1 || sq.rank == last - 1;
    if (edge_f && edge_r) return VERY_STRONG;
    if (edge_f) return near_r ? WEAK : STRONG;
    if (edge_r) return near_f ? WEAK : STRONG;
    return near_f && near_r ? VERY_WEAK : MEDIUM;
}

// One JSON object per line; std::endl writes the newline and flushes (stdout is a pipe,
// and pipes are fully buffered).
void send(const std::string& line) { std::cout << line << std::endl; }

// Everything that is not a protocol message goes to stderr.
template <typename... Parts>
void log(const Parts&... parts) {
    (std::cerr << ... << parts) << std::endl;
}

class Bot {
public:
    void hello(const json::Value& msg) {
        const json::Value& o = msg["options"];
        log("hello: seat ", msg["seat"].num(), " of ", o["players"].num(), ", ", o["size"].num(),
            "x", o["size"].num(), ", ", msg["move_ms"].num(), " ms a move");
        send(std::string("{\"type\":\"ready\",\"name\":\"") + NAME + "\",\"version\":\"" +
             VERSION + "\",\"author\":\"rollarena starter kit\"}");
    }

    void start(const json::Value& msg) {
        board_ = Board(msg["state"]["board"]);
        log("round ", msg["round"].num(), ": I play ", msg["colour"].str());
    }

    void turn(const json::Value& msg) {
        const json::Value& state = msg["state"];
        board_ = Board(state["board"]);
        asked_ = board_;
        me_ = LETTERS.count(state["to_move"].str()) ? LETTERS.at(state["to_move"].str()) : '?';
        turn_id_ = msg.has("turn_id") ? std::optional<long long>(msg["turn_id"].num()) : std::nullopt;
        moves_.clear();
        tried_.clear();
        if (msg.has("legal")) {
            for (const json::Value& m : msg["legal"].items())
                if (auto sq = Square::parse(m.str())) moves_.push_back(*sq);
        } else {
            moves_ = asked_.legal_moves(me_);
        }
        answer();
    }

    void illegal(const json::Value& msg) {
        log("refused: ", msg["reason"].str());
        answer();
    }

    void played(const json::Value& msg) {
        auto letter = LETTERS.find(msg["colour"].str());
        auto sq = Square::parse(msg["move"].str());
        if (letter == LETTERS.end() || !sq || board_.size() == 0) return;
        board_.put(*sq, letter->second);
        for (const json::Value& f : msg["flipped"].items())
            if (auto turned = Square::parse(f.str())) board_.put(*turned, letter->second);
    }

private:
    Board board_;  // the board as last seen (start, turn), updated by played
    Board asked_;  // the board of the last turn
    char me_ = '?';
    std::optional<long long> turn_id_;
    std::vector<Square> moves_;
    std::set<Square> tried_;

    // The untried move (any, if all were tried) that turns the most balls, weighted.
    void answer() {
        std::optional<Square> best;
        int best_score = 0;
        for (int pass = 0; pass < 2 && !best; pass++)
            for (const Square& sq : moves_) {
                if (pass == 0 && tried_.count(sq)) continue;
                int score = 2 * asked_.flips(sq, me_) + level(sq, asked_.size());
                if (!best || score > best_score) {
                    best = sq;
                    best_score = score;
                }
            }
        if (!best) return;
        tried_.insert(*best);
        std::string line = "{\"type\":\"move\",\"move\":\"" + best->name() + "\"";
        if (turn_id_) line += ",\"turn_id\":" + std::to_string(*turn_id_);
        send(line + "}");
    }
};

}  // namespace

int main() {
    std::ios::sync_with_stdio(false);
    Bot bot;
    std::string line;
    // getline reads one whole line, however long.
    while (std::getline(std::cin, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        json::Value msg;
        try {
            msg = json::parse(line);
        } catch (const json::Error& e) {
            log("not a message: ", e.what());
            continue;
        }
        const std::string& type = msg["type"].str();
        if (type == "hello") bot.hello(msg);
        else if (type == "start") bot.start(msg);
        else if (type == "turn") bot.turn(msg);
        else if (type == "illegal") bot.illegal(msg);
        else if (type == "played") bot.played(msg);
        else if (type == "end") log("round ", msg["round"].num(), " over");
        else if (type == "bye") break;
        // types this bot does not know are skipped
    }
    return 0;
}
