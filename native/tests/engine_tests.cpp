// The native engine's own tests: no Python at run time. Known answers were computed once with
// CPython 3.11 and the Python engine (the comment above each says how).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "quadropolis/fields.hpp"
#include "quadropolis/game.hpp"
#include "quadropolis/bots/greedy.hpp"
#include "quadropolis/bots/policy.hpp"
#include "quadropolis/random.hpp"
#include "quadropolis/scoring.hpp"
#include "quadropolis/bots/search.hpp"

namespace {

int failures = 0, checks = 0;

#define CHECK(cond)                                                          \
    do {                                                                     \
        checks++;                                                            \
        if (!(cond)) {                                                       \
            failures++;                                                      \
            std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                    \
    } while (0)

using namespace quadropolis;

void test_random_known_answers() {
    Random r;
    // random.Random(42).random(), three times (float.hex)
    r.seed_signed(42);
    CHECK(r.random() == std::strtod("0x1.4762f307200c5p-1", nullptr));
    CHECK(r.random() == std::strtod("0x1.99c6b5eeb2060p-6", nullptr));
    CHECK(r.random() == std::strtod("0x1.19a1491f589dcp-2", nullptr));
    // random.Random(42): the 1000th getrandbits(32) (crosses a generation: the lazy twist)
    r.seed_signed(42);
    for (int i = 0; i < 999; i++) r.getrandbits(32);
    CHECK(r.getrandbits(32) == 4212168831u);
    // random.Random("quadropolis/7/1").random(), twice (str seeding version 2, SHA-512)
    const char* text = "quadropolis/7/1";
    CHECK(r.seed_text(text, std::strlen(text)));
    CHECK(r.random() == std::strtod("0x1.1590906853d40p-4", nullptr));
    CHECK(r.random() == std::strtod("0x1.853feb8a54205p-1", nullptr));
    r.seed_signed(-5);  // random.Random(-5): seeds with abs
    CHECK(r.random() == std::strtod("0x1.3eecf89059360p-1", nullptr));
    r.seed_signed(INT64_MAX);  // random.Random(2**63 - 1): random(), getrandbits(62)
    CHECK(r.random() == std::strtod("0x1.443e8e5409ca6p-2", nullptr));
    CHECK(r.getrandbits(62) == 611902241025701323ull);
    r.seed_signed(0);
    CHECK(r.random() == std::strtod("0x1.b0580f98a7dbep-1", nullptr));
    CHECK(r.seed_text("", 0));  // random.Random("")
    CHECK(r.random() == std::strtod("0x1.eba2b25d163e4p-1", nullptr));
    std::string long_text(200, 'x');  // random.Random("x" * 200): SHA-512 over two blocks
    CHECK(r.seed_text(long_text.data(), long_text.size()));
    CHECK(r.random() == std::strtod("0x1.b33406ebe504bp-1", nullptr));
}

void test_random_state_round_trip() {
    // get_state mid-generation (lazy twist completed) then set_state continues identically.
    Random a, b;
    a.seed_signed(7);
    for (int i = 0; i < 700; i++) a.next_word();
    uint32_t words[Random::WORDS];
    int index = 0;
    a.get_state(words, &index);
    CHECK(index == 700 - 624);
    CHECK(b.set_state(words, index));
    for (int i = 0; i < 2000; i++) CHECK(a.next_word() == b.next_word());
    CHECK(!b.set_state(words, 625));
    CHECK(!b.set_state(words, -1));
}

void test_lockstep_seeding_is_seed_text() {
    // Random::seed_texts (all rounds' generators at once) leaves each generator exactly as
    // seed_text does, for keys of different lengths.
    const char* texts[5] = {"quadropolis/-9223372036854775808/1", "quadropolis/0/2", "x", "", "quadropolis/42/5"};
    size_t lengths[5];
    for (int g = 0; g < 5; g++) lengths[g] = std::strlen(texts[g]);
    Random batch[5];
    CHECK(Random::seed_texts(batch, texts, lengths, 5));
    for (int g = 0; g < 5; g++) {
        Random single;
        CHECK(single.seed_text(texts[g], lengths[g]));
        bool same = true;
        for (int k = 0; k < 1300; k++) same &= single.next_word() == batch[g].next_word();
        CHECK(same);
    }
    CHECK(!Random::seed_texts(batch, texts, lengths, 0));
    CHECK(!Random::seed_texts(batch, texts, lengths, Random::MAX_BATCH + 1));
}

Config config(int mode, int players, int64_t seed) { return Config{seed, static_cast<int8_t>(mode), static_cast<int8_t>(players), 0, false, false}; }

void test_layout_and_initial_moves() {
    // lay_out(GameConfig(mode, players, seed=7), 1)
    const int16_t classic[25] = {21, 5, 24, 22, 19, 3, 10, 20, 2, 12, 0, 8, 15, 13, 11, 6, 23, 4, 7, 14, 17, 9, 16, 18, 1};
    const int16_t expert[25] = {24, 6, 27, 25, 22, 4, 12, 23, 3, 14, 0, 9, 17, 15, 13, 7, 26, 5, 8, 16, 20, 10, 19, 21, 2};
    const uint32_t classic_hidden[3] = {14828043u, 6291978u, 0u}, expert_hidden[3] = {9111668u, 657488u, 0u};
    for (int players = 2; players <= 4; players++) {
        for (int mode = 0; mode <= 1; mode++) {
            State s = new_state(config(mode, players, 7));
            CHECK(std::memcmp(s.site, mode ? expert : classic, sizeof s.site) == 0);
            CHECK(s.face_down == (mode ? expert_hidden : classic_hidden)[players - 2]);
            MoveList legal;
            legal_moves(s, legal);
            CHECK(legal.count == (mode ? 100 : 80));  // len(legal_move_numbers(new_state(...)))
            CHECK(legal.moves[0] == 0);
            int64_t f[fields::COUNT];
            fields::to_fields(s, f);
            State back;
            std::string error;
            CHECK(fields::from_fields(f, fields::COUNT, back, error));
            int64_t again[fields::COUNT];
            fields::to_fields(back, again);
            CHECK(std::memcmp(again, f, sizeof f) == 0);
        }
    }
}

void test_playouts() {
    // random_playout(GameConfig(mode, players=4, seed=11), random.Random(11)): totals,
    // inhabitants placed and empty squares of outcome(final).
    const int totals[2][4] = {{22, 14, 21, 0}, {22, 34, 23, 19}};
    const int placed[2][4] = {{7, 6, 9, 2}, {7, 11, 9, 8}};
    const int empty[2][4] = {{7, 9, 8, 13}, {10, 3, 12, 15}};
    for (int mode = 0; mode <= 1; mode++) {
        State s = new_state(config(mode, 4, 11));
        Random r;
        r.seed_signed(11);
        uint8_t played[MAX_GAME_MOVES];
        const int n = random_playout(s, r, played);
        CHECK(n > 0 && is_over(s));
        for (int p = 0; p < 4; p++) {
            CityScore score;
            score_city(city_of(s, p), false, score);
            CHECK(score.total == totals[mode][p]);
            CHECK(score.inhabitants_placed == placed[mode][p]);
            CHECK(score.empty_squares == empty[mode][p]);
        }
        MoveList legal;
        legal_moves(s, legal);
        CHECK(legal.count == 0);
        CHECK(!apply(s, 0));
    }
}

void test_hand_built_city() {
    // score_city(City(CLASSIC, ...), inhabitants 6, energy 3): T3 r1c1, shop r1c2, tree park
    // r1c3, factory r2c1, harbors r2c2 (2 VP) and r2c3 (1 VP), PS 2 VP r3c1, T1 r4c4.
    City c;
    std::memset(&c, 0, sizeof c);
    c.mode = CLASSIC;
    for (Square& q : c.squares) q = Square{-1, 0, 0, 0};
    c.squares[0] = Square{0, 3, 0, 0};
    c.squares[1] = Square{1, 1, 0, 0};
    c.squares[2] = Square{3, 1, 0, 1};
    c.squares[4] = Square{4, 1, 0, 0};
    c.squares[5] = Square{5, 1, 2, 0};
    c.squares[6] = Square{5, 1, 1, 0};
    c.squares[8] = Square{2, 1, 2, 0};
    c.squares[15] = Square{0, 1, 0, 0};
    c.inhabitants = 6;
    c.energy = 3;
    CityScore s;
    CHECK(score_city(c, false, s));
    const int breakdown[10] = {7, 2, 4, 0, 3, 6, 0, 0, 0, 0};
    CHECK(s.total == 22);
    CHECK(std::memcmp(s.breakdown, breakdown, sizeof breakdown) == 0);
    CHECK(s.inhabitants_placed == 6 && s.empty_squares == 8);
    const int8_t activated[7] = {0, 1, 4, 5, 6, 8, 15};
    CHECK(s.placement.activated_count == 7 && std::memcmp(s.placement.activated, activated, 7) == 0);
    CHECK(s.placement.customers_count == 1 && s.placement.customer_square[0] == 1 && s.placement.customers[0] == 2);
    CHECK(s.placement.absorbing_count == 0 && s.placement.removed_count == 0);
    CHECK(s.placement.unused_inhabitants == 0 && s.placement.unused_energy == 0);
}

void test_validation_rejects() {
    State s = new_state(config(0, 2, 3));
    int64_t f[fields::COUNT];
    fields::to_fields(s, f);
    State out;
    std::string error;
    f[fields::PHASE] = PLACE;  // PLACE without a pending tile
    CHECK(!fields::from_fields(f, fields::COUNT, out, error) && !error.empty());
    fields::to_fields(s, f);
    f[fields::CITIES + 1] = 9;  // floors of a building on an empty square
    CHECK(!fields::from_fields(f, fields::COUNT, out, error));
    fields::to_fields(s, f);
    f[fields::SITE] = 141;  // an Expert round-5 tile in Classic round 1
    CHECK(!fields::from_fields(f, fields::COUNT, out, error));
    CHECK(!fields::from_fields(f, fields::COUNT - 1, out, error));
    int64_t cells[64];
    for (int i = 0; i < 64; i++) cells[i] = i % 4 == 0 ? -1 : 0;
    cells[0] = 6;  // an office tower in a Classic city
    cells[1] = 1;
    City city;
    CHECK(!fields::city_from_cells(0, cells, 64, 0, 0, city, error));
    CHECK(error.find("expert") != std::string::npos);
    // The C++ entry points keep every index in bounds on bad input too.
    City bad;
    std::memset(&bad, 0, sizeof bad);
    bad.squares[0] = Square{0, 9, 0, 0};  // a tower of 9 floors
    CityScore score;
    CHECK(!score_city(bad, false, score) && score.total == 0);
    bad.mode = 7;
    CHECK(!score_city(bad, false, score));
    State t = new_state(config(0, 2, 3));
    int64_t before[fields::COUNT], after[fields::COUNT];
    fields::to_fields(t, before);
    do_apply(t, 119);  // a build in the take phase: ignored
    do_apply(t, -5);
    do_apply(t, 500);
    fields::to_fields(t, after);
    CHECK(std::memcmp(before, after, sizeof before) == 0);
    City empty = city_of(t, 9);  // no such seat: seat 0's city
    CHECK(empty.squares[0].type == -1);
}

void test_greedy_values_shape() {
    State s = new_state(config(1, 3, 5));
    GreedyValues values;
    greedy_values(s, values);
    MoveList legal;
    legal_moves(s, legal);
    CHECK(values.count == legal.count);
    for (int i = 0; i < values.count; i++) CHECK(values.entries[i].move == legal.moves[i]);
}

}  // namespace

// The search from positions of every mode and player count, mid-round and at a build: root
// moves legal and distinct, visits summing to the simulations run, the same result for the
// same seed, and the prior's orders and rollout moves legal on the way.
void test_search() {
    for (int mode = 0; mode <= 1; mode++) {
        for (int players = 2; players <= 4; players++) {
            Config c{11, static_cast<int8_t>(mode), static_cast<int8_t>(players), 0, mode == 1, false};
            State s = new_state(c);
            Random rng;
            rng.seed_signed(players);
            MoveList scratch;
            for (int k = 0; k < 5 * players + mode; k++) {
                const int m = rollout_move(s, rng, scratch);
                CHECK(is_legal(s, m));
                do_apply(s, m);
            }
            MoveList ordered, legal;
            ordered_moves(s, ordered);
            legal_moves(s, legal);
            CHECK(ordered.count >= 1 && ordered.count <= legal.count);
            for (int i = 0; i < ordered.count; i++) CHECK(is_legal(s, ordered.moves[i]));
            SearchOptions o;
            o.iterations = 150;
            o.bias = mode == 1 ? 1.0 : 0.0;
            SearchResult a, b;
            CHECK(search(s, 7, o, a) && search(s, 7, o, b));
            CHECK(a.count >= 1 && a.count == b.count && a.iterations == b.iterations);
            int64_t visits = 0;
            for (int i = 0; i < a.count; i++) {
                CHECK(is_legal(s, a.moves[i].move) && a.moves[i].move == b.moves[i].move);
                CHECK(a.moves[i].visits == b.moves[i].visits && a.moves[i].value == b.moves[i].value);
                for (int j = 0; j < i; j++) CHECK(a.moves[j].move != a.moves[i].move);
                visits += a.moves[i].visits;
            }
            CHECK(visits == a.iterations && a.iterations <= o.iterations);
        }
    }
    State over = new_state(Config{3, 0, 2, 0, false, false});
    Random rng;
    rng.seed_signed(3);
    uint8_t played[MAX_GAME_MOVES];
    random_playout(over, rng, played);
    SearchResult none;
    CHECK(!search(over, 1, SearchOptions{}, none) && none.count == 0);
}

int main() {
    test_random_known_answers();
    test_random_state_round_trip();
    test_lockstep_seeding_is_seed_text();
    test_layout_and_initial_moves();
    test_playouts();
    test_hand_built_city();
    test_validation_rejects();
    test_greedy_values_shape();
    test_search();
    std::printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
