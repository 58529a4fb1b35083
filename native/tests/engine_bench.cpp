// Whole random playouts with final scoring inside the engine (no Python, no crossing): the
// engine's own speed, beside scripts/native_bench.py's figures through the binding.
// usage: engine_bench [GAMES]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "quadropolis/game.hpp"
#include "quadropolis/scoring.hpp"

using namespace quadropolis;

namespace {

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// n games of (mode, players), game g with seed g and random.Random(g), all cities scored.
double games_per_second(int mode, int players, int n, long& check) {
    const double start = cpu_seconds();
    for (int g = 0; g < n; g++) {
        State s = new_state(Config{g, static_cast<int8_t>(mode), static_cast<int8_t>(players), 0, false, false});
        Random rng;
        rng.seed_signed(g);
        uint8_t played[MAX_GAME_MOVES];
        random_playout(s, rng, played);
        for (int p = 0; p < players; p++) {
            CityScore score;
            score_city(city_of(s, p), false, score);
            check += score.total;
        }
    }
    return n / (cpu_seconds() - start);
}

}  // namespace

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20000;
    long check = 0;
    for (int mode = 0; mode <= 1; mode++)
        for (int players : {4, 2}) {
            double best = 0;
            for (int round = 0; round < 3; round++) best = std::max(best, games_per_second(mode, players, n, check));
            std::printf("%s %dp: %.0f games/s (best of 3 runs of %d, CPU time)\n", mode ? "expert" : "classic", players,
                        best, n);
        }
    std::printf("checksum %ld\n", check);
    return 0;
}
