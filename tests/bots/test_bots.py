"""Bots: legality, determinism, hidden information, and play that a bot must find."""

from __future__ import annotations

import ast
import gc
import math
import random
from concurrent.futures import Executor
from dataclasses import FrozenInstanceError, fields
from pathlib import Path

import pytest
from helpers import game, pending

import quadropolis
from quadropolis import (
    Building,
    BuildingType,
    ConfigError,
    GameConfig,
    GameState,
    Mode,
    apply,
    legal_moves,
    new_game,
)
from quadropolis.bots import (
    BOT_NAMES,
    LEVEL_DETAILS,
    LEVELS,
    SEARCH_LEVELS,
    TUNING_CAPS,
    GreedyBot,
    MCTSBot,
    RandomBot,
    SearchOptions,
    bot_rng,
    determinize,
    make_bot,
    mcts,
    observe,
    play_match,
    policy,
)
from quadropolis.bots.base import HIDDEN_SEED
from quadropolis.bots.levels import describe
from quadropolis.bots.mcts import greedy_prior
from quadropolis.bots.policy import harbor_gain, office_gain, ordered_moves, placement_value
from quadropolis.city import GEOMETRY
from quadropolis.engine import pinned
from quadropolis.moves import Build, Take
from quadropolis.outcome import fed_score, projected_score
from quadropolis.rules import apply_unchecked
from quadropolis.scoring_tables import TABLES, office_vp, run_vp
from quadropolis.site import DESIGNATED
from quadropolis.state import OVER, TAKE

B = BuildingType


def test_observation_hides_the_seed_and_nothing_else() -> None:
    s = game(Mode.EXPERT, 3, seed=123456)
    obs = observe(s)
    assert obs.config.seed == HIDDEN_SEED != s.config.seed
    assert obs.site == s.site and obs.cities == s.cities and legal_moves(obs) == legal_moves(s)
    d1 = determinize(obs, random.Random(1))
    d2 = determinize(obs, random.Random(2))
    assert d1.config.seed != d2.config.seed and d1.site == s.site


def test_future_rounds_are_not_visible_to_bots() -> None:
    # Two games that differ only in their seed's later rounds look identical to a bot in round 1.
    a = new_game(GameConfig(seed=1))
    b = a.copy()
    b.config = GameConfig(seed=2)
    assert observe(a) == observe(b)


@pytest.mark.parametrize("spec", ["random", "greedy", "easy", "mcts:iterations=30"])
@pytest.mark.parametrize("mode,players", [(Mode.CLASSIC, 2), (Mode.EXPERT, 3)])
def test_bots_play_whole_legal_games(spec: str, mode: Mode, players: int) -> None:
    bots = [make_bot(spec) for _ in range(players)]
    result = play_match(GameConfig(mode=mode, players=players, seed=5), bots)  # raises on illegal
    assert result.final.is_over
    assert sum(result.decisions) == len(result.moves)


def test_mcts_is_deterministic_for_a_seed_and_iteration_budget() -> None:
    s = game(Mode.CLASSIC, 2, seed=8)
    bot = MCTSBot(iterations=120)
    moves = {str(bot.choose(observe(s), random.Random(3))) for _ in range(3)}
    assert len(moves) == 1


def test_root_parallel_search_is_deterministic() -> None:
    s = game(Mode.CLASSIC, 2, seed=9)
    bot = MCTSBot(iterations=200, workers=2)
    try:
        first = bot.choose(observe(s), random.Random(4))
        again = bot.choose(observe(s), random.Random(4))
    finally:
        bot.close()
    assert first == again and first in legal_moves(s)


def test_games_between_bots_replay_identically() -> None:
    cfg = GameConfig(mode=Mode.CLASSIC, players=2, seed=77)
    r1 = play_match(cfg, [make_bot("greedy"), make_bot("mcts:iterations=20")])
    r2 = play_match(cfg, [make_bot("greedy"), make_bot("mcts:iterations=20")])
    assert r1.moves == r2.moves and r1.outcome.totals == r2.outcome.totals
    assert bot_rng(77, 0).random() != bot_rng(77, 1).random()


def test_greedy_builds_where_it_scores_most() -> None:
    # Classic, architect #1 holding a tree park: r1c2 touches two tower blocks (park 4 VP),
    # r1c1 touches one (2 VP); the towers are activated with 2 energy.
    s = pending(game(), "PKT", 1)
    city = s.cities[0]
    city[5] = Building(B.TOWER_BLOCK)  # r2c2
    city[2] = Building(B.TOWER_BLOCK)  # r1c3
    city[4] = Building(B.TOWER_BLOCK)  # r2c1
    s.energy[0] = 3
    move = GreedyBot().choose(observe(s), random.Random(0))
    assert move == Build(1, 2)  # neighbours of r1c2: r1c1, r1c3 (tower), r2c2 (tower)
    after = apply(s, move)
    assert after.cities[0][1] == Building(B.PARK, tree=True)


def test_greedy_takes_the_most_valuable_building() -> None:
    s = game(seed=0)
    obs = observe(s)
    move = GreedyBot().choose(obs, random.Random(0))
    assert isinstance(move, Take)
    q = DESIGNATED[move.slot][move.architect]
    assert s.site[q] >= 0 and not s.face_down >> q & 1  # it takes something
    values = {m: GreedyBot()._take_value(s, m, 0) for m in legal_moves(s)}  # type: ignore[arg-type]
    assert values[move] == max(values.values())
    nothing = [m for m in values if s.site[DESIGNATED[m.slot][m.architect]] < 0]  # type: ignore[attr-defined]
    assert all(values[m] < values[move] for m in nothing)


def test_greedy_beats_random() -> None:
    wins = 0
    for g in range(6):
        bots = [RandomBot(), GreedyBot()] if g % 2 else [GreedyBot(), RandomBot()]
        r = play_match(GameConfig(players=2, seed=300 + g), bots)
        wins += (1 if g % 2 else 0) in r.outcome.winners
    assert wins >= 5


def test_mcts_finds_the_winning_last_build() -> None:
    # Last action of a Classic game: player 1 holds a tree park and architect #1. Only r1c2
    # (between its two tower blocks) gives 4 VP and the win; MCTS must see it.
    s = game(Mode.CLASSIC, 2, seed=1)
    s.round, s.turn, s.position = 4, 4, 1
    s.architects = [0b11110, 0b11100]
    pending(s, "PKT", 1)
    s.cities[0][10] = Building(B.TOWER_BLOCK, 2)  # player 0: 3 VP with its energy
    s.energy[0] = 1
    s.cities[1][0] = Building(B.TOWER_BLOCK)
    s.cities[1][2] = Building(B.TOWER_BLOCK)
    s.energy[1] = 2
    move = MCTSBot(iterations=60).choose(observe(s), random.Random(0))
    assert move == Build(1, 2)
    final = apply(s, move)
    assert final.is_over


def _office_total(city: list[Building | None]) -> int:
    squares = [q for q, b in enumerate(city) if b is not None and b.type == BuildingType.OFFICE_TOWER]
    floors = [city[q].floors for q in squares]  # type: ignore[union-attr]
    return office_vp(squares, floors, GEOMETRY[Mode.EXPERT].neighbours)


def test_office_gain_is_the_exact_change_of_the_office_score() -> None:
    # R15: towers score by their floors on the row of their group's size (capped at 5). The
    # search's prior must see that a tower joining a group raises every tower in it.
    rng = random.Random(15)
    geo = GEOMETRY[Mode.EXPERT]
    office = BuildingType.OFFICE_TOWER
    for _ in range(400):
        city: list[Building | None] = [None] * geo.size
        for q in rng.sample(range(geo.size), rng.randint(0, 12)):
            kind = office if rng.random() < 0.6 else BuildingType.SHOP
            city[q] = Building(kind, rng.randint(1, 4) if kind is office else 1)
        q = rng.randrange(geo.size)
        b = city[q]
        if b is not None and (b.type is not office or b.floors == 5):
            continue
        after = list(city)
        after[q] = Building(office, 1 if b is None else b.floors + 1)
        assert office_gain(city, Mode.EXPERT, q) == _office_total(after) - _office_total(city)
    # beside a group of four one-floor towers (3 VP each), a fifth makes five of 4 VP: +8
    row = [Building(office, 1) for _ in range(4)]
    city = [*row, None, *([None] * 15)]
    assert office_gain(city, Mode.EXPERT, 4) == 8
    assert placement_value(city, Mode.EXPERT, office, 4) > placement_value(city, Mode.EXPERT, office, 19)


@pytest.mark.parametrize("mode", [Mode.CLASSIC, Mode.EXPERT])
def test_harbor_gain_is_the_exact_change_of_the_runs_score(mode: Mode) -> None:
    # R14: the longest horizontal run anywhere plus the longest vertical one.
    rng = random.Random(14)
    geo, tables = GEOMETRY[mode], TABLES[mode]

    def runs(city: list[Building | None]) -> int:
        mask = sum(1 << q for q, b in enumerate(city) if b is not None and b.type == BuildingType.HARBOR)
        return run_vp(mask, tables.hvalid, geo.cols)

    for _ in range(400):
        city: list[Building | None] = [None] * geo.size
        for q in rng.sample(range(geo.size), rng.randint(0, 10)):
            city[q] = Building(BuildingType.HARBOR if rng.random() < 0.7 else BuildingType.SHOP, 1)
        q = rng.choice([q for q, b in enumerate(city) if b is None])
        after = list(city)
        after[q] = Building(BuildingType.HARBOR, 1)
        assert harbor_gain(city, mode, q) == runs(after) - runs(city)


def test_ordered_moves_prunes_only_duplicates() -> None:
    s = game(Mode.CLASSIC, 4, seed=2)
    full = legal_moves(s)
    pruned = ordered_moves(s)
    assert set(pruned) <= set(full)
    kept = {(DESIGNATED[m.slot][m.architect], m.architect) for m in pruned}  # type: ignore[attr-defined]
    for m in full:
        assert isinstance(m, Take)
        q = DESIGNATED[m.slot][m.architect]
        empty = s.site[q] < 0 or s.face_down >> q & 1
        assert empty or (q, m.architect) in kept


@pytest.mark.parametrize(
    "spec,message",
    [
        ("wizard", "unknown bot 'wizard'"),
        ("mcts:iterations=0", "must be positive"),
        ("mcts:iterations=abc", "iterations must be a whole number"),
        ("mcts:c=abc", "c must be a number"),
        ("mcts:c=nan", "c must be a finite number"),
        ("mcts:horizon=1.5", "horizon must be a whole number"),
        ("mcts:horizon=-2", "horizon must be zero or more"),
        ("mcts:credit=-1", "credit must be zero or more"),
        ("mcts:fed=-0.5", "fed must be zero or more"),
        ("mcts:fed=1.5", "fed must be at most 1"),
        ("mcts:depth=3", "unknown option"),
        ("greedy:fast", "key=value"),
    ],
)
def test_bad_bot_specs(spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        make_bot(spec)


def test_levels_are_named_and_built() -> None:
    assert list(LEVELS) == ["easy", "medium", "neural", "hard", "expert"] and set(LEVELS) <= set(BOT_NAMES)
    assert set(SEARCH_LEVELS) == {"medium", "hard", "expert"} and list(LEVEL_DETAILS) == list(LEVELS)
    assert "8,000 iterations" in LEVEL_DETAILS["hard"] == describe(SEARCH_LEVELS["hard"])
    hard = make_bot("hard")
    level = SEARCH_LEVELS["hard"]
    assert isinstance(hard, MCTSBot) and hard.iterations == level.iterations
    assert hard.trees == level.trees == 2 and hard.workers == level.workers
    assert hard.seconds == level.seconds and hard.options.horizon == level.horizon
    one = make_bot("hard", workers=1)
    assert isinstance(one, MCTSBot) and one.workers == 1 and one.trees == level.trees
    assert isinstance(make_bot("medium"), MCTSBot) and make_bot("easy").name == "easy"
    expert = make_bot("expert")
    assert isinstance(expert, MCTSBot) and expert.iterations is not None and level.iterations is not None
    assert (
        expert.iterations > level.iterations and expert.seconds is not None and expert.seconds > level.seconds
    )


def test_level_time_caps_can_be_dropped_for_reproducible_play() -> None:
    # The arena drops a level's time cap (only a slow machine reaches it); a seconds option
    # the spec gives is kept.
    assert make_bot("hard", time_caps=False).seconds is None  # type: ignore[attr-defined]
    assert make_bot("hard:seconds=0.5", time_caps=False).seconds == 0.5  # type: ignore[attr-defined]
    assert make_bot("mcts").seconds is None  # type: ignore[attr-defined]


def test_trees_and_workers_options() -> None:
    assert make_bot("mcts:workers=3").trees == 3  # type: ignore[attr-defined]
    bot = make_bot("mcts:trees=4,workers=2")
    assert isinstance(bot, MCTSBot) and (bot.trees, bot.workers) == (4, 2)
    assert make_bot("hard:trees=1").trees == 1  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="trees must be at most 8"):
        make_bot("mcts:trees=9")
    assert make_bot("mcts:trees=9", trusted=True).trees == 9  # type: ignore[attr-defined]


@pytest.mark.parametrize("mode", [Mode.CLASSIC, Mode.EXPERT])
def test_trees_give_the_same_moves_in_one_process_or_two(mode: Mode) -> None:
    # The arena and the server search a level's trees one after another; the terminal in
    # two processes: a game between them must not depend on which.
    cfg = GameConfig(mode=mode, players=2, seed=31)
    serial = MCTSBot(iterations=60, trees=2, workers=1, options=SearchOptions(horizon=4))
    parallel = MCTSBot(iterations=60, trees=2, workers=2, options=SearchOptions(horizon=4))
    try:
        a = play_match(cfg, [serial, make_bot("greedy")])
        b = play_match(cfg, [parallel, make_bot("greedy")])
    finally:
        parallel.close()
    assert a.moves == b.moves and a.outcome.totals == b.outcome.totals
    single = play_match(
        cfg, [MCTSBot(iterations=60, trees=1, options=SearchOptions(horizon=4)), make_bot("greedy")]
    )
    assert single.moves != a.moves  # two trees of 30 are another bot than one of 60


def test_greedy_prior_and_progressive_bias() -> None:
    s = game(Mode.EXPERT, 2, seed=12)
    rng = random.Random(12)
    for _ in range(13):  # into round 2 with a few buildings in each city, a take to choose
        s = apply(s, rng.choice(legal_moves(s)))
    obs = observe(s)
    prior = greedy_prior(obs)
    assert set(prior) == set(legal_moves(s)) and max(prior.values()) == 0.0
    best = {m for m, v in prior.items() if v == 0.0}
    assert GreedyBot().choose(obs, random.Random(1)) in best
    assert any(v < 0 for v in prior.values())
    # A bias far above the rewards' scale makes a small search follow the prior.
    biased = MCTSBot(iterations=40, options=SearchOptions(bias=100.0, horizon=2))
    assert biased.choose(obs, random.Random(2)) in best
    assert make_bot("hard:bias=2").options.bias == 2.0  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="bias must be at most 100"):
        make_bot("mcts:bias=101")


def test_horizon_and_credit_options() -> None:
    assert make_bot("mcts").options.horizon is None  # type: ignore[attr-defined]
    assert make_bot("hard").options.horizon == SEARCH_LEVELS["hard"].horizon  # type: ignore[attr-defined]
    bot = make_bot("mcts:horizon=0,credit=0")
    assert isinstance(bot, MCTSBot) and bot.options.horizon == 0 and bot.options.credit == 0.0
    assert make_bot("medium:horizon=8").options.horizon == 8  # type: ignore[attr-defined]


def test_one_search_options_value_holds_the_tuning() -> None:
    # The spec's tuning keys, capped, are the fields of SearchOptions (horizon: a budget).
    assert {f.name for f in fields(SearchOptions)} == {*TUNING_CAPS, "horizon"}
    bot = make_bot("mcts:c=0.9,pw_c=3,pw_alpha=0.6,horizon=5,credit=0.5,bias=1,fed=0.2,greed=0.3")
    assert isinstance(bot, MCTSBot)
    assert bot.options == SearchOptions(
        c=0.9, pw_c=3.0, pw_alpha=0.6, horizon=5, credit=0.5, bias=1.0, fed=0.2, greed=0.3
    )
    assert make_bot("mcts").options == SearchOptions()  # type: ignore[attr-defined]
    with pytest.raises(FrozenInstanceError):
        bot.options.c = 1.0  # type: ignore[misc]


def test_the_worker_pool_is_shut_down_by_close_a_with_block_or_collection() -> None:
    obs = observe(game(Mode.CLASSIC, 2, seed=5))
    # Native trees run in threads (cheap to start); without the extension, processes.
    try:
        engine = "native" if pinned("native") is not None else "python"
    except ConfigError:
        engine = "python"

    def pool_of(bot: MCTSBot) -> Executor:
        bot.choose(obs, random.Random(0))
        assert bot._pool is not None
        return bot._pool

    def shut(pool: Executor) -> bool:
        try:
            pool.submit(int).result()
        except RuntimeError:  # "cannot schedule new futures after shutdown"
            return True
        return False

    def new_bot() -> MCTSBot:
        return MCTSBot(iterations=8, trees=2, workers=2, options=SearchOptions(horizon=1), engine=engine)

    bot = new_bot()
    pool = pool_of(bot)
    assert not shut(pool)
    bot.close()
    assert shut(pool) and bot._pool is None
    bot.close()  # twice: nothing left to do
    with new_bot() as held:
        pool = pool_of(held)
    assert shut(pool)
    pool = pool_of(new_bot())
    gc.collect()
    assert shut(pool)


def test_no_class_of_the_package_has_a_finaliser_method() -> None:
    # __del__ runs at an unknown time, possibly at interpreter exit with modules half gone:
    # resources are released by close(), context managers or weakref.finalize instead.
    package = Path(quadropolis.__file__).parent
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        assert "__del__" not in names, path


def test_levels_greed_and_options_override_it() -> None:
    level = SEARCH_LEVELS["hard"]
    assert level.greed > 0 and f"the prior's best {level.greed:.0%} of the time" in describe(level)
    hard = make_bot("hard")
    assert isinstance(hard, MCTSBot) and hard.options.greed == level.greed
    assert make_bot("hard:greed=0").options.greed == 0.0  # type: ignore[attr-defined]
    assert make_bot("mcts").options.greed == 0.0  # type: ignore[attr-defined]
    assert SEARCH_LEVELS["medium"].greed == 0.0 and "prior's best" not in describe(SEARCH_LEVELS["medium"])


def test_greedy_rollout_takes_the_best_building_by_the_prior() -> None:
    state = game(Mode.EXPERT, 2, seed=21)
    rng = random.Random(21)
    for _ in range(9):
        apply_unchecked(state, rng.choice(legal_moves(state)))
    while state.phase != TAKE:
        apply_unchecked(state, legal_moves(state)[0])
    moves = legal_moves(state)
    first = ordered_moves(state)[0]  # the prior's best take, first in legal order among equals
    assert policy.rollout_move(state, random.Random(1), epsilon=0.0, greed=1.0) == first
    # Without greed the takes are drawn: over a few draws, not always the best one.
    drawn = {policy.rollout_move(state, random.Random(k), epsilon=0.0) for k in range(20)}
    assert len(drawn) > 1 and drawn <= set(moves)
    assert make_bot("mcts:greed=0.5").options.greed == 0.5  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="greed must be at most 1"):
        make_bot("mcts:greed=1.5")


def test_fed_option_and_levels() -> None:
    assert make_bot("mcts").options.fed == 0.0  # type: ignore[attr-defined]
    assert make_bot("mcts:fed=0.5").options.fed == 0.5  # type: ignore[attr-defined]
    assert make_bot("hard:fed=0.25").options.fed == 0.25  # type: ignore[attr-defined]


def test_leaf_value_blends_the_score_now_with_the_fed_score() -> None:
    # A city whose buildings wait for resources: the fed score sees what they will be worth.
    state = game(Mode.EXPERT, 2, seed=13)
    rng = random.Random(13)
    while state.round < 3:
        moves = legal_moves(state)
        apply_unchecked(state, moves[int(rng.random() * len(moves))])
    player = 0
    score = projected_score(state, player)
    now = score.total + 1.0 * (score.placement.unused_inhabitants + score.placement.unused_energy)
    fed = fed_score(state, player)
    assert fed != now  # the position really tells the two apart
    assert mcts.leaf_value(state, player, score, 1.0, 0.0) == now
    assert mcts.leaf_value(state, player, score, 1.0, 1.0) == fed
    assert mcts.leaf_value(state, player, score, 1.0, 0.25) == pytest.approx(0.75 * now + 0.25 * fed)


def _leaf_phases(monkeypatch: pytest.MonkeyPatch, state: object, **params: object) -> list[tuple[int, int]]:
    """(phase, round) of every leaf a short search evaluates (the Python search, whose leaves
    can be watched; the native one is the same search, tests/native/test_search.py)."""
    seen: list[tuple[int, int]] = []
    real = mcts.reward

    def spy(s: GameState, credit: float = mcts.DEFAULT_CREDIT, fed: float = 0.0) -> list[float]:
        seen.append((s.phase, s.round))
        return real(s, credit, fed)

    monkeypatch.setattr(mcts, "reward", spy)
    mcts.search(observe(state), 7, 40, None, SearchOptions(**params), engine="python")  # type: ignore[arg-type]
    assert len(seen) == 40
    return seen


def test_classic_rollouts_play_to_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    leaves = _leaf_phases(monkeypatch, game(Mode.CLASSIC, 2, seed=3))
    assert all(phase == OVER for phase, _ in leaves)


def test_expert_rollouts_stop_at_the_horizon(monkeypatch: pytest.MonkeyPatch) -> None:
    # Round 1, first action: 6 rollout actions per player (plus the tree's few) stay inside
    # round 1 or 2 (a round is up to 8 actions per player).
    leaves = _leaf_phases(monkeypatch, game(Mode.EXPERT, 2, seed=3))
    assert mcts.DEFAULT_HORIZON[Mode.EXPERT] > 0
    assert all(phase != OVER and rnd <= 2 for phase, rnd in leaves)
    whole = _leaf_phases(monkeypatch, game(Mode.EXPERT, 2, seed=3), horizon=0)
    assert all(phase == OVER for phase, _ in whole)


def test_truncated_reward_credits_resources_held() -> None:
    # Mid-game, player 0 holds 3 inhabitants and no building (-3 VP by the final scoring),
    # player 1 one tower block with its energy (1 VP). With the default credit the held
    # inhabitants are worth their penalty back: 0 vs 1, player 1 leads; with a credit of 2
    # they are worth +3: player 0 leads. A finished game ignores the credit.
    s = game(Mode.EXPERT, 2, seed=4)
    s.inhabitants[0] = 3
    s.cities[1][0] = Building(B.TOWER_BLOCK)
    s.energy[1] = 1
    r = mcts.reward(s)
    assert r[1] > 0.5 > r[0]
    assert r[0] == pytest.approx(0.25 * (1 + math.tanh(-1 / mcts.MARGIN_SCALE)))
    r2 = mcts.reward(s, credit=2.0)
    assert r2[0] > 0.5 > r2[1]
    s.phase = OVER
    r3 = mcts.reward(s, credit=2.0)
    assert r3[1] == pytest.approx(0.5 + 0.25 * (1 + math.tanh(4 / mcts.MARGIN_SCALE)))


def test_mcts_places_an_expert_monument_by_the_parks() -> None:
    # Expert round 2, player 0 holds a monument taken with architect #1 (squares numbered 1:
    # r1c3 r1c4 r3c1 r3c4, or district 1: r1c1 r1c2 r2c1 r2c2). Only r3c1 touches both tree
    # parks (+5 each); r1c2 and r2c1 touch a factory (-5); the rest give 0.
    s = game(Mode.EXPERT, 2, seed=5)
    s.round = 2
    pending(s, "M", 1)
    city = s.cities[0]
    cols = 5
    city[3 * cols + 0] = Building(B.PARK, tree=True)  # r4c1
    city[2 * cols + 1] = Building(B.PARK, tree=True)  # r3c2
    city[1 * cols + 1] = Building(B.FACTORY)  # r2c2
    s.inhabitants[0] = 1
    for seed in range(3):
        assert MCTSBot(iterations=300).choose(observe(s), random.Random(seed)) == Build(3, 1)
