// The search's cheap move prior (bots.policy): a local synergy estimate of building a tile on a
// city square, used to order a node's candidate moves (progressive widening) and to drive the
// rollouts. Same values, same orders and the same random draws as the Python prior.
#pragma once
#include "quadropolis/game.hpp"
#include "quadropolis/random.hpp"

namespace quadropolis {

// The longest horizontal and vertical run of harbors in a city (R14; policy.harbor_runs).
struct HarborRuns {
    int horizontal;
    int vertical;
};
HarborRuns harbor_runs(const Square* city, int mode);

// policy.placement_value: rough VP of a building of `type` on square `q` of `city` (an office
// tower or a harbor by its exact gain to its category, plus its neighbours' synergy). `runs`:
// the city's harbor_runs when `type` is a harbor (else unused).
double placement_value(const Square* city, int mode, int type, int q, HarborRuns runs);

// policy.ordered_moves: the legal moves, pruned (one take per designated square and architect
// number; one take-nothing per architect number) and best-first by the prior (ties in
// legal-move order); builds are followed by the discard.
void ordered_moves(const State& s, MoveList& out);

// policy.rollout_move: with probability 0.1 a uniformly random legal move; else a take of a
// face-up building -- with probability `greed` the one with the best prior (the first such
// in legal-move order), otherwise uniform among them -- or the build with the best prior (the
// discard when none is worth more than 0). `scratch` is working space. -1 when the game is
// over.
int rollout_move(const State& s, Random& rng, MoveList& scratch, double greed = 0.0);

}  // namespace quadropolis
