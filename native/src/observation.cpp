#include "quadropolis/observation.hpp"

#include <cstring>

#include "quadropolis/tables.hpp"

namespace quadropolis {
namespace {

namespace t = tables;

constexpr int STATIC_BLOCKS = 2 * 3 * 2 * 2;  // mode x players x square variant x all parks absorb
constexpr int ROUND_BLOCKS = 2 * 3 * 5;       // mode x players x round

int mod(int a, int n) { return ((a % n) + n) % n; }

// The parts the Python encoder writes for each building (tables._building_features).
void write_city(const Encoding& e, const State& s, int observer, float* out) {
    const int n = s.config.players, mode = s.config.mode;
    const int cols = t::CITY_COLS[mode], size = t::CITY_SIZE[mode];
    const int features = e.part[PART_CITY_FEATURES];
    for (int r = 0; r < n; r++) {
        const int p = (observer + r) % n;
        float* city = out + e.part[PART_CITY] + r * 20 * features;
        for (int q = 0; q < size; q++) {
            const Square& b = s.cities[p][q];
            if (b.type < 0) continue;
            float* f = city + (q / cols * 5 + q % cols) * features;
            f[b.type] = 1;
            for (int k = 0; k < b.floors && k < 5; k++) f[8 + k] = 1;
            for (int k = 0; k < b.vp && k < 3; k++) f[13 + k] = 1;
            if (b.type == e.part[PART_PARK_TYPE] && b.tree) f[16] = 1;
        }
        out[e.part[PART_INHABITANTS] + r] = static_cast<float>(s.inhabitants[p]);
        out[e.part[PART_ENERGY] + r] = static_cast<float>(s.energy[p]);
    }
}

void write_site(const Encoding& e, const State& s, float* out) {
    const int kinds = e.part[PART_KINDS];
    for (int q = 0; q < SITE_SQUARES; q++) {
        const int tile = s.site[q];
        if (tile < 0) continue;
        if (s.face_down >> q & 1u)
            out[e.part[PART_SITE_FACE_DOWN] + q] = 1;
        else
            out[e.part[PART_SITE_TILE] + q * kinds + e.kind_of_tile[tile]] = 1;
    }
}

// The position (encoder._position_bits): the urbanist, the slots, the hand, the seats and,
// in Classic, the architects each seat has used this round.
void write_position(const Encoding& e, const State& s, int observer, float* out) {
    const int n = s.config.players;
    out[e.part[PART_TURN] + s.turn - 1] = 1;
    if (s.phase == TAKE) out[e.part[PART_PHASE]] = 1;
    if (s.phase == PLACE) {
        out[e.part[PART_PHASE] + 1] = 1;
        out[e.part[PART_HAND_TILE] + e.kind_of_tile[s.pending_tile]] = 1;
        out[e.part[PART_HAND_ARCHITECT] + s.pending_architect - 1] = 1;
    }
    for (int slot = 0; slot < SLOTS; slot++)
        if (s.slots_used >> slot & 1u) out[e.part[PART_SLOT_USED] + slot] = 1;
    if (s.urbanist >= 0) {
        out[e.part[PART_URBANIST] + s.urbanist] = 1;
        if (!s.config.square_variant)
            for (int slot = 0; slot < SLOTS; slot++)
                if (t::BLOCKED_SLOTS[s.urbanist] >> slot & 1u) out[e.part[PART_SLOT_BLOCKED] + slot] = 1;
    }
    for (int r = 0; r < n; r++) out[e.part[PART_SEAT_PRESENT] + r] = 1;
    out[e.part[PART_SEAT_TO_MOVE] + mod(s.starter + s.position - observer, n)] = 1;
    out[e.part[PART_SEAT_MAYOR] + mod(s.mayor - observer, n)] = 1;
    out[e.part[PART_SEAT_STARTER] + mod(s.starter - observer, n)] = 1;
    if (s.config.mode == CLASSIC) {
        for (int r = 0; r < n; r++) {
            const unsigned used = s.architects[(observer + r) % n];
            for (int a = 1; a <= 4; a++)
                if (used >> a & 1u) out[e.part[PART_ARCHITECTS_USED] + r * 5 + a - 1] = 1;
        }
    } else {
        for (int a = 1; a <= 5; a++) out[e.part[PART_POOL] + a - 1] = static_cast<float>(s.architects[a]);
    }
}

}  // namespace

bool check_encoding(const Encoding& e, std::string& error) {
    const int* p = e.part;
    if (p[PART_SIZE] <= 0 || p[PART_SIZE] > 1 << 16) return error = "observation size out of range", false;
    for (int i = PART_ROUND; i <= PART_POOL; i++)
        if (p[i] <= (i == PART_ROUND ? 0 : p[i - 1]) || p[i] >= p[PART_SIZE])
            return error = "part offsets must ascend inside the observation (part " + std::to_string(i) + ")", false;
    if (p[PART_CITY_FEATURES] != 17 || p[PART_KINDS] <= 0 || p[PART_KINDS] > 256 || p[PART_PARK_TYPE] < 0 ||
        p[PART_PARK_TYPE] > 7)
        return error = "city features, kinds or park type out of range", false;
    // Every part's extent, as encode writes it.
    const int extents[][2] = {
        {PART_TURN, 4}, {PART_PHASE, 2}, {PART_SITE_TILE, SITE_SQUARES * p[PART_KINDS]},
        {PART_SITE_FACE_DOWN, SITE_SQUARES}, {PART_URBANIST, SITE_SQUARES}, {PART_SLOT_USED, SLOTS},
        {PART_SLOT_BLOCKED, SLOTS}, {PART_HAND_TILE, p[PART_KINDS]}, {PART_HAND_ARCHITECT, 5},
        {PART_SEAT_PRESENT, MAX_PLAYERS}, {PART_SEAT_TO_MOVE, MAX_PLAYERS}, {PART_SEAT_MAYOR, MAX_PLAYERS},
        {PART_SEAT_STARTER, MAX_PLAYERS}, {PART_ARCHITECTS_USED, MAX_PLAYERS * 5},
        {PART_CITY, MAX_PLAYERS * 20 * 17}, {PART_INHABITANTS, MAX_PLAYERS}, {PART_ENERGY, MAX_PLAYERS},
        {PART_POOL, 5}};
    for (const auto& x : extents)
        if (p[x[0]] + x[1] > p[PART_SIZE]) return error = "a part runs past the observation's end", false;
    if (e.static_blocks.size() != static_cast<size_t>(STATIC_BLOCKS) * p[PART_ROUND])
        return error = "static blocks: wrong size", false;
    if (e.round_blocks.size() != static_cast<size_t>(ROUND_BLOCKS) * (p[PART_TURN] - p[PART_ROUND]))
        return error = "round blocks: wrong size", false;
    if (e.tile_count != t::TILE_COUNT) return error = "kind_of_tile must have one entry per tile", false;
    for (int i = 0; i < e.tile_count; i++)
        if (e.kind_of_tile[i] >= p[PART_KINDS]) return error = "kind_of_tile: a kind out of range", false;
    if (e.scale.size() != static_cast<size_t>(p[PART_SIZE])) return error = "scale: one value per observation value", false;
    return true;
}

void encode(const Encoding& e, const State& s, int observer, bool normalize, float* out) {
    const int size = e.part[PART_SIZE], n = s.config.players, mode = s.config.mode;
    std::memset(out, 0, sizeof(float) * static_cast<size_t>(size));
    const int static_size = e.part[PART_ROUND], round_size = e.part[PART_TURN] - e.part[PART_ROUND];
    const int config = ((mode * 3 + n - 2) * 2 + s.config.square_variant) * 2 + s.config.all_parks_absorb;
    const uint8_t* block = e.static_blocks.data() + static_cast<size_t>(config) * static_size;
    for (int i = 0; i < static_size; i++) out[i] = block[i];
    block = e.round_blocks.data() + static_cast<size_t>((mode * 3 + n - 2) * 5 + s.round - 1) * round_size;
    for (int i = 0; i < round_size; i++) out[static_size + i] = block[i];
    observer %= n;
    write_site(e, s, out);
    write_position(e, s, observer, out);
    write_city(e, s, observer, out);
    if (normalize)
        for (int i = 0; i < size; i++) out[i] *= e.scale[i];
}

void action_mask(const State& s, int8_t* out) {
    std::memset(out, 0, MOVE_COUNT);
    MoveList legal;
    legal_moves(s, legal);
    for (int i = 0; i < legal.count; i++) out[legal.moves[i]] = 1;
}

}  // namespace quadropolis
