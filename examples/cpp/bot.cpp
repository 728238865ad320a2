// A bot for every rollarena game: the C++ starter kit.
//
// It reads one JSON message per line on stdin and answers on stdout, one JSON message per
// line, flushed at once, and logs to stderr (stdout belongs to the arbiter). It plays the game
// `hello.game` names:
// - "rolit": it keeps the board it is sent (from `start` and `turn`, updated by `played`) and
//   plays the move that turns the most balls weighted by the tactical value of the square;
// - "robots" (Rock'n'Roll Robot): at `start` it searches breadth-first for a shortest
//   solution, declares it, passes, and shows the moves when asked to `prove`;
// - any other game (Goofspiel, Rollerball, ...): it answers each `turn` with a move from its
//   `legal` list (see AnyGamePlayer::choose, the place for your strategy).
//
// Build: g++ -O2 -std=c++17 -o bot bot.cpp
// Check: rollarena check ./bot        (add --game robots)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
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

// -------------------------------------------------------------------------------------------
// Rock'n'Roll Robot (`hello.game` "robots"): protocol/games/robots.md and SPEC.md section 13.
// At `start` the bot searches for a solution, declares its length, then passes (it will not
// declare again), and answers `prove` with the moves.
// -------------------------------------------------------------------------------------------

const double THINK_SHARE = 0.5;      // the search may run this share of hello.options.hourglass_ms
const size_t MAX_NODES = 4000000;    // positions kept in memory, at most
const int SIZE = 16;

enum Dir { UP, DOWN, LEFT, RIGHT };
const char* const DIR_NAMES[4] = {"up", "down", "left", "right"};
const int STEP[4] = {SIZE, -SIZE, -1, 1};
const char SIDE[4] = {'N', 'S', 'W', 'E'};
// How a diagonal wall turns a robot entering its cell: [kind: 0 '/', 1 '\'][direction].
const int TURN[2][4] = {{RIGHT, LEFT, DOWN, UP}, {LEFT, RIGHT, UP, DOWN}};

// "a1" -> 0, "b1" -> 1, ... (rank index * 16 + file index), or -1.
int cell_index(const std::string& name) {
    if (name.size() < 2 || name[0] < 'a' || name[0] >= 'a' + SIZE) return -1;
    int rank = std::atoi(name.c_str() + 1);
    return rank < 1 || rank > SIZE ? -1 : (rank - 1) * SIZE + (name[0] - 'a');
}

class RobotsBoard {
public:
    explicit RobotsBoard(const json::Value& board) {
        for (auto& w : walls_) w = 0;
        for (auto& d : diagonal_) d = -1;
        for (const auto& [cell, sides] : board["walls"].members()) {
            int c = cell_index(cell);
            if (c < 0) continue;
            for (int d = 0; d < 4; d++)
                if (sides.str().find(SIDE[d]) != std::string::npos) walls_[c] |= 1 << d;
        }
        for (const json::Value& d : board["diagonals"].items()) {
            int c = cell_index(d["cell"].str());
            if (c < 0) continue;
            diagonal_[c] = d["kind"].str() == "/" ? 0 : 1;
            colour_[c] = d["colour"].str();
        }
    }

    // Where robot `r` (named names[r]) stops moving `dir` from `cells`, or -1 when the move is
    // not legal (it changes nothing, or goes round through diagonal walls forever).
    int slide(const std::vector<int>& cells, const std::vector<std::string>& names, size_t r,
              int dir) const {
        unsigned char seen[SIZE * SIZE] = {};
        int at = cells[r], start = at;
        for (;;) {
            if (walls_[at] & (1 << dir)) break;  // a wall (the edge and the centre count)
            int next = at + STEP[dir];
            bool blocked = false;
            for (size_t i = 0; i < cells.size(); i++) blocked |= i != r && cells[i] == next;
            if (blocked) break;                        // stop before another robot
            if (seen[next] & (1 << dir)) return -1;   // round forever
            seen[next] |= 1 << dir;
            at = next;
            if (diagonal_[at] >= 0 && colour_[at] != names[r])  // black: every colour turns it
                dir = TURN[diagonal_[at]][dir];
        }
        return at == start ? -1 : at;
    }

private:
    int walls_[SIZE * SIZE];
    int diagonal_[SIZE * SIZE];
    std::string colour_[SIZE * SIZE];
};

struct Step {
    std::string robot;
    int dir;
};

// Breadth-first search over the positions of all robots for a shortest solution: moves after
// which a robot the token accepts stands on the target, having moved at least twice (the
// bounce rule). Empty if the time or memory runs out first.
std::vector<Step> solve_robots(const RobotsBoard& board, const json::Value& state,
                               std::chrono::steady_clock::time_point deadline) {
    std::vector<std::string> names;
    std::vector<int> cells;
    for (const auto& [name, cell] : state["robots"].members()) {
        names.push_back(name);
        cells.push_back(cell_index(cell.str()));
    }
    const std::string token = state["token"].str();
    std::vector<size_t> goal;
    for (size_t i = 0; i < names.size(); i++)
        if (token == "vortex" || token.rfind(names[i] + "-", 0) == 0) goal.push_back(i);
    const int target = cell_index(state["target"].str());
    // A node: the cells (8 bits each) and each goal robot's moves up to 2 (2 bits each).
    auto pack = [&](const std::vector<int>& c, const std::vector<int>& counts) {
        uint64_t k = 0;
        for (int x : c) k = k << 8 | static_cast<uint64_t>(x);
        for (int n : counts) k = k << 2 | static_cast<uint64_t>(n);
        return k;
    };
    auto unpack = [&](uint64_t k, std::vector<int>& c, std::vector<int>& counts) {
        for (size_t g = counts.size(); g-- > 0; k >>= 2) counts[g] = static_cast<int>(k & 3);
        for (size_t i = c.size(); i-- > 0; k >>= 8) c[i] = static_cast<int>(k & 255);
    };
    struct Node {
        uint64_t key;
        int64_t parent;
        int robot, dir;
    };
    std::vector<Node> nodes;
    std::unordered_set<uint64_t> seen;
    std::vector<int> counts(goal.size(), 0), next_counts(goal.size());
    nodes.push_back({pack(cells, counts), -1, 0, 0});
    seen.insert(nodes[0].key);
    auto path = [&](int64_t i, int robot, int dir) {
        std::vector<Step> moves{{names[robot], dir}};
        for (; nodes[i].parent >= 0; i = nodes[i].parent)
            moves.push_back({names[nodes[i].robot], nodes[i].dir});
        return std::vector<Step>(moves.rbegin(), moves.rend());
    };
    size_t begin = 0, end = 1;
    for (int depth = 0; depth < 40 && begin < end; depth++) {
        // The last move of a shortest solution is one of a goal robot's: try those first.
        for (size_t i = begin; i < end; i++) {
            unpack(nodes[i].key, cells, counts);
            for (size_t g = 0; g < goal.size(); g++) {
                if (counts[g] < 1) continue;  // it would have moved once only
                for (int d = 0; d < 4; d++)
                    if (board.slide(cells, names, goal[g], d) == target)
                        return path(static_cast<int64_t>(i), static_cast<int>(goal[g]), d);
            }
        }
        // Otherwise, every position one move further.
        for (size_t i = begin; i < end; i++) {
            if (i % 1024 == 0 && std::chrono::steady_clock::now() > deadline) return {};
            unpack(nodes[i].key, cells, counts);
            for (size_t r = 0; r < names.size(); r++)
                for (int d = 0; d < 4; d++) {
                    int stop = board.slide(cells, names, r, d);
                    if (stop < 0) continue;
                    int was = cells[r];
                    cells[r] = stop;
                    for (size_t g = 0; g < goal.size(); g++)
                        next_counts[g] = std::min(counts[g] + (goal[g] == r ? 1 : 0), 2);
                    uint64_t key = pack(cells, next_counts);
                    cells[r] = was;
                    if (!seen.insert(key).second) continue;
                    if (nodes.size() >= MAX_NODES) return {};
                    nodes.push_back({key, static_cast<int64_t>(i), static_cast<int>(r), d});
                }
        }
        begin = end;
        end = nodes.size();
    }
    return {};
}

class RobotsPlayer {
public:
    RobotsPlayer() = default;
    explicit RobotsPlayer(const json::Value& options)
        : solo_(options["players"].num() == 1),
          // Another seat may turn the hourglass at once: declare well before it can run out.
          think_ms_(static_cast<long>(options["hourglass_ms"].num(60000) * THINK_SHARE)) {
        log("robots: searching at most ", think_ms_, " ms a token (hourglass ",
            options["hourglass_ms"].num(60000), " ms)");
    }

    void start(const json::Value& msg) {
        const json::Value& state = msg["state"];
        // STRATEGY: a better search (or declaring early and lowering later) goes here.
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(think_ms_);
        solution_ = solve_robots(RobotsBoard(state["board"]), state, deadline);
        log("round ", msg["round"].num(), ": ", state["token"].str(), " at ",
            state["target"].str(), ": ", solution_.size(), " moves (0: none found)");
        if (!solution_.empty())
            send("{\"type\":\"declare\",\"moves\":" + std::to_string(solution_.size()) + "}");
        if (solution_.empty() || !solo_) send("{\"type\":\"pass\"}");  // done declaring
    }

    void prove(const json::Value& msg) {
        std::string line = "{\"type\":\"solution\",\"moves\":[";
        for (size_t i = 0; i < solution_.size(); i++)
            line += std::string(i ? "," : "") + "{\"robot\":\"" + solution_[i].robot +
                    "\",\"dir\":\"" + DIR_NAMES[solution_[i].dir] + "\"}";
        send(line + "],\"turn_id\":" + std::to_string(static_cast<long long>(msg["turn_id"].num())) + "}");
    }

private:
    bool solo_ = false;  // alone, a declaration is verified at once: no pass after it
    long think_ms_ = 0;  // how long the search may run per token
    std::vector<Step> solution_;
};

// -------------------------------------------------------------------------------------------
// Any other game (Goofspiel, Rollerball, ...): every decision is a `turn` with a `legal` list.
// -------------------------------------------------------------------------------------------

class AnyGamePlayer {
public:
    void turn(const json::Value& msg) {
        turn_ = msg;
        untried_ = msg["legal"].items();
        answer();
    }

    void illegal(const json::Value& msg) {
        log("refused: ", msg["reason"].str());
        answer();
    }

private:
    json::Value turn_;
    std::vector<json::Value> untried_;

    // STRATEGY: the place for your own play. `state` is the game's state (its "phase" names
    // the decision), `legal` every move the rules accept now (not tried yet). This takes the
    // first; returns its index.
    size_t choose(const json::Value& state, const std::vector<json::Value>& legal) {
        (void)state;
        (void)legal;
        return 0;
    }

    void answer() {
        if (untried_.empty()) {
            log("no legal move left to send");
            return;
        }
        size_t i = choose(turn_["state"], untried_);
        std::string move = untried_[i].dump();
        untried_.erase(untried_.begin() + static_cast<long>(i));  // refused: another next
        send("{\"type\":\"move\",\"move\":" + move + ",\"turn_id\":" +
             std::to_string(static_cast<long long>(turn_["turn_id"].num())) + "}");
    }
};

}  // namespace

int main() {
    std::ios::sync_with_stdio(false);
    std::string game;
    Bot bot;  // Rolit
    RobotsPlayer robots;
    AnyGamePlayer any;
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
        if (type == "bye") break;
        if (type == "hello") {
            game = msg["game"].str();
            const json::Value& o = msg["options"];
            log("hello: ", game, ", seat ", msg["seat"].num(), ", ", o["players"].num(), " players");
            if (game == "robots") robots = RobotsPlayer(o);
            send(std::string("{\"type\":\"ready\",\"name\":\"") + NAME + "\",\"version\":\"" +
                 VERSION + "\",\"author\":\"rollarena starter kit\"}");
        } else if (game == "robots") {
            if (type == "start") robots.start(msg);
            else if (type == "prove") robots.prove(msg);
            // declared, passed, verified, end: nothing to answer
        } else if (game != "rolit") {
            if (type == "turn") any.turn(msg);
            else if (type == "illegal") any.illegal(msg);
        } else if (type == "start") bot.start(msg);
        else if (type == "turn") bot.turn(msg);
        else if (type == "illegal") bot.illegal(msg);
        else if (type == "played") bot.played(msg);
        else if (type == "end") log("round ", msg["round"].num(), " over");
        else if (type == "bye") break;
        // types this bot does not know are skipped
    }
    return 0;
}
