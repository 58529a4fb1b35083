"""``quadropolis play``: the real program driven through a pseudo-terminal (pexpect), and the
session object behind it (undo rules, records) tested directly.

Expected screens are computed independently from the engine: the same seed, the same bots
(``random``/``greedy`` with ``bot_rng``) and the same entries replayed on a PlaySession."""

from __future__ import annotations

import io
import json
import os
import random
import re
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pexpect  # test dependency: drives the program through a pseudo-terminal
import pytest

from quadropolis import GameConfig, Mode, Move, apply, legal_moves, new_game, outcome
from quadropolis.cli import main
from quadropolis.errors import ConfigError, IllegalMoveError, RecordError
from quadropolis.moves import Build, Discard, Take
from quadropolis.record import GameRecord, replay
from quadropolis.render import render_city, render_legend, render_site
from quadropolis.rules import describe_move
from quadropolis.state import PLACE, TAKE
from quadropolis.terminal import TerminalUI
from quadropolis.terminal.choices import choices, numbered
from quadropolis.terminal.session import PlaySession, Seat, UndoError, make_seats

BIN = Path(sys.executable).parent / "quadropolis"
TIMEOUT = 30


def spawn(*args: str, cwd: Path | None = None, dimensions: tuple[int, int] = (60, 120)) -> pexpect.spawn:
    """The real ``quadropolis play`` in a pseudo-terminal of ``dimensions`` (rows, columns).
    COLUMNS and LINES are dropped from its environment: they would override the terminal's
    size (the test runner's process may set them). Ctrl-C is given back its default action in
    the child: a test runner started as a shell's background job ignores SIGINT, and a child
    inherits that (Python then installs no handler, and Ctrl-C would do nothing)."""
    cmd, argv = (
        (str(BIN), ["play", *args])
        if BIN.exists()
        else (sys.executable, ["-m", "quadropolis.cli", "play", *args])
    )
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    return pexpect.spawn(
        cmd,
        argv,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=dimensions,
        cwd=str(cwd) if cwd else None,
        env=env,
        preexec_fn=_default_sigint,
    )


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def text(s: str | None) -> str:
    return (s or "").replace("\r\n", "\n")


def screen_until_prompt(child: pexpect.spawn, prompt: str) -> str:
    child.expect_exact(prompt)
    return text(child.before)


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in text(child.before)
    return int(child.exitstatus if child.exitstatus is not None else -1)


def seats3() -> list[Seat]:
    return make_seats(3, ["greedy", "random"], ["Alice"])


CONFIG3 = GameConfig(players=3, seed=42)
ARGS3 = ("--players", "3", "--bot", "greedy", "--bot", "random", "--seed", "42", "--name", "Alice")


def run_bots(session: PlaySession) -> None:
    """What the program does between two human decisions."""
    while not session.is_over and not session.current.is_human:
        session.play(session.bot_move())


# --- the program in a terminal ------------------------------------------------------------


def test_screen_shows_site_cities_and_numbered_choices() -> None:
    child = spawn(*ARGS3)
    screen = screen_until_prompt(child, "Alice> ")
    state = new_game(CONFIG3)
    assert "Quadropolis classic, 3 players, seed 42 - round 1/4, turn 1/4" in screen
    for line in render_site(state).splitlines():  # the construction site as the engine draws it
        assert line.rstrip() in screen
    assert "Alice (mayor, to play)" in screen and "Bot greedy" in screen and "Bot random" in screen
    assert screen.count("projected 0 VP") == 3
    assert "r4   .    .    .    ." in screen
    # every legal take is offered once, numbered 1..N
    n = len(legal_moves(state))
    nums = [int(x) for x in re.findall(r"(\d+)\) #\d at [TBLR]\d", screen)]
    assert sorted(nums) == list(range(1, n + 1))
    assert "site r4c3 takes T1 tower block, +1 inhabitant" in screen
    child.sendeof()
    assert finish(child) == 0


def test_choose_by_notation_then_by_number_and_bots_reply() -> None:
    child = spawn(*ARGS3)
    screen_until_prompt(child, "Alice> ")
    child.sendline("3L4")  # by notation: architect #3 at L4 takes the T1 at r4c3
    screen = screen_until_prompt(child, "Alice> ")
    assert "Alice: build T1 tower block, +1 inhabitant" in screen
    assert "Alice: architect #3 at L4 -> r4c3, takes T1 (tower block)" in screen
    assert "1) build on r1c3 (empty square) -> projected" in screen
    child.sendline("1")  # by number: the first build
    screen = screen_until_prompt(child, "Alice> ")

    expected = PlaySession(CONFIG3, seats3())
    expected.play("3L4")
    expected.play("r1c3")
    run_bots(expected)
    for a in expected.actions():
        assert a.describe(expected.name(a.seat)) in screen  # what each bot just did
    assert "Alice: architect #3 at L4 -> r4c3, takes T1 (tower block); builds T1 on r1c3" in screen
    assert "round 1/4, turn 2/4" in screen
    assert "Architects left this round: Alice #1 #2 #4;" in screen
    for line in render_site(expected.state).splitlines():
        assert line.rstrip() in screen
    child.sendeof()
    assert finish(child) == 0


def test_illegal_entries_show_the_reason_and_the_game_goes_on() -> None:
    child = spawn(*ARGS3)
    screen_until_prompt(child, "Alice> ")
    child.sendline("r2c3")
    out = screen_until_prompt(child, "Alice> ")
    assert "Not allowed: Alice must first take a building: put an architect in a slot (e.g. '3L4')" in out
    child.sendline("7Q1")
    out = screen_until_prompt(child, "Alice> ")
    assert "'7Q1' is not a move" in out
    child.sendline("999")
    out = screen_until_prompt(child, "Alice> ")
    assert "No choice 999" in out
    child.sendline("3L4")
    screen_until_prompt(child, "Alice> ")
    child.sendline("r4c4")  # neither row 3 nor column 3 (R8)
    out = screen_until_prompt(child, "Alice> ")
    assert "Not allowed: architect #3: r4c4 is not in row 3 or column 3 (R8)." in out
    child.sendline("discard")
    out = screen_until_prompt(child, "Alice> ")
    assert "takes T1 (tower block); discards T1" in out
    child.sendline("3T1")  # architect #3 already used this round
    out = screen_until_prompt(child, "Alice> ")
    assert "Not allowed: architect #3 at T1: Alice has already used architect #3 this round." in out
    assert "Traceback" not in out
    child.sendline("1")
    screen_until_prompt(child, "Alice> ")  # the game went on
    child.sendeof()
    assert finish(child) == 0


def test_hint_shows_a_legal_move_with_its_description() -> None:
    # A multi-process hint bot (hard with a small budget) also exercises the process pool.
    child = spawn(*ARGS3, "--hint-bot", "hard:iterations=60")
    screen_until_prompt(child, "Alice> ")
    child.sendline("hint")
    out = screen_until_prompt(child, "Alice> ")
    m = re.search(r"Hint \(hard:iterations=60\): choice (\d+) \((\w+)\): (.*)", out)
    assert m, out
    state = new_game(CONFIG3)
    move = Move.parse(m.group(2))
    assert move in legal_moves(state)
    assert numbered(choices(state))[int(m.group(1))] == move
    assert m.group(3).strip() == describe_move(state, move).partition(": ")[2].replace("_", " ")
    child.sendline(m.group(1))  # playing the hinted choice works
    out = screen_until_prompt(child, "Alice> ")
    assert f"Alice: {describe_move(state, move).partition(': ')[2].replace('_', ' ')}" in out
    child.sendeof()
    assert finish(child) == 0


def test_undo_restores_the_take_and_is_refused_after_another_player_acted() -> None:
    child = spawn(*ARGS3)
    first = screen_until_prompt(child, "Alice> ")
    child.sendline("3L4")
    screen_until_prompt(child, "Alice> ")
    child.sendline("undo")
    screen = screen_until_prompt(child, "Alice> ")
    assert "Undone: architect #3 at L4 -> r4c3, takes T1 (tower block)" in screen
    assert "Alice: take a building" in screen
    assert "Architects left this round: Alice #1 #2 #3 #4;" in screen
    state = new_game(CONFIG3)
    for line in render_site(state).splitlines():
        assert line.rstrip() in screen
    # the same numbered choices as at the start
    assert first[first.index("Alice: take a building") :] == screen[screen.index("Alice: take a building") :]
    child.sendline("3L4")
    screen_until_prompt(child, "Alice> ")
    child.sendline("r1c3")
    screen_until_prompt(child, "Alice> ")  # the bots have acted in between
    child.sendline("undo")
    out = screen_until_prompt(child, "Alice> ")
    assert "Cannot undo: Bot greedy has acted since Alice's last action" in out
    child.sendeof()
    assert finish(child) == 0


def test_save_is_replayable_and_load_resumes_at_the_same_position(tmp_path: Path) -> None:
    child = spawn(*ARGS3, cwd=tmp_path)
    screen_until_prompt(child, "Alice> ")
    for entry in ("3L4", "1", "1", "1"):
        child.sendline(entry)
        before_save = screen_until_prompt(child, "Alice> ")
    child.sendline("save game.json")
    out = screen_until_prompt(child, "Alice> ")
    assert "Saved to game.json" in out
    child.sendline("quit")  # nothing unsaved: leaves without asking
    child.expect_exact("Goodbye (nothing unsaved).")
    assert finish(child) == 0

    path = tmp_path / "game.json"
    data = json.loads(path.read_text())
    assert data["format"] == "quadropolis-game/1"
    assert data["seats"] == ["human:Alice", "greedy", "random"]
    assert data["config"]["seed"] == 42 and "result" not in data
    state = replay(GameRecord.from_json(data))
    assert state.current_player == 0 and state.round == 1 and state.turn == 3
    cli = subprocess.run(
        [sys.executable, "-m", "quadropolis.cli", "replay", str(path)], capture_output=True, text=True
    )
    assert cli.returncode == 0, cli.stderr
    assert f"Game not over after {len(data['moves'])} moves" in cli.stdout

    # Loaded by a relative name: a long temporary folder would wrap the message's line.
    child = spawn("--load", "game.json", cwd=tmp_path)
    screen = screen_until_prompt(child, "Alice> ")
    assert f"Resumed game.json: {len(data['moves'])} moves replayed (round 1, turn 3)." in screen
    for line in render_site(state).splitlines():
        assert line.rstrip() in screen

    def board(s: str) -> str:  # from the status line to the choices: site, cities, last actions
        part = s[s.index("Quadropolis classic") : s.index("Alice: take a building")]
        return "\n".join(x for x in part.splitlines() if not x.startswith("Resumed ")).strip()

    assert board(screen) == board(before_save)
    child.sendline("1")  # and the game continues
    screen_until_prompt(child, "Alice> ")
    child.sendline("save")  # without a file name: back to the loaded file
    out = screen_until_prompt(child, "Alice> ")
    assert "Saved to game.json" in out
    child.sendeof()
    assert finish(child) == 0
    assert len(json.loads(path.read_text())["moves"]) > len(data["moves"])


def test_full_game_against_bots_answering_1_reaches_the_score_sheet_and_winner(tmp_path: Path) -> None:
    rec = tmp_path / "full.json"
    child = spawn("--players", "2", "--bot", "random", "--seed", "11", "--save", str(rec))
    decisions = 0
    while True:
        i = child.expect_exact(["Player 1> ", "Game record saved to"])
        if i == 1:
            break
        child.sendline("1")
        decisions += 1
    final = text(child.before)
    assert finish(child) == 0
    assert 16 <= decisions <= 32  # 16 actions, each a take and maybe a build/discard
    assert "Final score sheet (optimal placement, R12):" in final
    assert "| TOTAL" in final and "Optimal placement of inhabitants and energy:" in final
    data = json.loads(rec.read_text())
    assert data["seats"] == ["human:Player 1", "random"]
    final_state = replay(GameRecord.from_json(data))  # the stored result is checked too
    assert final_state.is_over
    result = outcome(final_state)
    names = ["Player 1", "Bot random"]
    if len(result.winners) == 1:
        assert f"Winner: {names[result.winners[0]]} with {max(result.totals)} VP" in final
    else:
        assert "Shared victory" in final
    for p, total in enumerate(result.totals):
        assert f"{names[p]}: {total} VP" in final


def test_eof_quits_cleanly_and_saves(tmp_path: Path) -> None:
    rec = tmp_path / "eof.json"
    child = spawn(*ARGS3, "--save", str(rec))
    screen_until_prompt(child, "Alice> ")
    child.sendline("3L4")
    screen_until_prompt(child, "Alice> ")
    child.sendeof()
    child.expect_exact("End of input: leaving the game.")
    assert finish(child) == 0
    assert json.loads(rec.read_text())["moves"] == ["3L4"]


def test_ctrl_c_exits_130_without_traceback(tmp_path: Path) -> None:
    rec = tmp_path / "int.json"
    child = spawn(*ARGS3, "--save", str(rec))
    screen_until_prompt(child, "Alice> ")
    child.sendline("3L4")
    screen_until_prompt(child, "Alice> ")
    child.sendintr()
    child.expect_exact("Interrupted.")
    assert finish(child) == 130
    assert json.loads(rec.read_text())["moves"] == ["3L4"]


def test_bad_options_are_one_line_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["play", "--bot", "nonsense"]) == 1
    assert "unknown bot 'nonsense'" in capsys.readouterr().err
    assert main(["play", "--players", "2", "--bot", "random", "--bot", "random", "--bot", "random"]) == 1
    assert "3 bots for 2 players" in capsys.readouterr().err
    assert main(["play", "--players", "2", "--bot", "random", "--name", "A", "--name", "B"]) == 1
    assert "2 names given for 1 human seat(s)" in capsys.readouterr().err
    assert main(["play", "--load", str(tmp_path / "none.json")]) == 1
    assert "no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**GameRecord(CONFIG3, ("3L4", "3L4")).to_json()}))
    assert main(["play", "--load", str(bad)]) == 1
    assert "move 2 (3L4): illegal" in capsys.readouterr().err
    good = tmp_path / "good.json"
    good.write_text(json.dumps(GameRecord(CONFIG3, ("3L4",)).to_json()))
    assert main(["play", "--load", str(good), "--seed", "3"]) == 1
    assert "drop --seed" in capsys.readouterr().err


# --- the loop in-process --------------------------------------------------------------------


def scripted(entries: list[str]) -> tuple[io.StringIO, list[str], Callable[[str], str]]:
    out = io.StringIO()
    queue = list(entries)

    def ask(prompt: str) -> str:
        out.write(prompt)
        if not queue:
            raise EOFError
        return queue.pop(0)

    return out, queue, ask


def test_bots_only_game_runs_to_the_end_in_process() -> None:
    session = PlaySession(GameConfig(players=3, seed=3), make_seats(3, ["random", "greedy", "easy"], []))
    out, _, ask = scripted([])
    assert TerminalUI(session, out, ask, width=100).run() == 0
    text_out = out.getvalue()
    assert session.is_over and len(session.actions()) == 48
    assert "Final score sheet" in text_out and ("Winner:" in text_out or "Shared victory" in text_out)


def test_expert_screen_and_undo_message_in_process() -> None:
    session = PlaySession(GameConfig(mode=Mode.EXPERT, players=2, seed=8), make_seats(2, ["random"], ["Zoe"]))
    out, _, ask = scripted(["1", "undo", "undo"])
    TerminalUI(session, out, ask, width=100).run()
    s = out.getvalue()
    assert "Architect pool (shared): #1 x2, #2 x2, #3 x2, #4 x2, #5 x2" in s
    assert "c5" in s  # Expert cities have five columns
    assert "Undone: " in s and "Cannot undo: Zoe has not acted yet: nothing to undo." in s


# --- the session object -------------------------------------------------------------------


def test_seats_names_order_and_record_names() -> None:
    seats = make_seats(4, ["greedy", "greedy"], ["Ann"])
    assert [s.name for s in seats] == ["Ann", "Player 2", "Bot greedy", "Bot greedy (2)"]
    assert [s.record_name for s in seats] == ["human:Ann", "human:Player 2", "greedy", "greedy"]
    first = make_seats(3, ["random"], [], bots_first=True)
    assert [s.is_human for s in first] == [False, True, True]
    assert Seat.from_record("human:Bob") == Seat("Bob")
    assert Seat.from_record("hard") == Seat("Bot hard", "hard")
    with pytest.raises(ConfigError):
        Seat.from_record("bogus")
    with pytest.raises(ConfigError):
        make_seats(2, ["random", "random", "random"], [])


def test_undo_rules() -> None:
    session = PlaySession(GameConfig(players=2, seed=1), make_seats(2, [], ["A", "B"]))
    with pytest.raises(UndoError, match="A has not acted yet"):
        session.undo()
    start = session.state.copy()
    take = next(m for m in session.legal_moves() if apply(start, m).phase == PLACE)
    session.play(take)
    assert session.state.phase == PLACE
    removed = session.undo()  # the take alone, mid-action
    assert [s.move for s in removed] == [take] and session.state == start and session.steps == []
    session.play(take)
    build = session.legal_moves()[0]
    session.play(build)
    assert session.current_seat == 1
    # B has not acted: B cannot undo; A's complete action can be undone by A (no one acted since)
    with pytest.raises(UndoError, match="B has not acted yet"):
        session.undo()
    assert session.undo_refusal(0) is None
    removed = session.undo(0)
    assert [s.move for s in removed] == [take, build] and session.state == start
    session.play(take)
    session.play(build)
    session.play(session.legal_moves()[0])  # B acts
    if session.state.phase == PLACE:
        session.play(session.legal_moves()[-1])
    with pytest.raises(UndoError, match="B has acted since A's last action"):
        session.undo(0)
    wrong = Build(1, 1) if session.state.phase == TAKE else Take(1, 0)
    with pytest.raises(IllegalMoveError):
        session.play(wrong)


def test_undo_a_whole_action_when_the_same_player_acts_twice_in_a_row() -> None:
    # At a round boundary the mayor's holder may act right after its own last action: undo
    # then takes back that whole action (take and build), across the new round's layout.
    rng = random.Random(5)
    for seed in range(200):
        session = PlaySession(GameConfig(players=2, seed=seed), make_seats(2, [], []))
        while not session.is_over:
            last = session.steps[-1] if session.steps else None
            if (
                last is not None
                and session.state.phase == TAKE
                and last.seat == session.current_seat
                and session.state.round > last.before.round
            ):
                action = session.actions()[-1]
                before = action.steps[0].before.copy()
                removed = session.undo()
                assert removed == list(action.steps) and session.state == before
                assert session.state.round == before.round and session.current_seat == action.seat
                return
            moves = session.legal_moves()
            session.play(moves[int(rng.random() * len(moves))])
    pytest.fail("no game had a player acting twice in a row")


def test_record_names_seats_and_carries_the_result() -> None:
    session = PlaySession(GameConfig(players=2, seed=9), make_seats(2, ["greedy"], ["Cy"]))
    rec = session.record()
    assert rec.seats == ("human:Cy", "greedy") and rec.moves == () and rec.result is None
    while not session.is_over:
        if session.current.is_human:
            session.play(session.legal_moves()[0])
        else:
            session.play(session.bot_move())
    rec = GameRecord.from_json(json.loads(json.dumps(session.record().to_json())))
    assert rec.seats == ("human:Cy", "greedy") and rec.result is not None
    assert replay(rec) == session.state
    resumed = PlaySession.from_record(rec)
    assert resumed.state == session.state and resumed.seats == session.seats
    assert [s.move for s in resumed.steps] == [s.move for s in session.steps]
    with pytest.raises(RecordError, match="not over"):
        PlaySession.from_record(GameRecord(rec.config, rec.moves[:-1], rec.result, rec.seats))


def test_bot_moves_are_reproducible_and_see_no_seed() -> None:
    def game() -> list[Move]:
        s = PlaySession(GameConfig(players=2, seed=21), make_seats(2, ["greedy", "easy"], []))
        while not s.is_over:
            s.play(s.bot_move())
        return s.moves

    a = game()
    assert a == game()
    assert any(isinstance(m, (Build, Discard)) for m in a)


# --- terminal polish ---------------------------------------------------------------------

CLEAR = "\x1b[H\x1b[2J"


def flat(s: str) -> str:
    """``s`` with every run of white space (line breaks of wrapped text) as one space."""
    return re.sub(r"\s+", " ", s)


def last_screen(before: str, prompt: str) -> list[str]:
    """The lines of the last screen: from the last clear sequence to the prompt, inclusive."""
    t = text(before)
    assert CLEAR in t, t
    return (t[t.rindex(CLEAR) + len(CLEAR) :] + prompt).split("\n")


def assert_fits(lines: list[str], rows: int = 24, cols: int = 80) -> None:
    assert len(lines) <= rows, "\n".join(lines)
    assert all(len(line) <= cols for line in lines), "\n".join(x for x in lines if len(x) > cols)


def assert_board(lines: list[str], session: PlaySession, seat: int) -> None:
    """The construction site and ``seat``'s city (as the engine draws them) are on screen."""
    screen = "\n".join(lines)
    for line in render_site(session.state).splitlines():
        assert line.rstrip() in screen, screen
    assert f"{seat + 1}. {session.name(seat)}" in screen
    for line in render_city(session.state.city(seat)).splitlines()[1:]:
        assert line.rstrip() in screen, screen


@pytest.mark.parametrize(("mode", "players"), [("classic", 2), ("classic", 4), ("expert", 2), ("expert", 4)])
def test_every_screen_fits_80x24_with_the_site_the_city_and_the_prompt(mode: str, players: int) -> None:
    bots = ["random"] * (players - 1)
    seed = 7
    child = spawn(
        "--mode",
        mode,
        "--players",
        str(players),
        "--seed",
        str(seed),
        *(a for b in bots for a in ("--bot", b)),
        dimensions=(24, 80),
    )
    expected = PlaySession(
        GameConfig(mode=Mode(mode), players=players, seed=seed), make_seats(players, bots, [])
    )
    prompt = "Player 1> "
    first = True
    while True:
        i = child.expect_exact([prompt, "game over> "])
        lines = last_screen(child.before, child.after)
        assert_fits(lines)
        if i == 1:
            break
        assert lines[-1] == prompt
        assert_board(lines, expected, 0)
        if first:  # the other screens: views, pages, messages
            first = False
            screen = "\n".join(lines)
            assert "page 1/" in screen  # the takes do not fit: they are paged
            for entry, must, board in [
                ("more", "page 2/", True),
                ("r9c9", f"'r9c9': {mode} city squares are r1c1 to r4c{4 if mode == 'classic' else 5}", True),
                ("help", "docs/rules.md in the quadropolis repository", False),
                ("more", "Tile codes", False),
                ("cities", f"{players}. Bot random", False),
                ("city 2", "Projected score (as if the game ended now)", False),
                ("log", "No action yet.", False),
                ("", "Player 1: take a building", True),
            ]:
                child.sendline(entry)
                child.expect_exact(prompt)
                lines = last_screen(child.before, child.after)
                assert_fits(lines)
                assert must in flat("\n".join(lines)), "\n".join(lines)
                if board:
                    assert_board(lines, expected, 0)
        move = numbered(choices(expected.state))[1]
        child.sendline("1")
        expected.play(move)
        run_bots(expected)
    # the end: the results in pages of 24 lines, then leave
    final = "\n".join(lines)
    assert "Winner" in final or "Shared victory" in final
    for _ in range(4):
        child.sendline("more")
        child.expect_exact("game over> ")
        assert_fits(last_screen(child.before, child.after))
    child.sendline("quit")
    assert finish(child) == 0
    assert expected.is_over


def test_undo_refusal_names_who_acted_and_what() -> None:
    child = spawn(*ARGS3)
    screen_until_prompt(child, "Alice> ")
    child.sendline("3L4")
    screen_until_prompt(child, "Alice> ")
    child.sendline("r1c3")
    screen_until_prompt(child, "Alice> ")
    child.sendline("undo")
    out = flat(screen_until_prompt(child, "Alice> "))
    expected = PlaySession(CONFIG3, seats3())
    expected.play("3L4")
    expected.play("r1c3")
    run_bots(expected)
    bot = expected.actions()[1]
    assert bot.seat == 1
    theirs = "; ".join(st.text for st in bot.steps)
    assert (
        "Cannot undo: Bot greedy has acted since Alice's last action (Alice: architect #3 at L4 -> r4c3, "
        f"takes T1 (tower block); builds T1 on r1c3); then Bot greedy: {theirs}." in out
    )
    child.sendeof()
    assert finish(child) == 0


def test_out_of_range_square_names_the_squares_of_the_mode() -> None:
    child = spawn(*ARGS3)
    screen_until_prompt(child, "Alice> ")
    child.sendline("3L4")
    screen_until_prompt(child, "Alice> ")
    for entry in ("r9c9", "r4c5"):
        child.sendline(entry)
        child.expect_exact("Alice> ")
        out = flat("\n".join(last_screen(child.before, child.after)))
        assert f"'{entry}': classic city squares are r1c1 to r4c4 (4 rows, 4 columns)." in out
        assert "r4c5" not in out.replace(f"'{entry}'", "")
    child.sendeof()
    assert finish(child) == 0
    session = PlaySession(GameConfig(mode=Mode.EXPERT, players=2, seed=8), make_seats(2, ["random"], ["Zoe"]))
    out, _, ask = scripted(["r9c9"])
    TerminalUI(session, out, ask, width=100).run()
    assert "'r9c9': expert city squares are r1c1 to r4c5 (4 rows, 5 columns)." in out.getvalue()


def test_build_prompt_mentions_stacking_only_for_a_tower_block() -> None:
    child = spawn(*ARGS3)
    screen_until_prompt(child, "Alice> ")
    child.sendline("2T2")  # architect #2 at T2 takes the shop at r2c2
    out = flat(screen_until_prompt(child, "Alice> "))
    assert "Alice: build S shop (architect #2: an empty square in row 2 or column 2, R8) or discard it" in out
    child.sendline("undo")
    screen_until_prompt(child, "Alice> ")
    child.sendline("3L4")  # the T1 tower block at r4c3
    out = flat(screen_until_prompt(child, "Alice> "))
    assert (
        "Alice: build T1 tower block, +1 inhabitant (architect #3: an empty square in row 3 or column 3, "
        "or on a tower block there or where it becomes floor 3, R8) or discard it" in out
    )
    child.sendeof()
    assert finish(child) == 0


def test_quit_right_after_save_leaves_without_asking_but_asks_after_a_move(tmp_path: Path) -> None:
    child = spawn(*ARGS3, cwd=tmp_path)
    screen_until_prompt(child, "Alice> ")
    child.sendline("3L4")
    screen_until_prompt(child, "Alice> ")
    child.sendline("save g.json")
    assert "Saved to g.json (1 moves" in flat(screen_until_prompt(child, "Alice> "))
    child.sendline("quit")
    child.expect_exact("Goodbye (nothing unsaved).")
    assert finish(child) == 0
    assert "File name" not in text(child.before)

    child = spawn("--load", "g.json", cwd=tmp_path)
    screen_until_prompt(child, "Alice> ")
    child.sendline("quit")  # just loaded: nothing unsaved either
    child.expect_exact("Goodbye (nothing unsaved).")
    assert finish(child) == 0

    child = spawn("--load", "g.json", cwd=tmp_path)
    screen_until_prompt(child, "Alice> ")
    child.sendline("discard")
    screen_until_prompt(child, "Alice> ")
    child.sendline("quit")  # a move since: asks
    child.expect_exact("File name (Enter to leave without saving): ")
    child.sendline("")
    child.expect_exact("Goodbye.")
    assert finish(child) == 0
    assert json.loads((tmp_path / "g.json").read_text())["moves"] == ["3L4"]


def test_end_prompt_says_its_options_and_asks_again_on_unknown_input(tmp_path: Path) -> None:
    child = spawn("--players", "2", "--bot", "random", "--seed", "11", cwd=tmp_path, dimensions=(24, 80))
    while child.expect_exact(["Player 1> ", "game over> "]) == 0:
        child.sendline("1")
    end = flat("\n".join(last_screen(child.before, child.after)))
    assert "Type 'save FILE' to keep the game record, or 'quit' to leave without saving." in end
    child.sendline("yes")  # not an option: asked again, nothing saved, still running
    child.expect_exact("game over> ")
    assert "Unknown entry 'yes'. Type 'save FILE' to keep the game record" in flat(text(child.before))
    assert child.isalive()
    child.sendline("save end.json")
    child.expect_exact("Saved to end.json")
    assert finish(child) == 0
    state = replay(GameRecord.from_json(json.loads((tmp_path / "end.json").read_text())))
    assert state.is_over


def test_site_tells_tower_block_tiles_apart() -> None:
    child = spawn(*ARGS3)
    screen = screen_until_prompt(child, "Alice> ")
    # row 1 of seed 42 holds the T2, T3 and T1 (with the mayor) tower block tiles
    assert "   L1  P+2   T2   T3  T1*   H   R1" in screen
    assert "   L4   S    P    T1   Kp   F   R4" in screen
    child.sendeof()
    assert finish(child) == 0


def test_load_errors_name_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(GameRecord(CONFIG3, ("3L4", "3L4")).to_json()))
    assert main(["play", "--load", str(bad)]) == 1
    assert f"{bad}: move 2 (3L4): illegal" in capsys.readouterr().err
    seats = tmp_path / "seats.json"
    seats.write_text(
        json.dumps({**GameRecord(CONFIG3, ("3L4",)).to_json(), "seats": ["human:", "random", "random"]})
    )
    assert main(["play", "--load", str(seats)]) == 1
    assert f"{seats}: seat 'human:'" in capsys.readouterr().err
    good = tmp_path / "good.json"
    good.write_text(json.dumps(GameRecord(CONFIG3, ("3L4",)).to_json()))
    assert (
        main(
            [
                "play",
                "--load",
                str(good),
                "--bot",
                "random",
                "--bot",
                "random",
                "--bot",
                "random",
                "--bot",
                "x",
            ]
        )
        == 1
    )
    assert f"{good}: 4 bots for 3 players" in capsys.readouterr().err
    for name, content in [("empty.json", ""), ("list.json", "[]"), ("none.json", None), ("dir.json", "/")]:
        path = tmp_path / name
        if content == "/":
            path.mkdir()
        elif content is not None:
            path.write_text(content)
        assert main(["play", "--load", str(path)]) == 1
        assert f"play: error: {path}: " in capsys.readouterr().err


def test_builds_lowering_the_projection_say_why() -> None:
    child = spawn(*ARGS3)
    screen_until_prompt(child, "Alice> ")
    child.sendline("3L4")  # a tower block bringing 1 inhabitant and no energy yet
    out = flat(screen_until_prompt(child, "Alice> "))
    assert "1) build on r1c3 (empty square) -> projected -1 VP (-1)" in out
    assert "discard it -> projected 0 VP (+0)" in out
    assert (
        "1-7: -1 = 1 inhabitant not placed (unused inhabitants -1); "
        "the tower block is not activated yet (it needs 1 energy)" in out
    )
    child.sendeof()
    assert finish(child) == 0


def test_help_says_where_the_rules_are_and_shows_the_tile_codes() -> None:
    child = spawn(*ARGS3)
    screen_until_prompt(child, "Alice> ")
    child.sendline("help")
    out = screen_until_prompt(child, "Alice> ")
    assert "The rules: docs/rules.md in the quadropolis repository" in out
    assert "(rulings R1–R16 are cited in messages)" in out
    for line in render_legend(Mode.CLASSIC).splitlines():
        assert line in out
    assert "office tower" not in out  # Classic: no Expert building in the legend
    child.sendline("")  # back to the game
    out = screen_until_prompt(child, "Alice> ")
    assert "Alice: take a building" in out
    child.sendeof()
    assert finish(child) == 0
