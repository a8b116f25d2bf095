"""Engine benchmark: legal-move generation and explaining whole turns, on one core.

    .venv/bin/python benchmarks/engine_bench.py            # print the report
    .venv/bin/python benchmarks/engine_bench.py --write    # and save benchmarks/results/engine.md

(a) ``legal_actions`` on mid-game states reached by random play, every spirit.
(b) ``explain`` on 1,000 random turns: from random mid-game states of every spirit (5-AP
    games: 2 players or solo), a random legal sequence of 1-4 actions within the AP (Spend
    when gems allow), the table after it observed perfectly, then explained. Every answer is
    checked: an explanation no dearer than the turn actually played, whose table is the one
    observed.

Times are CPU time of this process (``time.process_time``), which a busy shared machine
inflates far less than wall time; wall time is reported too. The garbage collector runs
before each timed call, as ``timeit`` switches it off, so one call does not pay for the
previous ones' garbage.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # for tests.engine.turns, shared with the property tests

from zefiria.engine.explain import explain  # noqa: E402
from zefiria.engine.observation import observation_of  # noqa: E402
from zefiria.engine.rules import apply_action, legal_actions  # noqa: E402
from zefiria.engine.spirits import Spirit  # noqa: E402
from zefiria.engine.state import GameState, Phase  # noqa: E402

from tests.engine.turns import mid_game, random_turn  # noqa: E402

FIVE_AP = (1, 2)  # solo and 2-player games give 5 AP per turn


def pin_to_one_core() -> str:
    try:
        cpus = os.sched_getaffinity(0)
        core = 1 if 1 in cpus else min(cpus)
        os.sched_setaffinity(0, {core})
        return f"pinned to CPU {core}"
    except (AttributeError, OSError) as exc:  # not Linux
        return f"not pinned ({exc})"


def machine() -> dict[str, str]:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("model name", "Model", "Hardware") and value.strip():
                model = value.strip()
                break
    except OSError:
        pass
    return {
        "machine": platform.machine(),
        "cpu": model,
        "cores": str(os.cpu_count()),
        "python": platform.python_version(),
        "os": f"{platform.system()} {platform.release()}",
    }


def timed(fn: Callable[[], object]) -> tuple[float, float, object]:
    """(cpu ms, wall ms, result) of one call, after a garbage collection."""
    gc.collect()
    c0, w0 = time.process_time(), time.perf_counter()
    result = fn()
    return (time.process_time() - c0) * 1e3, (time.perf_counter() - w0) * 1e3, result


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def row(name: str, values: list[float]) -> str:
    return (
        f"| {name} | {len(values)} | {statistics.median(values):.2f} | "
        f"{pct(values, 0.95):.2f} | {max(values):.2f} |"
    )


# -- (a) legal_actions ----------------------------------------------------------------------------
def states_from_play(n_games: int) -> list[GameState]:
    """Every TURN state met in random turns from mid-game states of every spirit."""
    out: list[GameState] = []
    spirits = list(Spirit)
    for i in range(n_games):
        start = mid_game(50_000 + i, spirits[i % len(spirits)])
        rng = random.Random(i)
        state = start
        turn = random_turn(start, rng)
        out.append(start)
        for action in turn.actions:
            state = apply_action(state, action)
            if state.phase is Phase.TURN:
                out.append(state)
    return out


def bench_legal(n_games: int) -> tuple[list[str], dict[str, list[float]]]:
    states = states_from_play(n_games)
    per: dict[str, list[float]] = {}
    counts: dict[str, list[int]] = {}
    for state in states:
        name = state.active_spirit.title
        cpu, _, result = timed(lambda s=state: legal_actions(s))  # type: ignore[misc]
        assert isinstance(result, list)
        per.setdefault(name, []).append(cpu)
        counts.setdefault(name, []).append(len(result))
    lines = [
        "| spirit | states | median ms | p95 ms | max ms | median actions |",
        "|---|---|---|---|---|---|",
    ]
    for name in sorted(per):
        lines.append(row(name, per[name]) + f" {statistics.median(counts[name]):.0f} |")
    everything = [v for vs in per.values() for v in vs]
    lines.append(row("all", everything) + " |")
    return lines, per


# -- (b) explain whole turns ----------------------------------------------------------------------
def bench_explain(n_turns: int) -> tuple[list[str], dict[str, object]]:
    spirits = list(Spirit)
    cpu_times: list[float] = []
    wall_times: list[float] = []
    by_spirit: dict[str, list[float]] = {}
    by_actions: dict[int, list[float]] = {}
    kinds: Counter[str] = Counter()
    worst: tuple[float, str] = (0.0, "")
    for i in range(n_turns):
        spirit = spirits[i % len(spirits)]
        start = mid_game(i, spirit, players_from=FIVE_AP)
        turn = random_turn(start, random.Random(i))
        obs = observation_of(turn.table)
        cpu, wall, verdict = timed(lambda s=start, o=obs: explain(s, o))  # type: ignore[misc]
        best = getattr(verdict, "best", None)
        kind = getattr(verdict, "kind", "?")
        ok = (
            best is not None
            and best.cost <= turn.cost
            and best.table.grid == obs.grid
            and dict(best.table.pawns) == dict(obs.pawns)
            and best.table.gems == obs.gems
        )
        if not ok:
            raise SystemExit(f"turn {i} ({spirit.title}): wrong answer {verdict!r}")
        kinds[kind] += 1
        cpu_times.append(cpu)
        wall_times.append(wall)
        by_spirit.setdefault(spirit.title, []).append(cpu)
        table_actions = sum(1 for a in turn.actions if type(a).__name__ != "Spend")
        by_actions.setdefault(table_actions, []).append(cpu)
        if cpu > worst[0]:
            worst = (cpu, f"turn {i}: {spirit.title}, {table_actions} actions, {turn.cost} AP")
    lines = [
        "| turns | n | median ms | p95 ms | worst ms |",
        "|---|---|---|---|---|",
        row("all (CPU time)", cpu_times),
        row("all (wall time)", wall_times),
    ]
    lines += [row(name, by_spirit[name]) for name in sorted(by_spirit)]
    lines += [row(f"{k} action(s)", by_actions[k]) for k in sorted(by_actions)]
    info: dict[str, object] = {"kinds": dict(kinds), "worst": worst[1], "cpu": cpu_times}
    return lines, info


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--games", type=int, default=300, help="games for legal_actions")
    parser.add_argument("--write", action="store_true", help="save benchmarks/results/engine.md")
    args = parser.parse_args()
    pinned = pin_to_one_core()
    info = machine()
    load_before = os.getloadavg()
    legal_lines, _ = bench_legal(args.games)
    explain_lines, stats = bench_explain(args.turns)
    load_after = os.getloadavg()
    cpu = stats["cpu"]
    assert isinstance(cpu, list)
    verdict_ok = "met" if max(cpu) < 50 else "NOT met"
    report = [
        "# Engine benchmark",
        "",
        "Command: `.venv/bin/python benchmarks/engine_bench.py --write` "
        f"(`--turns {args.turns} --games {args.games}`)",
        "",
        f"- machine: {info['machine']}, {info['cpu']}, {info['cores']} cores, {info['os']}",
        f"- Python {info['python']}; {pinned}",
        "- load average (1, 5, 15 min) before: "
        + ", ".join(f"{x:.2f}" for x in load_before)
        + "; after: "
        + ", ".join(f"{x:.2f}" for x in load_after),
        "- times are CPU time of the process (wall time shown for the whole set too); the "
        "machine is shared with other busy work, so wall times and tails are noisy",
        "",
        "## (a) `legal_actions` on mid-game states (ms per call)",
        "",
        *legal_lines,
        "",
        f"## (b) `explain` on {args.turns} random whole turns of 1-4 actions within 5 AP (ms)",
        "",
        *explain_lines,
        "",
        f"Verdicts: {stats['kinds']}. Every answer checked: cost no more than the turn "
        "played, table equal to the one observed.",
        f"Worst case: {stats['worst']}.",
        f"Target (worst of {args.turns} turns under 50 ms CPU on one core): **{verdict_ok}**.",
        "",
    ]
    text = "\n".join(report)
    print(text)
    if args.write:
        out = ROOT / "benchmarks" / "results" / "engine.md"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, "utf-8")


if __name__ == "__main__":
    main()
