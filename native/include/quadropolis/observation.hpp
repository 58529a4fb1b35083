// The RL observation and action mask (quadropolis.envs.encoder / actions), written straight
// into caller-provided float32 and int8 buffers. The layout is not hard-coded here: the Python
// package (envs/layout.py, the one description of it) hands its offsets and byte blocks to
// Encoding once, so the native encoder cannot drift from the Python one
// (tests/native/test_observation.py compares them).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "quadropolis/game.hpp"

namespace quadropolis {

// Offsets of the observation's parts (envs/layout.py LAYOUT), in this order.
enum Part : int {
    PART_SIZE,            // the whole vector (OBSERVATION_SIZE)
    PART_ROUND,           // the round block's start (the static block ends here)
    PART_TURN,            // the round block's end
    PART_PHASE,
    PART_SITE_TILE,
    PART_SITE_FACE_DOWN,
    PART_URBANIST,
    PART_SLOT_USED,
    PART_SLOT_BLOCKED,
    PART_HAND_TILE,
    PART_HAND_ARCHITECT,
    PART_SEAT_PRESENT,
    PART_SEAT_TO_MOVE,
    PART_SEAT_MAYOR,
    PART_SEAT_STARTER,
    PART_ARCHITECTS_USED,
    PART_CITY,
    PART_INHABITANTS,
    PART_ENERGY,
    PART_POOL,
    PART_CITY_FEATURES,   // features per city square (17)
    PART_KINDS,           // tile kinds (21)
    PART_PARK_TYPE,       // the BuildingType value of a park (its tree feature)
    PART_COUNT
};

constexpr int TILE_LIMIT = 256;  // room for the manifest's tile ids

struct Encoding {
    int part[PART_COUNT];
    // [mode][players - 2][square variant][all parks absorb]: part[PART_ROUND] bytes each.
    std::vector<uint8_t> static_blocks;
    // [mode][players - 2][round - 1] (5 rounds): part[PART_TURN] - part[PART_ROUND] bytes each.
    std::vector<uint8_t> round_blocks;
    uint8_t kind_of_tile[TILE_LIMIT];
    int tile_count;
    // What an observation is multiplied by under normalize=True (1 / its bound), one a value.
    std::vector<float> scale;
};

// Checks the tables handed over (sizes, offsets in range and in order, every part inside the
// vector): false with `error` set otherwise. Encoding functions assume a checked Encoding.
bool check_encoding(const Encoding& e, std::string& error);

// The observation of `s` by seat `observer` (0 to players - 1), as Encoder.encode gives it:
// e.part[PART_SIZE] floats, multiplied by e.scale when `normalize`.
void encode(const Encoding& e, const State& s, int observer, bool normalize, float* out);

// The action mask (actions.action_mask): 1 for each legal move number, all zeros once the
// game is over. MOVE_COUNT entries.
void action_mask(const State& s, int8_t* out);

}  // namespace quadropolis
