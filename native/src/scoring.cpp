// The port keeps the Python solver's six phases and their names (scoring_solver.py), its
// group tables (scoring_groups.py) and its loops' orders and "first maximum wins" rules, so
// that every tie resolves to the same activation. Small lists live in fixed arrays; the
// subset tables (2^k entries) in a per-thread workspace that keeps its capacity across
// calls, so scoring allocates nothing once warm.
#include "quadropolis/scoring.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "quadropolis/tables.hpp"

namespace quadropolis {
namespace {

namespace t = tables;
using i64 = int64_t;

enum Type : int { TOWER = 0, SHOP = 1, SERVICE = 2, PARK = 3, FACTORY = 4, HARBOR = 5, OFFICE = 6, MONUMENT = 7 };
enum Activation : int8_t { OFF = -1, CANDIDATE = 0, FORCED = 1 };  // scoring_solver's states
constexpr i64 NEG = -(i64{1} << 60);  // "impossible" in a table (scoring_groups.NEG)
constexpr i64 HALF_NEG = NEG / 2;     // Python's NEG // 2 (exact: NEG is even)
constexpr int SQ = MAX_CITY_SQUARES;

bool uses_energy(int type) { return type >= 0 && (t::USES_ENERGY_MASK >> type & 1u); }
bool uses_inhabitant(int type) { return type >= 0 && (t::USES_INHABITANT_MASK >> type & 1u); }
// Inline bit counting: without -mpopcnt (the build targets any x86-64) __builtin_popcountll is
// a call into libgcc per count (callgrind: 39,300 -> 34,700 instructions per Expert city
// scored from Python, the binding's share included).
int popcount(uint64_t x) {
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
}
int lowest_bit(uint64_t x) { return __builtin_ctzll(x); }

// A fixed-capacity list of squares.
struct Squares {
    int count = 0;
    int8_t at[SQ];
    void push(int s) {
        if (count < SQ) at[count++] = static_cast<int8_t>(s);
    }
    const int8_t* begin() const { return at; }
    const int8_t* end() const { return at + count; }
};

struct Geometry {
    int mode, cols, size;
    uint32_t hvalid;
    int neighbour_count(int s) const { return t::NEIGHBOUR_COUNT[mode * SQ + s]; }
    int neighbour(int s, int k) const { return t::NEIGHBOURS[(mode * SQ + s) * 4 + k]; }
    int district(int s) const { return t::DISTRICT[mode * SQ + s]; }
};

Geometry geometry_of(int mode) { return Geometry{mode, t::CITY_COLS[mode], t::CITY_SIZE[mode], t::HVALID[mode]}; }

// scoring_tables.run_vp: longest horizontal plus longest vertical harbor run (R14).
int run_vp(uint32_t mask, const Geometry& g) {
    int h = 0;
    for (uint32_t x = mask; x; h++) x &= (x >> 1) & g.hvalid;
    int v = 0;
    for (uint32_t x = mask; x; v++) x &= x >> g.cols;
    return t::RUN_VP[std::min(h, 5)] + t::RUN_VP[std::min(v, 5)];
}

// scoring_tables.office_vp: each office tower scores by its floors and the size of its
// orthogonally connected group, capped at 5 (R15). `floors[s]` by square.
int office_vp(uint32_t offices, const int8_t* floors, const Geometry& g) {
    int total = 0;
    uint32_t seen = 0;
    for (uint32_t rest = offices; rest; rest &= rest - 1) {
        const int first = lowest_bit(rest);
        if (seen >> first & 1u) continue;
        int group[SQ], size = 0;
        group[size++] = first;
        seen |= 1u << first;
        for (int k = 0; k < size; k++)
            for (int a = 0; a < g.neighbour_count(group[k]); a++) {
                const int n = g.neighbour(group[k], a);
                if ((offices >> n & 1u) && !(seen >> n & 1u)) {
                    seen |= 1u << n;
                    group[size++] = n;
                }
            }
        const int* row = t::OFFICE_VP + std::min(size, 5) * 6;
        for (int k = 0; k < size; k++) total += row[floors[group[k]]];
    }
    return total;
}

// scoring_groups.customers_key.
i64 customers_key(i64 free, i64 shop_room, int cap, i64 k1) {
    const i64 c = free < shop_room ? free : shop_room;
    const i64 q = c / cap, r = c % cap;
    return (q * t::SHOP_VP[cap] + t::SHOP_VP[r] + c) * k1 + c * t::K2;
}

// A table by count (scoring_groups): best key with exactly k activated, NEG if impossible.
constexpr int TABLE = 64;  // counts 0..20 per group, sums of three groups: < 64
struct Table {
    int size = 0;
    i64 key[TABLE];
    int arg[TABLE];
};

// scoring_groups.maxplus: out[k] = max a[i] + b[k - i]; arg = i of the first maximum.
void maxplus(const Table& a, const Table& b, Table& out) {
    out.size = std::min(a.size + b.size - 1, TABLE);
    for (int k = 0; k < out.size; k++) {
        out.key[k] = NEG;
        out.arg[k] = 0;
    }
    for (int i = 0; i < a.size; i++) {
        if (a.key[i] <= HALF_NEG) continue;
        for (int j = 0; j < b.size && i + j < out.size; j++) {
            const i64 v = a.key[i] + b.key[j];
            if (v > out.key[i + j]) {
                out.key[i + j] = v;
                out.arg[i + j] = i;
            }
        }
    }
}

// Independent buildings best first (scoring_groups.best_first): by key descending, then
// square ascending; `prefix` is the table of the best k.
void best_first(int count, i64* keys, int8_t* squares, Table& prefix) {
    int order[SQ];
    for (int i = 0; i < count; i++) order[i] = i;
    std::sort(order, order + count, [&](int a, int b) {
        return keys[a] != keys[b] ? keys[a] > keys[b] : squares[a] < squares[b];
    });
    i64 sorted_keys[SQ];
    int8_t sorted_squares[SQ];
    for (int i = 0; i < count; i++) {
        sorted_keys[i] = keys[order[i]];
        sorted_squares[i] = squares[order[i]];
    }
    prefix.size = count + 1;
    prefix.key[0] = 0;
    prefix.arg[0] = 0;
    for (int i = 0; i < count; i++) {
        keys[i] = sorted_keys[i];
        squares[i] = sorted_squares[i];
        prefix.key[i + 1] = prefix.key[i] + keys[i];
        prefix.arg[i + 1] = 0;
    }
}

// The growing tables of subsets, reused across calls (per thread).
struct Workspace {
    std::vector<i64> harbor_runs, harbor_own, to_base, office_sum;
    std::vector<i64> best_to_key, to_key;  // (towers + 1) x (offices + 1) tables
    std::vector<uint32_t> best_to_arg, to_arg;
};

// Phase 4's tables for one subset of hubs (scoring_solver.HubTables).
struct HubTables {
    uint32_t fm;
    i64 f_key;
    int i_av, ko_max;
    int8_t s_order[SQ], ic_order[SQ];
    i64 s_keys[SQ], ic_keys[SQ];
    Table s_pref, ic_pref, h_tab, g1, g_tab;
    std::vector<i64>* to_key;
    std::vector<uint32_t>* to_arg;
};

struct Choice {
    i64 key;
    int ko, ks, kt, tc, m;
};

class Solver {
public:
    Solver(const City& city, bool all_parks_absorb, Workspace& ws)
        : c_(city), g_(geometry_of(city.mode)), apa_(all_parks_absorb), ws_(ws) {}

    // scoring_solver.optimal_activation: which squares an optimal placement activates.
    void run(bool* active) {
        classify();
        settle();
        build_groups();
        solve_and_activate(active);
    }

private:
    const City& c_;
    Geometry g_;
    bool apa_;
    Workspace& ws_;
    // phase 1 (Board)
    int types_[SQ], madj_[SQ];
    int8_t state_[SQ];
    int8_t floors_[SQ];
    Squares sq_[8];
    int cap_ = 4, n_forced_ = 0, e_forced_ = 0, i_forced_ = 0;
    i64 estar_ = 0, k1_ = 0, ku_ = 0;
    // phase 2 (Settled)
    i64 base_vp_ = 0;
    i64 cval_[SQ];
    Squares hubs_;
    uint32_t hub_bit_[SQ];
    uint32_t pair_mask_[SQ];
    Squares ps_, h_int_, to_t_, to_o_, t_const_, shops_, i_const_;
    uint32_t h_forced_ = 0;
    struct InterPark {
        int forced;
        Squares candidates;
    };
    InterPark inter_parks_[SQ];
    int inter_count_ = 0;
    int n_shops_forced_ = 0;
    // phase 3 (Groups)
    Table ps_tab_;
    uint32_t ps_choice_[TABLE];
    Squares to_items_;
    int8_t t_order_[SQ];
    Table t_pref_;

    // ---- Phase 1: forced activations (classify, _activation_states).
    void classify() {
        int absorbing = 0;
        for (int s = 0; s < g_.size; s++) {
            const Square& q = c_.squares[s];
            types_[s] = q.type;
            floors_[s] = q.floors;
            madj_[s] = 0;
            if (q.type >= 0) {
                sq_[q.type].push(s);
                if (q.type == PARK && (apa_ || q.tree)) absorbing++;  // R11
            }
        }
        for (int m : sq_[MONUMENT])
            for (int a = 0; a < g_.neighbour_count(m); a++) madj_[g_.neighbour(m, a)]++;
        cap_ = c_.mode == EXPERT ? 5 : 4;
        const int inh = c_.inhabitants, en = c_.energy;
        const bool energy_plenty = en >= sq_[TOWER].count + sq_[SHOP].count + sq_[OFFICE].count;
        const int i_users = sq_[SERVICE].count + sq_[FACTORY].count + sq_[HARBOR].count + sq_[OFFICE].count;
        const bool inh_plenty = inh >= i_users + cap_ * sq_[SHOP].count;
        for (int s = 0; s < g_.size; s++) {
            const int ty = types_[s];
            state_[s] = OFF;
            if (ty < 0 || (en == 0 && uses_energy(ty)) || (inh == 0 && uses_inhabitant(ty))) continue;
            const bool forced =
                ty == PARK || ty == MONUMENT || (energy_plenty && (ty == TOWER || ty == SHOP)) ||
                (inh_plenty && (ty == SERVICE || ((ty == FACTORY || ty == HARBOR) && madj_[s] == 0) ||
                                (ty == OFFICE && energy_plenty)));
            if (forced) {
                state_[s] = FORCED;
                n_forced_++;
                e_forced_ += uses_energy(ty);
                i_forced_ += uses_inhabitant(ty);
            } else {
                state_[s] = CANDIDATE;
            }
        }
        k1_ = t::K2 * (inh + 1);
        estar_ = std::max(0, en - absorbing);
        ku_ = k1_ + t::K2 + 1;
    }

    // ---- Phase 2: constants (settle).
    void own_values() {
        for (int s = 0; s < g_.size; s++) {
            cval_[s] = 0;
            const int ty = types_[s];
            if (ty < 0) continue;
            const i64 mv = static_cast<i64>(t::MONUMENT_VP[ty]) * madj_[s];
            if (ty == TOWER)
                cval_[s] = t::TOWER_VP[c_.squares[s].floors] + mv;
            else if (ty == SERVICE || ty == HARBOR)
                cval_[s] = c_.squares[s].vp + mv;
            else
                cval_[s] = mv;
        }
    }

    // _factory_pairs: returns settled VP; hub partners as (partner, factories) in first-seen
    // order of the partner (a Python dict's insertion order).
    i64 factory_pairs(int* partners, uint32_t* partner_factories, int& partner_count) {
        i64 settled = 0;
        partner_count = 0;
        for (int f : sq_[FACTORY]) {
            if (state_[f] == OFF) continue;
            for (int a = 0; a < g_.neighbour_count(f); a++) {
                const int n = g_.neighbour(f, a);
                const int ty = types_[n];
                if ((ty != SHOP && ty != HARBOR && ty != OFFICE) || state_[n] == OFF) continue;
                const int pv = t::PAIR_VP[ty];
                if (state_[f] == FORCED && state_[n] == FORCED) {
                    settled += pv;
                } else if (state_[f] == FORCED) {
                    cval_[n] += pv;
                } else if (state_[n] == FORCED) {
                    cval_[f] += pv;
                } else {
                    int k = 0;
                    while (k < partner_count && partners[k] != n) k++;
                    if (k == partner_count) {
                        partners[partner_count] = n;
                        partner_factories[partner_count++] = 0;
                    }
                    partner_factories[k] |= 1u << f;
                }
            }
        }
        return settled;
    }

    // _park_bonuses: settled park VP; parks with two or more candidate users interact.
    i64 park_bonuses() {
        i64 settled = 0;
        for (int p : sq_[PARK]) {
            settled += static_cast<i64>(t::MONUMENT_VP[PARK]) * madj_[p];
            int forced = 0;
            Squares candidates;
            for (int a = 0; a < g_.neighbour_count(p); a++) {
                const int n = g_.neighbour(p, a);
                const int ty = types_[n];
                const bool user = ty == TOWER || (c_.mode == EXPERT && ty == OFFICE);
                if (!user || state_[n] == OFF) continue;
                if (state_[n] == FORCED)
                    forced++;
                else
                    candidates.push(n);
            }
            if (candidates.count >= 2) {
                inter_parks_[inter_count_++] = InterPark{forced, candidates};
                continue;
            }
            settled += t::PARK_VP[forced];
            if (candidates.count) cval_[candidates.at[0]] += t::PARK_VP[forced + 1] - t::PARK_VP[forced];
        }
        return settled;
    }

    uint32_t mask_of(const Squares& list) const {
        uint32_t m = 0;
        for (int s : list) m |= 1u << s;
        return m;
    }

    // _forced_groups_vp.
    i64 forced_groups_vp() {
        i64 vp = 0;
        if (sq_[OFFICE].count && state_[sq_[OFFICE].at[0]] == FORCED) vp += office_vp(mask_of(sq_[OFFICE]), floors_, g_);
        uint32_t districts = 0;
        for (int s : sq_[SERVICE])
            if (state_[s] == FORCED) districts |= 1u << g_.district(s);
        if (districts) vp += t::DISTRICT_VP[popcount(districts)];
        for (int s = 0; s < g_.size; s++)
            if (state_[s] == FORCED && types_[s] != PARK && types_[s] != MONUMENT) vp += cval_[s];
        return vp;
    }

    void settle() {
        own_values();
        int partners[SQ];
        uint32_t partner_factories[SQ];
        int partner_count = 0;
        const i64 pairs_vp = factory_pairs(partners, partner_factories, partner_count);
        const i64 parks_vp = park_bonuses();
        base_vp_ = pairs_vp + parks_vp + forced_groups_vp();
        uint32_t hub_set = 0;
        for (int k = 0; k < partner_count; k++) hub_set |= partner_factories[k];
        for (int s = 0; s < SQ; s++) hub_bit_[s] = pair_mask_[s] = 0;
        for (int s = 0; s < g_.size; s++)
            if (hub_set >> s & 1u) {
                hub_bit_[s] = 1u << hubs_.count;
                hubs_.push(s);
            }
        for (int k = 0; k < partner_count; k++)
            for (uint32_t f = partner_factories[k]; f; f &= f - 1) pair_mask_[partners[k]] |= hub_bit_[lowest_bit(f)];
        // _harbor_classes
        Squares lone;
        for (int h : sq_[HARBOR]) {
            if (state_[h] == FORCED) {
                h_forced_ |= 1u << h;
            } else if (state_[h] == CANDIDATE) {
                bool interacting = false;
                for (int a = 0; a < g_.neighbour_count(h); a++) {
                    const int n = g_.neighbour(h, a);
                    if (types_[n] == HARBOR && state_[n] != OFF) interacting = true;
                }
                (interacting ? h_int_ : lone).push(h);
            }
        }
        uint32_t to_t_set = 0;
        for (int i = 0; i < inter_count_; i++)
            for (int s : inter_parks_[i].candidates)
                if (types_[s] == TOWER) to_t_set |= 1u << s;
        for (int s = 0; s < g_.size; s++)
            if (to_t_set >> s & 1u) to_t_.push(s);
        for (int s : sq_[SERVICE])
            if (state_[s] == CANDIDATE) ps_.push(s);
        for (int s : sq_[OFFICE])
            if (state_[s] == CANDIDATE) to_o_.push(s);
        for (int s : sq_[TOWER])
            if (state_[s] == CANDIDATE && !(to_t_set >> s & 1u)) t_const_.push(s);
        for (int s : sq_[SHOP])
            if (state_[s] == CANDIDATE) shops_.push(s);
        for (int s : sq_[FACTORY])
            if (state_[s] == CANDIDATE && !(hub_set >> s & 1u)) i_const_.push(s);
        for (int s : lone) i_const_.push(s);
        for (int s : sq_[SHOP])
            if (state_[s] == FORCED) n_shops_forced_++;
    }

    // ---- Phase 3: group tables (build_groups).

    // scoring_groups.public_service_table: a DP over districts x (count, districts used),
    // entries kept in insertion order as the Python dicts (ties keep the first found).
    void public_service_table() {
        struct Entry {
            int k, nd;
            i64 v;
            uint32_t choice;
        };
        Entry dp[TABLE * 6], next[TABLE * 6];
        int dp_count = 1, next_count = 0;
        dp[0] = Entry{0, 0, 0, 0};
        int where[SQ + 1][6];
        for (int d = 1; d <= 5; d++) {
            int8_t list[SQ];
            int n = 0;
            for (int s : ps_)
                if (g_.district(s) == d) list[n++] = static_cast<int8_t>(s);
            if (n == 0) continue;
            std::sort(list, list + n, [&](int a, int b) { return cval_[a] != cval_[b] ? cval_[a] > cval_[b] : a < b; });
            i64 pre[SQ + 1];
            pre[0] = 0;
            for (int i = 0; i < n; i++) pre[i + 1] = pre[i] + cval_[list[i]] * k1_ + ku_;
            for (auto& row : where)
                for (int& x : row) x = -1;
            next_count = 0;
            for (int e = 0; e < dp_count; e++) {
                uint32_t choice = dp[e].choice;
                for (int j = 0; j <= n; j++) {
                    if (j > 0) choice |= 1u << list[j - 1];
                    const int k = dp[e].k + j, nd = dp[e].nd + (j > 0);
                    const i64 v = dp[e].v + pre[j];
                    int& at = where[k][nd];
                    if (at < 0) {
                        at = next_count;
                        next[next_count++] = Entry{k, nd, v, choice};
                    } else if (v > next[at].v) {
                        next[at].v = v;
                        next[at].choice = choice;
                    }
                }
            }
            std::copy(next, next + next_count, dp);
            dp_count = next_count;
        }
        std::sort(dp, dp + dp_count, [](const Entry& a, const Entry& b) { return a.k != b.k ? a.k < b.k : a.nd < b.nd; });
        ps_tab_.size = ps_.count + 1;
        for (int k = 0; k < ps_tab_.size; k++) {
            ps_tab_.key[k] = NEG;
            ps_tab_.arg[k] = 0;
            ps_choice_[k] = 0;
        }
        for (int e = 0; e < dp_count; e++) {
            const i64 v = dp[e].v + t::DISTRICT_VP[dp[e].nd] * k1_;
            if (v > ps_tab_.key[dp[e].k]) {
                ps_tab_.key[dp[e].k] = v;
                ps_choice_[dp[e].k] = dp[e].choice;
            }
        }
    }

    void build_groups() {
        public_service_table();
        // scoring_groups.harbor_runs
        const int nh = h_int_.count;
        ws_.harbor_runs.assign(size_t{1} << nh, 0);
        for (uint32_t mk = 0; mk < (1u << nh); mk++) {
            uint32_t squares = h_forced_;
            for (int i = 0; i < nh; i++)
                if (mk >> i & 1u) squares |= 1u << h_int_.at[i];
            ws_.harbor_runs[mk] = static_cast<i64>(run_vp(squares, g_)) * k1_;
        }
        if (nh == 0) {  // the forced harbors' runs are settled
            base_vp_ += ws_.harbor_runs[0] / k1_;
            ws_.harbor_runs[0] = 0;
        }
        for (int s : to_t_) to_items_.push(s);
        for (int s : to_o_) to_items_.push(s);
        int park_around[SQ];
        uint32_t park_mask[SQ];
        for (int i = 0; i < inter_count_; i++) {
            uint32_t pm = 0;
            for (int s : inter_parks_[i].candidates)
                for (int k = 0; k < to_items_.count; k++)
                    if (to_items_.at[k] == s) {
                        pm |= 1u << k;
                        break;
                    }
            park_around[i] = inter_parks_[i].forced;
            park_mask[i] = pm;
        }
        // scoring_groups.tower_office_base
        const int nt = to_t_.count, no = to_o_.count;
        i64 item_key[SQ];
        for (int k = 0; k < to_items_.count; k++) {
            const int s = to_items_.at[k];
            item_key[k] = cval_[s] * k1_ + (types_[s] == TOWER ? 1 : ku_);
        }
        std::vector<i64>& base = ws_.to_base;
        const uint32_t full = 1u << (nt + no);
        base.assign(full, 0);
        for (uint32_t mk = 1; mk < full; mk++) base[mk] = base[mk & (mk - 1)] + item_key[lowest_bit(mk)];
        std::vector<i64>& office_value = ws_.office_sum;  // reused below per hub subset
        office_value.assign(size_t{1} << no, 0);
        for (uint32_t mk = 1; mk < (1u << no); mk++) {
            uint32_t squares = 0;
            for (int i = 0; i < no; i++)
                if (mk >> i & 1u) squares |= 1u << to_o_.at[i];
            office_value[mk] = static_cast<i64>(office_vp(squares, floors_, g_)) * k1_;
        }
        for (uint32_t mk = 0; mk < full; mk++) {
            i64 v = base[mk] + office_value[mk >> nt];
            for (int i = 0; i < inter_count_; i++) v += t::PARK_VP[park_around[i] + popcount(mk & park_mask[i])] * k1_;
            base[mk] = v;
        }
        // constant tower blocks best first
        for (int i = 0; i < t_const_.count; i++) t_order_[i] = t_const_.at[i];
        std::sort(t_order_, t_order_ + t_const_.count,
                  [&](int a, int b) { return cval_[a] != cval_[b] ? cval_[a] > cval_[b] : a < b; });
        t_pref_.size = t_const_.count + 1;
        t_pref_.key[0] = 0;
        for (int i = 0; i < t_const_.count; i++) t_pref_.key[i + 1] = t_pref_.key[i] + cval_[t_order_[i]] * k1_ + 1;
    }

    // ---- Phase 4: hub tables.
    i64 pair(int s, uint32_t fm) const { return static_cast<i64>(t::PAIR_VP[types_[s]]) * popcount(pair_mask_[s] & fm); }

    bool hub_tables(uint32_t fm, HubTables& hub) {
        const int i_av = c_.inhabitants - i_forced_ - popcount(fm);
        if (i_av < 0) return false;
        hub.fm = fm;
        hub.i_av = i_av;
        hub.f_key = 0;
        for (int f : hubs_)
            if (fm & hub_bit_[f]) hub.f_key += cval_[f] * k1_ + ku_;
        for (int i = 0; i < shops_.count; i++) {
            const int s = shops_.at[i];
            hub.s_order[i] = static_cast<int8_t>(s);
            hub.s_keys[i] = (cval_[s] + pair(s, fm)) * k1_ + 1;
        }
        best_first(shops_.count, hub.s_keys, hub.s_order, hub.s_pref);
        for (int i = 0; i < i_const_.count; i++) {
            const int s = i_const_.at[i];
            hub.ic_order[i] = static_cast<int8_t>(s);
            hub.ic_keys[i] = (cval_[s] + pair(s, fm)) * k1_ + ku_;
        }
        best_first(i_const_.count, hub.ic_keys, hub.ic_order, hub.ic_pref);
        // scoring_groups.harbor_table
        const int nh = h_int_.count;
        i64 hk[SQ];
        for (int i = 0; i < nh; i++) hk[i] = (cval_[h_int_.at[i]] + pair(h_int_.at[i], fm)) * k1_ + ku_;
        hub.h_tab.size = nh + 1;
        for (int k = 0; k <= nh; k++) {
            hub.h_tab.key[k] = NEG;
            hub.h_tab.arg[k] = 0;
        }
        std::vector<i64>& own = ws_.harbor_own;
        own.assign(size_t{1} << nh, 0);
        for (uint32_t mk = 0; mk < (1u << nh); mk++) {
            if (mk) own[mk] = own[mk & (mk - 1)] + hk[lowest_bit(mk)];
            const i64 v = own[mk] + ws_.harbor_runs[mk];
            const int count = popcount(mk);
            if (v > hub.h_tab.key[count]) {
                hub.h_tab.key[count] = v;
                hub.h_tab.arg[count] = static_cast<int>(mk);
            }
        }
        maxplus(ps_tab_, hub.h_tab, hub.g1);
        maxplus(hub.g1, hub.ic_pref, hub.g_tab);
        const int e_av = c_.energy - e_forced_;
        hub.ko_max = std::min({to_o_.count, i_av, e_av});
        // scoring_groups.tower_office_table
        const int nt = to_t_.count, no = to_o_.count;
        std::vector<i64>& osum = ws_.office_sum;
        osum.assign(size_t{1} << no, 0);
        for (uint32_t mk = 1; mk < (1u << no); mk++)
            osum[mk] = osum[mk & (mk - 1)] + pair(to_o_.at[lowest_bit(mk)], fm) * k1_;
        const int width = no + 1;
        const uint32_t tmask = (1u << nt) - 1;
        hub.to_key->assign(static_cast<size_t>((nt + 1) * width), NEG);
        hub.to_arg->assign(static_cast<size_t>((nt + 1) * width), 0);
        const uint32_t full = 1u << (nt + no);
        for (uint32_t mk = 0; mk < full; mk++) {
            const uint32_t om = mk >> nt;
            const int ko = popcount(om), kt = popcount(mk & tmask);
            if (ko > hub.ko_max || kt + ko > e_av) continue;
            const i64 v = ws_.to_base[mk] + osum[om];
            const int ix = kt * width + ko;
            if (v > (*hub.to_key)[ix]) {
                (*hub.to_key)[ix] = v;
                (*hub.to_arg)[ix] = mk;
            }
        }
        return true;
    }

    // ---- Phase 5: combination (combine, _inhabitant_split).
    Choice combine(const HubTables& hub) const {
        const int e_av = c_.energy - e_forced_;
        const int nt = to_t_.count, width = to_o_.count + 1;
        const int nt_c = t_pref_.size - 1;
        const i64 base_key = (base_vp_ - c_.inhabitants - estar_) * k1_ + i_forced_ * t::K2 + n_forced_;
        Choice best{NEG, 0, 0, 0, 0, 0};
        for (int ko = 0; ko <= hub.ko_max; ko++) {
            const int l_av = hub.i_av - ko;
            const int ks_max = std::min(shops_.count, e_av - ko);
            for (int ks = 0; ks <= ks_max; ks++) {
                const i64 shop_room = static_cast<i64>(cap_) * (n_shops_forced_ + ks);
                i64 i_key = NEG;
                int i_m = 0;
                const int m_max = std::min(l_av, hub.g_tab.size - 1);
                for (int m = 0; m <= m_max; m++) {
                    const i64 gv = hub.g_tab.key[m];
                    if (gv <= HALF_NEG) continue;
                    const i64 v = gv + customers_key(l_av - m, shop_room, cap_, k1_);
                    if (v > i_key) {
                        i_key = v;
                        i_m = m;
                    }
                }
                const int b_left = e_av - ko - ks;  // energy left for tower blocks
                const i64 part = hub.f_key + hub.s_pref.key[ks] + i_key + base_key;
                const int kt_max = std::min(nt, b_left);
                for (int kt = 0; kt <= kt_max; kt++) {
                    const i64 tv = (*hub.to_key)[kt * width + ko];
                    if (tv <= HALF_NEG) continue;
                    const int tc = nt_c < b_left - kt ? nt_c : b_left - kt;
                    // §3, R11: each energy unit used, up to the `estar` that would pollute, saves 1 VP.
                    const i64 e_used = e_forced_ + ko + ks + kt + tc;
                    const i64 v = part + tv + t_pref_.key[tc] + (e_used < estar_ ? e_used : estar_) * k1_;
                    if (v > best.key) best = Choice{v, ko, ks, kt, tc, i_m};
                }
            }
        }
        return best;
    }

    // ---- Phases 4-6: every hub subset in increasing bitmask order (first best kept), then
    // the activation of the best combination.
    void solve_and_activate(bool* active) {
        HubTables current, best_hub;
        current.to_key = &ws_.to_key;
        current.to_arg = &ws_.to_arg;
        best_hub.to_key = &ws_.best_to_key;
        best_hub.to_arg = &ws_.best_to_arg;
        Choice best{NEG, 0, 0, 0, 0, 0};
        bool have = false;
        const uint32_t subsets = 1u << hubs_.count;
        for (uint32_t fm = 0; fm < subsets; fm++) {
            if (!hub_tables(fm, current)) continue;
            const Choice choice = combine(current);
            if (!have || choice.key > best.key) {
                best = choice;
                have = true;
                std::swap(current, best_hub);
            }
        }
        for (int s = 0; s < SQ; s++) active[s] = s < g_.size && state_[s] == FORCED;
        if (!have) return;  // cannot happen: the empty hub subset is always feasible
        for (int f : hubs_)
            if (best_hub.fm & hub_bit_[f]) active[f] = true;
        const uint32_t to_mk = (*best_hub.to_arg)[best.kt * (to_o_.count + 1) + best.ko];
        for (int i = 0; i < to_items_.count; i++)
            if (to_mk >> i & 1u) active[to_items_.at[i]] = true;
        for (int i = 0; i < best.tc; i++) active[t_order_[i]] = true;
        for (int i = 0; i < best.ks; i++) active[best_hub.s_order[i]] = true;
        const int a1 = best_hub.g_tab.arg[best.m];  // inhabitant users from services + harbors
        for (int i = 0; i < best.m - a1; i++) active[best_hub.ic_order[i]] = true;
        const int n_ps = best_hub.g1.arg[a1];
        const uint32_t hm = static_cast<uint32_t>(best_hub.h_tab.arg[a1 - n_ps]);
        for (int i = 0; i < h_int_.count; i++)
            if (hm >> i & 1u) active[h_int_.at[i]] = true;
        for (int s = 0; s < g_.size; s++)
            if (ps_choice_[n_ps] >> s & 1u) active[s] = true;
    }
};

// building_ok without the message (the scorer's own guard).
bool square_ok(const Square& q, int mode) {
    if (q.type == -1) return q.floors == 0 && q.vp == 0 && q.tree == 0;
    if (q.type < -1 || q.type > 7) return false;
    return q.floors >= 1 && q.floors <= t::FLOOR_LIMIT[mode * 8 + q.type] && q.vp >= 0 &&
           q.vp <= t::PRINTED_VP_MAX[q.type] && (q.tree == 0 || (q.tree == 1 && q.type == PARK));
}

// What the placement leaves: inhabitants used by activated buildings, customers in shops,
// inhabitants and energy left unused (before parks absorb energy, R11).
struct Leftover {
    int used_inhabitants, customers, free_inhabitants, unused_energy;
};

// scoring._placement: `standing` gets the type standing at scoring per square (R12: parks,
// monuments and activated buildings; -1 none), `customers` the customers per shop square
// (shops fill in square order, as few as possible), `p` the placement.
Leftover place(const City& c, const Geometry& g, const bool* active, bool all_parks_absorb, int* standing,
               int* customers, Placement& p) {
    const int cap = c.mode == EXPERT ? 5 : 4;
    p.activated_count = p.customers_count = p.absorbing_count = p.removed_count = 0;
    int used_i = 0, used_e = 0;
    for (int s = 0; s < g.size; s++) {
        const int ty = c.squares[s].type;
        standing[s] = ty == PARK || ty == MONUMENT ? ty : -1;
        customers[s] = 0;
        if (ty < 0 || ty == PARK || ty == MONUMENT) continue;
        if (!active[s]) {
            p.removed[p.removed_count++] = static_cast<int8_t>(s);
            continue;
        }
        standing[s] = ty;
        p.activated[p.activated_count++] = static_cast<int8_t>(s);
        used_e += uses_energy(ty);
        used_i += uses_inhabitant(ty);
    }
    int free = c.inhabitants - used_i, n_customers = 0;
    for (int s = 0; s < g.size; s++) {
        if (standing[s] != SHOP) continue;
        const int k = std::min(cap, free);
        if (k <= 0) break;
        customers[s] = k;
        p.customer_square[p.customers_count] = static_cast<int8_t>(s);
        p.customers[p.customers_count++] = static_cast<int8_t>(k);
        free -= k;
        n_customers += k;
    }
    const int unused_e = c.energy - used_e;
    for (int s = 0; s < g.size && p.absorbing_count < std::max(0, unused_e); s++)
        if (c.squares[s].type == PARK && (all_parks_absorb || c.squares[s].tree))
            p.absorbing_parks[p.absorbing_count++] = static_cast<int8_t>(s);
    p.unused_inhabitants = free;
    p.unused_energy = unused_e;
    return Leftover{used_i, n_customers, free, unused_e};
}

// Sum of vp_by_type over the buildings standing next to square s (factories, monuments).
int neighbour_vp(const Geometry& g, const int* standing, int s, const int* vp_by_type) {
    int vp = 0;
    for (int a = 0; a < g.neighbour_count(s); a++) {
        const int o = standing[g.neighbour(s, a)];
        if (o >= 0) vp += vp_by_type[o];
    }
    return vp;
}

// Park VP of square s: by the tower blocks (and, in Expert, office towers) around it.
int park_vp(const City& c, const Geometry& g, const int* standing, int s) {
    int users = 0;
    for (int a = 0; a < g.neighbour_count(s); a++) {
        const int o = standing[g.neighbour(s, a)];
        users += o == TOWER || (c.mode == EXPERT && o == OFFICE);
    }
    return t::PARK_VP[users];
}

// scoring._building_vp: VP of the standing buildings, the first 8 categories of `b`.
void building_vp(const City& c, const Geometry& g, const int* standing, const int* customers, int32_t* b) {
    for (int k = 0; k < 8; k++) b[k] = 0;
    uint32_t districts = 0, harbors = 0, offices = 0;
    for (int s = 0; s < g.size; s++) {
        switch (standing[s]) {
            case TOWER: b[0] += t::TOWER_VP[c.squares[s].floors]; break;
            case SHOP: b[1] += t::SHOP_VP[customers[s]]; break;
            case SERVICE:
                b[2] += c.squares[s].vp;
                districts |= 1u << g.district(s);
                break;
            case PARK: b[3] += park_vp(c, g, standing, s); break;
            case FACTORY: b[4] += neighbour_vp(g, standing, s, t::PAIR_VP); break;
            case HARBOR:
                b[5] += c.squares[s].vp;
                harbors |= 1u << s;
                break;
            case OFFICE: offices |= 1u << s; break;
            case MONUMENT: b[7] += neighbour_vp(g, standing, s, t::MONUMENT_VP); break;
            default: break;
        }
    }
    int8_t floors[SQ];
    for (int s = 0; s < SQ; s++) floors[s] = s < g.size ? c.squares[s].floors : 0;
    b[2] += t::DISTRICT_VP[popcount(districts)];
    b[5] += run_vp(harbors, g);
    b[6] = offices ? office_vp(offices, floors, g) : 0;
}

// scoring._placement then scoring.evaluate (the rules as written, on that activation).
void place_and_evaluate(const City& c, const bool* active, bool all_parks_absorb, CityScore& out) {
    const Geometry g = geometry_of(c.mode);
    int standing[SQ];
    int customers[SQ];
    const Leftover left = place(c, g, active, all_parks_absorb, standing, customers, out.placement);
    int32_t* b = out.breakdown;
    building_vp(c, g, standing, customers, b);
    b[8] = -left.free_inhabitants;
    b[9] = -std::max(0, left.unused_energy - out.placement.absorbing_count);  // R11: absorbed energy does not pollute
    out.total = 0;
    for (int k = 0; k < CATEGORY_COUNT; k++) out.total += b[k];
    out.inhabitants_placed = left.used_inhabitants + left.customers;
    out.empty_squares = 0;
    for (int s = 0; s < g.size; s++) out.empty_squares += standing[s] < 0;
}

}  // namespace

City city_of(const State& s, int player) {
    City c;
    c.mode = s.config.mode;
    if (player < 0 || player >= MAX_PLAYERS) player = 0;  // bounds only: callers pass a seat
    for (int q = 0; q < SQ; q++) c.squares[q] = s.cities[player][q];
    c.inhabitants = s.inhabitants[player];
    c.energy = s.energy[player];
    return c;
}

bool building_ok(const Square& q, int mode, char* why, int size) {
    static const char* const KEYS[8] = {"tower_block", "shop", "public_service", "park",
                                        "factory", "harbor", "office_tower", "monument"};
    if (q.type == -1) {
        if (q.floors == 0 && q.vp == 0 && q.tree == 0) return true;
        std::snprintf(why, static_cast<size_t>(size), "an empty square (type -1) must have floors, vp and tree 0");
        return false;
    }
    if (q.type < -1 || q.type > 7) {
        std::snprintf(why, static_cast<size_t>(size), "type must be -1 (empty) or a BuildingType 0-7, got %d", q.type);
        return false;
    }
    const char* key = KEYS[q.type];
    const int limit = t::FLOOR_LIMIT[mode * 8 + q.type];
    if (limit == 0) {
        std::snprintf(why, static_cast<size_t>(size), "%ss exist only in expert mode", key);
        return false;
    }
    if (q.floors < 1) {
        std::snprintf(why, static_cast<size_t>(size), "'floors' must be at least 1, got %d", q.floors);
        return false;
    }
    if (q.floors > limit) {
        std::snprintf(why, static_cast<size_t>(size), "a %s has at most %d floor(s) in %s mode, got %d", key, limit,
                      mode == EXPERT ? "expert" : "classic", q.floors);
        return false;
    }
    if (q.vp < 0) {
        std::snprintf(why, static_cast<size_t>(size), "'vp' must not be negative, got %d", q.vp);
        return false;
    }
    if (q.vp > t::PRINTED_VP_MAX[q.type]) {
        std::snprintf(why, static_cast<size_t>(size), "a %s prints at most %d VP (TILES.md), got 'vp': %d", key,
                      t::PRINTED_VP_MAX[q.type], q.vp);
        return false;
    }
    if (q.tree != 0 && q.tree != 1) {
        std::snprintf(why, static_cast<size_t>(size), "'tree' must be 0 or 1, got %d", q.tree);
        return false;
    }
    if (q.tree && q.type != PARK) {
        std::snprintf(why, static_cast<size_t>(size), "a %s cannot be a tree park", key);
        return false;
    }
    return true;
}

bool score_city(const City& city, bool all_parks_absorb, CityScore& out) {
    std::memset(&out, 0, sizeof out);
    if (city.mode != CLASSIC && city.mode != EXPERT) return false;
    if (city.inhabitants < 0 || city.inhabitants > t::RESOURCE_MAX || city.energy < 0 || city.energy > t::RESOURCE_MAX)
        return false;
    for (int s = 0; s < t::CITY_SIZE[city.mode]; s++)
        if (!square_ok(city.squares[s], city.mode)) return false;
    thread_local Workspace workspace;
    bool active[SQ];
    Solver(city, all_parks_absorb, workspace).run(active);
    place_and_evaluate(city, active, all_parks_absorb, out);
    return true;
}

void rank_key(const CityScore& score, RankKey& key) {
    key[0] = score.total;
    key[1] = score.inhabitants_placed;
    key[2] = -score.empty_squares;
}

bool ranks_below(const RankKey& a, const RankKey& b) {
    for (int k = 0; k < RANK_KEY_SIZE; k++)
        if (a[k] != b[k]) return a[k] < b[k];
    return false;
}

int rank_winners(const RankKey* keys, int players, bool* winner) {
    int best = 0;
    for (int p = 1; p < players; p++)
        if (ranks_below(keys[best], keys[p])) best = p;
    int winners = 0;
    for (int p = 0; p < players; p++) {
        winner[p] = !ranks_below(keys[p], keys[best]);
        winners += winner[p];
    }
    return winners;
}

}  // namespace quadropolis
