"""The exact optimiser behind :func:`quadropolis.scoring.score_city` (docs/rules.md §3-§5, R11-R15).

It finds which buildings to activate so that the city's key (VP, then inhabitants placed,
then activated buildings; see :mod:`.scoring_groups`) is the largest, without enumerating the
2^n activation subsets. Six phases, each a function below taking the previous ones' results:

1. :func:`classify` -- forced activations. A building that can never be activated is *off*;
   one that is activated in every optimal placement (a dominance argument) is *forced*;
   parks and monuments are always active. The rest are *candidates*.
2. :func:`settle` -- constants. Each candidate gets the VP it adds by itself (monuments are
   folded into their neighbours: a shop next to a monument is worth 3 more; a factory's pair
   bonus is credited to its partner when one side is forced). VP no decision can change go
   to a base. Candidates are sorted into classes: independent *constants* (only their count
   matters, and the best ``k`` are a sorted prefix), *groups* whose members interact (public
   services by districts, harbors by runs, tower blocks sharing a park with office towers),
   and *hubs*: candidate factories next to a candidate shop / harbor / office tower.
3. :func:`build_groups` -- group tables: the best key of each group by count, for the
   parts that do not depend on the hubs.
4. :func:`hub_tables` -- hub enumeration: for each subset of hubs activated, the tables that
   depend on it (pair bonuses change the order of shops and constants, and the groups).
5. :func:`combine` -- combination: over the counts of office towers, shops and group tower
   blocks, share energy and inhabitants and take the best total key (:func:`solve` runs
   phases 4 and 5 for every hub subset).
6. :func:`activation` -- the placement: which squares the best combination activates.

:func:`optimal_activation` chains the six phases.

Standard library and core only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .buildings import BuildingType
from .city import Building, City
from .scoring_groups import (
    K2,
    NEG,
    best_first,
    customers_key,
    harbor_runs,
    harbor_table,
    maxplus,
    prefix,
    public_service_table,
    tower_office_base,
    tower_office_table,
)
from .scoring_tables import (
    DISTRICT_VP,
    MONUMENT_VP_BY_TYPE,
    PAIR_VP_BY_TYPE,
    PARK_VP,
    TABLES,
    TOWER_VP,
    USES_ENERGY,
    USES_INHABITANT,
    GeometryTables,
    office_vp,
)
from .tiles import Mode

_B = BuildingType
_T, _S, _PS, _PK, _F, _H, _O, _M = (
    _B.TOWER_BLOCK,
    _B.SHOP,
    _B.PUBLIC_SERVICE,
    _B.PARK,
    _B.FACTORY,
    _B.HARBOR,
    _B.OFFICE_TOWER,
    _B.MONUMENT,
)

#: Activation states of a square (phase 1).
FORCED: Final = 1
CANDIDATE: Final = 0
OFF: Final = -1


# ---------------------------------------------------------------------------------------
# Phase 1: forced activations.


@dataclass(slots=True)
class Board:
    """The city as the solver sees it (phase 1's result; read-only afterwards).

    ``types[s]``: building type on square ``s`` (-1: empty). ``squares[t]``: squares of type
    ``t``, ascending. ``madj[s]``: monuments orthogonally next to ``s``. ``state[s]``: FORCED,
    CANDIDATE or OFF. ``n_forced``: forced buildings (parks and monuments included);
    ``e_forced``/``i_forced``: energy units / inhabitants they use (each inhabitant used is
    also one placed, R13). ``estar``: energy units penalised if none were used (after the
    parks' absorption, R11). ``k1``, ``ku``: key weights (:mod:`.scoring_groups`)."""

    buildings: tuple[Building | None, ...]
    geo: GeometryTables
    mode: Mode
    cap: int
    inhabitants: int
    energy: int
    types: list[int]
    squares: list[list[int]]
    madj: list[int]
    state: list[int]
    n_forced: int
    e_forced: int
    i_forced: int
    estar: int
    k1: int
    ku: int


def classify(city: City, all_parks_absorb: bool) -> Board:
    """Phase 1. Index the city's buildings and decide which are forced, candidates or off.

    Invariants of the result: parks and monuments are FORCED; an empty square, or a building
    whose resource the city has none of, is OFF; forcing depends only on city-wide counts, so
    all public services (and all office towers) share one state."""
    bs = city.buildings
    geo = TABLES[city.mode]
    types = [-1] * len(bs)
    squares: list[list[int]] = [[] for _ in range(8)]
    absorbing = 0
    for s, b in enumerate(bs):
        if b is not None:
            t = b.type
            types[s] = t
            squares[t].append(s)
            # R11: only tree parks absorb an unused energy unit (every park in the §6 variant).
            if t is _PK and (all_parks_absorb or b.tree):
                absorbing += 1
    madj = [0] * len(bs)
    for m in squares[_M]:
        for n in geo.nb[m]:
            madj[n] += 1
    cap = 5 if city.mode is Mode.EXPERT else 4
    inh, en = city.inhabitants, city.energy
    state, n_forced, e_forced, i_forced = _activation_states(types, squares, madj, inh, en, cap)
    k1 = K2 * (inh + 1)  # VP weight: placed * K2 + activated < k1 always
    estar = max(0, en - absorbing)
    return Board(
        bs,
        geo,
        city.mode,
        cap,
        inh,
        en,
        types,
        squares,
        madj,
        state,
        n_forced,
        e_forced,
        i_forced,
        estar,
        k1,
        k1 + K2 + 1,
    )


def _activation_states(
    types: list[int], squares: list[list[int]], madj: list[int], inh: int, en: int, cap: int
) -> tuple[list[int], int, int, int]:
    """FORCED / CANDIDATE / OFF for each square (see :func:`classify`), and the number of
    forced buildings, energy units and inhabitants they use.

    Forcing is an exchange argument (R12): with energy for every energy user, an idle energy
    unit exists while a tower block or shop is off, and activating it with that unit loses
    nothing and adds a building. With inhabitants for every inhabitant user and every shop
    full, an idle (penalised) inhabitant exists while one is off; activating a public service,
    a factory or harbor not next to a monument (whose -5 could make it a loss), or an office
    tower when energy is plentiful too, saves the penalty and loses nothing."""
    energy_plenty = en >= len(squares[_T]) + len(squares[_S]) + len(squares[_O])
    n_i_users = len(squares[_PS]) + len(squares[_F]) + len(squares[_H]) + len(squares[_O])
    inh_plenty = inh >= n_i_users + cap * len(squares[_S])
    state = [OFF] * len(types)
    n_forced = e_forced = i_forced = 0
    for s, t in enumerate(types):
        if t < 0 or (en == 0 and t in USES_ENERGY) or (inh == 0 and t in USES_INHABITANT):
            continue
        if (
            t in (_PK, _M)
            or (energy_plenty and t in (_T, _S))
            or (inh_plenty and (t is _PS or (t in (_F, _H) and madj[s] == 0) or (t is _O and energy_plenty)))
        ):
            state[s] = FORCED
            n_forced += 1
            e_forced += t in USES_ENERGY
            i_forced += t in USES_INHABITANT
        else:
            state[s] = CANDIDATE
    return state, n_forced, e_forced, i_forced


# ---------------------------------------------------------------------------------------
# Phase 2: constants.


@dataclass(slots=True)
class Settled:
    """Phase 2's result: what no decision changes, each candidate's own value, and the
    candidates sorted into classes.

    ``base_vp``: VP of the forced buildings, settled parks and forced groups. ``cval[s]``:
    VP candidate ``s`` adds when activated, whatever the other candidates do. ``hubs``:
    candidate factories next to a candidate partner, ascending; ``hub_bit[f]``: hub ``f``'s
    bit; ``pair_mask[s]``: bits of the hubs next to partner ``s`` (0 for non-partners).
    Classes (candidate squares, ascending unless said): ``ps`` public services; ``h_int``
    harbors touching another harbor that may be active, ``h_forced`` bitmask of the forced
    harbors; ``to_t`` tower blocks around an interacting park (a park with two or more
    candidate users) and ``to_o`` office towers; ``inter_parks`` = (forced users around the
    park, candidate users around it); ``t_const`` other tower blocks; ``shops``; ``i_const``
    inhabitant-only constants: non-hub factories, then lone harbors. ``n_shops_forced``:
    forced shops. Every candidate is in exactly one class, or is a hub."""

    base_vp: int
    cval: list[int]
    hubs: list[int]
    hub_bit: dict[int, int]
    pair_mask: list[int]
    ps: list[int]
    h_int: list[int]
    h_forced: int
    to_t: list[int]
    to_o: list[int]
    inter_parks: list[tuple[int, list[int]]]
    t_const: list[int]
    shops: list[int]
    i_const: list[int]
    n_shops_forced: int


def settle(bd: Board) -> Settled:
    """Phase 2. Value each candidate on its own, sum what is settled, sort the candidates
    into classes. Credits (monuments, pairs, parks) go to candidates only, so forced
    buildings' values are final when summed."""
    state, types, sq = bd.state, bd.types, bd.squares
    cval = _own_values(bd)
    pairs_vp, hub_of = _factory_pairs(bd, cval)
    parks_vp, inter_parks = _park_bonuses(bd, cval)
    base_vp = pairs_vp + parks_vp + _forced_groups_vp(bd, cval)
    hubs = sorted({f for fl in hub_of.values() for f in fl})
    hub_bit = {f: 1 << i for i, f in enumerate(hubs)}
    pair_mask = [0] * len(types)
    for t, fl in hub_of.items():
        for f in fl:
            pair_mask[t] |= hub_bit[f]
    h_forced, h_int, h_lone = _harbor_classes(bd)
    to_t = sorted({t for _, cands in inter_parks for t in cands if types[t] is _T})
    return Settled(  # positional: keyword calls of a 15-field dataclass cost ~1 µs more
        base_vp,
        cval,
        hubs,
        hub_bit,
        pair_mask,
        [s for s in sq[_PS] if state[s] == CANDIDATE],  # ps
        h_int,
        h_forced,
        to_t,
        [o for o in sq[_O] if state[o] == CANDIDATE],  # to_o
        inter_parks,
        [t for t in sq[_T] if state[t] == CANDIDATE and t not in to_t],  # t_const
        [s for s in sq[_S] if state[s] == CANDIDATE],  # shops
        [f for f in sq[_F] if state[f] == CANDIDATE and f not in hub_bit] + h_lone,  # i_const
        sum(1 for s in sq[_S] if state[s] == FORCED),  # n_shops_forced
    )


def _own_values(bd: Board) -> list[int]:
    """VP each building adds by itself when activated: tower floors (§4), printed VP of public
    services and harbors, and its monument neighbours (monuments never move, so their VP is
    a property of the square). Shops score by customers and office towers by groups, later."""
    bs, madj = bd.buildings, bd.madj
    cval = [0] * len(bs)
    for s, b in enumerate(bs):
        if b is None:
            continue
        t = b.type
        mv = MONUMENT_VP_BY_TYPE[t] * madj[s]
        if t is _T:
            cval[s] = TOWER_VP[b.floors] + mv
        elif t in (_PS, _H):
            cval[s] = b.vp + mv
        else:
            cval[s] = mv
    return cval


def _factory_pairs(bd: Board, cval: list[int]) -> tuple[int, dict[int, list[int]]]:
    """Factory pair bonuses (§4): settled when both sides are forced (returned VP), credited
    to the candidate side when the other is forced (``cval`` updated), and otherwise left to
    the hub enumeration: returns ``{candidate partner: [its candidate factories]}``."""
    state, types, nb = bd.state, bd.types, bd.geo.nb
    settled = 0
    hub_of: dict[int, list[int]] = {}
    for f in bd.squares[_F]:
        if state[f] == OFF:
            continue
        for t in nb[f]:
            tt = types[t]
            if tt in (_S, _H, _O) and state[t] != OFF:
                pv = PAIR_VP_BY_TYPE[tt]
                if state[f] == FORCED and state[t] == FORCED:
                    settled += pv
                elif state[f] == FORCED:
                    cval[t] += pv
                elif state[t] == FORCED:
                    cval[f] += pv
                else:
                    hub_of.setdefault(t, []).append(f)
    return settled, hub_of


def _park_bonuses(bd: Board, cval: list[int]) -> tuple[int, list[tuple[int, list[int]]]]:
    """Park VP (§4; Expert parks count office towers too) and parks' monument VP. A park
    with no candidate user is settled; with one, the step it adds is a constant of that
    user (``cval`` updated); with two or more it interacts: returns (settled VP,
    [(forced users around, candidate users around)] of the interacting parks)."""
    users = (_T, _O) if bd.mode is Mode.EXPERT else (_T,)
    state, types, nb, madj = bd.state, bd.types, bd.geo.nb, bd.madj
    settled = 0
    inter: list[tuple[int, list[int]]] = []
    for p in bd.squares[_PK]:
        settled += MONUMENT_VP_BY_TYPE[_PK] * madj[p]
        forced = 0
        cands: list[int] = []
        for t in nb[p]:
            if types[t] in users and state[t] != OFF:
                if state[t] == FORCED:
                    forced += 1
                else:
                    cands.append(t)
        if len(cands) >= 2:
            inter.append((forced, cands))
            continue
        settled += PARK_VP[forced]
        if cands:
            cval[cands[0]] += PARK_VP[forced + 1] - PARK_VP[forced]
    return settled, inter


def _forced_groups_vp(bd: Board, cval: list[int]) -> int:
    """VP of the forced buildings: their own values, and the office groups (R15) and
    district bonus when those groups are forced whole (forcing is all-or-nothing for them)."""
    state, sq, types = bd.state, bd.squares, bd.types
    vp = 0
    offices = sq[_O]
    if offices and state[offices[0]] == FORCED:
        vp += office_vp(offices, _floors(bd, offices), bd.geo.nb)
    district = bd.geo.district
    ps_districts = {district[s] for s in sq[_PS] if state[s] == FORCED}
    if ps_districts:
        vp += DISTRICT_VP[len(ps_districts)]
    for s, st in enumerate(state):
        if st == FORCED and types[s] not in (_PK, _M):
            vp += cval[s]
    return vp


def _floors(bd: Board, squares: Sequence[int]) -> list[int]:
    """Floors of the (built) squares ``squares``."""
    return [b.floors for b in (bd.buildings[s] for s in squares) if b is not None]


def _harbor_classes(bd: Board) -> tuple[int, list[int], list[int]]:
    """(bitmask of forced harbors, candidate harbors touching a harbor that may be active,
    lone candidate harbors). A lone harbor is a run of one, which scores nothing (R14), so it
    is a constant; the others' runs depend on each other and on the forced ones."""
    state, types, nb = bd.state, bd.types, bd.geo.nb
    forced = 0
    interacting: list[int] = []
    lone: list[int] = []
    for h in bd.squares[_H]:
        if state[h] == FORCED:
            forced |= 1 << h
        elif state[h] == CANDIDATE:
            if any(types[t] is _H and state[t] != OFF for t in nb[h]):
                interacting.append(h)
            else:
                lone.append(h)
    return forced, interacting, lone


# ---------------------------------------------------------------------------------------
# Phase 3: group tables that do not depend on the hubs.


@dataclass(slots=True)
class Groups:
    """Phase 3's result. ``ps_tab``/``ps_choice``: public service table and the squares of
    each count (:func:`.scoring_groups.public_service_table`). ``h_runs``/``h_pop``: run keys
    and sizes of the subsets of ``Settled.h_int``. ``to_items = to_t + to_o`` and ``to_base``:
    key of each subset of them without factory pairs. ``t_order``/``t_pref``: constant tower
    blocks best first and the prefix of their keys. ``base_vp``: ``Settled.base_vp`` plus
    the forced harbors' runs when no candidate harbor can extend them."""

    ps_tab: list[int]
    ps_choice: list[list[int]]
    h_runs: list[int]
    h_pop: list[int]
    to_items: list[int]
    to_base: list[int]
    t_order: list[int]
    t_pref: list[int]
    base_vp: int


def build_groups(bd: Board, st: Settled) -> Groups:
    """Phase 3. Tables of the groups and of the constant tower blocks (which use energy only,
    so no hub changes their order)."""
    k1, cval, geo = bd.k1, st.cval, bd.geo
    ps_tab, ps_choice = public_service_table(st.ps, cval, geo.district, k1, bd.ku)
    h_runs, h_pop = harbor_runs(st.h_int, st.h_forced, geo.hvalid, geo.cols, k1)
    base_vp = st.base_vp
    if not st.h_int:  # the forced harbors' runs are settled
        base_vp += h_runs[0] // k1
        h_runs[0] = 0
    to_items = st.to_t + st.to_o
    park_masks = []
    for around, cands in st.inter_parks:
        pm = 0
        for t in cands:
            pm |= 1 << to_items.index(t)
        park_masks.append((around, pm))
    # A tower block uses energy only; an office tower an inhabitant too (its energy is
    # credited by count in phase 5).
    item_key = [cval[s] * k1 + (1 if bd.types[s] is _T else bd.ku) for s in to_items]
    floors = _floors(bd, st.to_o)
    to_base = tower_office_base(st.to_t, st.to_o, floors, item_key, park_masks, geo.nb, k1)
    t_order = sorted(st.t_const, key=lambda s: (-cval[s], s))
    t_pref = prefix([cval[s] * k1 + 1 for s in t_order])
    return Groups(ps_tab, ps_choice, h_runs, h_pop, to_items, to_base, t_order, t_pref, base_vp)


# ---------------------------------------------------------------------------------------
# Phase 4: hub enumeration.


@dataclass(slots=True)
class HubTables:
    """Phase 4's result for one subset ``fm`` (bitmask over ``Settled.hubs``) of activated
    hubs. ``f_key``: the hubs' keys. ``i_av``/``ko_max``: inhabitants left after forced
    buildings and hubs, and the most office towers affordable. ``s_order``/``s_pref`` and
    ``ic_order``/``ic_pref``: candidate shops, and inhabitant-only constants, best first with
    pair bonuses, and prefixes of their keys. ``g_tab``: best key by count of the inhabitant
    users (public services + interacting harbors + constants), with ``g_arg`` (count taken
    from public services + harbors), ``g1_arg`` (count from public services) and ``h_arg``
    (harbor bitmask) to undo the convolutions. ``to_tab``/``to_arg``: the tower block / office
    tower table by (tower blocks, office towers) (:func:`.scoring_groups.tower_office_table`)."""

    fm: int
    f_key: int
    i_av: int
    ko_max: int
    s_order: list[int]
    s_pref: list[int]
    ic_order: list[int]
    ic_pref: list[int]
    g_tab: list[int]
    g_arg: list[int]
    g1_arg: list[int]
    h_arg: list[int]
    to_tab: list[int]
    to_arg: list[int]


def hub_tables(bd: Board, st: Settled, gr: Groups, fm: int) -> HubTables | None:
    """Phase 4. The tables for activated hubs ``fm``; ``None`` when the city has too few
    inhabitants for them. A hub adds its pair VP to each candidate partner next to it, so it
    can reorder shops and constants and change the groups' tables."""
    i_av = bd.inhabitants - bd.i_forced - fm.bit_count()
    if i_av < 0:
        return None
    k1, ku, cval, pair_mask, types = bd.k1, bd.ku, st.cval, st.pair_mask, bd.types
    f_key = sum(cval[f] * k1 + ku for f in st.hubs if fm & st.hub_bit[f])

    def pair(s: int) -> int:
        """VP the activated hubs add to candidate partner ``s`` (factory pairs, §4)."""
        return PAIR_VP_BY_TYPE[types[s]] * (pair_mask[s] & fm).bit_count()

    s_order, s_pref = best_first([((cval[s] + pair(s)) * k1 + 1, -s) for s in st.shops])
    ic_order, ic_pref = best_first([((cval[s] + pair(s)) * k1 + ku, -s) for s in st.i_const])
    h_tab, h_arg = harbor_table([(cval[h] + pair(h)) * k1 + ku for h in st.h_int], gr.h_runs, gr.h_pop)
    g1, g1_arg = maxplus(gr.ps_tab, h_tab)
    g_tab, g_arg = maxplus(g1, ic_pref)
    e_av = bd.energy - bd.e_forced
    ko_max = min(len(st.to_o), i_av, e_av)
    ok = [pair(o) * k1 for o in st.to_o]
    to_tab, to_arg = tower_office_table(gr.to_base, len(st.to_t), ok, ko_max, e_av)
    return HubTables(
        fm,
        f_key,
        i_av,
        ko_max,
        s_order,
        s_pref,
        ic_order,
        ic_pref,
        g_tab,
        g_arg,
        g1_arg,
        h_arg,
        to_tab,
        to_arg,
    )


# ---------------------------------------------------------------------------------------
# Phase 5: combination.


@dataclass(slots=True)
class Choice:
    """The best combination for one hub subset: its key and tables, office towers ``ko``,
    candidate shops ``ks`` and group tower blocks ``kt`` activated, constant tower blocks
    ``tc`` (best first), and ``m`` inhabitant users from ``HubTables.g_tab``."""

    key: int
    hub: HubTables
    ko: int
    ks: int
    kt: int
    tc: int
    m: int


def combine(bd: Board, st: Settled, gr: Groups, hub: HubTables) -> Choice:
    """Phase 5. The best total key for the hub subset of ``hub``, over the counts of office
    towers (``ko``), candidate shops (``ks``, best first) and group tower blocks (``kt``);
    energy left goes to the best constant tower blocks. Inhabitants left after office towers
    are split between the inhabitant users and customers (:func:`_inhabitant_split`).

    Loops run in increasing ``ko``, ``ks``, ``kt`` and keep the first maximum, so the
    placement returned under ties is deterministic. Feasible for every ``hub`` phase 4
    returns: nothing activated but the hubs is always a placement."""
    k1, estar, e_forced = bd.k1, bd.estar, bd.e_forced
    e_av = bd.energy - e_forced
    nt, width = len(st.to_t), len(st.to_o) + 1
    t_pref, to_tab, s_pref = gr.t_pref, hub.to_tab, hub.s_pref
    nt_c = len(t_pref) - 1
    base_key = (gr.base_vp - bd.inhabitants - estar) * k1 + bd.i_forced * K2 + bd.n_forced
    best = (NEG, 0, 0, 0, 0, 0)
    for ko in range(hub.ko_max + 1):
        l_av = hub.i_av - ko
        for ks in range(min(len(hub.s_order), e_av - ko) + 1):
            shop_room = bd.cap * (st.n_shops_forced + ks)
            i_key, m = _inhabitant_split(hub.g_tab, l_av, shop_room, bd.cap, k1)
            b_left = e_av - ko - ks  # energy left for tower blocks
            part = hub.f_key + s_pref[ks] + i_key + base_key
            for kt in range(min(nt, b_left) + 1):
                tv = to_tab[kt * width + ko]
                if tv <= NEG // 2:
                    continue
                tc = nt_c if nt_c < b_left - kt else b_left - kt
                # §3, R11: each energy unit used, up to the ``estar`` units that would pollute
                # once tree parks absorb theirs, saves its -1 VP.
                e_used = e_forced + ko + ks + kt + tc
                v = part + tv + t_pref[tc] + (e_used if e_used < estar else estar) * k1
                if v > best[0]:
                    best = (v, ko, ks, kt, tc, m)
    return Choice(best[0], hub, *best[1:])


def _inhabitant_split(g_tab: Sequence[int], free: int, shop_room: int, cap: int, k1: int) -> tuple[int, int]:
    """Best (key, m) of putting ``m`` of ``free`` inhabitants in inhabitant users (table
    ``g_tab``) and offering the rest as customers to activated shops with room for
    ``shop_room`` (:func:`.scoring_groups.customers_key`)."""
    best, best_m = NEG, 0
    for m in range(min(free, len(g_tab) - 1) + 1):
        gv = g_tab[m]
        if gv <= NEG // 2:
            continue
        v = gv + customers_key(free - m, shop_room, cap, k1)
        if v > best:
            best, best_m = v, m
    return best, best_m


def solve(bd: Board, st: Settled, gr: Groups) -> Choice:
    """Phases 4 and 5 over every subset of hubs, in increasing bitmask order, keeping the
    first best (under ties, the smallest bitmask of activated hubs)."""
    best: Choice | None = None
    for fm in range(1 << len(st.hubs)):
        hub = hub_tables(bd, st, gr, fm)
        if hub is None:
            continue
        c = combine(bd, st, gr, hub)
        if best is None or c.key > best.key:
            best = c
    assert best is not None  # fm = 0 is always feasible
    return best


# ---------------------------------------------------------------------------------------
# Phase 6: the placement.


def activation(bd: Board, st: Settled, gr: Groups, ch: Choice) -> list[bool]:
    """Phase 6. Whether each square's building is activated in the best combination ``ch``
    (parks and monuments included), undoing the tables' choices."""
    hub = ch.hub
    active = [s == FORCED for s in bd.state]
    for f in st.hubs:
        if hub.fm & st.hub_bit[f]:
            active[f] = True
    to_mk = hub.to_arg[ch.kt * (len(st.to_o) + 1) + ch.ko]
    for i, s in enumerate(gr.to_items):
        if to_mk >> i & 1:
            active[s] = True
    for s in gr.t_order[: ch.tc]:
        active[s] = True
    for s in hub.s_order[: ch.ks]:
        active[s] = True
    a1 = hub.g_arg[ch.m]  # inhabitant users from public services + harbors
    for s in hub.ic_order[: ch.m - a1]:
        active[s] = True
    n_ps = hub.g1_arg[a1]
    hm = hub.h_arg[a1 - n_ps]
    for i, h in enumerate(st.h_int):
        if hm >> i & 1:
            active[h] = True
    for s in gr.ps_choice[n_ps]:
        active[s] = True
    return active


def optimal_activation(city: City, all_parks_absorb: bool) -> list[bool]:
    """All six phases: which buildings an optimal placement of ``city`` activates (R12)."""
    bd = classify(city, all_parks_absorb)
    st = settle(bd)
    gr = build_groups(bd, st)
    return activation(bd, st, gr, solve(bd, st, gr))
