"""Best-value-by-count tables of the scoring solver's building groups, and the key they are
measured in.

**Keys.** Every objective of R12 is folded into one integer, so one ``>`` compares placements:
``key = VP * k1 + inhabitants_placed * K2 + activated_buildings``. ``K2`` exceeds the number
of squares, so the activated count never carries into the placed count; ``k1 = K2 * (inh + 1)``
exceeds any ``placed * K2 + activated``, so VP dominate. Parks and monuments are always
active, hence more activated buildings = fewer empty squares (the last tie-breaker, R12/R13).
Common key increments (``ku = k1 + K2 + 1``: an inhabitant put to work saves its -1 VP
penalty, is placed, and activates its building):

* a building using energy only: ``value * k1 + 1``;
* a building using an inhabitant (and possibly energy): ``value * k1 + ku``;
* the energy saved from pollution is credited later, by count (see the solver's phase 5).

**Tables.** A table ``tab`` maps a count ``k`` of activated buildings of one group to the best
key of the group with exactly ``k`` activated (``NEG``: impossible); a twin ``arg`` list says
which choice achieves it. Ties keep the first choice found, so results are deterministic.

Standard library and core only (:mod:`.scoring_tables`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .scoring_tables import DISTRICT_VP, PARK_VP, SHOP_VP, office_vp, run_vp

#: Weight of one inhabitant placed; > number of squares (at most 20).
K2: Final = 32
#: "Impossible" in a table; any real key is above ``NEG // 2``.
NEG: Final = -(1 << 60)


def prefix(values: Sequence[int]) -> list[int]:
    """Prefix sums ``[0, v0, v0 + v1, ...]``: the table of a class of independent buildings
    sorted best first (the best ``k`` of them are the first ``k``)."""
    out = [0]
    acc = 0
    for v in values:
        acc += v
        out.append(acc)
    return out


def best_first(keyed: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Order independent buildings best first. ``keyed`` holds ``(key, -square)`` pairs;
    returns (squares by key descending, ties by square ascending; :func:`prefix` of the keys)."""
    keyed.sort(reverse=True)
    return [-s for _, s in keyed], prefix([k for k, _ in keyed])


def maxplus(a: Sequence[int], b: Sequence[int]) -> tuple[list[int], list[int]]:
    """Max-plus convolution of two tables: ``out[k] = max(a[i] + b[k - i])``, and
    ``arg[k]`` = the ``i`` (count taken from ``a``) of the first maximum found."""
    n = len(a) + len(b) - 1
    out = [NEG] * n
    arg = [0] * n
    for i, va in enumerate(a):
        if va <= NEG // 2:
            continue
        for j, vb in enumerate(b):
            v = va + vb
            if v > out[i + j]:
                out[i + j] = v
                arg[i + j] = i
    return out, arg


def customers_key(free: int, shop_room: int, cap: int, k1: int) -> int:
    """Key of ``free`` idle inhabitants offered as customers to activated shops with room for
    ``shop_room`` customers in all, in shops of capacity ``cap`` (4 Classic, 5 Expert). Shop
    VP are convex in customers, so the best is to fill as few shops as possible; each
    customer saves its -1 VP penalty (in the solver's baseline) and is placed, the others
    stay unused."""
    c = free if free < shop_room else shop_room
    q, r = divmod(c, cap)
    return (q * SHOP_VP[cap] + SHOP_VP[r] + c) * k1 + c * K2


# ---------------------------------------------------------------------------------------
# Public services (districts), fixed for a city.


def public_service_table(
    ps: list[int], cval: Sequence[int], district: Sequence[int], k1: int, ku: int
) -> tuple[list[int], list[list[int]]]:
    """Best key of ``k`` activated public services among the candidates ``ps``, for every
    ``k``, and which squares achieve it. ``cval[s]``: the service's constant VP (printed VP
    and monuments). Includes the district bonus (§4); assumes no public service is forced
    (forcing is all-or-nothing for them, so the solver settles that case itself).

    Within a district only the best ones are worth taking (the bonus depends only on whether
    the district holds one), so a DP over districts x (count, districts used) is exact."""
    by_d: dict[int, list[int]] = {}
    for s in ps:
        by_d.setdefault(district[s], []).append(s)
    dp: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {(0, 0): (0, ())}
    for d in sorted(by_d):
        lst = sorted(by_d[d], key=lambda s: (-cval[s], s))
        pre = prefix([cval[s] * k1 + ku for s in lst])
        ndp: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
        for (k, nd), (v, ch) in dp.items():
            for jj in range(len(lst) + 1):
                key = (k + jj, nd + (jj > 0))
                nv = v + pre[jj]
                old = ndp.get(key)
                if old is None or nv > old[0]:
                    ndp[key] = (nv, (*ch, *lst[:jj]))
        dp = ndp
    tab = [NEG] * (len(ps) + 1)
    choice: list[list[int]] = [[] for _ in range(len(ps) + 1)]
    for (k, nd), (v, ch) in sorted(dp.items()):
        v += DISTRICT_VP[nd] * k1
        if v > tab[k]:
            tab[k] = v
            choice[k] = list(ch)
    return tab, choice


# ---------------------------------------------------------------------------------------
# Harbors (runs, R14).


def harbor_runs(
    h_int: Sequence[int], forced_mask: int, hvalid: int, cols: int, k1: int
) -> tuple[list[int], list[int]]:
    """Run VP (as keys) of every subset of the interacting candidate harbors ``h_int``,
    together with the forced harbors (bits of ``forced_mask``), indexed by the subset's
    bitmask over ``h_int``; and each subset's size."""
    nh = len(h_int)
    runs = [0] * (1 << nh)
    for mk in range(1 << nh):
        sq = forced_mask
        for i in range(nh):
            if mk >> i & 1:
                sq |= 1 << h_int[i]
        runs[mk] = run_vp(sq, hvalid, cols) * k1
    return runs, [mk.bit_count() for mk in range(1 << nh)]


def harbor_table(hk: Sequence[int], runs: Sequence[int], pop: Sequence[int]) -> tuple[list[int], list[int]]:
    """Table of the interacting harbors: ``hk[i]`` is harbor ``i``'s own key (printed VP,
    monuments, factory pairs, its inhabitant), ``runs``/``pop`` come from :func:`harbor_runs`.
    ``arg[k]``: bitmask of the best subset of size ``k``. Subsets are few (a harbor is only
    interacting when it touches another), so all are tried."""
    nh = len(hk)
    tab = [NEG] * (nh + 1)
    arg = [0] * (nh + 1)
    own = [0] * (1 << nh)
    for mk in range(1 << nh):
        if mk:
            low = mk & -mk
            own[mk] = own[mk ^ low] + hk[low.bit_length() - 1]
        v = own[mk] + runs[mk]
        c = pop[mk]
        if v > tab[c]:
            tab[c] = v
            arg[c] = mk
    return tab, arg


# ---------------------------------------------------------------------------------------
# Tower blocks sharing parks, and office towers (R15): one group.


def tower_office_base(
    to_t: list[int],
    to_o: list[int],
    floors: Sequence[int],
    item_key: Sequence[int],
    park_masks: Sequence[tuple[int, int]],
    nb: Sequence[Sequence[int]],
    k1: int,
) -> list[int]:
    """Key of every subset of the group ``to_t + to_o`` (bit ``i`` = item ``i``; tower blocks
    first), without factory pairs (they depend on the hub choice, phase 4): the items' own
    keys ``item_key``, the office groups' VP (R15; ``floors`` of each office tower in
    ``to_o``) and the interacting parks ``park_masks`` = (activated users already around the
    park, bitmask of the group's items around it)."""
    nt, no = len(to_t), len(to_o)
    o_val = [0] * (1 << no)
    for mk in range(1, 1 << no):
        sel = [i for i in range(no) if mk >> i & 1]
        o_val[mk] = office_vp([to_o[i] for i in sel], [floors[i] for i in sel], nb) * k1
    base = [0] * (1 << (nt + no))
    for mk in range(1, 1 << (nt + no)):
        low = mk & -mk
        base[mk] = base[mk ^ low] + item_key[low.bit_length() - 1]
    for mk in range(1 << (nt + no)):
        v = base[mk] + o_val[mk >> nt]
        for around, pm in park_masks:
            v += PARK_VP[around + (mk & pm).bit_count()] * k1
        base[mk] = v
    return base


def tower_office_table(
    base: Sequence[int], nt: int, ok: Sequence[int], ko_max: int, e_av: int
) -> tuple[list[int], list[int]]:
    """Best key of the group by (tower blocks, office towers) activated, flattened as index
    ``kt * (no + 1) + ko``, and the subset's bitmask. ``base`` from :func:`tower_office_base`,
    ``ok[i]``: office tower ``i``'s factory-pair key for the hub choice. Subsets using more
    than ``ko_max`` office towers or ``e_av`` energy units in all are skipped."""
    no = len(ok)
    osum = [0] * (1 << no)
    for mk in range(1, 1 << no):
        low = mk & -mk
        osum[mk] = osum[mk ^ low] + ok[low.bit_length() - 1]
    width = no + 1
    tmask = (1 << nt) - 1
    tab = [NEG] * ((nt + 1) * width)
    arg = [0] * ((nt + 1) * width)
    for mk in range(1 << (nt + no)):
        om = mk >> nt
        ko = om.bit_count()
        kt = (mk & tmask).bit_count()
        if ko > ko_max or kt + ko > e_av:
            continue
        v = base[mk] + osum[om]
        idx = kt * width + ko
        if v > tab[idx]:
            tab[idx] = v
            arg[idx] = mk
    return tab, arg
