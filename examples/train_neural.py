"""Train the ``neural`` bot: imitation of the native search, with greedy's exact values as inputs.

Two stages, each reproducible from its seed (``--seed``)::

    # 1. the teacher's decisions: games of the native MCTS against greedy, every position
    #    (both seats) searched by the teacher; one file per mode
    python examples/train_neural.py generate --mode classic --games 800 --out data-classic.npz
    python examples/train_neural.py generate --mode expert --games 650 --out data-expert.npz
    # 2. the per-move scoring network, trained with PyTorch on CPU, exported for NumPy
    python examples/train_neural.py train data-classic.npz data-expert.npz \\
        --out src/quadropolis/bots/data/neural.npz

Training needs ``pip install 'quadropolis[train]'`` (PyTorch); playing the exported bot
needs only NumPy (``make_bot("neural")``, :mod:`quadropolis.bots.neural`).

**Data.** Game ``g`` (seed ``seed + g``) seats the teacher (``mcts`` with ``--iterations``
iterations per decision, rollouts of 6 actions per player, one tree, native) against
``greedy``, the teacher's seat alternating. Every decision of both seats is searched by the
teacher; a record keeps the root's visit count and mean value (VP for the mover) of each
move. The teacher plays its most visited move; greedy plays its own.

**Targets.** The network scores every legal move (features from
:func:`quadropolis.bots.neural.move_features`: greedy's exact projected score and tie-breaks
of the move, relative to the best move, plus the move's kind) in the context of the position
(:func:`~quadropolis.bots.neural.context_features`); the loss is the cross-entropy with the
teacher's visit shares plus a regression of the teacher's per-move values (relative to the
root's best), so the net learns a correction over greedy.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from quadropolis import native
from quadropolis.bots import GreedyBot, SearchOptions, bot_rng, observe
from quadropolis.config import GameConfig
from quadropolis.moves import MOVES, move_number
from quadropolis.rules import apply_unchecked, new_game
from quadropolis.tiles import Mode

NUM_ACTIONS = len(MOVES)


def teacher_options() -> SearchOptions:
    """The teacher's tuning, as the shipped network was trained: horizon 6, credit 1, no bias,
    uniform rollout takes (the difficulty levels have since taken ``greed=0.5``)."""
    return SearchOptions(c=0.7, pw_c=2.0, pw_alpha=0.5, horizon=6, credit=1.0, bias=0.0)


def play_game(mode: Mode, seed: int, teacher_seat: int, iterations: int) -> dict[str, Any]:
    """One game of the teacher against greedy, every position searched: the moves played,
    each decision's per-action visits and mean values, and the final VP per seat."""
    state = new_game(GameConfig(mode=mode, players=2, seed=seed))
    rng = random.Random(f"teacher/{seed}")
    greedy, greedy_rng = GreedyBot(), bot_rng(seed, 1 - teacher_seat)
    options = teacher_options()
    moves: list[int] = []
    visits: list[np.ndarray] = []
    values: list[np.ndarray] = []
    while not state.is_over:
        obs = observe(state)
        found = native.search_native(obs, rng.getrandbits(62), iterations, None, options)
        n = np.zeros(NUM_ACTIONS, np.int32)
        q = np.full(NUM_ACTIONS, np.nan, np.float32)
        for move, count, _wins, value, _margin in found:
            k = move_number(move)
            n[k] = count
            if count:
                q[k] = value / count
        visits.append(n)
        values.append(q)
        if state.current_player == teacher_seat:
            move = MOVES[int(np.argmax(n))]
        else:
            move = greedy.choose(obs, greedy_rng)
        moves.append(move_number(move))
        apply_unchecked(state, move)
    from quadropolis.outcome import outcome

    totals = outcome(state).totals
    return {"moves": moves, "visits": visits, "values": values, "totals": totals}


def generate(args: argparse.Namespace) -> None:
    """Play ``args.games`` games and save their decisions (see the module docstring)."""
    mode = Mode(args.mode)
    rows: dict[str, list[Any]] = {k: [] for k in ("game", "step", "visits", "values")}
    seeds, seats, totals, moves, offsets = [], [], [], [], [0]
    start = time.perf_counter()
    for g in range(args.games):
        seed, seat = args.seed + g, g % 2
        game = play_game(mode, seed, seat, args.iterations)
        for step, (n, q) in enumerate(zip(game["visits"], game["values"], strict=True)):
            rows["game"].append(g)
            rows["step"].append(step)
            rows["visits"].append(n)
            rows["values"].append(q)
        seeds.append(seed)
        seats.append(seat)
        totals.append(game["totals"])
        moves.extend(game["moves"])
        offsets.append(len(moves))
        if (g + 1) % 10 == 0 or g + 1 == args.games:
            wins = sum(t[s] > t[1 - s] for t, s in zip(totals, seats, strict=True))
            print(
                f"{g + 1} games, {len(rows['game'])} decisions, teacher won {wins}, "
                f"{time.perf_counter() - start:.0f} s",
                flush=True,
            )
            np.savez_compressed(
                args.out,
                mode=np.array(args.mode),
                iterations=np.array(args.iterations),
                seeds=np.array(seeds, np.int64),
                teacher_seats=np.array(seats, np.int8),
                totals=np.array(totals, np.int16),
                moves=np.array(moves, np.int16),
                offsets=np.array(offsets, np.int64),
                **{k: np.array(v) for k, v in rows.items()},
            )


# ---------------------------------------------------------------------------------------------
# Training


def features(path: str) -> dict[str, np.ndarray]:
    """Replay the games of a ``generate`` file and compute the network's inputs at every
    decision: flat per-move rows (``dense``: the first inputs of
    :func:`~quadropolis.bots.neural.move_features`, ``action``: the move's number), each
    decision's context and the rows' decision index; targets: the teacher's visit share
    (``share``) and mean value relative to its best move (``q``, NaN when the teacher
    searched the move fewer than 8 times)."""
    from quadropolis.bots.neural import context_features, move_features

    with np.load(path) as saved:  # each access to an NpzFile decompresses again: read once
        data = {k: saved[k] for k in saved.files}
    mode = Mode(str(data["mode"]))
    greedy = GreedyBot()
    dense, action, share, qrel, decision, ctx, game_of = [], [], [], [], [], [], []
    row = 0
    base = NUM_ACTIONS  # the one-hot tail of move_features
    for g, seed in enumerate(data["seeds"]):
        state = new_game(GameConfig(mode=mode, players=2, seed=int(seed)))
        lo, hi = data["offsets"][g], data["offsets"][g + 1]
        for step, k in enumerate(data["moves"][lo:hi]):
            obs = observe(state)
            values = greedy.values(obs)
            x = move_features(obs, values)
            numbers = [move_number(m) for _, m in values]
            n = data["visits"][row][numbers].astype(np.float32)
            q = data["values"][row][numbers]
            seen = data["visits"][row][numbers] >= 8
            best_q = np.nanmax(np.where(seen, q, np.nan)) if seen.any() else 0.0
            dense.append(x[:, : x.shape[1] - base])
            action.append(np.array(numbers, np.int16))
            share.append(n / max(1.0, n.sum()))
            qrel.append(np.where(seen, q - best_q, np.nan).astype(np.float32))
            decision.append(np.full(len(values), row, np.int32))
            ctx.append(context_features(obs, len(values)))
            game_of.append(g)
            assert data["step"][row] == step
            apply_unchecked(state, MOVES[int(k)])
            row += 1
    return {
        "dense": np.concatenate(dense).astype(np.float32),
        "action": np.concatenate(action).astype(np.int64),
        "share": np.concatenate(share),
        "q": np.concatenate(qrel),
        "decision": np.concatenate(decision).astype(np.int64),
        "ctx": np.array(ctx, np.float32),
        "game": np.array(game_of, np.int64),
    }


def merge(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The decisions of several files as one set (decision and game numbers shifted)."""
    out: dict[str, list[np.ndarray]] = {k: [] for k in parts[0]}
    decisions = games = 0
    for part in parts:
        for k, v in part.items():
            out[k].append(v + decisions if k == "decision" else v + games if k == "game" else v)
        decisions += len(part["ctx"])
        games += int(part["game"].max()) + 1
    return {k: np.concatenate(v) for k, v in out.items()}


def train(args: argparse.Namespace) -> dict[str, float]:
    """Fit the network (see the module docstring) and export its weights for NumPy; returns
    the validation figures (top-1 agreement with the teacher, the net's and greedy's)."""
    import torch

    from quadropolis.bots.neural import LAYERS, check_weights

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    data = merge([features(p) for p in args.data])
    rng = np.random.default_rng(args.seed)
    games = int(data["game"].max()) + 1
    held = rng.random(games) < args.validation
    held[-1] = True  # at least one game held out
    val_dec = held[data["game"]]
    t = {k: torch.from_numpy(v) for k, v in data.items()}
    dense_n, ctx_n = data["dense"].shape[1], data["ctx"].shape[1]
    hidden_ctx, hidden = LAYERS["ctx_b"][0], LAYERS["b1"][0]
    net = torch.nn.ModuleDict(
        {
            "ctx": torch.nn.Linear(ctx_n, hidden_ctx),
            "dense": torch.nn.Linear(dense_n + hidden_ctx, hidden),
            "action": torch.nn.Embedding(NUM_ACTIONS, hidden),
            "l2": torch.nn.Linear(hidden, hidden),
            "logit": torch.nn.Linear(hidden, 1),
            "q": torch.nn.Linear(hidden, 1),  # the value head: trains the trunk, not exported
        }
    )
    torch.nn.init.zeros_(net["action"].weight)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)

    def forward(rows: torch.Tensor, dec: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h_ctx = torch.relu(net["ctx"](t["ctx"][dec]))
        x = torch.cat([t["dense"][rows], h_ctx], dim=1)
        h = torch.relu(net["dense"](x) + net["action"](t["action"][rows]))
        h = torch.relu(net["l2"](h))
        return net["logit"](h)[:, 0], net["q"](h)[:, 0]

    def segment_log_softmax(logit: torch.Tensor, seg: torch.Tensor, n: int) -> torch.Tensor:
        top = torch.full((n,), -1e9).scatter_reduce(0, seg, logit, "amax")
        z = torch.exp(logit - top[seg])
        total = torch.zeros(n).index_add(0, seg, z)
        return logit - top[seg] - torch.log(total[seg])

    rows_of = np.split(np.arange(len(data["decision"])), np.flatnonzero(np.diff(data["decision"])) + 1)
    train_dec = np.flatnonzero(~val_dec)
    val_ids = np.flatnonzero(val_dec)

    def batch_rows(decs: np.ndarray) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        rows = np.concatenate([rows_of[d] for d in decs])
        local = np.concatenate([np.full(len(rows_of[d]), i) for i, d in enumerate(decs)])
        return torch.from_numpy(rows), torch.from_numpy(decs[local]), torch.from_numpy(local)

    def agreement(decs: np.ndarray) -> tuple[float, float]:
        with torch.no_grad():
            rows, dec, local = batch_rows(decs)
            logit, _ = forward(rows, dec)
        share = data["share"][rows.numpy()]
        greedy_best = data["dense"][rows.numpy(), 5]
        net_hits = greedy_hits = 0
        bounds = np.flatnonzero(np.diff(local.numpy())) + 1  # rows are grouped by decision
        for lo, hi in zip(np.r_[0, bounds], np.r_[bounds, len(rows)], strict=True):
            teacher = share[lo:hi].argmax()
            net_hits += int(logit.numpy()[lo:hi].argmax() == teacher)
            greedy_hits += int(greedy_best[lo:hi][teacher] == 1.0)
        return net_hits / len(decs), greedy_hits / len(decs)

    start = time.perf_counter()
    for epoch in range(args.epochs):
        order = rng.permutation(train_dec)
        total = 0.0
        for b in range(0, len(order), args.batch):
            decs = order[b : b + args.batch]
            rows, dec, local = batch_rows(decs)
            logit, q = forward(rows, dec)
            logp = segment_log_softmax(logit, local, len(decs))
            policy_loss = -(t["share"][rows] * logp).sum() / len(decs)
            target_q = t["q"][rows]
            seen = ~torch.isnan(target_q)
            value_loss = ((q[seen] - target_q[seen] / 10) ** 2).mean() if seen.any() else q.sum() * 0
            loss = policy_loss + args.value_weight * value_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(decs)
        net_agree, greedy_agree = agreement(val_ids[:3000])
        print(
            f"epoch {epoch + 1}: loss {total / len(order):.4f}, validation agreement with the teacher "
            f"{net_agree:.3f} (greedy {greedy_agree:.3f}), {time.perf_counter() - start:.0f} s",
            flush=True,
        )
    weights = export(net, dense_n, args.out, check_weights)
    same_logits(weights, forward, data, val_ids[0])
    return {"agreement": net_agree, "greedy_agreement": greedy_agree}


def same_logits(
    weights: dict[str, np.ndarray], torch_forward: Any, data: dict[str, np.ndarray], d: int
) -> None:
    """Check that the exported weights give, in NumPy, the logits PyTorch gives for decision ``d``."""
    import torch

    from quadropolis.bots.neural import forward

    rows = np.flatnonzero(data["decision"] == d)
    moves = np.zeros((len(rows), weights["w1"].shape[0] - weights["ctx_w"].shape[1]), np.float32)
    dense_n = data["dense"].shape[1]
    moves[:, :dense_n] = data["dense"][rows]
    moves[np.arange(len(rows)), dense_n + data["action"][rows]] = 1.0
    ours = forward(data["ctx"][d], moves, weights)
    with torch.no_grad():
        theirs = torch_forward(torch.from_numpy(rows), torch.full((len(rows),), d))[0].numpy()
    assert np.allclose(ours, theirs, atol=1e-4), (ours, theirs)


def export(net: Any, dense_n: int, out: str, check: Any) -> dict[str, np.ndarray]:
    """Save the network as the float32 arrays of :data:`quadropolis.bots.neural.LAYERS`: the
    move embedding becomes the one-hot rows of the first layer's weights."""
    w = {k: v.detach().numpy().astype(np.float32) for k, v in net.state_dict().items()}
    dense_w = w["dense.weight"].T  # (dense + ctx hidden, hidden)
    w1 = np.concatenate([dense_w[:dense_n], w["action.weight"], dense_w[dense_n:]])
    weights = {
        "ctx_w": w["ctx.weight"].T.copy(),
        "ctx_b": w["ctx.bias"],
        "w1": w1,
        "b1": w["dense.bias"],
        "w2": w["l2.weight"].T.copy(),
        "b2": w["l2.bias"],
        "w3": w["logit.weight"].T.copy(),
        "b3": w["logit.bias"],
    }
    check(weights)
    np.savez_compressed(out, **weights)
    print(f"weights written to {out}")
    return weights


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="stage", required=True)
    g = sub.add_parser("generate", help="the teacher's decisions")
    g.add_argument("--mode", choices=("classic", "expert"), default="classic")
    g.add_argument("--games", type=int, default=800)
    g.add_argument("--iterations", type=int, default=1000)
    g.add_argument("--seed", type=int, default=1_000_000)
    g.add_argument("--out", required=True)
    t = sub.add_parser("train", help="fit and export the network (needs PyTorch)")
    t.add_argument("data", nargs="+", help="files written by generate")
    t.add_argument("--epochs", type=int, default=12)
    t.add_argument("--batch", type=int, default=256, help="decisions per step")
    t.add_argument("--lr", type=float, default=2e-3)
    t.add_argument("--value-weight", type=float, default=1.0)
    t.add_argument("--validation", type=float, default=0.05, help="share of games held out")
    t.add_argument("--threads", type=int, default=1)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--out", required=True)
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    if args.stage == "generate":
        generate(args)
    else:
        train(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
