// Exact optimal final scoring of one city (quadropolis.scoring.score_city: the solver of
// scoring_solver, the placement of scoring._placement, the rules of scoring.evaluate), with
// the same enumeration orders, so that ties resolve to the very same placement.
#pragma once
#include <cstdint>

#include "quadropolis/game.hpp"

namespace quadropolis {

constexpr int CATEGORY_COUNT = 10;  // scoring.CATEGORIES, in order

struct City {
    int8_t mode;
    Square squares[MAX_CITY_SQUARES];  // the mode's 16 or 20 squares, row-major
    int32_t inhabitants;               // 0-999 (city.RESOURCE_MAX)
    int32_t energy;                    // 0-999
};

// scoring.Placement; lists are ascending square numbers, `count_*` entries used.
struct Placement {
    int activated_count;
    int8_t activated[MAX_CITY_SQUARES];
    int customers_count;
    int8_t customer_square[MAX_CITY_SQUARES];
    int8_t customers[MAX_CITY_SQUARES];
    int absorbing_count;
    int8_t absorbing_parks[MAX_CITY_SQUARES];
    int removed_count;
    int8_t removed[MAX_CITY_SQUARES];
    int32_t unused_inhabitants;
    int32_t unused_energy;
};

// scoring.CityScore.
struct CityScore {
    int32_t total;
    int32_t breakdown[CATEGORY_COUNT];
    int32_t inhabitants_placed;
    int32_t empty_squares;
    Placement placement;
};

City city_of(const State& s, int player);  // player 0-3 (else seat 0's city)
// Whether `square` can stand in a city of `mode` (city.building_problem, for the native
// encoding: type -1 is an empty square with floors = vp = tree = 0). If not, writes why to
// `why` (room for `size` bytes, NUL-terminated) and returns false.
bool building_ok(const Square& square, int mode, char* why, int size);
// The optimal score of `city`. An invalid city (a square failing building_ok, resources
// outside 0-999) is not scored: returns false with `out` zeroed.
bool score_city(const City& city, bool all_parks_absorb, CityScore& out);

// R13's ranking (outcome.rank_key, outcome.outcome_of), the one native home of it: a scored
// city's key, higher is better (most VP, then most inhabitants placed, then fewest empty
// squares), compared lexicographically.
constexpr int RANK_KEY_SIZE = 3;
using RankKey = int32_t[RANK_KEY_SIZE];
void rank_key(const CityScore& score, RankKey& key);
bool ranks_below(const RankKey& a, const RankKey& b);
// The winners among `players` keyed cities: winner[p] is set for every city whose key equals
// the best one (ties shared); returns how many there are.
int rank_winners(const RankKey* keys, int players, bool* winner);

}  // namespace quadropolis
