// The game: one flat, trivially copyable State (copy it with = or memcpy: search copies it a
// lot), legal moves as move numbers in the Python engine's order (quadropolis.moves: take =
// slot * 5 + architect - 1, build = 100 + (row - 1) * 5 + col - 1, discard = 120), apply, the
// seeded round layouts and uniformly random playouts. No allocation anywhere.
#pragma once
#include <cstdint>
#include <type_traits>

#include "quadropolis/random.hpp"

namespace quadropolis {

constexpr int MAX_PLAYERS = 4;
constexpr int MAX_CITY_SQUARES = 20;  // Expert: 4 x 5; Classic uses the first 16
constexpr int SITE_SQUARES = 25;      // the construction site, 5 x 5, row-major
constexpr int SLOTS = 20;             // T1-T5, B1-B5, L1-L5, R1-R5 (R1)
constexpr int MAX_LEGAL = 101;        // 20 slots x 5 architects, or 20 builds + discard
constexpr int MAX_GAME_MOVES = 160;   // 5 rounds x 4 turns x 4 players x (take + build)
constexpr int FIRST_BUILD_MOVE = 100;
constexpr int DISCARD_MOVE = 120;
constexpr int MOVE_COUNT = 121;

enum Phase : int8_t { TAKE = 0, PLACE = 1, OVER = 2 };  // quadropolis.phases
enum Mode : int8_t { CLASSIC = 0, EXPERT = 1 };

struct Config {
    int64_t seed;
    int8_t mode;           // Mode
    int8_t players;        // 2-4
    int8_t first_player;   // seat holding the mayor in round 1
    bool square_variant;   // urbanist_blocks == "square" (docs/rules.md §6); false: R5's lines
    bool all_parks_absorb; // §6 variant
};

// One city square: type -1 is an empty square (and then floors = vp = tree = 0).
struct Square {
    int8_t type;    // BuildingType value 0-7
    int8_t floors;  // 1-5
    int8_t vp;      // printed VP of the stack
    int8_t tree;    // 1: a tree park
};

// quadropolis.state.GameState, field for field.
struct State {
    Config config;
    int8_t round, turn, position, starter, mayor;
    int8_t phase;              // Phase
    int16_t pending_tile;      // tile id taken, -1 outside PLACE
    int8_t pending_architect;  // 1-5 in PLACE, else 0
    int8_t urbanist;           // site square, -1 off the board
    int16_t site[SITE_SQUARES];  // tile id per site square, -1 empty
    uint32_t face_down;        // bit per site square (R4)
    uint32_t slots_used;       // bit per slot (R1)
    // Classic: architects[p] = bitmask of architect numbers (bits 1-4) player p used this
    // round (entries 4-5 unused, 0). Expert: architects[n] = architects #n left in the shared
    // pool (index 0 unused, 0).
    uint8_t architects[6];
    Square cities[MAX_PLAYERS][MAX_CITY_SQUARES];  // players beyond `players`: all empty
    int32_t inhabitants[MAX_PLAYERS];
    int32_t energy[MAX_PLAYERS];
};
static_assert(std::is_trivially_copyable<State>::value, "State is copied with memcpy");

struct MoveList {
    int count;
    uint8_t moves[MAX_LEGAL];
};

inline int current_player(const State& s) { return (s.starter + s.position) % s.config.players; }
inline bool is_over(const State& s) { return s.phase == OVER; }

// The construction site at the start of round `round` (lay_out): a Fisher-Yates shuffle of the
// round's tiles driven by random.Random("quadropolis/SEED/ROUND").
void lay_out(const Config& config, int round, int16_t site[SITE_SQUARES], uint32_t* face_down);
// The state at the start of round 1 (state.new_state).
State new_state(const Config& config);
// rules.legal_move_numbers: ascending move numbers; empty once the game is over.
void legal_moves(const State& s, MoveList& out);
bool is_legal(const State& s, int move);
// Checked entry point: false (state untouched) if `move` is not legal in `s`.
bool apply(State& s, int move);
// rules.apply_unchecked: `move` must be legal in `s`.
void do_apply(State& s, int move);
// playout.random_playout from `s`: legal[int(random() * n)] until the game is over. Writes
// the moves played to `played` (room for MAX_GAME_MOVES) and returns their count.
int random_playout(State& s, Random& rng, uint8_t played[MAX_GAME_MOVES]);

}  // namespace quadropolis
