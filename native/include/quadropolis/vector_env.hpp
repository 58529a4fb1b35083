// A batch of games stepped together for reinforcement learning (quadropolis.envs.vector): in
// each game the agent holds one seat and the engine's own bots (random, greedy) play the
// others, exactly as the Gymnasium env QuadropolisEnv plays them (the same bot generators,
// random.Random("bot/SEED/SEAT"), the same choices), so a game of the batch is the very game
// the single env plays from the same seed and actions. Observations, masks and rewards are
// written into caller-provided arrays; a finished game starts its next episode at its next
// step (Gymnasium's NEXT_STEP autoreset). No allocation after construction.
//
// An opponent may also be decided outside (OPPONENT_EXTERNAL: a learned policy run by the
// caller over the whole batch at once). A game whose next move is such an opponent's waits:
// step() leaves its outputs unwritten, waiting() lists the waiting games, opponent_inputs() or
// opponent_observe() give what the caller's policy reads, and resume() plays the moves chosen
// and carries each game on to the agent's next decision (or to the next external one); the
// outputs of a game are written once it is the agent's turn again or its episode is over.
#pragma once
#include <cstdint>
#include <vector>

#include "quadropolis/game.hpp"
#include "quadropolis/observation.hpp"
#include "quadropolis/random.hpp"
#include "quadropolis/scoring.hpp"

namespace quadropolis {

// bots.simple RandomBot, GreedyBot; an opponent decided by the caller (see above).
enum Opponent : int8_t { OPPONENT_RANDOM = 0, OPPONENT_GREEDY = 1, OPPONENT_EXTERNAL = 2 };
// bots.neural's raw inputs of a position (neural.RAW_CONTEXT and RAW_MOVE columns).
constexpr int NEURAL_CONTEXT = 20;
constexpr int NEURAL_MOVE = 7;
enum RewardScheme : int8_t { REWARD_WIN_SHARE = 0, REWARD_MARGIN = 1 };  // envs.rewards.REWARDS

struct VectorConfig {
    Config game;         // the seed is each episode's own
    int seat;            // the agent's seat, or -1: drawn at each episode from the game's stream
    int8_t opponents[MAX_PLAYERS - 1];  // one per other seat, in seat order
    int8_t scheme;       // RewardScheme
    double dense;        // dense reward coefficient (0: none)
    double illegal_reward;
    bool normalize;      // observations multiplied by Encoding::scale
};

// Where a reset or a step writes, one row per game.
struct VectorOutput {
    float* observations;  // [games][observation size]
    int8_t* masks;        // [games][MOVE_COUNT]: all ones once the game's episode is over
    double* rewards;      // [games]
    bool* terminated;     // [games]
    bool* illegal;        // [games]: the episode ended on an illegal action
    int32_t* seats;       // [games]: the agent's seat
};

class VectorGames {
public:
    VectorGames(const Encoding& encoding, const VectorConfig& config, int count);

    int count() const { return static_cast<int>(games_.size()); }
    // Start every game's episode: game i plays the engine's game with seed seeds[i] (>= 0);
    // its later episodes take their seeds from a SplitMix64 stream seeded with seeds[i].
    // seats (may be null): game i's agent seat in that first episode where seats[i] >= 0 (the
    // seat drawn as the single env draws it, by the caller), else the configured or drawn seat.
    void reset(const int64_t* seeds, const int32_t* seats, VectorOutput& out);
    // The first game whose action (ignored in a game whose episode is over) is not legal, or -1.
    int first_illegal(const int64_t* actions) const;
    // One step of every game (see the header's comment); an illegal action ends its episode
    // with the configured illegal reward.
    void step(const int64_t* actions, VectorOutput& out);
    // Starts at once the next episode of each listed game whose episode is over (games in
    // ascending order), as its next step would (Gymnasium's SAME_STEP autoreset, done by the
    // caller), writing its outputs like a step. Returns the first k whose game is out of order
    // or whose episode is not over; -1 if none (only then does anything start).
    int restart(const int32_t* games, int count, VectorOutput& out);
    // The result of every game whose episode ended by the end of its game (not by an illegal
    // action) and has not restarted since: over[i] set, scores[i][p] each seat's VP, winners[i][p]
    // R13's winners (outcome.outcome_of), margins[i] the agent's VP minus the best other VP; the
    // rows of the other games are zeroed. Rows are `players` wide. The keys are those the final
    // reward was computed from, kept when the episode ended: nothing is scored again.
    void results(int32_t* scores, bool* winners, int32_t* margins, bool* over) const;

    const State& state(int game) const { return games_[game].state; }
    int64_t episode_seed(int game) const { return games_[game].seed; }
    int agent_seat(int game) const { return games_[game].agent; }
    bool episode_over(int game) const { return games_[game].done; }
    bool episode_waiting(int game) const { return games_[game].waiting; }

    // The games waiting for an external opponent's move, in ascending order, and which
    // opponent is to move in each (opponents[k]: its index in VectorConfig::opponents);
    // returns their count.
    int waiting(int32_t* games, int32_t* opponents) const;
    // Each listed waiting game's seat to move (seats[k]), and bots.neural's raw inputs: its
    // context (NEURAL_CONTEXT ints per game) and one row of NEURAL_MOVE ints per legal move
    // (greedy's value, the move, a take's building kind or -1), the games' rows one after
    // another (room for count * MAX_LEGAL rows), their number per game in counts[k].
    void opponent_inputs(const int32_t* games, int count, int32_t* seats, int32_t* context, int32_t* rows,
                         int32_t* counts) const;
    // Each listed waiting game's observation from the seat to move, and its legal moves.
    void opponent_observe(const int32_t* games, int count, float* observations, int8_t* masks) const;
    // Plays moves[k] in the k-th listed waiting game (games in ascending order), then carries it
    // on (see above). Returns the first k whose game is out of order or not waiting or whose
    // move is not legal; -1 if none (only then is anything played).
    int resume(const int32_t* games, const int64_t* moves, int count, VectorOutput& out);

private:
    struct Game {
        State state;
        Random bots[MAX_PLAYERS];
        uint64_t stream;  // SplitMix64: the seeds (and drawn seats) of later episodes
        int64_t seed;
        int agent;
        int8_t opponent[MAX_PLAYERS];  // by seat (the agent's entry unused)
        int32_t scores[MAX_PLAYERS];   // projected score after the agent's last build (dense)
        RankKey final[MAX_PLAYERS];    // each seat's rank key once the game is over (ended)
        bool done;
        bool ended;                    // the episode is over by the end of the game (final set)
        bool waiting;                  // an external opponent is to move
        int8_t legal[MOVE_COUNT];      // the agent's legal moves now (action_mask), kept by observe

    };
    Encoding encoding_;
    VectorConfig config_;
    std::vector<Game> games_;

    void start(Game& g, int64_t seed, int seat);
    void next_episode(Game& g, int index, VectorOutput& out);
    void play_bots(Game& g);
    double final_reward(Game& g) const;
    int32_t margin(const Game& g) const;
    double play(Game& g, int action, bool& illegal);
    void observe(Game& g, int index, VectorOutput& out) const;
    void settle(Game& g, int index, VectorOutput& out);
    static bool allowed(const Game& g, int64_t action) {
        return action >= 0 && action < MOVE_COUNT && g.legal[action];
    }
};

}  // namespace quadropolis
