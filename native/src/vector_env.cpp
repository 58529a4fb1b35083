#include "quadropolis/vector_env.hpp"

#include <cstdio>
#include <cstring>

#include "quadropolis/bots/greedy.hpp"
#include "quadropolis/scoring.hpp"
#include "quadropolis/tables.hpp"

namespace quadropolis {
namespace {

uint64_t splitmix64(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// RandomBot.choose: legal[int(random() * len(legal))].
int random_move(const State& s, Random& rng) {
    MoveList legal;
    legal_moves(s, legal);
    return legal.moves[static_cast<int>(rng.random() * legal.count)];
}

// Lexicographic order of greedy's value tuples.
bool below(const int32_t* a, const int32_t* b, int size) {
    for (int k = 0; k < size; k++)
        if (a[k] != b[k]) return a[k] < b[k];
    return false;
}

// GreedyBot.choose: the best value (greedy_values), ties drawn as ties[int(random() * len)].
int greedy_move(const State& s, Random& rng) {
    GreedyValues values;
    greedy_values(s, values);
    int best = 0;
    for (int i = 1; i < values.count; i++)
        if (below(values.entries[best].value, values.entries[i].value, GREEDY_VALUE_SIZE)) best = i;
    int ties[MAX_LEGAL];
    int count = 0;
    for (int i = 0; i < values.count; i++)
        if (!below(values.entries[i].value, values.entries[best].value, GREEDY_VALUE_SIZE))
            ties[count++] = values.entries[i].move;
    return ties[static_cast<int>(rng.random() * count)];
}

}  // namespace

VectorGames::VectorGames(const Encoding& encoding, const VectorConfig& config, int count)
    : encoding_(encoding), config_(config), games_(static_cast<size_t>(count)) {
    for (Game& g : games_) {
        g.done = true;
        g.ended = false;
        g.seed = 0;
        g.agent = 0;
        g.waiting = false;
        std::memset(g.legal, 0, sizeof g.legal);
    }
}

void VectorGames::start(Game& g, int64_t seed, int seat) {
    const int n = config_.game.players;
    g.seed = seed;
    Config c = config_.game;
    c.seed = seed;
    g.state = new_state(c);
    g.agent = seat >= 0            ? seat
              : config_.seat >= 0 ? config_.seat
                                  : static_cast<int>(splitmix64(g.stream) % static_cast<uint64_t>(n));
    // gym_env.reset: the bot of seat p draws from bots.bot_rng(seed, p) = random.Random("bot/SEED/p").
    for (int p = 0, k = 0; p < n; p++) {
        if (p == g.agent) continue;
        char text[48];
        const int length = std::snprintf(text, sizeof text, "bot/%lld/%d", static_cast<long long>(seed), p);
        g.bots[p].seed_text(text, static_cast<size_t>(length));
        g.opponent[p] = config_.opponents[k++];
    }
    std::memset(g.scores, 0, sizeof g.scores);
    g.done = false;
    g.ended = false;
    g.waiting = false;
    play_bots(g);
}

void VectorGames::play_bots(Game& g) {
    State& s = g.state;
    while (s.phase != OVER) {
        const int p = current_player(s);
        if (p == g.agent) return;
        if (g.opponent[p] == OPPONENT_EXTERNAL) {
            g.waiting = true;
            return;
        }
        do_apply(s, g.opponent[p] == OPPONENT_GREEDY ? greedy_move(s, g.bots[p]) : random_move(s, g.bots[p]));
    }
}

// envs.rewards.final_rewards of the agent: the outcome (outcome.outcome_of, ranked by
// outcome.rank_key: total, inhabitants placed, fewest empty squares) under the scheme. Keeps
// every seat's key in g.final for results().
double VectorGames::final_reward(Game& g) const {
    const int n = config_.game.players;
    CityScore score;
    for (int p = 0; p < n; p++) {
        score_city(city_of(g.state, p), config_.game.all_parks_absorb, score);
        rank_key(score, g.final[p]);
    }
    g.ended = true;
    const int a = g.agent;
    if (config_.scheme == REWARD_MARGIN) return static_cast<double>(margin(g));
    bool winner[MAX_PLAYERS];
    const int winners = rank_winners(g.final, n, winner);
    return winner[a] ? 1.0 / winners : 0.0;
}

// The agent's VP minus the best other seat's, from the kept keys.
int32_t VectorGames::margin(const Game& g) const {
    int32_t best_other = 0;
    bool first = true;
    for (int p = 0; p < config_.game.players; p++)
        if (p != g.agent && (first || g.final[p][0] > best_other)) best_other = g.final[p][0], first = false;
    return g.final[g.agent][0] - best_other;
}

void VectorGames::results(int32_t* scores, bool* winners, int32_t* margins, bool* over) const {
    const int n = config_.game.players;
    for (int i = 0; i < count(); i++) {
        const Game& g = games_[static_cast<size_t>(i)];
        const size_t row = static_cast<size_t>(i) * static_cast<size_t>(n);
        over[i] = g.done && g.ended;
        margins[i] = 0;
        std::memset(scores + row, 0, sizeof(int32_t) * static_cast<size_t>(n));
        std::memset(winners + row, 0, sizeof(bool) * static_cast<size_t>(n));
        if (!over[i]) continue;
        for (int p = 0; p < n; p++) scores[row + static_cast<size_t>(p)] = g.final[p][0];
        rank_winners(g.final, n, winners + row);
        margins[i] = margin(g);
    }
}

// QuadropolisEnv.step for one game: the agent's action, the dense reward of a build, the
// bots' moves (up to an external opponent's; settle adds the final reward).
double VectorGames::play(Game& g, int action, bool& illegal) {
    illegal = !allowed(g, action);
    if (illegal) {
        g.done = true;
        return config_.illegal_reward;
    }
    double reward = 0.0;
    do_apply(g.state, action);
    if (config_.dense != 0.0 && action >= FIRST_BUILD_MOVE && action < DISCARD_MOVE) {
        CityScore score;
        score_city(city_of(g.state, g.agent), config_.game.all_parks_absorb, score);
        reward += config_.dense * static_cast<double>(score.total - g.scores[g.agent]);
        g.scores[g.agent] = score.total;
    }
    play_bots(g);
    return reward;
}

// A game no longer waiting: the final reward if its episode just ended, then its outputs.
void VectorGames::settle(Game& g, int index, VectorOutput& out) {
    if (g.waiting) return;
    const size_t i = static_cast<size_t>(index);
    if (!g.done && g.state.phase == OVER) {
        g.done = true;
        out.rewards[i] += final_reward(g);
    }
    out.terminated[i] = g.done;
    observe(g, index, out);
}

// Writes game `index`'s observation and mask, and keeps the mask for the legality check of the
// next action (the caller may change the arrays it was handed: they are not read back).
void VectorGames::observe(Game& g, int index, VectorOutput& out) const {
    const size_t i = static_cast<size_t>(index);
    encode(encoding_, g.state, g.agent, config_.normalize, out.observations + i * encoding_.part[PART_SIZE]);
    action_mask(g.state, g.legal);  // all zeros once the game is over: no action is legal
    int8_t* mask = out.masks + i * MOVE_COUNT;
    if (g.done)
        std::memset(mask, 1, MOVE_COUNT);
    else
        std::memcpy(mask, g.legal, MOVE_COUNT);
    out.seats[i] = g.agent;
}

void VectorGames::reset(const int64_t* seeds, const int32_t* seats, VectorOutput& out) {
    for (int i = 0; i < count(); i++) {
        Game& g = games_[static_cast<size_t>(i)];
        g.stream = static_cast<uint64_t>(seeds[i]);
        start(g, seeds[i], seats != nullptr ? seats[i] : -1);
        out.rewards[i] = 0.0;
        out.terminated[i] = out.illegal[i] = false;
        settle(g, i, out);
    }
}

int VectorGames::first_illegal(const int64_t* actions) const {
    for (int i = 0; i < count(); i++) {
        const Game& g = games_[static_cast<size_t>(i)];
        if (!g.done && !allowed(g, actions[i])) return i;
    }
    return -1;
}

void VectorGames::step(const int64_t* actions, VectorOutput& out) {
    for (int i = 0; i < count(); i++) {
        Game& g = games_[static_cast<size_t>(i)];
        bool illegal = false;
        if (g.done) {  // NEXT_STEP autoreset: the action is ignored, the next episode starts
            next_episode(g, i, out);
            continue;
        }
        const int64_t a = actions[i];
        out.rewards[i] = play(g, a < 0 || a >= MOVE_COUNT ? -1 : static_cast<int>(a), illegal);
        out.illegal[i] = illegal;
        settle(g, i, out);
    }
}

// The next episode of a game whose episode is over: its seed (and drawn seat) from its stream.
void VectorGames::next_episode(Game& g, int index, VectorOutput& out) {
    start(g, static_cast<int64_t>(splitmix64(g.stream) >> 2), -1);
    out.rewards[static_cast<size_t>(index)] = 0.0;
    out.illegal[static_cast<size_t>(index)] = false;
    settle(g, index, out);
}

int VectorGames::restart(const int32_t* games, int count, VectorOutput& out) {
    for (int k = 0; k < count; k++) {
        if (games[k] < 0 || games[k] >= this->count() || (k > 0 && games[k] <= games[k - 1])) return k;
        if (!games_[static_cast<size_t>(games[k])].done) return k;
    }
    for (int k = 0; k < count; k++) next_episode(games_[static_cast<size_t>(games[k])], games[k], out);
    return -1;
}

int VectorGames::waiting(int32_t* games, int32_t* opponents) const {
    int k = 0;
    for (int i = 0; i < count(); i++) {
        const Game& g = games_[static_cast<size_t>(i)];
        if (!g.waiting) continue;
        const int p = current_player(g.state);
        opponents[k] = p < g.agent ? p : p - 1;
        games[k++] = i;
    }
    return k;
}

// bots.neural.raw_inputs of one position: see neural.RAW_CONTEXT (the Classic architects as
// neural.context_features reads the used-architect bits) and neural.RAW_MOVE.
void VectorGames::opponent_inputs(const int32_t* games, int count, int32_t* seats, int32_t* context, int32_t* rows,
                                  int32_t* counts) const {
    GreedyValues values;
    CityScore score;
    for (int k = 0; k < count; k++) {
        const State& s = games_[static_cast<size_t>(games[k])].state;
        const int n = s.config.players, p = current_player(s);
        const bool expert = s.config.mode == EXPERT;
        greedy_values(s, values);
        int32_t totals[MAX_PLAYERS];
        for (int q = 0; q < n; q++) {
            score_city(city_of(s, q), s.config.all_parks_absorb, score);
            totals[q] = score.total;
        }
        int other = -1, rich = -1;
        for (int q = 0; q < n; q++) {
            if (q == p) continue;
            if (other < 0 || totals[q] > totals[other]) other = q;
            if (rich < 0 || s.inhabitants[q] + s.energy[q] > s.inhabitants[rich] + s.energy[rich]) rich = q;
        }
        int32_t* c = context + k * NEURAL_CONTEXT;
        const int32_t head[] = {expert, n, s.round, s.turn, s.phase == PLACE, totals[p], totals[other],
                                s.inhabitants[p], s.energy[p], s.inhabitants[rich], s.energy[rich]};
        std::memcpy(c, head, sizeof head);
        for (int a = 1; a <= 5; a++)
            c[10 + a] = expert ? s.architects[a] : a == 5 ? 0 : !(s.architects[p] >> (a - 1) & 1u);
        c[16] = s.mayor == p;
        c[17] = values.count;
        c[18] = s.phase == PLACE && s.pending_tile >= 0 ? encoding_.kind_of_tile[s.pending_tile] : -1;
        c[19] = p;
        for (int m = 0; m < values.count; m++, rows += NEURAL_MOVE) {
            const int move = values.entries[m].move;
            std::memcpy(rows, values.entries[m].value, sizeof(int32_t) * GREEDY_VALUE_SIZE);
            rows[5] = move;
            rows[6] = -1;
            if (move < FIRST_BUILD_MOVE) {
                const int q = tables::DESIGNATED[(move / 5) * 6 + move % 5 + 1];
                if (s.site[q] >= 0 && !(s.face_down >> q & 1u)) rows[6] = encoding_.kind_of_tile[s.site[q]];
            }
        }
        seats[k] = p;
        counts[k] = values.count;
    }
}

void VectorGames::opponent_observe(const int32_t* games, int count, float* observations, int8_t* masks) const {
    const size_t size = static_cast<size_t>(encoding_.part[PART_SIZE]);
    for (int k = 0; k < count; k++) {
        const State& s = games_[static_cast<size_t>(games[k])].state;
        encode(encoding_, s, current_player(s), config_.normalize, observations + static_cast<size_t>(k) * size);
        action_mask(s, masks + static_cast<size_t>(k) * MOVE_COUNT);
    }
}

int VectorGames::resume(const int32_t* games, const int64_t* moves, int count, VectorOutput& out) {
    for (int k = 0; k < count; k++) {
        if (games[k] < 0 || games[k] >= this->count() || (k > 0 && games[k] <= games[k - 1])) return k;
        const Game& g = games_[static_cast<size_t>(games[k])];
        if (!g.waiting || moves[k] < 0 || moves[k] >= MOVE_COUNT || !is_legal(g.state, static_cast<int>(moves[k])))
            return k;
    }
    for (int k = 0; k < count; k++) {
        Game& g = games_[static_cast<size_t>(games[k])];
        g.waiting = false;
        do_apply(g.state, static_cast<int>(moves[k]));
        play_bots(g);
        settle(g, games[k], out);
    }
    return -1;
}

}  // namespace quadropolis
