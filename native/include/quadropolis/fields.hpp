// The State as a flat tuple of integers (the binding's exchange format; docs/native.md,
// "Data layout", is the one description). state_from_fields validates completely: every
// range and every cross-field invariant of GameState.from_json, so that any State it makes
// is one the engine can play from without reading out of bounds.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "quadropolis/game.hpp"
#include "quadropolis/scoring.hpp"

namespace quadropolis::fields {

constexpr int ABI = 1;  // bump on any change of the layout below

// Offsets into the tuple.
constexpr int MODE = 0, PLAYERS = 1, SEED = 2, FIRST_PLAYER = 3, SQUARE_VARIANT = 4, ALL_PARKS_ABSORB = 5;
constexpr int ROUND = 6, TURN = 7, POSITION = 8, STARTER = 9, MAYOR = 10, PHASE = 11;
constexpr int PENDING_TILE = 12, PENDING_ARCHITECT = 13;
constexpr int SITE = 14;  // 25 tile ids, -1 empty
constexpr int FACE_DOWN = 39, SLOTS_USED = 40, URBANIST = 41;
constexpr int ARCHITECTS = 42;  // 6 entries, as State::architects
constexpr int CITIES = 48;      // [player 0-3][square 0-19][type, floors, vp, tree]
constexpr int INHABITANTS = CITIES + MAX_PLAYERS * MAX_CITY_SQUARES * 4;  // 368: 4 entries
constexpr int ENERGY = INHABITANTS + MAX_PLAYERS;                          // 372: 4 entries
constexpr int COUNT = ENERGY + MAX_PLAYERS;                                // 376

const char* name_of(int index);  // "round", "site[3]", "cities[1][4].floors", ...

void to_fields(const State& s, int64_t out[COUNT]);
// false with `error` set (one line, naming the field and the rule) if the tuple is not a
// state a game can reach.
bool from_fields(const int64_t* in, size_t count, State& out, std::string& error);
// A city for score_city: `cells` = 4 per square of the mode. false with `error` if invalid.
bool city_from_cells(int64_t mode, const int64_t* cells, size_t count, int64_t inhabitants, int64_t energy,
                     City& out, std::string& error);

}  // namespace quadropolis::fields
