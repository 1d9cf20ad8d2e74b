#!/usr/bin/env python3
"""Median (min-max) of the latency peers' runs, as a Markdown table.

    python3 bench/peers/latency_summary.py docs/bench-results/2026-12-06/latency

Reads pg-transactional-outbox-latency-*.json (bench.mjs here) and docket-latency-*.json
(`docket bench latency --json`) in the folder; a run that stopped before its result
(no latency figures) is counted, not summarised.
"""
import json
import pathlib
import statistics
import sys


def cell(values, digits=2):
    if not values:
        return "-"
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def main(folder):
    rows = {}  # side -> metric -> values
    unfinished = {}
    for path in sorted(pathlib.Path(folder).glob("*.json")):
        text = path.read_text().strip()
        if not text:
            continue
        run = json.loads(text)
        if path.name.startswith("pg-transactional-outbox-latency"):
            latency = run.get("cases", {}).get("latency")
            if latency is None or latency.get("handled", 0) == 0:
                unfinished["pg-transactional-outbox"] = unfinished.get("pg-transactional-outbox", 0) + 1
                continue
            sides = {"pg-transactional-outbox (logical replication)": dict(latency)}
            sides["pg-transactional-outbox (logical replication)"]["idle"] = run["cases"]["idle"][
                "transactions_per_second"
            ]
        elif path.name.startswith("docket-latency"):
            sides = {}
            for mode, label in (("woken", "docket woken (NOTIFY)"), ("polled", "docket polled (200 ms)")):
                sides[label] = dict(run[mode])
                sides[label]["idle"] = run[mode]["idle_queries_per_second"]
        else:
            continue
        for side, figures in sides.items():
            metrics = rows.setdefault(side, {})
            for key in ("p50_ms", "p99_ms", "p999_ms", "max_ms", "idle"):
                metrics.setdefault(key, []).append(figures[key])
            metrics.setdefault("unhandled", []).append(figures["staged"] - figures["handled"])
    print("| side | runs | p50 ms | p99 ms | p99.9 ms | max ms | unhandled | idle /s |")
    print("|---|---|---|---|---|---|---|---|")
    for side, m in rows.items():
        print(
            f"| {side} | {len(m['p50_ms'])} | {cell(m['p50_ms'])} | {cell(m['p99_ms'])} | "
            f"{cell(m['p999_ms'])} | {cell(m['max_ms'])} | {cell(m['unhandled'], 0)} | {cell(m['idle'], 1)} |"
        )
    for side, count in unfinished.items():
        print(f"\n{side}: {count} run(s) without a result")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
