"""The commands of the command line itself: ``score``, ``simulate``, ``replay`` and ``bench``.
Each is ``cmd_NAME(args, out) -> exit status``, writing its results to ``out`` and raising
:class:`~quadropolis.cli.options.CliError` (or another
:class:`~quadropolis.errors.QuadropolisError`) on bad input.

Seats are shown as the terminal game shows them: by name, ``Player 1``, ``Player 2``...
(1-based) unless a game record names them (``"human:NAME"``: NAME; a bot spec: ``Bot SPEC``).
JSON output keeps the 0-based seat indexes of the record format (``winners``)."""

from __future__ import annotations

import argparse
import json
import re
import time
from collections.abc import Iterator, Sequence
from typing import Any, Final, TextIO

from ..city import GEOMETRY, City
from ..config import GameConfig
from ..errors import QuadropolisError
from ..outcome import outcome
from ..playout import random_game
from ..record import GameRecord, replay, result_json, seat_label, unique_labels
from ..render import render_city, render_legend, render_placement, render_score_sheet, render_state
from ..scoring import score_city
from ..tiles import Mode
from .io import Document, read_documents
from .options import CliError, clip, one_line

#: How a game record names a human seat (``"human:Alice"``); any other seat is a bot spec.
#: Longest seat name shown (names come from record files).
NAME_LIMIT: Final = 24


# --- score -----------------------------------------------------------------------------------


def cmd_score(args: argparse.Namespace, out: TextIO) -> int:
    """Score every city of the input, writing each result as soon as its city is read."""
    legend_shown: set[Mode] = set()
    for n, (where, data) in enumerate(_cities(read_documents(args.file)), 1):
        try:
            city = City.from_json(data)
        except QuadropolisError as e:
            raise CliError(f"{where}: {e}") from None
        score = score_city(city, all_parks_absorb=args.all_parks_absorb)
        if args.json:
            out.write(json.dumps(score.to_json(GEOMETRY[city.mode]), separators=(",", ":")) + "\n")
        else:
            if n > 1:
                out.write("\n")
            out.write(render_city(city, f"City {n} ({city.mode.value})") + "\n")
            if city.mode not in legend_shown:  # once per mode: below the first drawing
                legend_shown.add(city.mode)
                out.write(render_legend(city.mode) + "\n\n")
            out.write(render_score_sheet([score], ["VP"], city.mode is Mode.EXPERT) + "\n")
            out.write("Optimal placement:\n" + render_placement(city, score) + "\n")
        out.flush()  # one city in, one result out
    return 0


def _cities(docs: Iterator[Document]) -> Iterator[tuple[str, Any]]:
    """(location, city data) of every city: a document is a city or an array of cities."""
    for doc in docs:
        value = doc.value()
        if isinstance(value, list):
            yield from ((f"{doc.where}: city {i}", v) for i, v in enumerate(value, 1))
        else:
            yield doc.where, value


# --- simulate --------------------------------------------------------------------------------


def _config(args: argparse.Namespace, seed: int) -> GameConfig:
    return GameConfig(
        mode=Mode.parse(args.mode),
        players=args.players,
        seed=seed,
        urbanist_blocks=args.urbanist_blocks,
        all_parks_absorb=args.all_parks_absorb,
    )


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    records = open(args.records, "w", encoding="utf-8") if args.records else None  # noqa: SIM115
    wins = [0.0] * args.players
    totals = [0] * args.players
    win_scores: list[int] = []
    n_moves = 0
    start = time.perf_counter()
    try:
        for g in range(args.games):
            seed = args.seed + g
            config = _config(args, seed)
            played, result = random_game(config, f"playout/{seed}")
            n_moves += len(played)
            for p in result.winners:
                wins[p] += 1 / len(result.winners)
            for p, s in enumerate(result.totals):
                totals[p] += s
            win_scores.append(max(result.totals))
            if args.json:
                line = {
                    "seed": seed,
                    "scores": list(result.totals),
                    "winners": list(result.winners),
                    "moves": len(played),
                }
                out.write(json.dumps(line, separators=(",", ":")) + "\n")
            if records is not None:
                rec = GameRecord(config, tuple(map(str, played)), result_json(result))
                records.write(json.dumps(rec.to_json(), separators=(",", ":")) + "\n")
    finally:
        if records is not None:
            records.close()
    elapsed = time.perf_counter() - start
    if not args.json:
        g = args.games
        out.write(
            f"{g} random {args.mode} games, {args.players} players, seeds {args.seed}-{args.seed + g - 1}"
            f" ({elapsed:.2f} s, {g / elapsed:.0f} games/s including final scoring)\n"
        )
        out.write(f"moves per game: {n_moves / g:.1f}\n")
        out.write(f"mean winning score: {sum(win_scores) / g:.1f} VP\n")
        for p, name in enumerate(default_names(args.players)):
            out.write(f"{name}: mean score {totals[p] / g:6.1f} VP, wins {wins[p] / g:6.1%}\n")
    return 0


# --- replay ----------------------------------------------------------------------------------


def default_names(players: int) -> list[str]:
    """``Player 1``, ``Player 2``...: seats shown 1-based, as in the terminal game."""
    return [f"Player {p + 1}" for p in range(players)]


def seat_names(record: GameRecord) -> list[str]:
    """How each seat of a record is shown: its ``seats`` entry (:func:`quadropolis.record.seat_label`),
    else ``Player N``; repeated names get a suffix (``Bot greedy (2)``). Names are clipped to
    :data:`NAME_LIMIT` characters; no bot is built from the spec."""
    names = default_names(record.config.players)
    if record.seats is not None:
        for p, seat in enumerate(record.seats):
            name = seat_label(seat)
            if name:
                names[p] = clip(name, NAME_LIMIT)
    return unique_labels(names)


_PLAYER: Final = re.compile(r"\bplayer (\d+)\b")


def name_players(message: str, names: Sequence[str]) -> str:
    """A rules message with its 0-based ``player N`` replaced by the seat's name."""

    def name(m: re.Match[str]) -> str:
        p = int(m.group(1))
        return names[p] if p < len(names) else m.group(0)

    return _PLAYER.sub(name, message)


def select_game(docs: Iterator[Document], game: int | None, source: str) -> tuple[Document, int]:
    """The document of game ``game`` (1-based; ``None``: the only one) and the number of games
    read. With JSON Lines every non-blank line is a game; a single document is one game."""
    chosen: Document | None = None
    count = 0
    for doc in docs:  # documents are parsed only when chosen: counting the others is cheap
        count += 1
        if count == (game or 1):
            chosen = doc
            if game is not None:
                break
    if game is None and count > 1:
        raise CliError(
            f"{source} holds {count} games (JSON Lines, one a line): choose one with --game N (1-{count})"
        )
    if chosen is None:
        held = f"only {count} game" + ("s" if count != 1 else "")
        raise CliError(f"{source} holds {held}: --game {game} is out of range (1-{count})")
    return chosen, count


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    doc, _ = select_game(read_documents(args.file), args.game, clip(args.file))
    try:
        record = GameRecord.from_json(doc.value())
    except QuadropolisError as e:
        raise CliError(f"{doc.where}: {e}") from None
    names = seat_names(record)
    try:
        final = replay(record)
    except QuadropolisError as e:
        raise CliError(f"{doc.where}: {name_players(str(e), names)}") from None
    result = outcome(final)
    mode = final.config.mode
    if args.json:
        out.write(
            json.dumps({"over": final.is_over, **result.to_json(GEOMETRY[mode])}, separators=(",", ":"))
        )
        out.write("\n")
        return 0
    if args.game is not None:
        out.write(one_line(f"Game {args.game} ({doc.where})") + "\n\n")
    out.write(render_state(final, result.scores, names) + "\n\n")
    out.write(render_legend(mode) + "\n\n")
    out.write(render_score_sheet(result.scores, names, mode is Mode.EXPERT) + "\n")
    if final.is_over:
        win = " and ".join(names[p] for p in result.winners)
        shared = " (shared victory, R13)" if len(result.winners) > 1 else ""
        out.write(f"Winner: {win}{shared} with {max(result.totals)} VP after {len(record.moves)} moves\n")
    else:
        out.write(f"Game not over after {len(record.moves)} moves (scores above are projections)\n")
    return 0


# --- bench -----------------------------------------------------------------------------------


def cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    from ..bench import DEFAULT_SECTIONS, SECTIONS, run_benchmarks

    sections = tuple(args.sections) or DEFAULT_SECTIONS
    for name in sections:
        if name not in SECTIONS:
            raise CliError(
                f"unknown benchmark section {clip(repr(name))} (choose from {', '.join(SECTIONS)})"
            )
    run_benchmarks(out, repeat=args.repeat, quick=args.quick, as_json=args.json, sections=sections)
    return 0


__all__ = ["cmd_bench", "cmd_replay", "cmd_score", "cmd_simulate", "name_players", "seat_names"]
