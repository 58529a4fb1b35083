#include "quadropolis/fields.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "quadropolis/scoring.hpp"
#include "quadropolis/tables.hpp"

namespace quadropolis::fields {
namespace {

namespace t = tables;

const char* const HEADER_NAMES[ARCHITECTS] = {
    "mode",  "players", "seed",  "first_player", "square_variant", "all_parks_absorb", "round",
    "turn",  "position", "starter", "mayor",      "phase",          "pending_tile",     "pending_architect",
    "site[0]", "site[1]", "site[2]", "site[3]", "site[4]", "site[5]", "site[6]", "site[7]", "site[8]",
    "site[9]", "site[10]", "site[11]", "site[12]", "site[13]", "site[14]", "site[15]", "site[16]",
    "site[17]", "site[18]", "site[19]", "site[20]", "site[21]", "site[22]", "site[23]", "site[24]",
    "face_down", "slots_used", "urbanist"};

// A validation failure: the first problem found, as one line.
struct Failure {
    std::string& error;
    bool fail(const char* format, ...) __attribute__((format(printf, 2, 3)));
};

bool Failure::fail(const char* format, ...) {
    char text[256];
    va_list args;
    va_start(args, format);
    std::vsnprintf(text, sizeof text, format, args);
    va_end(args);
    error = text;
    return false;
}

bool tile_in_round(int tile, int mode, int round) {
    return tile >= 0 && tile < t::TILE_COUNT && (t::TILE_ROUND_BITS[tile] >> (round - 1 + 8 * mode) & 1u);
}

int designated(int slot, int architect) { return t::DESIGNATED[slot * 6 + architect]; }

// How many times seat p acted this round, given `done` actions since its start.
int acted_this_round(int p, int starter, int players, int done) {
    int n = 0;
    for (int k = 0; k < done; k++) n += (starter + k) % players == p;
    return n;
}

}  // namespace

const char* name_of(int index) {
    thread_local char buffer[64];  // only for messages, built just before use
    if (index >= 0 && index < ARCHITECTS) return HEADER_NAMES[index];
    static const char* const PART[4] = {"type", "floors", "vp", "tree"};
    if (index < CITIES)
        std::snprintf(buffer, sizeof buffer, "architects[%d]", index - ARCHITECTS);
    else if (index < INHABITANTS)
        std::snprintf(buffer, sizeof buffer, "cities[%d][%d].%s", (index - CITIES) / 80, (index - CITIES) % 80 / 4,
                      PART[(index - CITIES) % 4]);
    else if (index < ENERGY)
        std::snprintf(buffer, sizeof buffer, "inhabitants[%d]", index - INHABITANTS);
    else if (index < COUNT)
        std::snprintf(buffer, sizeof buffer, "energy[%d]", index - ENERGY);
    else
        std::snprintf(buffer, sizeof buffer, "field %d", index);
    return buffer;
}

void to_fields(const State& s, int64_t out[COUNT]) {
    out[MODE] = s.config.mode;
    out[PLAYERS] = s.config.players;
    out[SEED] = s.config.seed;
    out[FIRST_PLAYER] = s.config.first_player;
    out[SQUARE_VARIANT] = s.config.square_variant;
    out[ALL_PARKS_ABSORB] = s.config.all_parks_absorb;
    out[ROUND] = s.round;
    out[TURN] = s.turn;
    out[POSITION] = s.position;
    out[STARTER] = s.starter;
    out[MAYOR] = s.mayor;
    out[PHASE] = s.phase;
    out[PENDING_TILE] = s.pending_tile;
    out[PENDING_ARCHITECT] = s.pending_architect;
    for (int q = 0; q < SITE_SQUARES; q++) out[SITE + q] = s.site[q];
    out[FACE_DOWN] = s.face_down;
    out[SLOTS_USED] = s.slots_used;
    out[URBANIST] = s.urbanist;
    for (int k = 0; k < 6; k++) out[ARCHITECTS + k] = s.architects[k];
    for (int p = 0; p < MAX_PLAYERS; p++) {
        for (int q = 0; q < MAX_CITY_SQUARES; q++) {
            const Square& sq = s.cities[p][q];
            int64_t* cell = out + CITIES + (p * MAX_CITY_SQUARES + q) * 4;
            cell[0] = sq.type;
            cell[1] = sq.floors;
            cell[2] = sq.vp;
            cell[3] = sq.tree;
        }
        out[INHABITANTS + p] = s.inhabitants[p];
        out[ENERGY + p] = s.energy[p];
    }
}

namespace {

// Each field against its own range (lo..hi), before any cross-field rule reads it.
bool check_ranges(const int64_t* f, Failure& why) {
    auto within = [&](int i, int64_t lo, int64_t hi) {
        if (f[i] >= lo && f[i] <= hi) return true;
        return why.fail("%s must be between %lld and %lld, got %lld", name_of(i), static_cast<long long>(lo),
                        static_cast<long long>(hi), static_cast<long long>(f[i]));
    };
    if (!within(MODE, 0, 1) || !within(PLAYERS, 2, 4)) return false;
    const int n = static_cast<int>(f[PLAYERS]);
    const int mode = static_cast<int>(f[MODE]);
    if (!within(FIRST_PLAYER, 0, n - 1) || !within(SQUARE_VARIANT, 0, 1) || !within(ALL_PARKS_ABSORB, 0, 1) ||
        !within(PHASE, 0, 2) || !within(ROUND, 1, t::ROUNDS[mode]) || !within(TURN, 1, t::TURNS_PER_ROUND) ||
        !within(POSITION, 0, n - 1) || !within(STARTER, 0, n - 1) || !within(MAYOR, 0, n - 1) ||
        !within(PENDING_TILE, -1, t::TILE_COUNT - 1) || !within(PENDING_ARCHITECT, 0, t::ARCHITECTS[mode]))
        return false;
    for (int q = 0; q < SITE_SQUARES; q++)
        if (!within(SITE + q, -1, t::TILE_COUNT - 1)) return false;
    if (!within(FACE_DOWN, 0, (1 << SITE_SQUARES) - 1) || !within(SLOTS_USED, 0, (1 << SLOTS) - 1) ||
        !within(URBANIST, -1, SITE_SQUARES - 1))
        return false;
    for (int k = 0; k < 6; k++)
        if (!within(ARCHITECTS + k, 0, mode == CLASSIC ? 0b11110 : n)) return false;
    for (int i = CITIES; i < INHABITANTS; i++)
        if (!within(i, i % 4 == 0 ? -1 : 0, 7)) return false;
    for (int p = 0; p < MAX_PLAYERS; p++)
        if (!within(INHABITANTS + p, 0, t::RESOURCE_MAX) || !within(ENERGY + p, 0, t::RESOURCE_MAX)) return false;
    return true;
}

void copy_fields(const int64_t* f, State& s) {
    std::memset(&s, 0, sizeof s);
    s.config = Config{f[SEED], static_cast<int8_t>(f[MODE]), static_cast<int8_t>(f[PLAYERS]),
                      static_cast<int8_t>(f[FIRST_PLAYER]), f[SQUARE_VARIANT] != 0, f[ALL_PARKS_ABSORB] != 0};
    s.round = static_cast<int8_t>(f[ROUND]);
    s.turn = static_cast<int8_t>(f[TURN]);
    s.position = static_cast<int8_t>(f[POSITION]);
    s.starter = static_cast<int8_t>(f[STARTER]);
    s.mayor = static_cast<int8_t>(f[MAYOR]);
    s.phase = static_cast<int8_t>(f[PHASE]);
    s.pending_tile = static_cast<int16_t>(f[PENDING_TILE]);
    s.pending_architect = static_cast<int8_t>(f[PENDING_ARCHITECT]);
    for (int q = 0; q < SITE_SQUARES; q++) s.site[q] = static_cast<int16_t>(f[SITE + q]);
    s.face_down = static_cast<uint32_t>(f[FACE_DOWN]);
    s.slots_used = static_cast<uint32_t>(f[SLOTS_USED]);
    s.urbanist = static_cast<int8_t>(f[URBANIST]);
    for (int k = 0; k < 6; k++) s.architects[k] = static_cast<uint8_t>(f[ARCHITECTS + k]);
    for (int p = 0; p < MAX_PLAYERS; p++) {
        for (int q = 0; q < MAX_CITY_SQUARES; q++) {
            const int64_t* cell = f + CITIES + (p * MAX_CITY_SQUARES + q) * 4;
            s.cities[p][q] = Square{static_cast<int8_t>(cell[0]), static_cast<int8_t>(cell[1]),
                                    static_cast<int8_t>(cell[2]), static_cast<int8_t>(cell[3])};
        }
        s.inhabitants[p] = static_cast<int32_t>(f[INHABITANTS + p]);
        s.energy[p] = static_cast<int32_t>(f[ENERGY + p]);
    }
}

// The round's progress, the site, the slots and the urbanist (GameState.from_json).
bool check_round(const State& s, int done, uint32_t& reach, Failure& why) {
    const int n = s.config.players, mode = s.config.mode, rounds = t::ROUNDS[mode];
    if (s.round == 1 && s.starter != s.config.first_player)
        return why.fail("round 1 is started by the config's first_player");
    if (s.phase == OVER && !(s.round == rounds && s.turn == t::TURNS_PER_ROUND && s.position == n - 1))
        return why.fail("a finished game must stand at the last action of the last round");
    int on_site = 0;
    uint32_t seen_tiles[(t::TILE_COUNT + 31) / 32] = {};
    for (int q = 0; q < SITE_SQUARES; q++) {
        const int tile = s.site[q];
        if (tile < 0) {
            if (s.face_down >> q & 1u) return why.fail("face_down: site square %d holds no tile", q);
            continue;
        }
        if (!tile_in_round(tile, mode, s.round))
            return why.fail("site[%d]: tile %d is not a %s round-%d tile", q, tile, mode ? "expert" : "classic", s.round);
        if (seen_tiles[tile / 32] >> (tile % 32) & 1u) return why.fail("'site' holds the same tile twice");
        seen_tiles[tile / 32] |= 1u << (tile % 32);
        on_site++;
        const bool hidden = t::TILE_MIN_PLAYERS[tile] > n;
        if (hidden != static_cast<bool>(s.face_down >> q & 1u))
            return why.fail("site[%d]: tile %d must be face %s with %d players (R4)", q, tile, hidden ? "down" : "up", n);
    }
    const int used = __builtin_popcount(s.slots_used);
    if (used != done)
        return why.fail("%d architect(s) should be in slots at this point of the round, slots_used holds %d", done, used);
    if (SITE_SQUARES - on_site > done)
        return why.fail("%d tiles left the site but only %d were designated", SITE_SQUARES - on_site, done);
    reach = 0;  // squares an architect in a used slot can have designated (R1)
    for (int slot = 0; slot < SLOTS; slot++)
        if (s.slots_used >> slot & 1u)
            for (int a = 1; a <= t::ARCHITECTS[mode]; a++) reach |= 1u << designated(slot, a);
    for (int q = 0; q < SITE_SQUARES; q++)
        if (s.site[q] < 0 && !(reach >> q & 1u))
            return why.fail("site[%d] is empty but no architect in a used slot can have designated it", q);
    for (int q = 0; q < SITE_SQUARES; q++) {
        const int tile = t::ROUND_TILES[(mode * t::MAX_ROUNDS + s.round - 1) * SITE_SQUARES + q];
        if (t::TILE_MIN_PLAYERS[tile] > n && !(seen_tiles[tile / 32] >> (tile % 32) & 1u))
            return why.fail("tile %d is face down with %d players (R4) and cannot have left the site", tile, n);
    }
    if (done == 0) {
        if (s.urbanist != -1) return why.fail("the urbanist is off the board before the round's first action");
        if (s.mayor != s.starter) return why.fail("the holder of the mayor starts the round (R10)");
    } else if (s.urbanist < 0 || !(reach >> s.urbanist & 1u)) {
        return why.fail("the urbanist must stand on a square a used slot designates");
    }
    if (s.round == rounds && s.mayor != s.starter)
        return why.fail("the last round has no mayor tile: the mayor cannot have moved (R10)");
    return true;
}

bool check_architects(const State& s, int done, Failure& why) {
    const int n = s.config.players;
    if (s.config.mode == CLASSIC) {
        for (int k = 0; k < 6; k++) {
            if (k >= n && s.architects[k] != 0) return why.fail("architects[%d] must be 0 with %d players", k, n);
            if (s.architects[k] & ~0b11110u) return why.fail("architects[%d]: a bitmask of architects 1-4", k);
        }
        for (int p = 0; p < n; p++) {
            const int acted = acted_this_round(p, s.starter, n, done);
            const int used = __builtin_popcount(s.architects[p]);
            if (used != acted)
                return why.fail("player %d has acted %d time(s) this round but used %d architect(s)", p, acted, used);
        }
        return true;
    }
    if (s.architects[0] != 0) return why.fail("architects[0] is unused in expert mode and must be 0");
    int pool = 0;
    for (int k = 1; k <= 5; k++) pool += s.architects[k];
    if (pool != 5 * n - done) return why.fail("the pool must hold %d architects at this point", 5 * n - done);
    return true;
}

bool check_pending(const State& s, Failure& why) {
    const int n = s.config.players, mode = s.config.mode;
    if (s.phase != PLACE) {
        if (s.pending_tile != -1 || s.pending_architect != 0)
            return why.fail("pending_tile must be -1 and pending_architect 0 outside the place phase");
        return true;
    }
    const int tile = s.pending_tile, a = s.pending_architect;
    if (!tile_in_round(tile, mode, s.round)) return why.fail("pending_tile must be a tile of this round no longer on the site");
    for (int q = 0; q < SITE_SQUARES; q++)
        if (s.site[q] == tile) return why.fail("pending_tile must be a tile of this round no longer on the site");
    if (t::TILE_MIN_PLAYERS[tile] > n) return why.fail("pending_tile %d is face down with %d players (R4)", tile, n);
    if (a < 1 || a > t::ARCHITECTS[mode]) return why.fail("pending_architect must be 1-%d", t::ARCHITECTS[mode]);
    const int player = current_player(s);
    if (mode == CLASSIC ? !(s.architects[player] >> a & 1u) : s.architects[a] >= n)
        return why.fail(mode == CLASSIC ? "the mover has not used architect #%d" : "no architect #%d has left the pool", a);
    bool designates = false;
    for (int slot = 0; slot < SLOTS; slot++)
        if ((s.slots_used >> slot & 1u) && designated(slot, a) == s.urbanist) designates = true;
    if (s.urbanist < 0 || s.site[s.urbanist] >= 0 || !designates)
        return why.fail("the taken tile must come from the urbanist's square, designated by architect #%d", a);
    return true;
}

// _check_resources: supplies come only from built tiles (R3, R11).
bool check_resources(const State& s, int p, Failure& why) {
    int tower_floors = 0, playgrounds = 0, factories = 0, harbors = 0;
    for (int q = 0; q < t::CITY_SIZE[s.config.mode]; q++) {
        const Square& b = s.cities[p][q];
        if (b.type == 0) tower_floors += b.floors;
        if (b.type == 3 && !b.tree && !s.config.all_parks_absorb) playgrounds++;
        if (b.type == 4) factories++;
        if (b.type == 5) harbors++;
    }
    const int inh = s.inhabitants[p], en = s.energy[p];
    if (inh < tower_floors + playgrounds) return why.fail("player %d has fewer inhabitants than their buildings gave", p);
    if (en < factories) return why.fail("player %d has less energy than their factories gave", p);
    const int extra = (inh - 3 * tower_floors - playgrounds > 0 ? inh - 3 * tower_floors - playgrounds : 0) +
                      (en - 3 * factories > 0 ? en - 3 * factories : 0);
    if (extra > 2 * harbors)
        return why.fail("player %d has more inhabitants and energy than their buildings can give", p);
    return true;
}

bool check_cities(const State& s, int done, Failure& why) {
    const int n = s.config.players, mode = s.config.mode, size = t::CITY_SIZE[mode];
    char problem[160];
    for (int p = 0; p < MAX_PLAYERS; p++) {
        int floors = 0;
        for (int q = 0; q < MAX_CITY_SQUARES; q++) {
            const Square& b = s.cities[p][q];
            if ((p >= n || q >= size) && b.type != -1)
                return why.fail("cities[%d][%d] must be empty (type -1): no such %s", p, q, p >= n ? "player" : "square");
            if (!building_ok(b, mode, problem, sizeof problem)) return why.fail("cities[%d][%d]: %s", p, q, problem);
            floors += b.type >= 0 ? b.floors : 0;
        }
        if (p >= n) {
            if (s.inhabitants[p] || s.energy[p]) return why.fail("inhabitants and energy of absent player %d must be 0", p);
            continue;
        }
        const int acted = (s.round - 1) * t::TURNS_PER_ROUND + acted_this_round(p, s.starter, n, done);
        if (floors > acted)
            return why.fail("player %d's city holds %d tiles but the player has taken at most %d", p, floors, acted);
        if (!check_resources(s, p, why)) return false;
    }
    return true;
}

// _check_tiles: for each look (type, printed VP, tree), the cities hold no more floors than
// the face-up tiles of the rounds so far that have left the site and are not in hand.
bool check_tiles(const State& s, Failure& why) {
    const int n = s.config.players, mode = s.config.mode;
    int available[8][4][2] = {};  // [type][vp][tree]
    for (int tile = 0; tile < t::TILE_COUNT; tile++) {
        const unsigned rounds = t::TILE_ROUND_BITS[tile] >> (8 * mode) & 0xFFu;
        if (!rounds || t::TILE_MIN_PLAYERS[tile] > n) continue;
        const int round = __builtin_ctz(rounds) + 1;
        if (round > s.round) continue;
        if (round == s.round) {
            bool here = tile == s.pending_tile;
            for (int q = 0; q < SITE_SQUARES; q++) here |= s.site[q] == tile;
            if (here) continue;
        }
        available[t::TILE_TYPE[tile]][t::TILE_VP[tile]][t::TILE_TREE[tile]]++;
    }
    int held[8][4][2] = {};
    for (int p = 0; p < n; p++)
        for (const Square& b : s.cities[p])
            if (b.type >= 0) held[b.type][b.vp][b.tree] += b.floors;
    for (int ty = 0; ty < 8; ty++)
        for (int vp = 0; vp < 4; vp++)
            for (int tree = 0; tree < 2; tree++)
                if (held[ty][vp][tree] > available[ty][vp][tree])
                    return why.fail(
                        "the cities hold %d building(s) of type %d, vp %d, tree %d but only %d such tile(s) can have "
                        "been built (TILES.md)",
                        held[ty][vp][tree], ty, vp, tree, available[ty][vp][tree]);
    return true;
}

// _check_mayor (R10).
bool check_mayor(const State& s, Failure& why) {
    if (s.mayor == s.starter) return true;
    const int mode = s.config.mode;
    int mayor_tile = -1;
    for (int q = 0; q < SITE_SQUARES && mayor_tile < 0; q++) {
        const int tile = t::ROUND_TILES[(mode * t::MAX_ROUNDS + s.round - 1) * SITE_SQUARES + q];
        if (t::TILE_MAYOR[tile]) mayor_tile = tile;
    }
    bool unbuilt = mayor_tile == s.pending_tile;
    for (int q = 0; q < SITE_SQUARES; q++) unbuilt |= s.site[q] == mayor_tile;
    if (mayor_tile < 0 || unbuilt)
        return why.fail("player %d holds the mayor but this round's mayor tower block has not been built (R10)", s.mayor);
    bool tower = false;
    for (const Square& b : s.cities[s.mayor]) tower |= b.type == 0;
    if (!tower) return why.fail("player %d holds the mayor but has no tower block (R10)", s.mayor);
    return true;
}

}  // namespace

bool from_fields(const int64_t* in, size_t count, State& out, std::string& error) {
    Failure why{error};
    if (count != static_cast<size_t>(COUNT)) return why.fail("a state is %d fields (ABI %d), got %zu", COUNT, ABI, count);
    if (!check_ranges(in, why)) return false;
    State s;
    copy_fields(in, s);
    const int done = (s.turn - 1) * s.config.players + s.position + (s.phase != TAKE ? 1 : 0);
    uint32_t reach = 0;
    if (!check_round(s, done, reach, why) || !check_architects(s, done, why) || !check_pending(s, why) ||
        !check_cities(s, done, why) || !check_tiles(s, why) || !check_mayor(s, why))
        return false;
    out = s;
    return true;
}

bool city_from_cells(int64_t mode, const int64_t* cells, size_t count, int64_t inhabitants, int64_t energy, City& out,
                     std::string& error) {
    Failure why{error};
    if (mode != 0 && mode != 1) return why.fail("mode must be 0 (classic) or 1 (expert), got %lld", static_cast<long long>(mode));
    const int size = t::CITY_SIZE[mode];
    if (count != static_cast<size_t>(size) * 4)
        return why.fail("a %s city is %d cells (4 ints per square), got %zu", mode ? "expert" : "classic", size * 4, count);
    if (inhabitants < 0 || inhabitants > t::RESOURCE_MAX || energy < 0 || energy > t::RESOURCE_MAX)
        return why.fail("inhabitants and energy must be whole numbers from 0 to %d", t::RESOURCE_MAX);
    std::memset(&out, 0, sizeof out);
    out.mode = static_cast<int8_t>(mode);
    char problem[160];
    for (int q = 0; q < MAX_CITY_SQUARES; q++) {
        if (q >= size) {
            out.squares[q] = Square{-1, 0, 0, 0};
            continue;
        }
        const int64_t* cell = cells + q * 4;
        for (int k = 0; k < 4; k++)
            if (cell[k] < -1 || cell[k] > 7)
                return why.fail("square %d: value %lld out of range", q, static_cast<long long>(cell[k]));
        out.squares[q] = Square{static_cast<int8_t>(cell[0]), static_cast<int8_t>(cell[1]), static_cast<int8_t>(cell[2]),
                                static_cast<int8_t>(cell[3])};
        if (!building_ok(out.squares[q], static_cast<int>(mode), problem, sizeof problem))
            return why.fail("square %d: %s", q, problem);
    }
    out.inhabitants = static_cast<int32_t>(inhabitants);
    out.energy = static_cast<int32_t>(energy);
    return true;
}

}  // namespace quadropolis::fields
