#include "quadropolis/bots/greedy.hpp"

#include <cstring>

#include "quadropolis/scoring.hpp"
#include "quadropolis/tables.hpp"

namespace quadropolis {
namespace {

namespace t = tables;

// GreedyBot._city_key: R13's ranking of the player's city as it stands.
void city_key(const State& s, int player, int32_t* key) {
    CityScore score;
    score_city(city_of(s, player), s.config.all_parks_absorb, score);
    RankKey rank;
    rank_key(score, rank);
    for (int k = 0; k < RANK_KEY_SIZE; k++) key[k] = rank[k];
}

// GreedyBot._after: the value of playing `move` (a build or discard) in `s`.
void after(const State& s, int move, int player, int32_t* value) {
    State next = s;
    do_apply(next, move);
    city_key(next, player, value);
    value[3] = move < DISCARD_MOVE && move >= FIRST_BUILD_MOVE ? 1 : 0;
    value[4] = next.inhabitants[player] + next.energy[player];
}

bool less(const int32_t* a, const int32_t* b) {
    for (int k = 0; k < GREEDY_VALUE_SIZE; k++)
        if (a[k] != b[k]) return a[k] < b[k];
    return false;
}

// GreedyBot._take_value: the best build (or discard) of what the take takes; taking nothing
// is worth the city as it stands, below any equal build (built = -1).
void take_value(const State& s, int take, int player, int32_t* value) {
    State next = s;
    do_apply(next, take);
    if (next.phase != PLACE || current_player(next) != player) {
        city_key(s, player, value);
        value[3] = -1;
        value[4] = s.inhabitants[player] + s.energy[player];
        return;
    }
    MoveList builds;
    legal_moves(next, builds);
    int32_t candidate[GREEDY_VALUE_SIZE];
    for (int i = 0; i < builds.count; i++) {
        after(next, builds.moves[i], player, candidate);
        if (i == 0 || less(value, candidate)) std::memcpy(value, candidate, sizeof candidate);
    }
}

}  // namespace

void greedy_values(const State& s, GreedyValues& out) {
    MoveList legal;
    legal_moves(s, legal);
    out.count = legal.count;
    const int player = current_player(s);
    if (s.phase == PLACE) {
        for (int i = 0; i < legal.count; i++) {
            out.entries[i].move = legal.moves[i];
            after(s, legal.moves[i], player, out.entries[i].value);
        }
        return;
    }
    // The bot's cache: a take's value depends only on (tile taken or -1, architect).
    constexpr int NOTHING = t::TILE_COUNT;  // cache row for "takes nothing"
    static_assert(t::TILE_COUNT < 255, "cache index");
    bool known[t::TILE_COUNT + 1][6] = {};
    int32_t cached[t::TILE_COUNT + 1][6][GREEDY_VALUE_SIZE];
    for (int i = 0; i < legal.count; i++) {
        const int move = legal.moves[i];
        const int slot = move / 5, a = move % 5 + 1;
        const int q = t::DESIGNATED[slot * 6 + a];
        const int tile = s.site[q];
        const int taken = tile < 0 || (s.face_down >> q & 1u) ? NOTHING : tile;
        if (!known[taken][a]) {
            take_value(s, move, player, cached[taken][a]);
            known[taken][a] = true;
        }
        out.entries[i].move = move;
        std::memcpy(out.entries[i].value, cached[taken][a], sizeof cached[taken][a]);
    }
}

}  // namespace quadropolis
