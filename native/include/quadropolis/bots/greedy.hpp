// The greedy bot's move values (bots.simple.GreedyBot.values): for each legal move, in
// legal-move order, the tuple (projected total, inhabitants placed, -empty squares, built,
// inhabitants + energy) of the mover's own city after it.
#pragma once
#include "quadropolis/game.hpp"

namespace quadropolis {

constexpr int GREEDY_VALUE_SIZE = 5;

struct GreedyValue {
    int32_t value[GREEDY_VALUE_SIZE];
    int move;
};

struct GreedyValues {
    int count;
    GreedyValue entries[MAX_LEGAL];
};

void greedy_values(const State& s, GreedyValues& out);

}  // namespace quadropolis
