// The search bot's Monte Carlo tree search (bots.mcts), compiled: determinisation at round
// boundaries (each iteration draws a fresh seed for the rounds to come), max^n UCT with
// progressive widening over the prior's ordered moves, horizon rollouts with the prior's
// rollout policy, and exact scoring of the leaves. One call searches one tree; root-parallel
// trees are several calls with distinct seeds (any thread: nothing is shared but the tables).
// Deterministic for a seed with an iteration budget.
#pragma once
#include <cstdint>

#include "quadropolis/game.hpp"

namespace quadropolis {

constexpr double MARGIN_SCALE = 15.0;  // mcts.MARGIN_SCALE: VP margin that squashes to tanh(1)

struct SearchOptions {
    int64_t iterations = 1000;  // < 0: no iteration budget (then `seconds` must be >= 0)
    double seconds = -1.0;      // < 0: no time budget; else stop once this much time has passed
    double c = 0.7;             // UCT exploration constant
    double pw_c = 2.0;          // progressive widening: ceil(pw_c * (n + 1) ** pw_alpha) children
    double pw_alpha = 0.5;
    int horizon = -1;           // rollout actions per player; 0: to the end; < 0: the mode's default
    double credit = 1.0;        // VP per unused resource at a truncated leaf
    double fed = 0.0;           // 0-1: weight of the fed score (outcome.fed_score) in a truncated leaf's value
    double bias = 0.0;          // > 0: progressive bias at the root from greedy's values
    double greed = 0.0;         // 0-1: how often a rollout's take is the best by the prior (else uniform)
};

// What the search found for one root move: visits, and over those simulations the summed
// win share, value (VP) and margin (VP: value less the best other player's, as the reward
// takes it) of the player to move at the root (mcts.search's root_stats).
struct RootMove {
    int move;
    int64_t visits;
    double wins;
    double value;
    double margin;
};

struct SearchResult {
    int count;  // root children, in expansion order
    RootMove moves[MAX_LEGAL];
    int64_t iterations;  // simulations run
};

// mcts.DEFAULT_HORIZON: whole rollouts in Classic, 6 actions per player in Expert.
int default_horizon(int mode);
// Search `root` (a state whose seed is hidden or not: it is replaced) with the tree seeded by
// `seed` (random.Random(seed) as CPython seeds a non-negative int). False (result empty) when
// the game is over or the options make no budget.
bool search(const State& root, uint64_t seed, const SearchOptions& options, SearchResult& out);

}  // namespace quadropolis
