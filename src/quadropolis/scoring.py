"""Exact optimal final scoring of one city (RULES.md §3-§5, rulings R11-R15).

At game end the player chooses where every inhabitant and energy unit sits; the engine
computes the placement that maximises the city's VP, then the inhabitants placed, then
minimises the empty squares left after non-activated buildings are removed (R12, R13).

How the optimum is found (exactly, without enumerating the 2^n activation subsets):

* All objectives are folded into one integer *key*
  ``VP * K1 + inhabitants_placed * 32 + activated_buildings`` so that comparing keys is
  comparing (VP, inhabitants placed, -empty squares) lexicographically (R12 tie-breakers).
  Parks and monuments are always activated, so fewer empty squares = more activated buildings.
* Monuments are folded into constants of their neighbours (a shop next to a monument is
  simply worth 3 more when activated); a factory's pair bonus is credited to its partner.
* Dominance: with energy for every energy user, every tower block and shop is activated in
  every optimal placement; with inhabitants for every inhabitant user and a full load of
  customers, every public service and every factory/harbor not next to a monument is too.
* Buildings whose value does not depend on any other undecided building are *constants* and
  only their count matters; inside each resource class the best ``k`` are a sorted prefix.
  Public services only interact with public services (districts) and harbors only with
  harbors (runs) once factories are fixed, so each is a small *group* with a best-value-by-
  count table. Tower blocks sharing a park and office towers form the last group.
* Factories next to an undecided shop/harbor/office tower (*hubs*) are enumerated; for each
  hub choice the groups and constants are combined over the counts of office towers and
  shops (customers are filled greedily into as few shops as possible: shop VP are convex).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from .buildings import BuildingType
from .city import GEOMETRY, Building, City, Geometry
from .tiles import Mode

__all__ = ["CATEGORIES", "CityScore", "Placement", "score_city"]

CATEGORIES: Final[tuple[str, ...]] = (
    "tower_block",
    "shop",
    "public_service",
    "park",
    "factory",
    "harbor",
    "office_tower",
    "monument",
    "unused_inhabitants",
    "pollution",
)

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

#: Tower block VP by floors (index = floors).
TOWER_VP: Final = (0, 1, 3, 6, 10, 15)
#: Shop VP by customers (index = customers; 5 only in Expert).
SHOP_VP: Final = (0, 1, 2, 4, 7, 11)
#: Public service bonus by number of districts holding at least one activated one.
DISTRICT_VP: Final = (0, 2, 5, 9, 14, 20)
#: Park VP by adjacent activated tower blocks (Expert: and office towers).
PARK_VP: Final = (0, 2, 4, 7, 11)
#: Harbor run VP by run length (R14).
RUN_VP: Final = (0, 0, 3, 7, 12, 18)
#: Office tower VP per tower: OFFICE_VP[group size, capped at 5][floors] (R15).
OFFICE_VP: Final = (
    (0, 0, 0, 0, 0, 0),
    (0, 0, 1, 3, 6, 10),
    (0, 1, 3, 6, 10, 15),
    (0, 2, 5, 9, 14, 20),
    (0, 3, 7, 12, 18, 25),
    (0, 4, 9, 15, 22, 30),
)
#: Factory VP per adjacent activated building of each type.
FACTORY_PAIR_VP: Final = {_S: 2, _H: 3, _O: 4}
#: Monument VP per adjacent activated building of each type.
MONUMENT_VP: Final = {_T: 0, _S: 3, _PS: 2, _PK: 5, _F: -5, _H: -5, _O: 0, _M: 0}

#: The same two tables indexed by the building type's integer value (fast path).
_MON_BY_TYPE: Final = tuple(MONUMENT_VP[t] for t in BuildingType)
_PAIR_BY_TYPE: Final = tuple(FACTORY_PAIR_VP.get(t, 0) for t in BuildingType)

_K2: Final = 32  # > number of squares: the activated-buildings count fits below it
_NEG: Final = -(1 << 60)


@dataclass(frozen=True, slots=True)
class Placement:
    """Where the resources sit in the final placement.

    ``activated``: sorted squares of the activated buildings holding their activation cost
    (parks and monuments are always activated and are not listed). ``customers``: (shop
    square, customers) for shops with at least one customer. ``absorbing_parks``: parks that
    absorb one unused energy unit (R11). ``removed``: squares whose building is not activated
    and is removed before scoring. ``unused_energy`` counts energy not used to activate,
    before absorption."""

    activated: tuple[int, ...]
    customers: tuple[tuple[int, int], ...]
    absorbing_parks: tuple[int, ...]
    removed: tuple[int, ...]
    unused_inhabitants: int
    unused_energy: int

    def to_json(self, geometry: Geometry) -> dict[str, Any]:
        name = geometry.square_name
        return {
            "activated": [name(s) for s in self.activated],
            "customers": {name(s): n for s, n in self.customers},
            "absorbing_parks": [name(s) for s in self.absorbing_parks],
            "removed": [name(s) for s in self.removed],
            "unused_inhabitants": self.unused_inhabitants,
            "unused_energy": self.unused_energy,
        }


@dataclass(frozen=True, slots=True)
class CityScore:
    """The optimal score of a city: total VP, VP by category (printed VP in their building's
    category, penalties negative), the tie-breakers of R13 and the placement achieving it."""

    total: int
    breakdown: dict[str, int]
    inhabitants_placed: int
    empty_squares: int
    placement: Placement

    def to_json(self, geometry: Geometry) -> dict[str, Any]:
        return {
            "total": self.total,
            "breakdown": dict(self.breakdown),
            "inhabitants_placed": self.inhabitants_placed,
            "empty_squares": self.empty_squares,
            "placement": self.placement.to_json(geometry),
        }


# ---------------------------------------------------------------------------------------
# Per-geometry tables, built at import.


class _Tables:
    __slots__ = ("nb", "hvalid", "cols", "size", "district")

    def __init__(self, geo: Geometry) -> None:
        self.nb: tuple[tuple[int, ...], ...] = geo.neighbours
        self.cols = geo.cols
        self.size = geo.size
        self.district: tuple[int, ...] = geo.district
        # squares whose right-hand neighbour is in the same row (for horizontal runs)
        self.hvalid = sum(1 << s for s in range(geo.size) if s % geo.cols != geo.cols - 1)


_TABLES: Final = {m: _Tables(GEOMETRY[m]) for m in Mode}


def _longest_runs(mask: int, hvalid: int, cols: int) -> int:
    """VP of the longest horizontal plus the longest vertical run of the harbors in ``mask``
    (R14: one run per direction, anywhere in the city; a harbor may count in both)."""
    h = 0
    x = mask
    while x:
        x &= (x >> 1) & hvalid
        h += 1
    v = 0
    x = mask
    while x:
        x &= x >> cols
        v += 1
    return RUN_VP[min(h, 5)] + RUN_VP[min(v, 5)]


_OFFICE_CACHE: dict[tuple[int, tuple[int, ...], tuple[int, ...]], int] = {}


def _office_value(squares: Sequence[int], floors: Sequence[int], nb: Sequence[Sequence[int]]) -> int:
    """VP of the activated office towers on ``squares`` (R15): each tower scores by its own
    floors and the size of its orthogonally connected group (capped at 5)."""
    key = (len(nb), tuple(squares), tuple(floors))
    v = _OFFICE_CACHE.get(key)
    if v is None:
        if len(_OFFICE_CACHE) > 200_000:
            _OFFICE_CACHE.clear()
        v = _OFFICE_CACHE[key] = _office_groups(squares, floors, nb)
    return v


def _office_groups(squares: Sequence[int], floors: Sequence[int], nb: Sequence[Sequence[int]]) -> int:
    where = {s: i for i, s in enumerate(squares)}
    seen = [False] * len(squares)
    total = 0
    for i in range(len(squares)):
        if seen[i]:
            continue
        seen[i] = True
        group = [i]
        k = 0
        while k < len(group):
            for t in nb[squares[group[k]]]:
                j = where.get(t)
                if j is not None and not seen[j]:
                    seen[j] = True
                    group.append(j)
            k += 1
        row = OFFICE_VP[min(len(group), 5)]
        total += sum(row[floors[g]] for g in group)
    return total


def _prefix(values: list[int]) -> list[int]:
    out = [0]
    acc = 0
    for v in values:
        acc += v
        out.append(acc)
    return out


def _maxplus(a: list[int], b: list[int]) -> tuple[list[int], list[int]]:
    """Max-plus convolution of two best-by-count tables, with the count taken from ``a``."""
    n = len(a) + len(b) - 1
    out = [_NEG] * n
    arg = [0] * n
    for i, va in enumerate(a):
        if va <= _NEG // 2:
            continue
        for j, vb in enumerate(b):
            v = va + vb
            if v > out[i + j]:
                out[i + j] = v
                arg[i + j] = i
    return out, arg


# ---------------------------------------------------------------------------------------
# The solver.


def score_city(city: City, *, all_parks_absorb: bool = False) -> CityScore:
    """The optimal final score of ``city`` (R12): the placement of its inhabitants and
    energy maximising VP, then inhabitants placed, then minimising empty squares.

    ``all_parks_absorb`` is the §6 variant where every park (not only tree parks, R11)
    absorbs one unused energy unit."""
    mode = city.mode
    tb = _TABLES[mode]
    nb = tb.nb
    cap = 5 if mode is Mode.EXPERT else 4
    bs = city.buildings
    inh = city.inhabitants
    en = city.energy
    k1 = _K2 * (inh + 1)  # VP weight: placed*32 + activated < k1 always
    ku = k1 + _K2 + 1  # an inhabitant activation: penalty saved, placed, activated

    types: list[int] = [-1] * len(bs)
    squares: dict[int, list[int]] = {t: [] for t in range(8)}
    for s, b in enumerate(bs):
        if b is not None:
            types[s] = b.type
            squares[b.type].append(s)
    tsq, ssq, pssq, pksq, fsq, hsq, osq, msq = (squares[t] for t in range(8))
    madj = [0] * len(bs)
    for m in msq:
        for t in nb[m]:
            madj[t] += 1
    # R11: only tree parks absorb an unused energy unit (every park in the §6 variant).
    absorbing = [p for p in pksq if all_parks_absorb or bs[p].tree]  # type: ignore[union-attr]
    estar = max(0, en - len(absorbing))  # energy units that would be penalised

    n_e_users = len(tsq) + len(ssq) + len(osq)
    n_i_users = len(pssq) + len(fsq) + len(hsq) + len(osq)
    energy_plenty = en >= n_e_users
    inh_plenty = inh >= n_i_users + cap * len(ssq)

    # state: 1 = forced activated, 0 = candidate, -1 = disabled (never activated)
    state = [1 if t in (_PK, _M) else 0 for t in types]
    for s in range(len(bs)):
        t = types[s]
        if t < 0:
            state[s] = -1
            continue
        needs_e = t in (_T, _S, _O)
        needs_i = t in (_PS, _F, _H, _O)
        if (needs_e and en == 0) or (needs_i and inh == 0):
            state[s] = -1
        elif t in (_T, _S) and energy_plenty:
            # Exchange argument: an idle energy unit on a tower block / shop never loses.
            state[s] = 1
        elif inh_plenty and (t is _PS or (t in (_F, _H) and madj[s] == 0) or (t is _O and energy_plenty)):
            # An idle inhabitant always exists while one of these is off (R12).
            state[s] = 1

    # -- constants of each building (VP), and pair credits -------------------------------
    base_vp = 0  # VP of forced buildings and of parks/monuments that are settled
    base_act = 0
    base_placed = 0
    e_forced = 0
    i_forced = 0
    for s in range(len(bs)):
        if state[s] == 1:
            t = types[s]
            base_act += 1
            if t in (_T, _S, _O):
                e_forced += 1
            if t in (_PS, _F, _H, _O):
                i_forced += 1
                base_placed += 1

    cval = [0] * len(bs)  # constant VP of a building when activated (monuments, own VP)
    for s in range(len(bs)):
        t = types[s]
        if t < 0:
            continue
        b = bs[s]
        assert b is not None
        mv = _MON_BY_TYPE[t] * madj[s]
        if t is _T:
            cval[s] = TOWER_VP[b.floors] + mv
        elif t in (_PS, _H):
            cval[s] = b.vp + mv
        else:
            cval[s] = mv
    # Factory pairs (credited to the partner, or to the factory when the partner is forced).
    hub_of: dict[int, list[int]] = {}  # candidate partner -> its adjacent candidate factories
    for f in fsq:
        if state[f] < 0:
            continue
        for t in nb[f]:
            tt = types[t]
            if tt in (_S, _H, _O) and state[t] >= 0:
                pv = _PAIR_BY_TYPE[tt]
                if state[f] == 1 and state[t] == 1:
                    base_vp += pv
                elif state[f] == 1:
                    cval[t] += pv
                elif state[t] == 1:
                    cval[f] += pv
                else:
                    hub_of.setdefault(t, []).append(f)
    hubs = sorted({f for fl in hub_of.values() for f in fl})
    hub_bit = {f: 1 << i for i, f in enumerate(hubs)}
    pair_mask = [0] * len(bs)  # hub factories adjacent to a candidate partner
    pair_vp = [_PAIR_BY_TYPE[t] if t >= 0 else 0 for t in types]
    for t, fl in hub_of.items():
        for f in fl:
            pair_mask[t] |= hub_bit[f]

    # Parks: split into settled ones, ones with one candidate (a constant bonus for it) and
    # interacting ones (two or more candidate tower blocks / office towers around them).
    pk_users = (_T, _O) if mode is Mode.EXPERT else (_T,)
    inter_parks: list[tuple[int, list[int]]] = []
    for p in pksq:
        base = 0
        cands: list[int] = []
        for t in nb[p]:
            if types[t] in pk_users and state[t] >= 0:
                if state[t] == 1:
                    base += 1
                else:
                    cands.append(t)
        if len(cands) == 0:
            base_vp += PARK_VP[base]
        elif len(cands) == 1:
            base_vp += PARK_VP[base]
            cval[cands[0]] += PARK_VP[base + 1] - PARK_VP[base]
        else:
            inter_parks.append((base, cands))
    for p in pksq:
        base_vp += MONUMENT_VP[_PK] * madj[p]

    # Forced groups that are settled.
    if osq and state[osq[0]] == 1:
        # all office towers forced together
        base_vp += _office_value(osq, [bs[o].floors for o in osq], nb)  # type: ignore[union-attr]
    ps_forced = [s for s in pssq if state[s] == 1]
    ps_cand = [s for s in pssq if state[s] == 0]
    if ps_forced:
        base_vp += DISTRICT_VP[len({tb.district[s] for s in ps_forced})]
    for s in range(len(bs)):
        if state[s] == 1 and types[s] not in (_PK, _M):
            base_vp += cval[s]

    # Harbor runs: forced harbors plus candidate harbors that touch another harbor.
    h_forced_mask = 0
    for h in hsq:
        if state[h] == 1:
            h_forced_mask |= 1 << h
    h_int: list[int] = []
    h_const: list[int] = []
    for h in hsq:
        if state[h] == 0:
            if any(types[t] is _H and state[t] >= 0 for t in nb[h]):
                h_int.append(h)
            else:
                h_const.append(h)

    # Tower blocks / office towers of the park-and-office group.
    to_t: list[int] = []
    for _base, cands in inter_parks:
        for t in cands:
            if types[t] is _T and t not in to_t:
                to_t.append(t)
    to_t.sort()
    to_o = [o for o in osq if state[o] == 0]
    t_const = [t for t in tsq if state[t] == 0 and t not in to_t]
    s_cand = [s for s in ssq if state[s] == 0]
    f_const = [f for f in fsq if state[f] == 0 and f not in hub_bit]

    # ---- public service group: best key by count (districts via a small DP) -------------
    ps_tab, ps_choice = _ps_table(ps_cand, cval, tb.district, k1, ku)

    # ---- harbor group: run VP of each subset of interacting harbors ---------------------
    nh = len(h_int)
    h_runs = [0] * (1 << nh)
    for mk in range(1 << nh):
        sq = h_forced_mask
        for i in range(nh):
            if mk >> i & 1:
                sq |= 1 << h_int[i]
        h_runs[mk] = _longest_runs(sq, tb.hvalid, tb.cols) * k1
    if nh == 0:
        base_vp += h_runs[0] // k1
        h_runs[0] = 0
    h_pop = [bin(mk).count("1") for mk in range(1 << nh)]

    # ---- tower block / office tower group --------------------------------------------
    to_items = to_t + to_o
    nt_i = len(to_t)
    no = len(to_o)
    n_to = nt_i + no
    o_val: list[int] = [0] * (1 << no)
    if no:
        ofl = [bs[o].floors for o in to_o]  # type: ignore[union-attr]
        for mk in range(1, 1 << no):
            sel = [i for i in range(no) if mk >> i & 1]
            o_val[mk] = _office_value([to_o[i] for i in sel], [ofl[i] for i in sel], nb) * k1
    park_masks: list[tuple[int, int]] = []
    for base, cands in inter_parks:
        pm = 0
        for t in cands:
            pm |= 1 << to_items.index(t)
        park_masks.append((base, pm))
    item_key = [cval[s] * k1 + (1 if types[s] is _T else ku) for s in to_items]
    to_base = [0] * (1 << n_to)
    for mk in range(1, 1 << n_to):
        low = mk & -mk
        to_base[mk] = to_base[mk ^ low] + item_key[low.bit_length() - 1]
    for mk in range(1 << n_to):
        v = to_base[mk] + o_val[mk >> nt_i]
        for base, pm in park_masks:
            v += PARK_VP[base + (mk & pm).bit_count()] * k1
        to_base[mk] = v
    tmask_all = (1 << nt_i) - 1

    # Tower block constants: sorted prefix (independent of the factories).
    t_order = sorted(t_const, key=lambda s: (-cval[s], s))
    t_pref = _prefix([cval[s] * k1 + 1 for s in t_order])
    nt_c = len(t_order)

    i_av0 = inh - i_forced
    e_av = en - e_forced
    n_s_forced = sum(1 for s in ssq if state[s] == 1)
    base_key = (base_vp - inh - estar) * k1 + base_placed * _K2 + base_act

    def cust(n: int, c: int) -> int:
        """Key of ``c`` free inhabitants offered to ``n`` activated shops: customers fill as
        few shops as possible (shop VP are convex), the rest stay unused (their -1 is in the
        baseline)."""
        c = min(c, cap * n)
        q, r = divmod(c, cap)
        return (q * SHOP_VP[cap] + SHOP_VP[r] + c) * k1 + c * _K2

    best_key = _NEG
    best: tuple[Any, ...] = ()

    for fm in range(1 << len(hubs)):
        nf = fm.bit_count()
        i_av = i_av0 - nf
        if i_av < 0:
            continue
        f_key = sum(cval[f] * k1 + ku for f in hubs if fm & hub_bit[f])

        def extra(s: int, _fm: int = fm) -> int:
            return pair_vp[s] * (pair_mask[s] & _fm).bit_count()

        # shops
        s_vals = sorted(((cval[s] + extra(s)) * k1 + 1, -s) for s in s_cand)
        s_vals.reverse()
        s_order = [-x[1] for x in s_vals]
        s_pref = _prefix([x[0] for x in s_vals])
        # inhabitant-only constants: non-hub factories and lone harbors
        ic = [((cval[s] + extra(s)) * k1 + ku, -s) for s in f_const + h_const]
        ic.sort(reverse=True)
        ic_order = [-x[1] for x in ic]
        ic_pref = _prefix([x[0] for x in ic])
        # harbor group table
        hk = [(cval[h] + extra(h)) * k1 + ku for h in h_int]
        h_tab = [_NEG] * (nh + 1)
        h_arg = [0] * (nh + 1)
        hsum = [0] * (1 << nh)
        for mk in range(1 << nh):
            if mk:
                low = mk & -mk
                hsum[mk] = hsum[mk ^ low] + hk[low.bit_length() - 1]
            v = hsum[mk] + h_runs[mk]
            c = h_pop[mk]
            if v > h_tab[c]:
                h_tab[c] = v
                h_arg[c] = mk
        # inhabitant-only side: public services (+) harbors (+) constants
        g1, g1_arg = _maxplus(ps_tab, h_tab)
        g_i, g_arg = _maxplus(g1, ic_pref)
        g_len = len(g_i)
        # tower-block/office-tower table by (tower blocks, office towers)
        ok = [4 * (pair_mask[o] & fm).bit_count() * k1 for o in to_o]
        osum = [0] * (1 << no)
        for mk in range(1, 1 << no):
            low = mk & -mk
            osum[mk] = osum[mk ^ low] + ok[low.bit_length() - 1]
        ko_max = min(no, i_av, e_av)
        width = no + 1
        to_tab = [_NEG] * ((nt_i + 1) * width)
        to_arg = [0] * ((nt_i + 1) * width)
        for mk in range(1 << n_to):
            om = mk >> nt_i
            ko = om.bit_count()
            kt = (mk & tmask_all).bit_count()
            if ko > ko_max or kt + ko > e_av:
                continue
            v = to_base[mk] + osum[om]
            idx = kt * width + ko
            if v > to_tab[idx]:
                to_tab[idx] = v
                to_arg[idx] = mk

        bi_cache: dict[tuple[int, int], tuple[int, int]] = {}
        for ko in range(ko_max + 1):
            l_av = i_av - ko
            for ks in range(min(len(s_order), e_av - ko) + 1):
                bkey = bi_cache.get((l_av, ks))
                if bkey is None:
                    nsh = n_s_forced + ks
                    bv = _NEG
                    bm = 0
                    for m in range(min(l_av, g_len - 1) + 1):
                        gv = g_i[m]
                        if gv <= _NEG // 2:
                            continue
                        v = gv + cust(nsh, l_av - m)
                        if v > bv:
                            bv = v
                            bm = m
                    bkey = (bv, bm)
                    bi_cache[(l_av, ks)] = bkey
                b_left = e_av - ko - ks
                part = f_key + s_pref[ks] + bkey[0] + base_key
                for j in range(min(nt_i, b_left) + 1):
                    tv = to_tab[j * width + ko]
                    if tv <= _NEG // 2:
                        continue
                    tc = min(nt_c, b_left - j)
                    e_tot = e_forced + ko + ks + j + tc
                    v = part + tv + t_pref[tc] + min(e_tot, estar) * k1
                    if v > best_key:
                        best_key = v
                        best = (
                            fm,
                            ko,
                            ks,
                            j,
                            tc,
                            bkey[1],
                            l_av,
                            s_order,
                            ic_order,
                            to_arg[j * width + ko],
                            g_arg,
                            g1_arg,
                            h_arg,
                        )

    # ---- reconstruct the placement ------------------------------------------------------
    fm, ko, ks, j, tc, m, l_av, s_order, ic_order, to_mk, g_arg, g1_arg, h_arg = best
    active = [state[s] == 1 for s in range(len(bs))]
    for f in hubs:
        if fm & hub_bit[f]:
            active[f] = True
    for i, s in enumerate(to_items):
        if to_mk >> i & 1:
            active[s] = True
    for s in t_order[:tc]:
        active[s] = True
    for s in s_order[:ks]:
        active[s] = True
    a1 = g_arg[m]  # count from (public services + harbors)
    n_ic = m - a1
    for s in ic_order[:n_ic]:
        active[s] = True
    n_ps = g1_arg[a1]
    n_h = a1 - n_ps
    hm = h_arg[n_h]
    for i, h in enumerate(h_int):
        if hm >> i & 1:
            active[h] = True
    for s in ps_choice[n_ps]:
        active[s] = True
    return _finish(city, active, all_parks_absorb, cap)


def _ps_table(
    ps: list[int], cval: list[int], district: Sequence[int], k1: int, ku: int
) -> tuple[list[int], list[list[int]]]:
    """Best key of ``k`` activated public services among ``ps`` for every ``k``, and which.

    Within a district only the best ones are worth taking (the district bonus depends only
    on whether the district holds one), so a DP over districts x (count, districts) is exact."""
    by_d: dict[int, list[int]] = {}
    for s in ps:
        by_d.setdefault(district[s], []).append(s)
    dp: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {(0, 0): (0, ())}
    for d in sorted(by_d):
        lst = sorted(by_d[d], key=lambda s: (-cval[s], s))
        pre = _prefix([cval[s] * k1 + ku for s in lst])
        ndp: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
        for (k, nd), (v, ch) in dp.items():
            for jj in range(len(lst) + 1):
                key = (k + jj, nd + (jj > 0))
                nv = v + pre[jj]
                old = ndp.get(key)
                if old is None or nv > old[0]:
                    ndp[key] = (nv, (*ch, *lst[:jj]))
        dp = ndp
    tab = [_NEG] * (len(ps) + 1)
    choice: list[list[int]] = [[] for _ in range(len(ps) + 1)]
    for (k, nd), (v, ch) in sorted(dp.items()):
        v += DISTRICT_VP[nd] * k1
        if v > tab[k]:
            tab[k] = v
            choice[k] = list(ch)
    return tab, choice


def _finish(city: City, active: list[bool], all_parks_absorb: bool, cap: int) -> CityScore:
    """Place customers and count leftovers for the activation ``active``, then score it."""
    bs = city.buildings
    acts: list[int] = []
    shops: list[int] = []
    used_i = 0
    used_e = 0
    removed: list[int] = []
    for s, b in enumerate(bs):
        if b is None:
            continue
        t = b.type
        if t in (_PK, _M):
            continue
        if not active[s]:
            removed.append(s)
            continue
        acts.append(s)
        if t in (_T, _S, _O):
            used_e += 1
        if t in (_PS, _F, _H, _O):
            used_i += 1
        if t is _S:
            shops.append(s)
    free = city.inhabitants - used_i
    customers: list[tuple[int, int]] = []
    for s in shops:
        c = min(cap, free)
        if c <= 0:
            break
        customers.append((s, c))
        free -= c
    unused_e = city.energy - used_e
    absorbing = [
        s for s, b in enumerate(bs) if b is not None and b.type is _PK and (all_parks_absorb or b.tree)
    ]
    placement = Placement(
        activated=tuple(acts),
        customers=tuple(customers),
        absorbing_parks=tuple(absorbing[: max(0, unused_e)]),
        removed=tuple(removed),
        unused_inhabitants=free,
        unused_energy=unused_e,
    )
    return evaluate(city, placement, all_parks_absorb=all_parks_absorb)


def evaluate(city: City, placement: Placement, *, all_parks_absorb: bool = False) -> CityScore:
    """Score ``city`` under a given ``placement`` by the rules of §4 (no optimisation).

    Raises ``ValueError`` if the placement is not feasible for the city."""
    bs = city.buildings
    geo = city.geometry
    nb = geo.neighbours
    expert = city.mode is Mode.EXPERT
    cap = 5 if expert else 4
    on: list[Building | None] = [None] * len(bs)
    for s, b in enumerate(bs):
        if b is not None and b.type in (_PK, _M):
            on[s] = b
    used_i = 0
    used_e = 0
    for s in placement.activated:
        b = bs[s]
        if b is None or b.type in (_PK, _M):
            raise ValueError(f"square {s} holds no building to activate")
        on[s] = b
        if b.type in (_T, _S, _O):
            used_e += 1
        if b.type in (_PS, _F, _H, _O):
            used_i += 1
    cust = dict(placement.customers)
    for s, c in cust.items():
        b = on[s]
        if b is None or b.type is not _S or not 1 <= c <= cap:
            raise ValueError(f"bad customers on square {s}")
    n_cust = sum(cust.values())
    unused_i = city.inhabitants - used_i - n_cust
    unused_e = city.energy - used_e
    if unused_i != placement.unused_inhabitants or unused_e != placement.unused_energy:
        raise ValueError("placement resource counts do not match the city")
    if unused_i < 0 or unused_e < 0:
        raise ValueError("placement uses more resources than the city has")
    for p in placement.absorbing_parks:
        b = bs[p]
        if b is None or b.type is not _PK or not (b.tree or all_parks_absorb):
            raise ValueError(f"square {p} holds no park that absorbs energy (R11)")
    if len(set(placement.absorbing_parks)) != len(placement.absorbing_parks) or len(
        placement.absorbing_parks
    ) > max(0, unused_e):
        raise ValueError("more absorbing parks than unused energy units")
    br = dict.fromkeys(CATEGORIES, 0)
    pk_users = (_T, _O) if expert else (_T,)
    ps_districts: set[int] = set()
    hmask = 0
    offices: list[int] = []
    for s, b in enumerate(on):
        if b is None:
            continue
        t = b.type
        if t is _T:
            br["tower_block"] += TOWER_VP[b.floors]
        elif t is _S:
            br["shop"] += SHOP_VP[cust.get(s, 0)]
        elif t is _PS:
            br["public_service"] += b.vp
            ps_districts.add(geo.district[s])
        elif t is _PK:
            n = sum(1 for x in nb[s] if (o := on[x]) is not None and o.type in pk_users)
            br["park"] += PARK_VP[n]
        elif t is _F:
            for x in nb[s]:
                o = on[x]
                if o is not None and o.type in FACTORY_PAIR_VP:
                    br["factory"] += FACTORY_PAIR_VP[o.type]
        elif t is _H:
            br["harbor"] += b.vp
            hmask |= 1 << s
        elif t is _O:
            offices.append(s)
        else:  # monument
            for x in nb[s]:
                o = on[x]
                if o is not None:
                    br["monument"] += MONUMENT_VP[o.type]
    br["public_service"] += DISTRICT_VP[len(ps_districts)]
    br["harbor"] += _longest_runs(hmask, _TABLES[city.mode].hvalid, geo.cols)
    if offices:
        br["office_tower"] += _office_value(offices, [on[o].floors for o in offices], nb)  # type: ignore[union-attr]
    br["unused_inhabitants"] = -unused_i
    br["pollution"] = -max(0, unused_e - len(placement.absorbing_parks))
    act = sum(1 for b in on if b is not None)
    return CityScore(
        total=sum(br.values()),
        breakdown=br,
        inhabitants_placed=used_i + n_cust,
        empty_squares=len(bs) - act,
        placement=placement,
    )
