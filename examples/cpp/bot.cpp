// A bot for every rollarena game: the C++ starter kit.
//
// It reads one JSON message per line on stdin and answers on stdout, one JSON message per
// line, flushed at once, and logs to stderr (stdout belongs to the arbiter). It plays the game
// `hello.game` names:
// - "rolit": it keeps the board it is sent (from `start` and `turn`, updated by `played`) and
//   plays the move that turns the most balls weighted by the tactical value of the square;
// - "robots" (Rock'n'Roll Robot): at `start` it searches breadth-first for a shortest
//   solution, declares it, passes, and shows the moves when asked to `prove`;
// - "goofspiel": it bids the card that ranks in its hand where the prize ranks among the prizes
//   left (goofspiel_choose);
// - "rollerball": its base on the track the fewest other bases share, every card it lays
//   leading balls to that track, every reward laid as a victory point (rollerball_choose);
// - any other game: it answers each `turn` with the first move of its `legal` list.
//
// Build: g++ -O2 -std=c++17 -o bot bot.cpp
// Check: rollarena check ./bot        (add --game GAME: robots, goofspiel, rollerball)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
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
// Goofspiel (`hello.game` "goofspiel"): protocol/games/goofspiel.md. Every turn is a sealed
// bid for the prize on show, answered with one card of the hand.
// -------------------------------------------------------------------------------------------

using Moves = std::vector<std::string>;

// Bid the card that stands among my cards where the prize stands among the prizes still to be
// won: the top card for the top prize, the lowest card for the lowest, so the high cards are
// kept for the high prizes. (At the start the hand and the prizes are both 1 to N, so this
// bids the prize's own value.)
std::string goofspiel_choose(const json::Value& state, const Moves& legal) {
    // STRATEGY: the place for your Goofspiel play: `state.history` has every bid so far.
    std::vector<double> prizes{state["prize"].num()};
    for (const json::Value& p : state["prizes_left"].items()) prizes.push_back(p.num());
    std::sort(prizes.begin(), prizes.end());
    Moves hand = legal;
    std::sort(hand.begin(), hand.end(),
              [](const std::string& a, const std::string& b) { return std::stoi(a) < std::stoi(b); });
    // 0 for the lowest prize still to be won
    size_t rank = static_cast<size_t>(
        std::find(prizes.begin(), prizes.end(), state["prize"].num()) - prizes.begin());
    return hand[rank * hand.size() / prizes.size()];
}

// -------------------------------------------------------------------------------------------
// Rollerball (`hello.game` "rollerball"): protocol/games/rollerball.md. A ball that enters a
// player's base earns that player a card, which this bot always lays as a victory point (five
// win). So the bot puts its base on the track the fewest other bases share, and then every
// diversion card it lays leads balls towards that track; the workman waits on its own base,
// where no ball can hit it, and walks out to build such a card while a ball rolls on another
// track.
// -------------------------------------------------------------------------------------------

const Moves MOVES{"DM", "UM"};      // a Move card sends every ball leaving s1 across to s2
const Moves SPLITTERS{"SD", "SU"};  // a Splitter sends a new ball across to s2, the ball goes on

bool contains(const Moves& list, const std::string& word) {
    return std::find(list.begin(), list.end(), word) != list.end();
}

// The words of a move: "place DM c8 c7" -> {"place", "DM", "c8", "c7", ""} (at least five).
Moves words_of(const std::string& move) {
    Moves words;
    std::istringstream in(move);
    for (std::string word; in >> word;) words.push_back(word);
    words.resize(std::max<size_t>(words.size(), 5));
    return words;
}

// The position of `square` in a track's list of squares, or -1.
int index_in(const json::Value& squares, const std::string& square) {
    const auto& items = squares.items();
    for (size_t i = 0; i < items.size(); i++)
        if (items[i].str() == square) return static_cast<int>(i);
    return -1;
}

// 1 (outer), 2 or 3 (inner): the track `square` belongs to (`state.tracks` lists them).
int track_of(const json::Value& state, const std::string& square) {
    const auto& tracks = state["tracks"].items();
    for (size_t t = 0; t < tracks.size(); t++)
        if (index_in(tracks[t], square) >= 0) return static_cast<int>(t) + 1;
    return 0;
}

// How many tracks closer to mine (the track of my base) a card on s1-s2 brings the balls it
// diverts: positive for a card that leads balls to my base, negative for one that leads them
// away. A Splitter never takes a ball away (the ball goes on, a new one crosses).
int card_gain(const json::Value& state, int mine, const std::string& code, const std::string& s1,
              const std::string& s2) {
    int gain = std::abs(track_of(state, s1) - mine) - std::abs(track_of(state, s2) - mine);
    if (contains(MOVES, code)) return gain;
    if (contains(SPLITTERS, code)) return std::max(gain, 0);
    return 0;  // a ball changer diverts nothing
}

// Squares a ball on `square` rolls along its track to reach `target` (99: never).
int distance_to(const json::Value& state, const std::string& square, const std::string& target) {
    for (const json::Value& squares : state["tracks"].items()) {
        int from = index_in(squares, square), to = index_in(squares, target);
        int length = static_cast<int>(squares.items().size());
        if (from >= 0 && to >= 0) return (to - from + length) % length;
    }
    return 99;
}

// The first of `moves` with the lowest `key` (`moves` in the order of `legal`).
template <typename Key>
std::string first_lowest(const Moves& moves, Key key) {
    std::string best = moves[0];
    for (const std::string& move : moves)
        if (key(move) < key(best)) best = move;
    return best;
}

const Moves CORNERS{"a1", "h1", "b2", "g2", "c3", "f3",
                    "c6", "f6", "b7", "g7", "a8", "h8"};  // no card ever covers a corner

// The squares orthogonally next to `square`.
Moves neighbours(const std::string& square) {
    Moves out;
    int file = square[0], rank = std::stoi(square.substr(1));
    for (auto [df, dr] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}})
        if (file + df >= 'a' && file + df <= 'h' && rank + dr >= 1 && rank + dr <= 8)
            out.push_back(std::string(1, static_cast<char>(file + df)) + std::to_string(rank + dr));
    return out;
}

// The most a Move or Splitter card of my hand would gain (card_gain) built on a slot that
// includes `square`, 0 if none: a slot of a track changer is two orthogonally adjacent squares
// of adjacent tracks, neither a corner, and a build needs both free of balls, cards, bases and
// the other players' workmen.
int build_gain(const json::Value& state, int mine, const std::string& square) {
    const auto& players = state["players"].items();
    size_t seat = static_cast<size_t>(state["seat"].num());
    std::set<std::string> blocked(CORNERS.begin(), CORNERS.end());
    for (const json::Value& ball : state["balls"].items()) blocked.insert(ball["at"].str());
    for (const json::Value& card : state["cards"].items())
        for (const json::Value& sq : card["at"].items()) blocked.insert(sq.str());
    for (size_t p = 0; p < players.size(); p++) {
        blocked.insert(players[p]["base"].str());
        if (p != seat) blocked.insert(players[p]["workman"].str());
    }
    int best = 0;
    for (const std::string& other : neighbours(square)) {
        bool swap = track_of(state, other) < track_of(state, square);
        const std::string& outer = swap ? other : square;
        const std::string& inner = swap ? square : other;
        if (blocked.count(square) || blocked.count(other)) continue;
        if (track_of(state, inner) != track_of(state, outer) + 1) continue;  // or the logo
        for (const json::Value& card : state["hand"].items()) {
            const std::string& code = card.str();
            // DM and SD lie from the outer square to the inner one, UM and SU the other way.
            bool down = code == "DM" || code == "SD";
            const std::string& s1 = down ? outer : inner;
            const std::string& s2 = down ? inner : outer;
            best = std::max(best, card_gain(state, mine, code, s1, s2));
        }
    }
    return best;
}

// One decision of Rollerball: `state.phase` names it (the rules' section "Decisions and
// notation" lists each phase's moves).
std::string rollerball_choose(const json::Value& state, const Moves& legal) {
    // STRATEGY: the place for your Rollerball play; each phase below is a simple rule.
    const std::string& phase = state["phase"].str();
    const auto& players = state["players"].items();
    const json::Value& me = players.at(static_cast<size_t>(state["seat"].num()));
    const std::string& base = me["base"].str();  // "" before it is placed
    auto square = [](const std::string& move) { return words_of(move)[1]; };
    if (phase == "base") {
        // The base track (1 or 2) the fewest other bases stand on, the shorter one (2) on a
        // tie: a ball on it comes back to my base every 10 turns.
        return first_lowest(legal, [&](const std::string& m) {
            int track = track_of(state, square(m)), crowding = -track;
            for (const json::Value& p : players)
                if (!p["base"].str().empty() && track_of(state, p["base"].str()) == track)
                    crowding += 10;
            return crowding;
        });
    }
    int mine = base.empty() ? 0 : track_of(state, base);
    // On a base square no ball can hit the workman.
    if (phase == "workman" && contains(legal, "workman " + base)) return "workman " + base;
    if (phase == "ball") {
        // As near before my base as the rules allow: it scores in the first turn.
        auto distance = [&](const std::string& m) { return distance_to(state, square(m), base); };
        return first_lowest(legal, distance);
    }
    if (phase == "reward") {
        // Always a victory point: from the deck (`vp`), else a card off the board, the one
        // that leads balls away from my base first.
        if (contains(legal, "vp")) return "vp";
        Moves takes;
        for (const std::string& m : legal)
            if (words_of(m)[0] == "take" && words_of(m)[2] == "vp") takes.push_back(m);
        if (takes.empty()) return legal[0];
        return first_lowest(takes, [&](const std::string& m) {
            for (const json::Value& card : state["cards"].items()) {
                const auto& at = card["at"].items();
                if (index_in(card["at"], square(m)) >= 0)
                    return card_gain(state, mine, card["card"].str(), at[0].str(), at[1].str());
            }
            return 0;
        });
    }
    if (phase == "card" || phase == "use") {
        // The card that brings balls nearest my track (`pass` or `none` if none brings any).
        std::string best = legal[0];
        int best_gain = 0;
        for (const std::string& move : legal) {
            Moves w = words_of(move);
            if (w[0] != "place" && w[0] != "build") continue;
            int gain = card_gain(state, mine, w[1], w[2], w[3]);
            if (gain > best_gain) best = move, best_gain = gain;
        }
        return best;
    }
    if (phase == "discard") {
        // A card that diverts nothing first (ball changers, Replacers), then any.
        for (const std::string& m : legal)
            if (!contains(MOVES, square(m)) && !contains(SPLITTERS, square(m))) return m;
    }
    if (phase == "move") {
        // Away from home, back home. At home, stay while every ball rolls on my track; else
        // walk to the square from which a card of my hand would bring balls nearest (the `use`
        // decision then builds it), or stay if none would.
        if (me["workman"].str() != base) {
            std::string home = "move " + base;
            return contains(legal, home) ? home : legal[0];
        }
        const auto& balls = state["balls"].items();
        auto on_mine = [&](const json::Value& b) { return track_of(state, b["at"].str()) == mine; };
        if (std::all_of(balls.begin(), balls.end(), on_mine)) return legal[0];
        std::string best = legal[0];
        int best_gain = 0;
        for (const std::string& move : legal) {
            Moves w = words_of(move);
            if (w[0] == "move" && build_gain(state, mine, w[1]) > best_gain)
                best = move, best_gain = build_gain(state, mine, w[1]);
        }
        return best;
    }
    // "bid": nothing; "extra" (5 and 6 players): `stay`; anything else: the first.
    return legal[0];
}

// -------------------------------------------------------------------------------------------
// Any game whose every decision is a `turn` with a `legal` list (Goofspiel, Rollerball, ...).
// -------------------------------------------------------------------------------------------

class AnyGamePlayer {
public:
    explicit AnyGamePlayer(const std::string& game = "") : game_(game) {}

    void turn(const json::Value& msg) {
        turn_ = msg;
        untried_.clear();
        for (const json::Value& m : msg["legal"].items()) untried_.push_back(m.str());
        answer();
    }

    void illegal(const json::Value& msg) {
        log("refused: ", msg["reason"].str());
        answer();
    }

private:
    std::string game_;
    json::Value turn_;
    Moves untried_;

    // The game's strategy above, given the legal moves not tried yet; in a game the kit does
    // not know, the first of them.
    std::string choose(const json::Value& state, const Moves& legal) {
        if (game_ == "goofspiel") return goofspiel_choose(state, legal);
        if (game_ == "rollerball") return rollerball_choose(state, legal);
        return legal[0];
    }

    void answer() {
        if (untried_.empty()) {
            log("no legal move left to send");
            return;
        }
        std::string move = choose(turn_["state"], untried_);
        untried_.erase(std::find(untried_.begin(), untried_.end(), move));  // refused: another next
        send("{\"type\":\"move\",\"move\":" + json::Value::quote(move) + ",\"turn_id\":" +
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
            any = AnyGamePlayer(game);
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
