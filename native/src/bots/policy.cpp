#include "quadropolis/bots/policy.hpp"

#include "quadropolis/tables.hpp"

namespace quadropolis {
namespace {

namespace t = tables;

// BuildingType values (quadropolis.buildings, declaration order).
enum Type : int { TOWER = 0, SHOP = 1, PUBLIC_SERVICE = 2, PARK = 3, FACTORY = 4, HARBOR = 5, OFFICE = 6, MONUMENT = 7 };
constexpr int OFFICE_ROW = 6;  // OFFICE_VP's row width: floors 0-5

int neighbour(int mode, int q, int k) { return t::NEIGHBOURS[(mode * MAX_CITY_SQUARES + q) * 4 + k]; }
int neighbour_count(int mode, int q) { return t::NEIGHBOUR_COUNT[mode * MAX_CITY_SQUARES + q]; }
bool is_type(const Square& s, int type) { return s.type == type; }
int floors(const Square& s) { return s.type < 0 ? 0 : s.floors; }
int clamp5(int n) { return n < 5 ? n : 5; }
const int* office_row(int group_size) { return t::OFFICE_VP + clamp5(group_size) * OFFICE_ROW; }

// The office towers connected to `root` (bitmask of squares; root itself always in it).
uint32_t office_group(const Square* city, int mode, int root) {
    uint32_t group = 1u << root, todo = group;
    while (todo) {
        const int q = __builtin_ctz(todo);
        todo &= todo - 1;
        for (int k = 0; k < neighbour_count(mode, q); k++) {
            const int n = neighbour(mode, q, k);
            if (!(group >> n & 1u) && is_type(city[n], OFFICE)) group |= 1u << n, todo |= 1u << n;
        }
    }
    return group;
}

int group_vp(const Square* city, uint32_t group, const int* row) {
    int vp = 0;
    for (uint32_t g = group; g; g &= g - 1) vp += row[floors(city[__builtin_ctz(g)])];
    return vp;
}

// policy.office_gain: exact change of the office towers' VP (R15) when an office floor is
// built on `q`: a new tower joins every group it touches; a floor raises a tower in its group.
int office_gain(const Square* city, int mode, int q) {
    uint32_t seen = 0;
    int old = 0;
    const bool empty = city[q].type < 0;
    const int starts = empty ? neighbour_count(mode, q) : 1;
    for (int k = 0; k < starts; k++) {
        const int root = empty ? neighbour(mode, q, k) : q;
        if ((empty && !is_type(city[root], OFFICE)) || (seen >> root & 1u)) continue;
        const uint32_t group = office_group(city, mode, root);
        seen |= group;
        old += group_vp(city, group, office_row(__builtin_popcount(group)));
    }
    const int size = __builtin_popcount(seen);
    if (empty) {
        const int* row = office_row(size + 1);
        return row[1] + group_vp(city, seen, row) - old;
    }
    const int* row = office_row(size);
    const int f = floors(city[q]);
    return f + 1 < OFFICE_ROW ? row[f + 1] - row[f] : 0;
}

int run_vp(int length) { return t::RUN_VP[clamp5(length)]; }

// policy.harbor_gain: exact change of the runs' VP (R14) when a harbor goes on the empty `q`.
int harbor_gain(const Square* city, int mode, int q, HarborRuns now) {
    const int cols = t::CITY_COLS[mode], rows = t::CITY_SIZE[mode] / cols;
    const int r = q / cols, c = q % cols;
    int h = 1, v = 1;  // the runs through q
    for (int d = -1; d <= 1; d += 2) {
        for (int i = c + d; i >= 0 && i < cols && is_type(city[r * cols + i], HARBOR); i += d) h++;
        for (int i = r + d; i >= 0 && i < rows && is_type(city[i * cols + c], HARBOR); i += d) v++;
    }
    const int h_new = h > now.horizontal ? h : now.horizontal;
    const int v_new = v > now.vertical ? v : now.vertical;
    return run_vp(h_new) - run_vp(now.horizontal) + run_vp(v_new) - run_vp(now.vertical);
}

bool has_public_service_in_district(const Square* city, int mode, int district) {
    for (int q = 0; q < t::CITY_SIZE[mode]; q++)
        if (is_type(city[q], PUBLIC_SERVICE) && t::DISTRICT[mode * MAX_CITY_SQUARES + q] == district) return true;
    return false;
}

int site_square(int take) { return t::DESIGNATED[(take / 5) * 6 + take % 5 + 1]; }
bool takes_a_building(const State& s, int take) {
    const int q = site_square(take);
    return s.site[q] >= 0 && !(s.face_down >> q & 1u);
}

// The takes' prior for the player to move: the best placement of what a take takes on an empty
// square its architect may build on (-0.5 when there is none), plus 0.2 VP per inhabitant or
// energy it brings. Each placement value is computed once per (building type, square): a
// position has up to ~100 takes, which share a few types and the city's squares.
class TakeValues {
public:
    explicit TakeValues(const State& s) : s_(s), city_(s.cities[current_player(s)]), runs_(harbor_runs(city_, s.config.mode)) {}

    double of(int take) {
        const int mode = s_.config.mode;
        const int tile = s_.site[site_square(take)];
        const int type = t::TILE_TYPE[tile];
        bool any = false;
        double best = -0.5;
        for (uint32_t eligible = t::ELIGIBLE[mode * 6 + take % 5 + 1]; eligible; eligible &= eligible - 1) {
            const int q = __builtin_ctz(eligible);
            if (city_[q].type >= 0) continue;
            if (!(known_[type] >> q & 1u)) {
                value_[type][q] = placement_value(city_, mode, type, q, runs_);
                known_[type] |= 1u << q;
            }
            if (!any || value_[type][q] > best) best = value_[type][q], any = true;
        }
        return best + 0.2 * t::PRIOR_TILE_GAIN[tile];
    }

private:
    const State& s_;
    const Square* city_;
    HarborRuns runs_;
    uint32_t known_[8] = {};  // bit q of known_[type]: value_[type][q] is computed
    double value_[8][MAX_CITY_SQUARES];
};

int build_square(int move, int mode) {
    const int k = move - FIRST_BUILD_MOVE;
    return (k / 5) * t::CITY_COLS[mode] + k % 5;
}

// Sorts moves[0..n) by value, best first, ties keeping their order (stable insertion sort:
// at most MAX_LEGAL entries).
void sort_best_first(uint8_t* moves, double* values, int n) {
    for (int i = 1; i < n; i++) {
        const uint8_t m = moves[i];
        const double v = values[i];
        int j = i;
        for (; j > 0 && values[j - 1] < v; j--) moves[j] = moves[j - 1], values[j] = values[j - 1];
        moves[j] = m, values[j] = v;
    }
}

void ordered_takes(const State& s, const MoveList& legal, MoveList& out) {
    TakeValues prior(s);
    double values[MAX_LEGAL];
    // Pruning keys: bit (site square * 6 + architect), or bit (25 * 6 + architect) for the
    // takes that take nothing.
    uint64_t seen[3] = {0, 0, 0};
    out.count = 0;
    for (int i = 0; i < legal.count; i++) {
        const int m = legal.moves[i], a = m % 5 + 1;
        const bool building = takes_a_building(s, m);
        const int key = (building ? site_square(m) : SITE_SQUARES) * 6 + a;
        if (seen[key / 64] >> (key % 64) & 1u) continue;
        seen[key / 64] |= uint64_t{1} << (key % 64);
        values[out.count] = building ? prior.of(m) : -1.0;
        out.moves[out.count++] = static_cast<uint8_t>(m);
    }
    sort_best_first(out.moves, values, out.count);
}

void ordered_builds(const State& s, const MoveList& legal, MoveList& out) {
    const int mode = s.config.mode;
    const Square* city = s.cities[current_player(s)];
    const int type = t::TILE_TYPE[s.pending_tile];
    const HarborRuns runs = type == HARBOR ? harbor_runs(city, mode) : HarborRuns{0, 0};
    double values[MAX_LEGAL];
    out.count = 0;
    for (int i = 0; i < legal.count; i++) {
        if (legal.moves[i] >= DISCARD_MOVE) continue;
        values[out.count] = placement_value(city, mode, type, build_square(legal.moves[i], mode), runs);
        out.moves[out.count++] = legal.moves[i];
    }
    sort_best_first(out.moves, values, out.count);
    out.moves[out.count++] = DISCARD_MOVE;
}

int rollout_build(const State& s, const MoveList& legal) {
    if (legal.count == 1) return legal.moves[0];
    const int mode = s.config.mode;
    const Square* city = s.cities[current_player(s)];
    const int type = t::TILE_TYPE[s.pending_tile];
    const HarborRuns runs = type == HARBOR ? harbor_runs(city, mode) : HarborRuns{0, 0};
    int best = DISCARD_MOVE;
    double best_v = 0.0;
    for (int i = 0; i < legal.count; i++) {
        if (legal.moves[i] >= DISCARD_MOVE) continue;
        const double v = placement_value(city, mode, type, build_square(legal.moves[i], mode), runs);
        if (v > best_v) best = legal.moves[i], best_v = v;
    }
    return best;
}

int uniform(Random& rng, int n) { return static_cast<int>(rng.random() * n); }

// The take of a face-up building with the best prior (the first in legal-move order among
// equals: a later take of the same square with the same architect number is skipped, its
// value being the same); -1 when no take takes a building.
int best_take(const State& s, const MoveList& legal) {
    TakeValues values(s);
    uint64_t seen[3] = {0, 0, 0};  // bit (site square * 6 + architect), as ordered_takes
    int best = -1;
    double best_v = 0.0;
    for (int i = 0; i < legal.count; i++) {
        const int m = legal.moves[i];
        if (!takes_a_building(s, m)) continue;
        const int key = site_square(m) * 6 + m % 5 + 1;
        if (seen[key / 64] >> (key % 64) & 1u) continue;
        seen[key / 64] |= uint64_t{1} << (key % 64);
        const double v = values.of(m);
        if (best < 0 || v > best_v) best = m, best_v = v;
    }
    return best;
}

// A take of a face-up building: with probability `greed` the best by the prior (the draw is
// made only when greed > 0, so that greed 0 keeps the draws of before), else uniform among
// them: rejection sampling first (early in a round almost always a hit at once), then a draw
// among the takes that qualify (all if none does).
int rollout_take(const State& s, Random& rng, const MoveList& legal, double greed) {
    if (greed > 0 && rng.random() < greed) {
        const int best = best_take(s, legal);
        if (best >= 0) return best;
    }
    for (int k = 0; k < 6; k++) {
        const int m = legal.moves[uniform(rng, legal.count)];
        if (takes_a_building(s, m)) return m;
    }
    uint8_t takes[MAX_LEGAL];
    int n = 0;
    for (int i = 0; i < legal.count; i++)
        if (takes_a_building(s, legal.moves[i])) takes[n++] = legal.moves[i];
    if (n == 0) return legal.moves[uniform(rng, legal.count)];
    return takes[uniform(rng, n)];
}

}  // namespace

HarborRuns harbor_runs(const Square* city, int mode) {
    uint32_t mask = 0;
    for (int q = 0; q < t::CITY_SIZE[mode]; q++)
        if (is_type(city[q], HARBOR)) mask |= 1u << q;
    HarborRuns runs{0, 0};
    for (uint32_t x = mask; x; x &= (x >> 1) & t::HVALID[mode]) runs.horizontal++;  // each step shortens every run
    for (uint32_t x = mask; x; x &= x >> t::CITY_COLS[mode]) runs.vertical++;
    return runs;
}

double placement_value(const Square* city, int mode, int type, int q, HarborRuns runs) {
    const Square& below = city[q];
    if (below.type >= 0) {  // a stack: the floor's increment is the gain
        if (type == OFFICE) return office_gain(city, mode, q) + 0.5;
        const int f = below.floors < 5 ? below.floors : 4;
        return t::TOWER_VP[f + 1] - t::TOWER_VP[f] + 0.5;
    }
    const int8_t* synergy = t::SYNERGY + type * 8;
    double v = (type == TOWER || type == SHOP || type == PARK || type == HARBOR || type == OFFICE) ? 1.0 : 0.5;
    if (type == OFFICE)
        v += office_gain(city, mode, q);
    else if (type == HARBOR)
        v += harbor_gain(city, mode, q, runs);
    for (int k = 0; k < neighbour_count(mode, q); k++) {
        const Square& b = city[neighbour(mode, q, k)];
        if (b.type >= 0) v += synergy[b.type];
    }
    if (type == PUBLIC_SERVICE && !has_public_service_in_district(city, mode, t::DISTRICT[mode * MAX_CITY_SQUARES + q]))
        v += 3.0;
    return v;
}

void ordered_moves(const State& s, MoveList& out) {
    MoveList legal;
    legal_moves(s, legal);
    if (s.phase == TAKE)
        ordered_takes(s, legal, out);
    else if (s.phase == PLACE)
        ordered_builds(s, legal, out);
    else
        out = legal;
}

int rollout_move(const State& s, Random& rng, MoveList& scratch, double greed) {
    legal_moves(s, scratch);
    if (scratch.count == 0) return -1;
    if (rng.random() < 0.1) return scratch.moves[uniform(rng, scratch.count)];
    if (s.phase == PLACE) return rollout_build(s, scratch);
    return rollout_take(s, rng, scratch, greed);
}

}  // namespace quadropolis
