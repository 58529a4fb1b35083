"""The terminal's screens as text (``quadropolis.terminal.screen``, ``.views``) and the shared drawings of
``quadropolis.render`` they use, tested on the functions directly: every screen of random
games fits an 80x24 terminal with the site, the current city and every choice reachable;
the tile legend; seat names; the stacking hint; why a build lowers the projection."""

from __future__ import annotations

import random
import re

import pytest

from quadropolis import GameConfig, Mode, apply, legal_moves, new_game
from quadropolis.buildings import BuildingType
from quadropolis.moves import Take
from quadropolis.outcome import outcome
from quadropolis.render import (
    LEGEND,
    building_label,
    render_city,
    render_legend,
    render_score_sheet,
    render_site,
    render_state,
    tile_label,
)
from quadropolis.site import DESIGNATED
from quadropolis.state import PLACE, GameState
from quadropolis.terminal.choices import choices, numbered
from quadropolis.terminal.parts import task_line
from quadropolis.terminal.screen import render_screen
from quadropolis.terminal.session import PlaySession, make_seats
from quadropolis.terminal.text import paginate_sections
from quadropolis.terminal.views import (
    cities_sections,
    city_sections,
    final_sections,
    help_sections,
    log_lines,
    view_screen,
)
from quadropolis.tiles import TILES

WIDTH, HEIGHT = 79, 23  # an 80x24 terminal: one column spare, the prompt on the last line
CONFIGS = [(m, p) for m in Mode for p in (2, 3, 4)]


def random_session(mode: Mode, players: int, seed: int, rng: random.Random) -> PlaySession:
    """A hotseat session played at random to the end."""
    session = PlaySession(GameConfig(mode=mode, players=players, seed=seed), make_seats(players, [], []))
    while not session.is_over:
        moves = session.legal_moves()
        session.play(moves[rng.randrange(len(moves))])
    return session


def assert_fits(lines: list[str] | tuple[str, ...], height: int = HEIGHT, width: int = WIDTH) -> None:
    assert len(lines) <= height, "\n".join(lines)
    assert all(len(x) <= width for x in lines), "\n".join(x for x in lines if len(x) > width)


_NUMBER = re.compile(r"(?<![\w#+\-.])(\d+)\)")


@pytest.mark.parametrize(("mode", "players"), CONFIGS)
def test_every_decision_screen_fits_80x24_with_site_city_and_all_choices(mode: Mode, players: int) -> None:
    rng = random.Random(f"{mode}/{players}")
    session = PlaySession(GameConfig(mode=mode, players=players, seed=31), make_seats(players, [], []))
    step = 0
    while not session.is_over:
        if step % 3 == 0:
            groups = choices(session.state)
            notices = ["Not allowed: a message one line long."] if step % 2 else []
            first = render_screen(session, notices, WIDTH, HEIGHT, 0, groups)
            shown: set[int] = set()
            for page in range(first.pages):
                screen = render_screen(session, notices, WIDTH, HEIGHT, page, groups)
                assert screen.pages == first.pages and screen.page == page
                assert_fits(screen.lines)
                text = screen.text
                for line in render_site(session.state).splitlines():
                    assert line.rstrip() in text, text
                me = session.current_seat
                assert f"{me + 1}. {session.name(me)}" in text
                for line in render_city(session.state.city(me)).splitlines()[1:]:
                    assert line.rstrip() in text, text
                shown |= {int(n) for n in _NUMBER.findall(text)}
            assert set(numbered(groups)) <= shown  # every choice is on some page
        moves = session.legal_moves()
        session.play(moves[rng.randrange(len(moves))])
        step += 1


@pytest.mark.parametrize(("mode", "players"), [(Mode.CLASSIC, 4), (Mode.EXPERT, 4), (Mode.EXPERT, 2)])
def test_views_and_the_end_fit_80x24_in_pages(mode: Mode, players: int) -> None:
    session = random_session(mode, players, 5, random.Random(5))
    assert session.is_over
    views = [
        help_sections("hard", "some/long/path/to/game.json", mode, WIDTH),
        cities_sections(session, WIDTH),
        city_sections(session, players - 1, WIDTH),
        [log_lines(session, WIDTH)],
    ]
    for sections in views:
        first = view_screen("view", sections, WIDTH, HEIGHT, 0, "Enter: back")
        for page in range(first.pages):
            assert_fits(view_screen("view", sections, WIDTH, HEIGHT, page, "Enter: back").lines)
    pages = paginate_sections(final_sections(session, WIDTH), HEIGHT - 3)
    for page in pages:
        assert_fits(page, HEIGHT - 3)
    text = "\n".join(line for page in pages for line in page)
    assert "| TOTAL" in text and "Optimal placement of inhabitants and energy:" in text
    for p, total in enumerate(outcome(session.state).totals):
        assert f"{session.name(p)}: {total} VP" in text


def test_legend_is_one_constant_within_80_columns_naming_every_code() -> None:
    assert all(len(line) <= 80 for line in LEGEND.splitlines())
    labels = {tile_label(t.id) for t in TILES} | {building_label(None)}  # '.': an empty square
    codes = {re.sub(r"[0-9+]", "", x).rstrip("*") for x in labels} | {"##", "[U]", "x", "-"}
    for code in codes:
        assert re.search(rf"(^|\s){re.escape(code)}(\s|:|$)", LEGEND), code
    assert "T1*" in LEGEND and "T3 = a stack of 3 floors" in LEGEND and "P+2" in LEGEND
    classic = render_legend(Mode.CLASSIC)
    assert "office tower" not in classic and "monument" not in classic
    assert render_legend(Mode.EXPERT) == LEGEND == render_legend()


def test_site_labels_tell_tower_block_tiles_apart() -> None:
    by_code = {t.code: tile_label(t.id) for t in TILES}
    assert (by_code["T1"], by_code["T2"], by_code["T3"], by_code["T1m"]) == ("T1", "T2", "T3", "T1*")
    assert (by_code["S"], by_code["PS2"], by_code["PKT"], by_code["PKP"]) == ("S", "P+2", "Kt", "Kp")


def test_render_state_and_score_sheet_name_seats_from_1_or_by_the_names_given() -> None:
    state = new_game(GameConfig(players=3, seed=4))
    text = render_state(state)
    assert "Player 1" in text and "Player 3" in text and "Player 0" not in text and "P0" not in text
    assert "mayor: Player 1" in text and "Player 1 to take" in text
    named = render_state(state, names=["Ann", "Bot hard", "Cy"])
    assert "mayor: Ann" in named and "Ann to take" in named and "Bot hard" in named and "Player" not in named
    with pytest.raises(ValueError, match="3 seats need 3 names"):
        render_state(state, names=["Ann"])
    assert str(state) == text
    scores = outcome(state).scores
    sheet = render_score_sheet(scores)
    assert "Player 1" in sheet.splitlines()[1] and "Player 3" in sheet.splitlines()[1]
    assert render_score_sheet(scores, ["A", "B", "C"], False) == render_score_sheet(
        scores, names=["A", "B", "C"]
    )


def test_score_sheet_wraps_long_names_to_fit_a_width() -> None:
    state = new_game(GameConfig(mode=Mode.EXPERT, players=4, seed=4))
    scores = outcome(state).scores
    names = ["Bot mcts:iterations=500", "Bot greedy (2)", "Alexandra the Great", "Bot greedy (3)"]
    wide = render_score_sheet(scores, names, True)
    assert max(len(x) for x in wide.splitlines()) > 80
    narrow = render_score_sheet(scores, names, True, width=79).splitlines()
    assert max(len(x) for x in narrow) <= 79
    head = " ".join(x for x in narrow[1:4])
    assert "Alexandra" in head and "the Great" in head and "Office towers" in "\n".join(narrow)


def _take(state: GameState, code: str) -> GameState:
    """``state`` after the current player takes a face-up ``code`` tile."""
    for m in legal_moves(state):
        assert isinstance(m, Take)
        q = DESIGNATED[m.slot][m.architect]
        tid = state.site[q]
        if tid >= 0 and not state.face_down >> q & 1 and TILES[tid].code == code:
            return apply(state, m)
    raise AssertionError(f"no {code} to take")


def _session(state: GameState) -> PlaySession:
    session = PlaySession(state.config, make_seats(state.config.players, [], []))
    session.state = state
    return session


def test_build_task_mentions_stacking_only_for_buildings_that_stack() -> None:
    classic = new_game(GameConfig(players=4, seed=3))
    expert = new_game(GameConfig(mode=Mode.EXPERT, players=4, seed=3))
    for state, code, stacks in [
        (classic, "S", False),
        (classic, "F1", False),
        (classic, "T2", True),
        (expert, "S", False),
        (expert, "O", True),
        (expert, "T2", True),
    ]:
        after = _take(state, code)
        assert after.phase == PLACE
        line = task_line(_session(after))
        word = "office tower" if code == "O" else "tower block"
        assert (
            f"or on a{'n' if code == 'O' else ''} {word} there or where it becomes floor" in line
        ) == stacks, line
        assert ("stack" in line or "floor" in line) == stacks, line


def test_builds_that_lower_the_projection_say_why() -> None:
    state = _take(new_game(GameConfig(players=2, seed=3)), "T3")
    groups = choices(state)
    builds, discard = groups[:-1], groups[-1]
    assert discard.label.startswith("discard it -> projected 0 VP (+0)") and not discard.why
    for g in builds:
        assert "-> projected -3 VP (-3)" in g.label
        assert g.why == (
            "-3 = 3 inhabitants not placed (unused inhabitants -3); "
            "the tower block is not activated yet (it needs 1 energy)"
        )
    screen = render_screen(_session(state), [], WIDTH, HEIGHT).text
    assert (
        "! lowers the projected VP" in screen and f"1-{len(builds)}: -3 = 3 inhabitants not placed" in screen
    )
    # a build that raises the projection has no reason to give
    park = _take(new_game(GameConfig(players=2, seed=3)), "PKT")
    assert all(not g.why for g in choices(park))
    assert TILES[park.pending_tile].kind.type is BuildingType.PARK


def test_tile_text_follows_the_all_parks_absorb_variant() -> None:
    """§6 variant: a playground gives no inhabitant, so the tile is not announced with one."""
    from quadropolis import GameConfig
    from quadropolis.buildings import BuildingType
    from quadropolis.terminal.text import tile_text
    from quadropolis.tiles import TILES

    tid = next(t.id for t in TILES if t.kind.type is BuildingType.PARK and not t.kind.tree)
    assert tile_text(tid).endswith("playground, +1 inhabitant")
    assert tile_text(tid, GameConfig(all_parks_absorb=True)).endswith("playground")
