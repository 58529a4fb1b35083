#include "quadropolis/game.hpp"

#include <cstdio>
#include <cstring>

#include "quadropolis/tables.hpp"

namespace quadropolis {
namespace {

namespace t = tables;

int designated(int slot, int architect) { return t::DESIGNATED[slot * 6 + architect]; }

// A round's architects: Classic none used by anyone, Expert a pool of `players` of each number.
void return_architects(State& s) {
    std::memset(s.architects, 0, sizeof s.architects);
    if (s.config.mode == EXPERT)
        for (int n = 1; n <= 5; n++) s.architects[n] = static_cast<uint8_t>(s.config.players);
}

// rules._free_slots: slots with no architect and, under R5, not blocked by the urbanist.
uint32_t free_slots(const State& s) {
    uint32_t free = ~s.slots_used & 0xFFFFFu;
    if (s.urbanist >= 0 && !s.config.square_variant) free &= ~t::BLOCKED_SLOTS[s.urbanist];
    return free;
}

// Bit n set when architect #n may go in a slot now (Classic: the mover's unused ones; Expert:
// numbers left in the pool).
unsigned available_architects(const State& s) {
    if (s.config.mode == CLASSIC) return ~static_cast<unsigned>(s.architects[current_player(s)]) & 0b11110u;
    unsigned avail = 0;
    for (int n = 1; n <= 5; n++)
        if (s.architects[n]) avail |= 1u << n;
    return avail;
}

// Geometry.can_stack: a stackable building on one of its own type, below the height limit,
// on a square eligible for the architect or as the floor numbered like the architect (R8/R16).
bool can_stack(const Square& below, int type, int architect, int square, int mode) {
    if (below.type != type) return false;
    const int limit = t::STACK_LIMIT[mode * 8 + type];
    if (limit == 0 || below.floors >= limit) return false;
    return (t::ELIGIBLE[mode * 6 + architect] >> square & 1u) || below.floors + 1 == architect;
}

void take_moves(const State& s, MoveList& out) {
    const uint32_t free = free_slots(s);
    const unsigned avail = available_architects(s);
    const bool square_blocked = s.config.square_variant && s.urbanist >= 0;
    for (int slot = 0; slot < SLOTS; slot++) {
        if (!(free >> slot & 1u)) continue;
        for (int a = 1; a <= 5; a++) {
            if (!(avail >> a & 1u)) continue;
            if (square_blocked && designated(slot, a) == s.urbanist) continue;  // the square variant
            out.moves[out.count++] = static_cast<uint8_t>(slot * 5 + a - 1);
        }
    }
}

void build_moves(const State& s, MoveList& out) {
    const int mode = s.config.mode;
    const int cols = t::CITY_COLS[mode], size = t::CITY_SIZE[mode];
    const int a = s.pending_architect;
    const int type = t::TILE_TYPE[s.pending_tile];
    const uint32_t eligible = t::ELIGIBLE[mode * 6 + a];
    const Square* city = s.cities[current_player(s)];
    for (int q = 0; q < size; q++) {
        const bool ok = city[q].type < 0 ? (eligible >> q & 1u) != 0 : can_stack(city[q], type, a, q, mode);
        if (ok) out.moves[out.count++] = static_cast<uint8_t>(FIRST_BUILD_MOVE + (q / cols) * 5 + q % cols);
    }
    out.moves[out.count++] = DISCARD_MOVE;
}

// rules._next_action: the next player, turn or round (R10), or the end of the game.
void next_action(State& s) {
    s.phase = TAKE;
    const int n = s.config.players;
    if (++s.position < n) return;
    if (s.turn < t::TURNS_PER_ROUND) {
        s.position = 0;
        s.turn++;
        return;
    }
    if (s.round == t::ROUNDS[s.config.mode]) {
        s.position = static_cast<int8_t>(n - 1);
        s.phase = OVER;
        return;
    }
    s.round++;
    s.turn = 1;
    s.position = 0;
    s.starter = s.mayor;
    lay_out(s.config, s.round, s.site, &s.face_down);
    s.slots_used = 0;
    s.urbanist = -1;
    return_architects(s);
}

void take(State& s, int move) {
    const int player = current_player(s);
    const int slot = move / 5, a = move % 5 + 1;
    s.slots_used |= 1u << slot;
    if (s.config.mode == CLASSIC)
        s.architects[player] = static_cast<uint8_t>(s.architects[player] | (1u << a));
    else
        s.architects[a]--;
    const int q = designated(slot, a);
    s.urbanist = static_cast<int8_t>(q);
    const int tile = s.site[q];
    if (tile >= 0 && !(s.face_down >> q & 1u)) {
        s.site[q] = -1;
        s.pending_tile = static_cast<int16_t>(tile);
        s.pending_architect = static_cast<int8_t>(a);
        s.phase = PLACE;
        return;
    }
    next_action(s);  // R4/R6: an empty or face-down square gives nothing
}

void build(State& s, int move) {
    const int player = current_player(s);
    const int tile = s.pending_tile;
    const int k = move - FIRST_BUILD_MOVE;
    const int q = (k / 5) * t::CITY_COLS[s.config.mode] + k % 5;
    Square& square = s.cities[player][q];
    if (square.type < 0) {
        square = Square{t::TILE_TYPE[tile], 1, t::TILE_VP[tile], t::TILE_TREE[tile]};
    } else {
        square.floors++;
        square.vp = static_cast<int8_t>(square.vp + t::TILE_VP[tile]);
    }
    const int8_t* gain = t::TILE_GAIN + (s.config.all_parks_absorb ? t::TILE_COUNT * 2 : 0) + tile * 2;
    s.inhabitants[player] += gain[0];  // R11, or the §6 variant
    s.energy[player] += gain[1];
    if (t::TILE_MAYOR[tile]) s.mayor = static_cast<int8_t>(player);  // R10: building it, not taking it
}

}  // namespace

namespace {

// The round layouts of the last game configuration seen (per thread): a layout depends on
// (seed, mode, players, round) alone, so a playout's later rounds cost a copy. Rounds drawn
// together have their string-seeded generators set up in lockstep (Random::seed_texts).
struct Layouts {
    bool valid = false;
    int64_t seed = 0;
    int mode = 0, players = 0;
    uint32_t drawn = 0;  // bit (round - 1): that round's layout is here
    int16_t site[t::MAX_ROUNDS][SITE_SQUARES];
    uint32_t face_down[t::MAX_ROUNDS];
};

// Draws the rounds of bitmask `rounds` (bit round - 1) into `out`.
void draw_layouts(const Config& config, uint32_t rounds, Layouts& out) {
    char texts[t::MAX_ROUNDS][48];  // "quadropolis/" + at most 20 characters of seed + "/" + round
    const char* text_of[t::MAX_ROUNDS] = {};
    size_t lengths[t::MAX_ROUNDS] = {};
    int round_of[t::MAX_ROUNDS] = {};
    int count = 0;
    for (int r = 0; r < t::ROUNDS[config.mode]; r++) {
        if (!(rounds >> r & 1u)) continue;
        const int n = std::snprintf(texts[count], sizeof texts[count], "quadropolis/%lld/%d", static_cast<long long>(config.seed), r + 1);
        text_of[count] = texts[count];
        lengths[count] = static_cast<size_t>(n);
        round_of[count++] = r;
    }
    if (count == 0) return;
    Random rng[t::MAX_ROUNDS];
    Random::seed_texts(rng, text_of, lengths, count);
    for (int g = 0; g < count; g++) {
        const int r = round_of[g];
        int16_t* site = out.site[r];
        const int16_t* ids = t::ROUND_TILES + (config.mode * t::MAX_ROUNDS + r) * SITE_SQUARES;
        for (int q = 0; q < SITE_SQUARES; q++) site[q] = ids[q];
        // The engine's own Fisher-Yates shuffle: one float per swap (state.lay_out).
        for (int i = SITE_SQUARES - 1; i > 0; i--) {
            const int j = static_cast<int>(rng[g].random() * (i + 1));
            const int16_t tile = site[i];
            site[i] = site[j];
            site[j] = tile;
        }
        uint32_t hidden = 0;
        for (int q = 0; q < SITE_SQUARES; q++)
            if (t::TILE_MIN_PLAYERS[site[q]] > config.players) hidden |= 1u << q;  // R4
        out.face_down[r] = hidden;
        out.drawn |= 1u << r;
    }
}

// Which rounds to draw when `round` is missing: a new game (round 1: a playout will want them
// all) or a second miss draws every round still missing, in lockstep; the first miss of a
// seed after round 1 draws that round alone (a search's rollout from a freshly sampled seed
// usually stops in the next round: five generators would cost five times one).
uint32_t rounds_to_draw(const Layouts& cache, int round, int rounds) {
    const uint32_t all = (1u << rounds) - 1;
    if (round == 1 || cache.drawn != 0) return all & ~cache.drawn & ~((1u << (round - 1)) - 1);
    return 1u << (round - 1);
}

}  // namespace

void lay_out(const Config& config, int round, int16_t site[SITE_SQUARES], uint32_t* face_down) {
    thread_local Layouts last;
    if (config.mode < 0 || config.mode > 1 || round < 1 || round > t::ROUNDS[config.mode]) {
        for (int q = 0; q < SITE_SQUARES; q++) site[q] = -1;  // no such round: an empty site
        *face_down = 0;
        return;
    }
    if (!last.valid || last.seed != config.seed || last.mode != config.mode || last.players != config.players) {
        last.valid = true;
        last.seed = config.seed;
        last.mode = config.mode;
        last.players = config.players;
        last.drawn = 0;
    }
    if (!(last.drawn >> (round - 1) & 1u)) draw_layouts(config, rounds_to_draw(last, round, t::ROUNDS[config.mode]), last);
    std::memcpy(site, last.site[round - 1], sizeof last.site[round - 1]);
    *face_down = last.face_down[round - 1];
}

State new_state(const Config& config) {
    State s;
    std::memset(&s, 0, sizeof s);
    s.config = config;
    s.round = 1;
    s.turn = 1;
    s.position = 0;
    s.starter = s.mayor = config.first_player;
    s.phase = TAKE;
    s.pending_tile = -1;
    s.pending_architect = 0;
    lay_out(config, 1, s.site, &s.face_down);
    s.slots_used = 0;
    s.urbanist = -1;
    return_architects(s);
    for (auto& city : s.cities)
        for (Square& q : city) q = Square{-1, 0, 0, 0};
    return s;
}

void legal_moves(const State& s, MoveList& out) {
    out.count = 0;
    if (s.phase == TAKE)
        take_moves(s, out);
    else if (s.phase == PLACE)
        build_moves(s, out);
}

bool is_legal(const State& s, int move) {
    MoveList legal;
    legal_moves(s, legal);
    for (int i = 0; i < legal.count; i++)
        if (legal.moves[i] == move) return true;
    return false;
}

bool apply(State& s, int move) {
    if (!is_legal(s, move)) return false;
    do_apply(s, move);
    return true;
}

void do_apply(State& s, int move) {
    // Not a legality check (that is apply's), only what keeps every index in bounds whatever
    // the caller passes: a move of the wrong phase is ignored.
    if (move < 0 || move >= MOVE_COUNT) return;
    if (move < FIRST_BUILD_MOVE ? s.phase != TAKE : s.phase != PLACE || s.pending_tile < 0) return;
    if (move < FIRST_BUILD_MOVE) {
        take(s, move);
        return;
    }
    if (move < DISCARD_MOVE) build(s, move);
    s.pending_tile = -1;
    s.pending_architect = 0;
    next_action(s);
}

namespace {

// The square of the j-th set bit of `bits` (j < popcount(bits)).
int nth_bit(uint32_t bits, int j) {
    for (; j > 0; j--) bits &= bits - 1;
    return __builtin_ctz(bits);
}

// legal[int(random() * len(legal))] of playout.random_playout. Under R5 (the lines rule) the
// takes are every free slot x every available architect, slot-major, so the k-th is found
// from the two bitmasks without listing the moves (the same move, the same single draw).
int random_move(const State& s, Random& rng, MoveList& scratch) {
    if (s.phase == TAKE && !(s.config.square_variant && s.urbanist >= 0)) {
        const uint32_t free = free_slots(s);
        const uint32_t avail = available_architects(s);
        const int architects = __builtin_popcount(avail);
        const int n = __builtin_popcount(free) * architects;
        if (n == 0) return -1;
        const int k = static_cast<int>(rng.random() * n);
        return nth_bit(free, k / architects) * 5 + nth_bit(avail, k % architects) - 1;
    }
    legal_moves(s, scratch);
    if (scratch.count == 0) return -1;
    return scratch.moves[static_cast<int>(rng.random() * scratch.count)];
}

}  // namespace

int random_playout(State& s, Random& rng, uint8_t played[MAX_GAME_MOVES]) {
    int count = 0;
    MoveList scratch;
    while (s.phase != OVER && count < MAX_GAME_MOVES) {
        const int move = random_move(s, rng, scratch);
        if (move < 0) break;  // no legal move: cannot happen in a valid state
        played[count++] = static_cast<uint8_t>(move);
        do_apply(s, move);
    }
    return count;
}

}  // namespace quadropolis
