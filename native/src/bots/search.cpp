#include "quadropolis/bots/search.hpp"

#include <chrono>
#include <cmath>
#include <vector>

#include "quadropolis/bots/greedy.hpp"
#include "quadropolis/bots/policy.hpp"
#include "quadropolis/scoring.hpp"

namespace quadropolis {
namespace {

constexpr int NONE = -1;
constexpr int SEED_BITS = 62;  // bots.base.determinize: rng.getrandbits(62)
constexpr int32_t RESOURCE_PLENTY = 999;  // city.RESOURCE_MAX
constexpr int UNUSED_CATEGORY = 8;        // scoring.CATEGORIES: unused_inhabitants
constexpr int POLLUTION_CATEGORY = 9;     // scoring.CATEGORIES: pollution

// One tree node, kept in a vector that is the search's arena (indices, not pointers: the
// vector grows). Children are a singly linked list in expansion order (the order of the
// node's candidate moves), so a node costs the same whether it has 1 or 40 children; its
// candidate moves (computed on the first visit that expands it) sit in a shared pool.
struct Node {
    int32_t first_child = NONE;
    int32_t last_child = NONE;
    int32_t next_sibling = NONE;
    int32_t moves_at = NONE;  // offset of the candidate moves in the pool; NONE: not listed yet
    uint8_t move_count = 0;
    uint8_t child_count = 0;
    uint8_t move = 0;   // the move that leads here from the parent
    int8_t player = 0;  // the player to move here
    int32_t visits = 0;
    double reward[MAX_PLAYERS] = {0, 0, 0, 0};  // summed per player
};
static_assert(sizeof(Node) == 56, "docs/native.md gives the node's size");

// mcts.evaluate: (value per player, winners) of a finished game (totals; winners by R13) or
// a truncated one (totals plus `credit` per unused resource, blended with the fed score by
// `fed`; the best value wins).
struct Leaf {
    double value[MAX_PLAYERS];
    bool winner[MAX_PLAYERS];
    int winners;
};

// outcome.fed_score: the city scored with resources in plenty, less the penalties for what is
// left over -- what its buildings are worth once fed.
int32_t fed_score(const State& s, int player) {
    City city = city_of(s, player);
    city.inhabitants = city.energy = RESOURCE_PLENTY;
    CityScore score;
    score_city(city, s.config.all_parks_absorb, score);
    return score.total - score.breakdown[UNUSED_CATEGORY] - score.breakdown[POLLUTION_CATEGORY];
}

// A truncated leaf's value of `player`'s city (mcts.leaf_value): its score as it stands plus
// `credit` per unused resource, and with `fed` > 0 that blended with its fed score.
double leaf_value(const State& s, int player, const CityScore& score, const SearchOptions& o) {
    const Placement& pl = score.placement;
    const double now = score.total + o.credit * (pl.unused_inhabitants + pl.unused_energy);
    if (o.fed <= 0) return now;
    return (1.0 - o.fed) * now + o.fed * fed_score(s, player);
}

void evaluate(const State& s, const SearchOptions& options, Leaf& leaf) {
    const int n = s.config.players;
    const bool over = s.phase == OVER;
    RankKey key[MAX_PLAYERS];
    CityScore score;
    for (int p = 0; p < n; p++) {
        score_city(city_of(s, p), s.config.all_parks_absorb, score);
        leaf.value[p] = over ? double(score.total) : leaf_value(s, p, score, options);
        rank_key(score, key[p]);
    }
    if (over) {
        leaf.winners = rank_winners(key, n, leaf.winner);
        return;
    }
    int best = 0;  // a truncated game: the best value wins
    for (int p = 1; p < n; p++)
        if (leaf.value[p] > leaf.value[best]) best = p;
    leaf.winners = 0;
    for (int p = 0; p < n; p++) {
        leaf.winner[p] = !(leaf.value[best] > leaf.value[p]);
        leaf.winners += leaf.winner[p];
    }
}

// mcts.margin: `p`'s value less the best other player's (VP; what the reward squashes and
// the root statistics sum).
double margin(const Leaf& leaf, int players, int p) {
    double best_other = -1e300;
    for (int i = 0; i < players; i++)
        if (i != p && leaf.value[i] > best_other) best_other = leaf.value[i];
    return leaf.value[p] - best_other;
}

// mcts.reward: half the win share, half the margin against the best other player squashed.
void reward(const Leaf& leaf, int players, double* out) {
    const double share = 1.0 / leaf.winners;
    for (int p = 0; p < players; p++) {
        const double win = leaf.winner[p] ? share : 0.0;
        out[p] = 0.5 * win + 0.25 * (1.0 + std::tanh(margin(leaf, players, p) / MARGIN_SCALE));
    }
}

class Tree {
public:
    Tree(const State& root, uint64_t seed, const SearchOptions& options) : root_(root), options_(options) {
        rng_.seed_int(seed);
        const int horizon = options.horizon < 0 ? default_horizon(root.config.mode) : options.horizon;
        rollout_steps_ = horizon > 0 ? horizon * root.config.players : 1 << 30;
        nodes_.reserve(reserve_for(options.iterations));
        pool_.reserve(nodes_.capacity() * 8);
        nodes_.emplace_back();
        nodes_[0].player = static_cast<int8_t>(current_player(root));
        if (options.bias > 0) root_bias();
    }

    void run(SearchResult& out);

private:
    State root_;
    SearchOptions options_;
    Random rng_;
    int rollout_steps_ = 0;
    std::vector<Node> nodes_;
    std::vector<uint8_t> pool_;
    bool biased_ = false;
    double bias_of_[MOVE_COUNT] = {};  // bias * (greedy value - best) / MARGIN_SCALE per root move
    double prior_[MOVE_COUNT] = {};     // greedy value - best per root move (orders the root)
    RootMove stats_[MOVE_COUNT] = {};
    int path_[MAX_GAME_MOVES + 1];

    static size_t reserve_for(int64_t iterations) {
        // One node per iteration at most, plus the root (a time budget starts small and grows).
        return iterations > 0 && iterations < (1 << 22) ? static_cast<size_t>(iterations) + 1 : 4096;
    }
    void root_bias();
    void list_moves(int node, const State& s);
    int select_child(int node) const;
    bool stop_early(int64_t done) const;
    void simulate();
};

// mcts.greedy_prior and the progressive bias: each root move's projected score (greedy's
// value, exact scoring) minus the best one's.
void Tree::root_bias() {
    GreedyValues values;
    greedy_values(root_, values);
    if (values.count == 0) return;
    int32_t best = values.entries[0].value[0];
    for (int i = 1; i < values.count; i++)
        if (values.entries[i].value[0] > best) best = values.entries[i].value[0];
    for (int i = 0; i < values.count; i++) {
        const int m = values.entries[i].move;
        prior_[m] = double(values.entries[i].value[0] - best);
        bias_of_[m] = options_.bias * prior_[m] / MARGIN_SCALE;
    }
    biased_ = true;
}

// The node's candidate moves, best first by the prior (the root: by greedy's value first,
// a stable sort over the prior's order, when biased).
void Tree::list_moves(int node, const State& s) {
    MoveList moves;
    ordered_moves(s, moves);
    if (node == 0 && biased_) {
        for (int i = 1; i < moves.count; i++) {
            const uint8_t m = moves.moves[i];
            int j = i;
            for (; j > 0 && prior_[moves.moves[j - 1]] < prior_[m]; j--) moves.moves[j] = moves.moves[j - 1];
            moves.moves[j] = m;
        }
    }
    Node& n = nodes_[node];
    n.moves_at = static_cast<int32_t>(pool_.size());
    n.move_count = static_cast<uint8_t>(moves.count);
    pool_.insert(pool_.end(), moves.moves, moves.moves + moves.count);
}

// Max^n UCT: the child maximising the mover's mean reward plus the exploration term (plus the
// fading progressive bias at the root); the first maximum wins; unvisited children first.
int Tree::select_child(int node) const {
    const Node& n = nodes_[node];
    const int p = n.player;
    const double log_n = std::log(double(n.visits + 1));
    const bool biased = node == 0 && biased_;
    double best_v = -1e18;
    int best = n.first_child;
    for (int c = n.first_child; c != NONE; c = nodes_[c].next_sibling) {
        const Node& ch = nodes_[c];
        double v = ch.visits ? ch.reward[p] / ch.visits + options_.c * std::sqrt(log_n / ch.visits) : 1e9;
        if (biased) v += bias_of_[ch.move] / (ch.visits + 1);
        if (v > best_v) best_v = v, best = c;
    }
    return best;
}

// Deterministic early stop (counts only): the most visited root child cannot be overtaken by
// the iterations left.
bool Tree::stop_early(int64_t done) const {
    const Node& root = nodes_[0];
    if (options_.iterations < 0 || (done & 63) != 0 || root.child_count < 2 || done < options_.iterations / 4)
        return false;
    int64_t first = 0, second = 0;
    for (int c = root.first_child; c != NONE; c = nodes_[c].next_sibling) {
        const int64_t v = nodes_[c].visits;
        if (v > first)
            second = first, first = v;
        else if (v > second)
            second = v;
    }
    return first - second > options_.iterations - done;
}

// One iteration: determinise, descend (expanding one node) within the root's round, roll out,
// evaluate the leaf, back the rewards up the path and into the root move's statistics.
void Tree::simulate() {
    State s = root_;
    s.config.seed = static_cast<int64_t>(rng_.getrandbits(SEED_BITS));
    const int root_round = root_.round;
    int node = 0, depth = 0;
    path_[depth++] = 0;
    while (s.phase != OVER && s.round == root_round && depth <= MAX_GAME_MOVES) {
        if (nodes_[node].moves_at == NONE) list_moves(node, s);
        const Node& n = nodes_[node];
        const double widened = std::ceil(options_.pw_c * std::pow(double(n.visits + 1), options_.pw_alpha));
        const int allowed = widened < n.move_count ? static_cast<int>(widened) : n.move_count;
        if (n.child_count < allowed) {
            const int move = pool_[n.moves_at + n.child_count];
            do_apply(s, move);
            const int child = static_cast<int>(nodes_.size());
            nodes_.emplace_back();  // may move the vector: `n` is not used past this point
            Node& c = nodes_[child];
            c.move = static_cast<uint8_t>(move);
            c.player = static_cast<int8_t>(current_player(s));
            Node& parent = nodes_[node];
            if (parent.last_child == NONE)
                parent.first_child = child;
            else
                nodes_[parent.last_child].next_sibling = child;
            parent.last_child = child;
            parent.child_count++;
            path_[depth++] = child;
            break;
        }
        node = select_child(node);
        do_apply(s, nodes_[node].move);
        path_[depth++] = node;
    }
    MoveList scratch;
    for (int steps = rollout_steps_; s.phase != OVER && steps > 0; steps--) do_apply(s, rollout_move(s, rng_, scratch, options_.greed));
    while (s.phase == PLACE) do_apply(s, rollout_move(s, rng_, scratch, options_.greed));  // a building in hand is placed first
    Leaf leaf;
    evaluate(s, options_, leaf);
    const int players = s.config.players;
    double r[MAX_PLAYERS];
    reward(leaf, players, r);
    if (depth > 1) {
        const int me = nodes_[0].player;
        RootMove& stat = stats_[nodes_[path_[1]].move];
        stat.visits++;
        stat.wins += leaf.winner[me] ? 1.0 / leaf.winners : 0.0;
        stat.value += leaf.value[me];
        stat.margin += margin(leaf, players, me);
    }
    for (int i = 0; i < depth; i++) {
        Node& nd = nodes_[path_[i]];
        nd.visits++;
        for (int p = 0; p < players; p++) nd.reward[p] += r[p];
    }
}

void Tree::run(SearchResult& out) {
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    const auto budget = std::chrono::duration<double>(options_.seconds);
    int64_t done = 0;
    while (true) {
        if (options_.iterations >= 0 && (done >= options_.iterations || stop_early(done))) break;
        if (options_.seconds >= 0 && done && clock::now() - start >= budget) break;
        done++;
        simulate();
    }
    out.iterations = done;
    out.count = 0;
    for (int c = nodes_[0].first_child; c != NONE; c = nodes_[c].next_sibling) {
        RootMove entry = stats_[nodes_[c].move];
        entry.move = nodes_[c].move;
        entry.visits = nodes_[c].visits;
        out.moves[out.count++] = entry;
    }
}

}  // namespace

int default_horizon(int mode) { return mode == EXPERT ? 6 : 0; }

bool search(const State& root, uint64_t seed, const SearchOptions& options, SearchResult& out) {
    out.count = 0;
    out.iterations = 0;
    if (root.phase == OVER || (options.iterations < 0 && options.seconds < 0)) return false;
    Tree tree(root, seed, options);
    tree.run(out);
    return true;
}

}  // namespace quadropolis
