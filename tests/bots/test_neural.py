"""The learned bot ``neural`` (shipped weights, NumPy inference) and the ``greedy:epsilon=E``
spec: loading, shapes, legality, determinism, whole games, precise errors."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

from quadropolis import ConfigError, GameConfig, Mode, legal_moves, new_game
from quadropolis.bots import BOT_NAMES, EpsilonGreedyBot, GreedyBot, make_bot, neural, observe, play_match
from quadropolis.rules import apply_unchecked


def test_the_shipped_weights_have_the_networks_shapes() -> None:
    weights = neural.load_weights()
    assert {k: v.shape for k, v in weights.items()} == neural.LAYERS
    # float32 values (as trained and shipped), held in float64 for the forward pass
    assert all(v.dtype == np.float64 and np.isfinite(v).all() for v in weights.values())
    assert all(np.array_equal(v, v.astype(np.float32)) for v in weights.values())
    # the network reads the features it is given: not all-zero weights
    assert float(np.abs(weights["w1"]).sum()) > 0


def test_weights_of_another_shape_are_refused_by_name() -> None:
    weights = dict(neural.load_weights())
    weights["w2"] = np.zeros((64, 32), np.float32)
    with pytest.raises(ConfigError, match="w2 has shape"):
        neural.check_weights(weights)
    del weights["w2"]
    with pytest.raises(ConfigError, match="expected layers"):
        neural.check_weights(weights)


def test_make_bot_knows_neural_and_refuses_options() -> None:
    assert "neural" in BOT_NAMES
    bot = make_bot("neural")
    assert isinstance(bot, neural.NeuralBot) and bot.name == "neural"
    with pytest.raises(ConfigError, match="unknown option"):
        make_bot("neural:iterations=5")


@pytest.mark.parametrize("mode", [Mode.CLASSIC, Mode.EXPERT])
def test_neural_plays_whole_legal_games(mode: Mode) -> None:
    # play_match checks every move's legality and raises BotError on an illegal one
    for players in (2, 3):
        result = play_match(GameConfig(mode=mode, players=players, seed=11), [make_bot("neural")] * players)
        assert result.final.is_over
        assert sum(result.decisions) == len(result.moves) > 40


def test_every_choice_is_one_of_the_legal_moves() -> None:
    bot, state, rng = make_bot("neural"), new_game(GameConfig(mode=Mode.EXPERT, seed=4)), random.Random(0)
    while not state.is_over:
        move = bot.choose(observe(state), rng)
        assert move in legal_moves(state)
        apply_unchecked(state, move)


def test_neural_is_deterministic_for_a_seed() -> None:
    def moves(seed: int) -> tuple[object, ...]:
        return play_match(GameConfig(seed=seed), [make_bot("neural"), GreedyBot()]).moves

    assert moves(21) == moves(21)
    # its choice does not depend on the RNG it is handed
    state = observe(new_game(GameConfig(seed=5)))
    bot = make_bot("neural")
    assert len({bot.choose(state, random.Random(k)) for k in range(5)}) == 1


def test_a_position_gets_the_same_move_alone_and_within_a_batch() -> None:
    """choose_rows over many positions at once (the batched env's way) picks, for each, the move
    the bot picks for it alone."""
    positions, contexts, rows, counts, alone = [], [], [], [], []
    greedy, bot = GreedyBot(), make_bot("neural")
    for seed in range(6):
        state = new_game(
            GameConfig(mode=Mode.EXPERT if seed % 2 else Mode.CLASSIC, players=2 + seed % 3, seed=seed)
        )
        rng = random.Random(seed)
        for _ in range(25):
            values = greedy.values(observe(state))
            context, r = neural.raw_inputs(observe(state), values)
            contexts.append(context)
            rows.append(r)
            counts.append(len(values))
            positions.append(values)
            alone.append(bot.choose(observe(state), rng))
            apply_unchecked(state, rng.choice(legal_moves(state)))
    chosen = neural.choose_rows(np.stack(contexts), np.concatenate(rows), counts)
    starts = np.cumsum([0, *counts[:-1]])
    assert [values[int(c - s)][1] for values, c, s in zip(positions, chosen, starts, strict=True)] == alone


def test_the_network_sees_greedys_values() -> None:
    state = observe(new_game(GameConfig(seed=8)))
    values = GreedyBot().values(state)
    x = neural.move_features(state, values)
    assert x.shape == (len(values), neural.MOVE_FEATURES)
    best = max(v for v, _ in values)
    assert [bool(row[5]) for row in x] == [v == best for v, _ in values]
    assert (x[:, 0] <= 0).all() and (x[:, 0] == 0).any()  # VP relative to the best move
    assert len(neural.context_features(state, len(values))) == neural.CONTEXT_FEATURES


def test_without_numpy_neural_is_a_clear_error() -> None:
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "from quadropolis.bots import make_bot\n"
        "from quadropolis.errors import ConfigError\n"
        "try:\n    make_bot('neural')\n"
        "except ConfigError as e:\n    print('refused:', e)\n"
        "print(make_bot('greedy').name)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "refused: the neural bot needs NumPy" in out.stdout
    assert out.stdout.strip().endswith("greedy")  # the other bots still work


def test_greedy_epsilon_spec() -> None:
    bot = make_bot("greedy:epsilon=0.3")
    assert isinstance(bot, EpsilonGreedyBot) and bot.epsilon == 0.3 and bot.name == "greedy:epsilon=0.3"
    # epsilon 0 always plays one of greedy's best moves, epsilon 1 not always
    greedy, rng = GreedyBot(), random.Random(0)
    for epsilon, always_best in (("0", True), ("1", False)):
        bot, state, best_each_time = make_bot(f"greedy:epsilon={epsilon}"), new_game(GameConfig(seed=3)), True
        while not state.is_over:
            values = greedy.values(observe(state))
            move = bot.choose(observe(state), rng)
            best_each_time &= move in [m for v, m in values if v == max(v for v, _ in values)]
            apply_unchecked(state, move)
        assert best_each_time is always_best
    # seeded by the bot's RNG: a game is reproducible
    once = play_match(GameConfig(seed=3), [make_bot("greedy:epsilon=0.5"), make_bot("random")]).moves
    assert once == play_match(GameConfig(seed=3), [make_bot("greedy:epsilon=0.5"), make_bot("random")]).moves
    for spec, message in [
        ("greedy:epsilon=1.5", "epsilon must be at most 1"),
        ("greedy:epsilon=-1", "epsilon must be zero or more"),
        ("greedy:epsilon=x", "epsilon must be a number"),
        ("greedy:epsilon=nan", "epsilon must be a finite number"),
    ]:
        with pytest.raises(ConfigError, match=message):
            make_bot(spec)


def test_neural_plays_the_same_game_on_either_engine() -> None:
    from quadropolis import engine

    config = GameConfig(mode=Mode.EXPERT, seed=17)
    native = play_match(config, [make_bot("neural"), make_bot("neural")]).moves
    with engine.using("python"):
        python = play_match(config, [make_bot("neural"), make_bot("neural")]).moves
    assert native == python
