"""``zefiria autoplay``: whole games played by the planner beside two baselines.

Every policy plays the same deals (a deal is a seed: grid, storm decks, solo sleeper and
spirits), so the comparison is paired. Reports the mean VP with a 95% confidence interval,
the rating bands, the share of perfect games and the time per turn decision; ``--markdown``
appends the table with the command that made it (benchmarks/results/planner.md).
"""

from __future__ import annotations

import argparse
import math
import os
import shlex
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from zefiria.engine.planner.plan import DEFAULT_BUDGET_S

if TYPE_CHECKING:
    from zefiria.engine.planner.selfplay import GameResult

HELP = "play whole games with the planner and the baselines and report the scores"

POLICIES = ("planner", "greedy", "random")
BANDS = ("<=10", "11-16", "17-21", "22-24", ">=25")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mode", choices=("standard", "storm", "solo"), default="standard")
    parser.add_argument(
        "--players", type=int, default=2, choices=(1, 2, 3, 4), help="ignored by --mode solo"
    )
    parser.add_argument(
        "--storm", action="store_true", help="with --mode solo: play solo in storm mode"
    )
    parser.add_argument("--difficulty", choices=("easy", "medium", "hard"), default="medium")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1, help="deal i uses seed SEED + i")
    parser.add_argument(
        "--budget",
        type=float,
        default=DEFAULT_BUDGET_S,
        metavar="S",
        help="planner seconds per decision",
    )
    parser.add_argument(
        "--nodes", type=int, default=None, metavar="N", help="planner positions per decision"
    )
    parser.add_argument(
        "--greedy-nodes",
        type=int,
        default=None,
        metavar="N",
        help="positions the one-turn greedy baseline searches per decision (default 150)",
    )
    parser.add_argument(
        "--spirits",
        default="random",
        help="comma-separated spirits in turn order (e.g. skyron,etesia), or random per deal",
    )
    parser.add_argument(
        "--policies", default=",".join(POLICIES), help="which of planner,greedy,random to run"
    )
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--markdown", metavar="FILE", help="append the results table to FILE")


@dataclass(frozen=True)
class Task:
    policy: str
    index: int
    seed: int
    players: int
    mode: str
    difficulty: str
    spirits: tuple[str, ...] | None
    budget: float
    nodes: int | None
    greedy_nodes: int | None


def play_task(task: Task) -> tuple[Task, GameResult]:
    """One game (runs in a worker process)."""
    from zefiria.engine.planner import selfplay
    from zefiria.engine.spirits import Spirit
    from zefiria.engine.state import Difficulty, Mode

    spirits = None if task.spirits is None else [Spirit.parse(s) for s in task.spirits]
    state = selfplay.deal(
        task.players,
        Mode(task.mode),
        task.seed,
        spirits=spirits,
        difficulty=Difficulty(task.difficulty),
    )
    if task.policy == "planner":
        policy = selfplay.planner_policy(task.budget, task.nodes)
    elif task.policy == "greedy":
        policy = selfplay.greedy_policy(task.greedy_nodes or selfplay.GREEDY_NODES)
    else:
        policy = selfplay.random_policy(task.seed)
    return task, selfplay.play_game(state, policy, task.seed)


def run(args: argparse.Namespace) -> int:
    from zefiria.engine.spirits import Spirit

    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    bad = [p for p in policies if p not in POLICIES]
    if bad or not policies:
        print(f"zefiria autoplay: unknown policy {bad[0] if bad else ''!r}", file=sys.stderr)
        return 2
    players = 1 if args.mode == "solo" else args.players
    mode = "storm" if args.mode == "storm" or (args.mode == "solo" and args.storm) else "standard"
    spirits: tuple[str, ...] | None = None
    if args.spirits != "random":
        try:
            spirits = tuple(Spirit.parse(s).value for s in args.spirits.split(","))
        except ValueError as exc:
            print(f"zefiria autoplay: {exc}", file=sys.stderr)
            return 2
        if len(spirits) != (3 if players == 1 else players):
            print("zefiria autoplay: give one spirit per player (3 for solo)", file=sys.stderr)
            return 2
    tasks = [
        Task(
            p,
            i,
            args.seed + i,
            players,
            mode,
            args.difficulty,
            spirits,
            args.budget,
            args.nodes,
            args.greedy_nodes,
        )
        for i in range(args.games)
        for p in policies
    ]
    start = time.perf_counter()
    load_before = os.getloadavg()[0]
    results = _run_all(tasks, args.workers)
    wall = time.perf_counter() - start
    command = "zefiria autoplay " + shlex.join(sys.argv[2:] if len(sys.argv) > 2 else [])
    table = report(results, policies, args, wall, load_before, command)
    print(table)
    if args.markdown:
        with open(args.markdown, "a", encoding="utf-8") as out:
            out.write(table + "\n")
    return 0


def _run_all(tasks: list[Task], workers: int) -> dict[str, list[GameResult]]:
    out: dict[str, list[tuple[int, GameResult]]] = {}
    if workers > 1 and len(tasks) > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(workers) as pool:
            done = pool.imap_unordered(play_task, tasks)
            for task, result in done:
                out.setdefault(task.policy, []).append((task.index, result))
    else:
        for task in tasks:
            _, result = play_task(task)
            out.setdefault(task.policy, []).append((task.index, result))
    return {p: [r for _, r in sorted(rs, key=lambda x: x[0])] for p, rs in out.items()}


def _by_spirits(results: dict[str, list[GameResult]], policies: list[str]) -> list[str]:
    """Mean VP per set of spirits (deals with random spirits mix very different teams)."""
    teams: dict[str, dict[str, list[int]]] = {}
    for p in policies:
        for r in results[p]:
            name = "+".join(sorted(s.value for s in r.spirits))
            teams.setdefault(name, {}).setdefault(p, []).append(r.score)
    if len(teams) < 2:
        return []
    out = ["", "Mean VP by team (deals): " + ", ".join(policies) + "."]
    for name in sorted(teams):
        means = [f"{statistics.fmean(teams[name][p]):.1f}" for p in policies]
        out.append(f"- {name} ({len(teams[name][policies[0]])}): " + " / ".join(means))
    return out


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def band(total: int) -> int:
    from zefiria.engine.scoring import rating_band

    return int(rating_band(total))


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(
    results: dict[str, list[GameResult]],
    policies: list[str],
    args: argparse.Namespace,
    wall: float,
    load: float,
    command: str,
) -> str:
    games = len(next(iter(results.values())))
    lines = [
        f"### {args.mode}, {1 if args.mode == 'solo' else args.players} player(s), "
        f"{games} deals (seeds {args.seed}..{args.seed + games - 1}), spirits {args.spirits}",
        "",
        f"`{command}`",
        "",
        f"Planner budget {args.budget} s per decision"
        + (f", {args.nodes} positions" if args.nodes else "")
        + f"; {args.workers} worker(s); wall {wall:.0f} s; load average at start {load:.1f}.",
        "",
        "| policy | mean VP (95% CI) | " + " | ".join(BANDS) + " | grid solved "
        "| decision median / p95 |",
        "|---|---|" + "---|" * len(BANDS) + "---|---|",
    ]
    for p in policies:
        scores = [r.score for r in results[p]]
        mean, half = mean_ci(scores)
        counts = [0] * len(BANDS)
        for s in scores:
            counts[band(s)] += 1
        share = [f"{100 * c / len(scores):.0f}%" for c in counts]
        perfect = sum(1 for r in results[p] if r.solved)
        times = [t for r in results[p] for t in r.decision_s]
        lines.append(
            f"| {p} | {mean:.2f} ± {half:.2f} | " + " | ".join(share) + " | "
            f"{perfect} ({100 * perfect / len(scores):.1f}%) | "
            f"{statistics.median(times) * 1000:.0f} / {_percentile(times, 0.95) * 1000:.0f} ms |"
        )
    lines += _by_spirits(results, policies)
    if "planner" in results and "greedy" in results:
        diffs = [
            a.score - b.score for a, b in zip(results["planner"], results["greedy"], strict=True)
        ]
        mean, half = mean_ci(diffs)
        lines += ["", f"Planner minus greedy on the same deals: {mean:+.2f} ± {half:.2f} VP."]
    return "\n".join(lines) + "\n"
