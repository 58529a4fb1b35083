// quadropolis._native: the engine's Python binding (nanobind). Argument validation and
// conversion only; every rule lives in the engine (native/src), every check of a state in
// fields::from_fields. Errors: TypeError for a value of the wrong type, ValueError (with a
// message naming the field and the rule) for a value out of range or an impossible state.
//
// State field tuple (ABI 1; docs/native.md "Data layout" is the description of record),
// 376 ints:
//   0 mode (0 classic, 1 expert)   1 players (2-4)   2 seed (signed 64-bit)   3 first_player
//   4 square_variant (0 lines/R5, 1 square)   5 all_parks_absorb (0/1)
//   6 round   7 turn   8 position   9 starter   10 mayor   11 phase (0 take, 1 place, 2 over)
//   12 pending_tile (-1 none)   13 pending_architect (0 none)
//   14-38 site: tile id per site square, row-major (-1 empty)
//   39 face_down (bit per site square)   40 slots_used (bit per slot T1..T5 B1..B5 L1..L5 R1..R5)
//   41 urbanist (site square, -1 off the board)
//   42-47 architects: Classic [p] = bitmask (bits 1-4) of the architects player p used this
//         round, 0 beyond `players`; Expert [0] = 0, [n] = architects #n left in the pool
//   48-367 cities: 4 players x 20 squares x (type or -1, floors, vp, tree), row-major; Classic
//         uses squares 0-15; absent players and squares are (-1, 0, 0, 0)
//   368-371 inhabitants per player (0 beyond `players`)   372-375 energy per player
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <structmember.h>

#include <stdexcept>
#include <string>

#include "quadropolis/fields.hpp"
#include "quadropolis/game.hpp"
#include "quadropolis/bots/greedy.hpp"
#include "quadropolis/random.hpp"
#include "quadropolis/scoring.hpp"
#include "quadropolis/bots/search.hpp"

namespace nb = nanobind;
using namespace quadropolis;

void register_vector_env(nb::module_& m);  // binding/vector_env.cpp

namespace {

[[noreturn]] void not_an_int(const char* what, long index) {
    std::string name(what);
    if (index >= 0) name += "[" + std::to_string(index) + "]";
    throw nb::type_error((name + " must be an int").c_str());
}

[[noreturn]] void too_big(const char* what, long index) {
    std::string name(what);
    if (index >= 0) name += "[" + std::to_string(index) + "]";
    throw nb::value_error((name + " is out of the signed 64-bit range").c_str());
}

// An exact Python int (not a bool) that fits in 64 bits; `index` >= 0 names a tuple entry.
int64_t to_int(nb::handle value, const char* what, long index = -1) {
    PyObject* o = value.ptr();
    if (!PyLong_Check(o) || PyBool_Check(o)) not_an_int(what, index);
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) too_big(what, index);
    return v;
}

int64_t to_int_in(nb::handle value, const char* what, int64_t lo, int64_t hi) {
    const int64_t v = to_int(value, what);
    if (v < lo || v > hi)
        throw nb::value_error((std::string(what) + " must be between " + std::to_string(lo) + " and " +
                               std::to_string(hi) + ", got " + std::to_string(v)).c_str());
    return v;
}

bool to_bool(nb::handle value, const char* what) {
    if (!PyBool_Check(value.ptr())) throw nb::type_error((std::string(what) + " must be a bool").c_str());
    return value.ptr() == Py_True;
}

// The ints of a tuple, at most `capacity` of them (longer: ValueError).
size_t to_ints(nb::handle value, const char* what, int64_t* out, size_t capacity) {
    if (!PyTuple_Check(value.ptr())) throw nb::type_error((std::string(what) + " must be a tuple of ints").c_str());
    const size_t n = static_cast<size_t>(PyTuple_GET_SIZE(value.ptr()));
    if (n > capacity)
        throw nb::value_error((std::string(what) + " has " + std::to_string(n) + " entries, more than " +
                               std::to_string(capacity)).c_str());
    for (size_t i = 0; i < n; i++)
        out[i] = to_int(PyTuple_GET_ITEM(value.ptr(), static_cast<Py_ssize_t>(i)), what, static_cast<long>(i));
    return n;
}

template <typename T>
nb::list int_list(const T* values, int n) {
    PyObject* l = PyList_New(n);
    if (!l) throw nb::python_error();
    for (int i = 0; i < n; i++) PyList_SET_ITEM(l, i, PyLong_FromLong(static_cast<long>(values[i])));
    return nb::steal<nb::list>(l);
}

nb::tuple int_tuple(const int64_t* values, int n) {
    PyObject* t = PyTuple_New(n);
    if (!t) throw nb::python_error();
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(values[i]));
    return nb::steal<nb::tuple>(t);
}

template <typename T>
nb::tuple small_tuple(const T* values, int n) {
    int64_t wide[MAX_CITY_SQUARES + CATEGORY_COUNT];
    for (int i = 0; i < n; i++) wide[i] = values[i];
    return int_tuple(wide, n);
}

// The city score tuple: (total, breakdown, inhabitants_placed, empty_squares, activated,
// customers, absorbing_parks, removed, unused_inhabitants, unused_energy).
nb::tuple score_tuple(const CityScore& s) {
    const Placement& p = s.placement;
    PyObject* customers = PyTuple_New(p.customers_count);
    if (!customers) throw nb::python_error();
    for (int i = 0; i < p.customers_count; i++) {
        const int64_t pair[2] = {p.customer_square[i], p.customers[i]};
        PyTuple_SET_ITEM(customers, i, int_tuple(pair, 2).release().ptr());
    }
    return nb::make_tuple(s.total, small_tuple(s.breakdown, CATEGORY_COUNT), s.inhabitants_placed, s.empty_squares,
                          small_tuple(p.activated, p.activated_count), nb::steal<nb::tuple>(customers),
                          small_tuple(p.absorbing_parks, p.absorbing_count), small_tuple(p.removed, p.removed_count),
                          p.unused_inhabitants, p.unused_energy);
}

State state_from(nb::handle fields_tuple) {
    int64_t f[fields::COUNT + 1];
    const size_t n = to_ints(fields_tuple, "fields", f, fields::COUNT + 1);
    State s;
    std::string error;
    if (!fields::from_fields(f, n, s, error)) throw nb::value_error(("invalid state: " + error).c_str());
    return s;
}

nb::tuple state_fields(const State& s) {
    int64_t f[fields::COUNT];
    fields::to_fields(s, f);
    return int_tuple(f, fields::COUNT);
}

nb::list legal_list(const State& s) {
    MoveList legal;
    legal_moves(s, legal);
    return int_list(legal.moves, legal.count);
}

void apply_checked(State& s, nb::handle move) {
    const int64_t m = to_int(move, "move");
    if (m < 0 || m >= MOVE_COUNT || !apply(s, static_cast<int>(m)))
        throw nb::value_error(("move " + std::to_string(m) + " is not legal in this state").c_str());
}

nb::tuple score_player(const State& s, nb::handle player, nb::handle all_parks_absorb) {
    const int p = static_cast<int>(to_int_in(player, "player", 0, s.config.players - 1));
    CityScore score;
    score_city(city_of(s, p), to_bool(all_parks_absorb, "all_parks_absorb"), score);
    return score_tuple(score);
}

nb::tuple playout(State& s, nb::handle mt) {
    int64_t words[Random::WORDS + 1];
    const size_t n = to_ints(mt, "mt", words, Random::WORDS + 1);
    if (n != static_cast<size_t>(Random::WORDS) + 1)
        throw nb::value_error("mt must be the 625 ints of random.Random().getstate()[1]");
    uint32_t state[Random::WORDS];
    for (int i = 0; i < Random::WORDS; i++) {
        if (words[i] < 0 || words[i] > 0xFFFFFFFFll) throw nb::value_error("mt words must be 0 to 2**32-1");
        state[i] = static_cast<uint32_t>(words[i]);
    }
    Random rng;
    if (!rng.set_state(state, words[Random::WORDS])) throw nb::value_error("mt index must be 0 to 624");
    uint8_t played[MAX_GAME_MOVES];
    const int count = random_playout(s, rng, played);
    nb::list moves = int_list(played, count);
    int index = 0;
    rng.get_state(state, &index);
    for (int i = 0; i < Random::WORDS; i++) words[i] = state[i];
    words[Random::WORDS] = index;
    return nb::make_tuple(moves, int_tuple(words, Random::WORDS + 1));
}

// random.Random(seed) as CPython seeds it, for an int within the signed 64-bit range or a
// str of at most Random::MAX_TEXT UTF-8 bytes.
Random seeded(nb::handle seed) {
    Random rng;
    PyObject* o = seed.ptr();
    if (PyUnicode_Check(o)) {
        Py_ssize_t length = 0;
        const char* text = PyUnicode_AsUTF8AndSize(o, &length);
        if (!text) throw nb::python_error();
        if (!rng.seed_text(text, static_cast<size_t>(length)))
            throw nb::value_error(("a seed text has at most " + std::to_string(Random::MAX_TEXT) + " bytes").c_str());
        return rng;
    }
    rng.seed_signed(to_int(seed, "seed"));
    return rng;
}

// random_playout with a generator seeded here: nothing of its state crosses (a generator's
// state is 625 ints, most of a playout's crossing cost).
nb::list playout_seeded(State& s, nb::handle seed) {
    Random rng = seeded(seed);
    uint8_t played[MAX_GAME_MOVES];
    return int_list(played, random_playout(s, rng, played));
}

nb::list greedy_list(const State& s) {
    GreedyValues values;
    greedy_values(s, values);
    nb::list out;
    for (int i = 0; i < values.count; i++)
        out.append(nb::make_tuple(small_tuple(values.entries[i].value, GREEDY_VALUE_SIZE), values.entries[i].move));
    return out;
}

constexpr int64_t MAX_INT64 = 0x7FFFFFFFFFFFFFFFll;

// A float (an int is taken too), finite, within [lo, hi].
double to_double_in(nb::handle value, const char* what, double lo, double hi) {
    PyObject* o = value.ptr();
    if (PyBool_Check(o) || !(PyFloat_Check(o) || PyLong_Check(o)))
        throw nb::type_error((std::string(what) + " must be a number").c_str());
    const double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
    if (!(v >= lo && v <= hi))  // NaN and the infinities fail too
        throw nb::value_error((std::string(what) + " must be a finite number between " + std::to_string(lo) + " and " +
                               std::to_string(hi)).c_str());
    return v;
}

// search(seed, iterations, seconds, c, pw_c, pw_alpha, horizon, credit, bias, fed, greed): one
// tree, searched without the GIL; ([(move, visits, wins, value, margin)] of the root's children in
// expansion order, simulations run). `iterations`, `seconds` and `horizon` may be None.
nb::tuple search_tree(const State& s, nb::handle seed, nb::handle iterations, nb::handle seconds, nb::handle c,
                      nb::handle pw_c, nb::handle pw_alpha, nb::handle horizon, nb::handle credit, nb::handle bias,
                      nb::handle fed, nb::handle greed) {
    SearchOptions o;
    const uint64_t tree_seed = static_cast<uint64_t>(to_int_in(seed, "seed", 0, MAX_INT64));
    o.iterations = iterations.is_none() ? -1 : to_int_in(iterations, "iterations", 1, MAX_INT64);
    o.seconds = seconds.is_none() ? -1.0 : to_double_in(seconds, "seconds", 0.0, 1e6);
    if (o.iterations < 0 && o.seconds < 0) throw nb::value_error("search needs iterations or seconds");
    if (is_over(s)) throw nb::value_error("the game is over: there is nothing to search");
    o.c = to_double_in(c, "c", 0.0, 1e6);
    o.pw_c = to_double_in(pw_c, "pw_c", 1e-9, 1e6);
    o.pw_alpha = to_double_in(pw_alpha, "pw_alpha", 0.0, 1.0);
    o.horizon = horizon.is_none() ? -1 : static_cast<int>(to_int_in(horizon, "horizon", 0, 1000));
    o.credit = to_double_in(credit, "credit", 0.0, 1e6);
    o.bias = to_double_in(bias, "bias", 0.0, 1e6);
    o.fed = to_double_in(fed, "fed", 0.0, 1.0);
    o.greed = to_double_in(greed, "greed", 0.0, 1.0);
    SearchResult result;
    {
        nb::gil_scoped_release unlocked;
        search(s, tree_seed, o, result);
    }
    nb::list moves;
    for (int i = 0; i < result.count; i++) {
        const RootMove& m = result.moves[i];
        moves.append(nb::make_tuple(m.move, m.visits, m.wins, m.value, m.margin));
    }
    return nb::make_tuple(moves, result.iterations);
}

State make_new_state(nb::handle mode, nb::handle players, nb::handle seed, nb::handle first_player,
                     nb::handle square_variant, nb::handle all_parks_absorb) {
    Config c;
    c.mode = static_cast<int8_t>(to_int_in(mode, "mode", 0, 1));
    c.players = static_cast<int8_t>(to_int_in(players, "players", 2, MAX_PLAYERS));
    c.seed = to_int(seed, "seed");
    c.first_player = static_cast<int8_t>(to_int_in(first_player, "first_player", 0, c.players - 1));
    c.square_variant = to_bool(square_variant, "square_variant");
    c.all_parks_absorb = to_bool(all_parks_absorb, "all_parks_absorb");
    return new_state(c);
}

nb::tuple score_cells(nb::handle mode, nb::handle cells, nb::handle inhabitants, nb::handle energy,
                      nb::handle all_parks_absorb) {
    int64_t values[MAX_CITY_SQUARES * 4 + 1];
    const size_t n = to_ints(cells, "cells", values, MAX_CITY_SQUARES * 4 + 1);
    City city;
    std::string error;
    if (!fields::city_from_cells(to_int(mode, "mode"), values, n, to_int(inhabitants, "inhabitants"),
                                 to_int(energy, "energy"), city, error))
        throw nb::value_error(("invalid city: " + error).c_str());
    CityScore score;
    score_city(city, to_bool(all_parks_absorb, "all_parks_absorb"), score);
    return score_tuple(score);
}

// ---- The Python engine's own types (set once by use_types) ----
// The hot entry points hand back Move objects and CityScore/Placement objects built here,
// and read Building objects in place: converting tuples to those types in Python cost more
// than the engine's work (a Placement and a CityScore set slot by slot, a Move looked up per
// move number, four attributes read per square). The classes are frozen slotted
// dataclasses: objects are allocated as object.__new__ does and their fields set through
// the classes' own member descriptors (the descriptor protocol checks the instance's type).
struct PyTypes {
    PyObject* moves = nullptr;  // tuple: the Move of each move number (quadropolis.moves.MOVES)
    PyTypeObject* building = nullptr;
    PyObject* building_fields[4] = {};  // type, floors, vp, tree
    PyTypeObject* score = nullptr;
    PyObject* score_fields[5] = {};  // total, breakdown, inhabitants_placed, empty_squares, placement
    PyTypeObject* placement = nullptr;
    PyObject* placement_fields[6] = {};  // activated, customers, absorbing_parks, removed, unused_*
    PyObject* breakdown = nullptr;  // dict: every category of scoring.CATEGORIES, in order, to 0
};
PyTypes types;  // strong references, kept for the life of the process

const char* const building_slots[4] = {"type", "floors", "vp", "tree"};
const char* const score_slots[5] = {"total", "breakdown", "inhabitants_placed", "empty_squares", "placement"};
const char* const placement_slots[6] = {"activated",          "customers",     "absorbing_parks",
                                         "removed",            "unused_inhabitants", "unused_energy"};

// The member descriptor of slot `name` defined by class `cls` itself (borrowed).
PyObject* slot_descriptor(PyTypeObject* cls, const char* name) {
    PyObject* d = cls->tp_dict ? PyDict_GetItemString(cls->tp_dict, name) : nullptr;
    if (!d || !Py_IS_TYPE(d, &PyMemberDescr_Type) || PyDescr_TYPE(d) != cls ||
        reinterpret_cast<PyMemberDescrObject*>(d)->d_member->type != T_OBJECT_EX)
        throw nb::type_error((std::string(cls->tp_name) + "." + name + " must be a slot of the class").c_str());
    return d;
}

// A class defined in Python whose instances object.__new__ makes (so that allocating one
// with tp_alloc and filling its slots is what object.__new__ and the slots' setters do).
PyTypeObject* slotted_class(nb::handle cls, const char* what) {
    if (!PyType_Check(cls.ptr())) throw nb::type_error((std::string(what) + " must be a class").c_str());
    PyTypeObject* t = reinterpret_cast<PyTypeObject*>(cls.ptr());
    if (!PyType_HasFeature(t, Py_TPFLAGS_HEAPTYPE) || t->tp_new != PyBaseObject_Type.tp_new)
        throw nb::type_error((std::string(what) + " must be a class defined in Python, made by object.__new__").c_str());
    return t;
}

void use_types(nb::handle moves, nb::handle building, nb::handle score, nb::handle placement, nb::handle categories) {
    if (!PyTuple_Check(moves.ptr()) || PyTuple_GET_SIZE(moves.ptr()) != MOVE_COUNT)
        throw nb::type_error(("moves must be a tuple of the " + std::to_string(MOVE_COUNT) + " moves").c_str());
    if (!PyTuple_Check(categories.ptr()) || PyTuple_GET_SIZE(categories.ptr()) != CATEGORY_COUNT)
        throw nb::type_error(("categories must be a tuple of " + std::to_string(CATEGORY_COUNT) + " str").c_str());
    PyTypes t;
    t.building = slotted_class(building, "building");
    t.score = slotted_class(score, "score");
    t.placement = slotted_class(placement, "placement");
    for (int i = 0; i < 4; i++) t.building_fields[i] = slot_descriptor(t.building, building_slots[i]);
    for (int i = 0; i < 5; i++) t.score_fields[i] = slot_descriptor(t.score, score_slots[i]);
    for (int i = 0; i < 6; i++) t.placement_fields[i] = slot_descriptor(t.placement, placement_slots[i]);
    nb::dict breakdown;
    for (int i = 0; i < CATEGORY_COUNT; i++) {
        nb::handle name = PyTuple_GET_ITEM(categories.ptr(), i);
        if (!PyUnicode_CheckExact(name.ptr())) throw nb::type_error("categories must be a tuple of str");
        breakdown[name] = 0;
    }
    if (PyDict_GET_SIZE(breakdown.ptr()) != CATEGORY_COUNT) throw nb::value_error("categories must be distinct");
    // Everything checked: take the references (a second call leaves the first call's ones
    // alive, as the classes are).
    t.moves = Py_NewRef(moves.ptr());
    for (PyObject* o : {building.ptr(), score.ptr(), placement.ptr()}) Py_INCREF(o);
    for (PyObject* d : t.building_fields) Py_INCREF(d);
    for (PyObject* d : t.score_fields) Py_INCREF(d);
    for (PyObject* d : t.placement_fields) Py_INCREF(d);
    t.breakdown = breakdown.release().ptr();
    types = t;
}

const PyTypes& ready_types() {
    if (!types.moves) throw std::runtime_error("quadropolis._native.use_types has not been called");
    return types;
}

// Sets `obj`'s slot through descriptor `d`; steals `value` (NULL: a Python error is set).
void set_slot(PyObject* d, PyObject* obj, PyObject* value) {
    if (!value) throw nb::python_error();
    const int failed = Py_TYPE(d)->tp_descr_set(d, obj, value);
    Py_DECREF(value);
    if (failed) throw nb::python_error();
}

PyObject* small_tuple_object(const int8_t* values, int n) {
    PyObject* t = PyTuple_New(n);
    if (!t) throw nb::python_error();
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(values[i]));  // small ints: cached
    return t;
}

// The scoring.CityScore (with its Placement) of `s`.
nb::object score_object(const CityScore& s) {
    const PyTypes& t = ready_types();
    const Placement& p = s.placement;
    for (int count : {p.activated_count, p.customers_count, p.absorbing_count, p.removed_count})
        if (count < 0 || count > MAX_CITY_SQUARES) throw std::logic_error("a placement list is out of range");
    nb::object placement = nb::steal(t.placement->tp_alloc(t.placement, 0));
    if (!placement.is_valid()) throw nb::python_error();
    PyObject* const* f = t.placement_fields;
    PyObject* customers = PyTuple_New(p.customers_count);
    set_slot(f[1], placement.ptr(), customers);  // owned by the placement from here (or freed)
    for (int i = 0; i < p.customers_count; i++) {
        const int8_t pair[2] = {p.customer_square[i], p.customers[i]};
        PyTuple_SET_ITEM(customers, i, small_tuple_object(pair, 2));
    }
    set_slot(f[0], placement.ptr(), small_tuple_object(p.activated, p.activated_count));
    set_slot(f[2], placement.ptr(), small_tuple_object(p.absorbing_parks, p.absorbing_count));
    set_slot(f[3], placement.ptr(), small_tuple_object(p.removed, p.removed_count));
    set_slot(f[4], placement.ptr(), PyLong_FromLong(p.unused_inhabitants));
    set_slot(f[5], placement.ptr(), PyLong_FromLong(p.unused_energy));
    // A copy of the all-zero breakdown keeps the categories' order and needs no resizing.
    PyObject* breakdown = PyDict_Copy(t.breakdown);
    if (!breakdown) throw nb::python_error();
    nb::object owned = nb::steal(breakdown);
    Py_ssize_t pos = 0, i = 0;
    PyObject *key, *zero;
    while (PyDict_Next(t.breakdown, &pos, &key, &zero)) {
        PyObject* value = PyLong_FromLong(s.breakdown[i++]);
        if (!value || PyDict_SetItem(breakdown, key, value) < 0) {
            Py_XDECREF(value);
            throw nb::python_error();
        }
        Py_DECREF(value);
    }
    nb::object score = nb::steal(t.score->tp_alloc(t.score, 0));
    if (!score.is_valid()) throw nb::python_error();
    f = t.score_fields;
    set_slot(f[0], score.ptr(), PyLong_FromLong(s.total));
    set_slot(f[1], score.ptr(), owned.release().ptr());
    set_slot(f[2], score.ptr(), PyLong_FromLong(s.inhabitants_placed));
    set_slot(f[3], score.ptr(), PyLong_FromLong(s.empty_squares));
    set_slot(f[4], score.ptr(), placement.release().ptr());
    return score;
}

// Reads field `d` of a Building: an int (`tree`: its truth value).
int64_t building_field(PyObject* d, PyObject* building, int field, long square) {
    nb::object value = nb::steal(Py_TYPE(d)->tp_descr_get(d, building, nullptr));
    if (!value.is_valid()) throw nb::python_error();
    if (field == 3) {
        const int truth = PyObject_IsTrue(value.ptr());
        if (truth < 0) throw nb::python_error();
        return truth;
    }
    return to_int(value, building_slots[field], square);
}

// The cells of a list or tuple of Building or None, at most MAX_CITY_SQUARES of them
// (more: ValueError); a square holding anything else is a ValueError too.
size_t building_cells(nb::handle buildings, int64_t* cells) {
    const PyTypes& t = ready_types();
    PyObject* seq = buildings.ptr();
    const bool list = PyList_Check(seq);
    if (!list && !PyTuple_Check(seq)) throw nb::type_error("buildings must be a list or tuple of Building or None");
    const Py_ssize_t n = list ? PyList_GET_SIZE(seq) : PyTuple_GET_SIZE(seq);
    if (n > MAX_CITY_SQUARES)
        throw nb::value_error(("a city has at most " + std::to_string(MAX_CITY_SQUARES) + " squares, got " +
                               std::to_string(n)).c_str());
    for (Py_ssize_t q = 0; q < n; q++) {
        PyObject* b = list ? PyList_GET_ITEM(seq, q) : PyTuple_GET_ITEM(seq, q);
        int64_t* cell = cells + q * 4;
        if (b == Py_None) {
            cell[0] = -1, cell[1] = cell[2] = cell[3] = 0;
            continue;
        }
        if (!Py_IS_TYPE(b, t.building))
            throw nb::value_error(("square " + std::to_string(q) + " holds neither a Building nor None").c_str());
        for (int k = 0; k < 4; k++) cell[k] = building_field(t.building_fields[k], b, k, static_cast<long>(q));
    }
    return static_cast<size_t>(n) * 4;
}

nb::object score_buildings(nb::handle mode, nb::handle buildings, nb::handle inhabitants, nb::handle energy,
                           nb::handle all_parks_absorb) {
    int64_t cells[MAX_CITY_SQUARES * 4];
    const size_t n = building_cells(buildings, cells);
    City city;
    std::string error;
    if (!fields::city_from_cells(to_int(mode, "mode"), cells, n, to_int(inhabitants, "inhabitants"),
                                 to_int(energy, "energy"), city, error))
        throw nb::value_error(("invalid city: " + error).c_str());
    CityScore score;
    score_city(city, to_bool(all_parks_absorb, "all_parks_absorb"), score);
    return score_object(score);
}

// A whole random game from random.Random(seed), played in place: (the Moves played, the
// CityScore of every seat's city with the state's all_parks_absorb).
nb::tuple random_game(State& s, nb::handle seed) {
    const PyTypes& t = ready_types();
    Random rng = seeded(seed);
    uint8_t played[MAX_GAME_MOVES];
    const int count = random_playout(s, rng, played);
    PyObject* moves = PyList_New(count);
    if (!moves) throw nb::python_error();
    nb::object owned = nb::steal(moves);
    for (int i = 0; i < count; i++) {
        if (played[i] >= MOVE_COUNT) throw std::logic_error("a playout returned a move number out of range");
        PyList_SET_ITEM(moves, i, Py_NewRef(PyTuple_GET_ITEM(t.moves, played[i])));  // MOVE_COUNT entries
    }
    const int players = s.config.players;
    PyObject* scores = PyTuple_New(players);
    if (!scores) throw nb::python_error();
    nb::object owned_scores = nb::steal(scores);
    for (int p = 0; p < players; p++) {
        CityScore score;
        score_city(city_of(s, p), s.config.all_parks_absorb, score);
        PyTuple_SET_ITEM(scores, p, score_object(score).release().ptr());
    }
    return nb::make_tuple(owned, owned_scores);
}

}  // namespace

NB_MODULE(_native, m) {
    m.doc() = "The compiled quadropolis engine (see docs/native.md).";
    m.attr("ABI") = fields::ABI;
    nb::class_<State>(m, "State")
        .def("__init__", [](State* self, nb::handle f) { new (self) State(state_from(f)); }, nb::arg("fields"))
        .def("fields", &state_fields)
        .def("copy", [](const State& s) { return State(s); })
        .def("legal_moves", &legal_list)
        .def("apply", &apply_checked, nb::arg("move"))
        .def("is_over", [](const State& s) { return is_over(s); })
        .def("current_player", [](const State& s) { return current_player(s); })
        .def("score", &score_player, nb::arg("player"), nb::arg("all_parks_absorb"))
        .def("random_playout", &playout, nb::arg("mt"))
        .def("random_playout_seeded", &playout_seeded, nb::arg("seed"))
        .def("random_game", &random_game, nb::arg("seed"))
        .def("greedy_values", &greedy_list)
        .def("search", &search_tree, nb::arg("seed"), nb::arg("iterations").none(), nb::arg("seconds").none(), nb::arg("c"),
             nb::arg("pw_c"), nb::arg("pw_alpha"), nb::arg("horizon").none(), nb::arg("credit"), nb::arg("bias"), nb::arg("fed"), nb::arg("greed"));
    m.def("new_state", &make_new_state, nb::arg("mode"), nb::arg("players"), nb::arg("seed"), nb::arg("first_player"),
          nb::arg("square_variant"), nb::arg("all_parks_absorb") = nb::bool_(false));
    m.def("use_types", &use_types, nb::arg("moves"), nb::arg("building"), nb::arg("score"), nb::arg("placement"),
          nb::arg("categories"));
    m.def("score_buildings", &score_buildings, nb::arg("mode"), nb::arg("buildings"), nb::arg("inhabitants"),
          nb::arg("energy"), nb::arg("all_parks_absorb"));
    m.def("score_city", &score_cells, nb::arg("mode"), nb::arg("cells"), nb::arg("inhabitants"), nb::arg("energy"),
          nb::arg("all_parks_absorb"));
    register_vector_env(m);
}
