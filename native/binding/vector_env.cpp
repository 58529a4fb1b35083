// quadropolis._native's RL part (registered by module.cpp): the observation encoder, the action
// mask and the batch of games of native/include/quadropolis/observation.hpp and vector_env.hpp.
// Argument validation and conversion only. Arrays cross without copies: the caller allocates
// them (C-contiguous, CPU, exactly the dtype named; no implicit conversion) and the engine
// writes into them; a wrong shape or dtype is a TypeError or ValueError, never a write out of
// bounds.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <cstring>
#include <string>

#include "quadropolis/game.hpp"
#include "quadropolis/observation.hpp"
#include "quadropolis/vector_env.hpp"

namespace nb = nanobind;
using namespace quadropolis;

namespace {

template <typename T>
using Array = nb::ndarray<T, nb::c_contig, nb::device::cpu>;

[[noreturn]] void bad(const std::string& message) { throw nb::value_error(message.c_str()); }

// The array's entry count, checked against the shape wanted (rows x width; width 0: 1-D).
template <typename T>
T* data_of(Array<T>& a, const char* what, size_t rows, size_t width) {
    const bool ok = width == 0 ? a.ndim() == 1 && a.shape(0) == rows
                               : a.ndim() == 2 && a.shape(0) == rows && a.shape(1) == width;
    if (!ok) {
        std::string want = width == 0 ? "(" + std::to_string(rows) + ",)"
                                      : "(" + std::to_string(rows) + ", " + std::to_string(width) + ")";
        bad(std::string(what) + " must have shape " + want);
    }
    return a.data();
}

std::vector<uint8_t> bytes_of(nb::bytes b) {
    const auto* p = static_cast<const uint8_t*>(b.data());
    return std::vector<uint8_t>(p, p + b.size());
}

Encoding make_encoding(nb::tuple parts, nb::bytes static_blocks, nb::bytes round_blocks, nb::bytes kind_of_tile,
                       Array<const float> scale) {
    Encoding e;
    if (nb::len(parts) != PART_COUNT) bad("parts must have " + std::to_string(PART_COUNT) + " entries");
    for (int i = 0; i < PART_COUNT; i++) e.part[i] = nb::cast<int>(parts[static_cast<size_t>(i)]);
    e.static_blocks = bytes_of(static_blocks);
    e.round_blocks = bytes_of(round_blocks);
    if (kind_of_tile.size() > TILE_LIMIT) bad("kind_of_tile is too long");
    std::memset(e.kind_of_tile, 0, sizeof e.kind_of_tile);
    std::memcpy(e.kind_of_tile, kind_of_tile.data(), kind_of_tile.size());
    e.tile_count = static_cast<int>(kind_of_tile.size());
    if (scale.ndim() != 1) bad("scale must be one-dimensional");
    e.scale.assign(scale.data(), scale.data() + scale.shape(0));
    std::string error;
    if (!check_encoding(e, error)) bad("invalid encoding: " + error);
    return e;
}

void encode_into(const Encoding& e, const State& s, int observer, bool normalize, Array<float> out) {
    if (observer < 0 || observer >= s.config.players)
        bad("observer must be a seat from 0 to " + std::to_string(s.config.players - 1));
    encode(e, s, observer, normalize, data_of(out, "out", static_cast<size_t>(e.part[PART_SIZE]), 0));
}

void mask_into(const State& s, Array<int8_t> out) { action_mask(s, data_of(out, "out", MOVE_COUNT, 0)); }

struct Outputs {
    Array<float> observations;
    Array<int8_t> masks;
    Array<double> rewards;
    Array<bool> terminated;
    Array<bool> illegal;
    Array<int32_t> seats;

    VectorOutput check(const VectorGames& games, int size) {
        const size_t n = static_cast<size_t>(games.count());
        return VectorOutput{data_of(observations, "observations", n, static_cast<size_t>(size)),
                            data_of(masks, "masks", n, MOVE_COUNT),
                            data_of(rewards, "rewards", n, 0),
                            data_of(terminated, "terminated", n, 0),
                            data_of(illegal, "illegal", n, 0),
                            data_of(seats, "seats", n, 0)};
    }
};

// VectorGames with the observation size it writes.
struct Batch {
    VectorGames games;
    int size;
    int players;
};

Batch make_batch(const Encoding& e, int mode, int players, bool square_variant, bool all_parks_absorb, int seat,
                  nb::tuple opponents, int scheme, double dense, double illegal_reward, bool normalize, int count) {
    if (mode < 0 || mode > 1) bad("mode must be 0 (classic) or 1 (expert)");
    if (players < 2 || players > MAX_PLAYERS) bad("players must be 2 to 4");
    if (seat < -1 || seat >= players) bad("seat must be -1 (drawn) or a seat from 0 to players - 1");
    if (static_cast<int>(nb::len(opponents)) != players - 1) bad("opponents: one per other seat");
    if (scheme < 0 || scheme > 1) bad("scheme must be 0 (win_share) or 1 (margin)");
    if (count < 1 || count > 1 << 20) bad("count must be 1 to 2**20 games");
    VectorConfig c{};
    c.game = Config{0, static_cast<int8_t>(mode), static_cast<int8_t>(players), 0, square_variant, all_parks_absorb};
    c.seat = seat;
    for (int k = 0; k < players - 1; k++) {
        const int o = nb::cast<int>(opponents[static_cast<size_t>(k)]);
        if (o != OPPONENT_RANDOM && o != OPPONENT_GREEDY && o != OPPONENT_EXTERNAL)
            bad("an opponent is 0 (random), 1 (greedy) or 2 (decided by the caller)");
        c.opponents[k] = static_cast<int8_t>(o);
    }
    c.scheme = static_cast<int8_t>(scheme);
    c.dense = dense;
    c.illegal_reward = illegal_reward;
    c.normalize = normalize;
    return Batch{VectorGames(e, c, count), e.part[PART_SIZE], players};
}

size_t listed(const Array<const int32_t>& games, const Batch& b);

void batch_reset(Batch& b, Array<const int64_t> seeds, Array<const int32_t> seats, Outputs out) {
    const int64_t* s = seeds.data();
    const size_t n = static_cast<size_t>(b.games.count());
    if (seeds.ndim() != 1 || seeds.shape(0) != n) bad("seeds must have shape (" + std::to_string(n) + ",)");
    if (seats.ndim() != 1 || seats.shape(0) != n) bad("seats must have shape (" + std::to_string(n) + ",)");
    const int players = b.players;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < 0) bad("a seed must be a non-negative int");
        if (seats.data()[i] < -1 || seats.data()[i] >= players) bad("a first seat must be -1 or a seat");
    }
    VectorOutput o = out.check(b.games, b.size);
    b.games.reset(s, seats.data(), o);
}

int batch_restart(Batch& b, Array<const int32_t> games, Outputs out) {
    const size_t k = listed(games, b);
    VectorOutput o = out.check(b.games, b.size);
    return b.games.restart(games.data(), static_cast<int>(k), o);
}

const int64_t* actions_of(const Batch& b, Array<const int64_t>& actions) {
    if (actions.ndim() != 1 || actions.shape(0) != static_cast<size_t>(b.games.count()))
        bad("actions must have shape (" + std::to_string(b.games.count()) + ",)");
    return actions.data();
}

// The games listed for an opponent call: (k,) int32, each checked by the engine.
size_t listed(const Array<const int32_t>& games, const Batch& b) {
    if (games.ndim() != 1 || games.shape(0) > static_cast<size_t>(b.games.count()))
        bad("games must be a 1-D array of at most " + std::to_string(b.games.count()) + " game numbers");
    for (size_t k = 0; k < games.shape(0); k++)
        if (games.data()[k] < 0 || games.data()[k] >= b.games.count()) bad("a game number is out of range");
    return games.shape(0);
}

void inputs_into(const Batch& b, Array<const int32_t> games, Array<int32_t> seats, Array<int32_t> context,
                 Array<int32_t> rows, Array<int32_t> counts) {
    const size_t k = listed(games, b);
    for (size_t i = 0; i < k; i++)
        if (!b.games.episode_waiting(games.data()[i])) bad("a listed game is not waiting for an opponent");
    b.games.opponent_inputs(games.data(), static_cast<int>(k), data_of(seats, "seats", k, 0),
                            data_of(context, "context", k, NEURAL_CONTEXT),
                            data_of(rows, "rows", k * MAX_LEGAL, NEURAL_MOVE), data_of(counts, "counts", k, 0));
}

void observe_into(const Batch& b, Array<const int32_t> games, Array<float> obs, Array<int8_t> masks) {
    const size_t k = listed(games, b);
    for (size_t i = 0; i < k; i++)
        if (!b.games.episode_waiting(games.data()[i])) bad("a listed game is not waiting for an opponent");
    b.games.opponent_observe(games.data(), static_cast<int>(k),
                             data_of(obs, "observations", k, static_cast<size_t>(b.size)),
                             data_of(masks, "masks", k, MOVE_COUNT));
}

int game_index(const Batch& b, int game) {
    if (game < 0 || game >= b.games.count()) bad("game must be 0 to " + std::to_string(b.games.count() - 1));
    return game;
}

}  // namespace

void register_vector_env(nb::module_& m) {
    m.attr("MAX_LEGAL") = MAX_LEGAL;
    m.attr("NEURAL_CONTEXT") = NEURAL_CONTEXT;
    m.attr("NEURAL_MOVE") = NEURAL_MOVE;
    nb::class_<Encoding>(m, "Encoding")
        .def("__init__",
             [](Encoding* self, nb::tuple parts, nb::bytes s, nb::bytes r, nb::bytes k, Array<const float> scale) {
                 new (self) Encoding(make_encoding(parts, s, r, k, scale));
             },
             nb::arg("parts"), nb::arg("static_blocks"), nb::arg("round_blocks"), nb::arg("kind_of_tile"),
             nb::arg("scale").noconvert())
        .def_prop_ro("size", [](const Encoding& e) { return e.part[PART_SIZE]; });
    m.def("encode", &encode_into, nb::arg("encoding"), nb::arg("state"), nb::arg("observer"), nb::arg("normalize"),
          nb::arg("out").noconvert());
    m.def("action_mask", &mask_into, nb::arg("state"), nb::arg("out").noconvert());
    nb::class_<Batch>(m, "VectorGames")
        .def("__init__",
             [](Batch* self, const Encoding& e, int mode, int players, bool sv, bool apa, int seat, nb::tuple opp,
                int scheme, double dense, double illegal, bool normalize, int count) {
                 new (self) Batch(make_batch(e, mode, players, sv, apa, seat, opp, scheme, dense, illegal, normalize, count));
             },
             nb::arg("encoding"), nb::arg("mode"), nb::arg("players"), nb::arg("square_variant"),
             nb::arg("all_parks_absorb"), nb::arg("seat"), nb::arg("opponents"), nb::arg("scheme"), nb::arg("dense"),
             nb::arg("illegal_reward"), nb::arg("normalize"), nb::arg("count"))
        .def_prop_ro("count", [](const Batch& b) { return b.games.count(); })
        .def("reset",
             [](Batch& b, Array<const int64_t> seeds, Array<const int32_t> first_seats, Array<float> obs,
                Array<int8_t> masks, Array<double> rewards, Array<bool> terminated, Array<bool> illegal,
                Array<int32_t> seats) {
                 batch_reset(b, seeds, first_seats, Outputs{obs, masks, rewards, terminated, illegal, seats});
             },
             nb::arg("seeds").noconvert(), nb::arg("first_seats").noconvert(), nb::arg("observations").noconvert(),
             nb::arg("masks").noconvert(), nb::arg("rewards").noconvert(), nb::arg("terminated").noconvert(), nb::arg("illegal").noconvert(),
             nb::arg("seats").noconvert())
        .def("restart",
             [](Batch& b, Array<const int32_t> games, Array<float> obs, Array<int8_t> masks, Array<double> rewards,
                Array<bool> terminated, Array<bool> illegal, Array<int32_t> seats) {
                 return batch_restart(b, games, Outputs{obs, masks, rewards, terminated, illegal, seats});
             },
             nb::arg("games").noconvert(), nb::arg("observations").noconvert(), nb::arg("masks").noconvert(),
             nb::arg("rewards").noconvert(), nb::arg("terminated").noconvert(), nb::arg("illegal").noconvert(),
             nb::arg("seats").noconvert())
        .def("results",
             [](const Batch& b, Array<int32_t> scores, Array<bool> winners, Array<int32_t> margins, Array<bool> over) {
                 const size_t n = static_cast<size_t>(b.games.count()), players = static_cast<size_t>(b.players);
                 b.games.results(data_of(scores, "scores", n, players), data_of(winners, "winners", n, players),
                                 data_of(margins, "margins", n, 0), data_of(over, "over", n, 0));
             },
             nb::arg("scores").noconvert(), nb::arg("winners").noconvert(), nb::arg("margins").noconvert(),
             nb::arg("over").noconvert())
        .def("first_illegal",
             [](const Batch& b, Array<const int64_t> actions) { return b.games.first_illegal(actions_of(b, actions)); },
             nb::arg("actions").noconvert())
        .def("step",
             [](Batch& b, Array<const int64_t> actions, Array<float> obs, Array<int8_t> masks, Array<double> rewards,
                Array<bool> terminated, Array<bool> illegal, Array<int32_t> seats) {
                 const int64_t* a = actions_of(b, actions);
                 VectorOutput o = Outputs{obs, masks, rewards, terminated, illegal, seats}.check(b.games, b.size);
                 b.games.step(a, o);
             },
             nb::arg("actions").noconvert(), nb::arg("observations").noconvert(), nb::arg("masks").noconvert(),
             nb::arg("rewards").noconvert(), nb::arg("terminated").noconvert(), nb::arg("illegal").noconvert(),
             nb::arg("seats").noconvert())
        .def("waiting",
             [](const Batch& b, Array<int32_t> games, Array<int32_t> opponents) {
                 const size_t n = static_cast<size_t>(b.games.count());
                 return b.games.waiting(data_of(games, "games", n, 0), data_of(opponents, "opponents", n, 0));
             },
             nb::arg("games").noconvert(), nb::arg("opponents").noconvert())
        .def("opponent_inputs", &inputs_into, nb::arg("games").noconvert(), nb::arg("seats").noconvert(),
             nb::arg("context").noconvert(), nb::arg("rows").noconvert(), nb::arg("counts").noconvert())
        .def("opponent_observe", &observe_into, nb::arg("games").noconvert(), nb::arg("observations").noconvert(),
             nb::arg("masks").noconvert())
        .def("resume",
             [](Batch& b, Array<const int32_t> games, Array<const int64_t> moves, Array<float> obs,
                Array<int8_t> masks, Array<double> rewards, Array<bool> terminated, Array<bool> illegal,
                Array<int32_t> seats) {
                 const size_t k = listed(games, b);
                 if (moves.ndim() != 1 || moves.shape(0) != k) bad("moves: one per listed game");
                 VectorOutput o = Outputs{obs, masks, rewards, terminated, illegal, seats}.check(b.games, b.size);
                 return b.games.resume(games.data(), moves.data(), static_cast<int>(k), o);
             },
             nb::arg("games").noconvert(), nb::arg("moves").noconvert(), nb::arg("observations").noconvert(),
             nb::arg("masks").noconvert(), nb::arg("rewards").noconvert(), nb::arg("terminated").noconvert(),
             nb::arg("illegal").noconvert(), nb::arg("seats").noconvert())
        .def("state", [](const Batch& b, int game) { return b.games.state(game_index(b, game)); }, nb::arg("game"))
        .def("episode_seed", [](const Batch& b, int game) { return b.games.episode_seed(game_index(b, game)); },
             nb::arg("game"))
        .def("agent_seat", [](const Batch& b, int game) { return b.games.agent_seat(game_index(b, game)); },
             nb::arg("game"));
}
