#!/usr/bin/env python3
"""Draws docket beside a peer as an SVG bar chart, from the JSON the peer harnesses write.

    scripts/bench-chart.py emmett DIR > chart.svg
    scripts/bench-chart.py pg-transactional-outbox DIR > chart.svg
    scripts/bench-chart.py powertools CLAIM_DIR INBOX_DIR CLAIM_BATCH_DIR > chart.svg

Each DIR holds interleaved runs of one sitting (PEER-N.json beside docket's files, N = 1,
2, ...). Each bar is the median over the runs; a thin line spans min to max; the ratio is
of the medians. Only the standard library is used, so a chart can be redrawn on any
machine that has the JSON. Cases compared:

emmett (../shared/peers: emmett-N.json, docket-events-N.json), appends per second
    1-event appends to new streams, 1 client     emmett seq_new_streams    docket c1 many-1
    10-event appends to new streams, 1 client    emmett batch10_new_streams docket c1 many-10
    1-event appends to new streams, 4 clients    emmett c4_new_streams     docket c4 many-1
    1-event appends to new streams, 16 clients   emmett c16_new_streams    docket c16 many-1
    1-event appends to one stream, 1 client      emmett one_stream_seq     docket c1 one-1
  (Emmett's batch case reports appends, each of 10 events.)

pg-transactional-outbox (../shared/peers: pg-transactional-outbox-N.json,
docket-inbox-N.json), messages handled per second by one consumer
    2,000 distinct       peer e2e_distinct handled_per_s_to_95pct   docket d0_c1
    half delivered twice peer e2e_dup50 handled_per_s_to_95pct      docket d0.5_c1
  The peer's rate to 95% handled is its steady rate, without the stragglers its own
  lock timeout leaves (its harness README); docket's is every message handled.

powertools (../shared/peers-dynamodb: powertools-N.json beside docket-put-c{1,4}-N.json
in CLAIM_DIR, docket-inbox-batch10-distinct-c{1,4}-N.json in INBOX_DIR and
docket-claim-batch10-c{1,4}-N.json in CLAIM_BATCH_DIR), messages handled per second,
2,000 distinct, at 1 and at 4 workers: docket's claim inbox one message at a time and in
batches of 10, and its transactional inbox dispatching batches of 10, each beside the
Powertools runs of its own sitting.
"""
import glob
import json
import os
import statistics
import sys
from dataclasses import dataclass
from typing import Callable
from xml.sax.saxutils import escape


@dataclass
class Row:
    label: str
    folder: int  # which DIR argument holds both sides' files
    peer_files: str
    peer_rate: Callable[[dict], float]
    docket_files: str
    docket_rate: Callable[[dict], float]


@dataclass
class Chart:
    peer: str
    what: str  # what the bars count, for the title
    folders: int
    rows: list


def emmett_rate(key):
    def rate(run):
        case = run["cases"][key]
        return case.get("appends_per_s", case.get("events_per_s"))
    return rate


def docket_events_rate(clients, name):
    def rate(run):
        for case in run[clients]["cases"]:
            if case["case"] == name:
                return case["rate"]
        sys.exit(f"bench-chart: docket run has no case {name} at {clients}")
    return rate


def peer_case(case, field):
    return lambda run: run["cases"][case][field]


def docket_handled(run):
    """Messages handled per second of a `docket bench inbox --json` object."""
    return run["processed"] / run["seconds"]


def docket_inbox_case(key):
    return lambda run: docket_handled(run[key])


CHARTS = {
    "emmett": Chart(
        peer="Emmett 0.42", what="appends per second on PostgreSQL 15", folders=1,
        rows=[Row(label, 0, "emmett-*.json", emmett_rate(key), "docket-events-*.json",
                  docket_events_rate(clients, case))
              for label, key, clients, case in [
                  ("1 event, new streams, 1 client", "seq_new_streams", "c1", "many-1"),
                  ("10 events, new streams, 1 client", "batch10_new_streams", "c1", "many-10"),
                  ("1 event, new streams, 4 clients", "c4_new_streams", "c4", "many-1"),
                  ("1 event, new streams, 16 clients", "c16_new_streams", "c16", "many-1"),
                  ("1 event, one stream, 1 client", "one_stream_seq", "c1", "one-1"),
              ]]),
    "pg-transactional-outbox": Chart(
        peer="pg-transactional-outbox 0.5.7",
        what="messages handled per second on PostgreSQL 15, one consumer", folders=1,
        rows=[Row(label, 0, "pg-transactional-outbox-*.json",
                  peer_case(case, "handled_per_s_to_95pct"), "docket-inbox-*.json",
                  docket_inbox_case(key))
              for label, case, key in [
                  ("2,000 distinct", "e2e_distinct", "d0_c1"),
                  ("half delivered twice", "e2e_dup50", "d0.5_c1"),
              ]]),
    "powertools": Chart(
        peer="Powertools 2.35.0", what="messages handled per second on DynamoDB Local 3.3.0",
        folders=3,
        rows=[Row(label, folder, "powertools-*.json", peer_case(case, "handled_per_s"), files,
                  rate)
              for label, folder, case, files, rate in [
                  ("claim inbox, 1 worker", 0, "distinct_c1", "docket-put-c1-*.json",
                   lambda run: run["handled_rate"]),
                  ("claim inbox, 4 workers", 0, "distinct_c4", "docket-put-c4-*.json",
                   lambda run: run["handled_rate"]),
                  ("claim inbox, batches of 10, 1 worker", 2, "distinct_c1",
                   "docket-claim-batch10-c1-*.json", lambda run: run["handled_rate"]),
                  ("claim inbox, batches of 10, 4 workers", 2, "distinct_c4",
                   "docket-claim-batch10-c4-*.json", lambda run: run["handled_rate"]),
                  ("inbox, batches of 10, 1 worker", 1, "distinct_c1",
                   "docket-inbox-batch10-distinct-c1-*.json", docket_handled),
                  ("inbox, batches of 10, 4 workers", 1, "distinct_c4",
                   "docket-inbox-batch10-distinct-c4-*.json", docket_handled),
              ]]),
}


def load(pattern):
    runs = []
    for path in sorted(glob.glob(pattern)):
        with open(path) as f:
            runs.append(json.load(f))
    if not runs:
        sys.exit(f"bench-chart: no file matches {pattern}")
    return runs


def spread(values):
    return statistics.median(values), min(values), max(values)


def chart(rows, peer, what):
    width, label_w, bar_h, gap = 860, 250, 16, 14
    top, row_h = 56, 2 * bar_h + gap
    height = top + row_h * len(rows) + 40
    peak = max(hi for _, a, b in rows for _, _, hi in (a, b)) * 1.08
    scale = (width - label_w - 120) / peak
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="10" y="20" font-size="14" font-weight="bold">docket beside {escape(peer)}: '
        f"{escape(what)} (median of interleaved runs; line: min-max)</text>",
        f'<rect x="{label_w}" y="32" width="12" height="12" fill="#1f6fb2"/>'
        f'<text x="{label_w + 18}" y="42">docket</text>',
        f'<rect x="{label_w + 90}" y="32" width="12" height="12" fill="#b0b0b0"/>'
        f'<text x="{label_w + 108}" y="42">{escape(peer)}</text>',
    ]
    for i, (label, ours, theirs) in enumerate(rows):
        y = top + i * row_h
        out.append(f'<text x="10" y="{y + bar_h + 4}">{escape(label)}</text>')
        for j, ((median, lo, hi), colour) in enumerate(((ours, "#1f6fb2"), (theirs, "#b0b0b0"))):
            by = y + j * bar_h
            out.append(f'<rect x="{label_w}" y="{by}" width="{median * scale:.1f}" '
                       f'height="{bar_h - 2}" fill="{colour}"/>')
            mid = by + (bar_h - 2) / 2
            out.append(f'<line x1="{label_w + lo * scale:.1f}" y1="{mid}" '
                       f'x2="{label_w + hi * scale:.1f}" y2="{mid}" stroke="black"/>')
            out.append(f'<text x="{label_w + hi * scale + 6:.1f}" y="{by + bar_h - 4}">'
                       f"{median:,.0f}</text>")
        ratio = ours[0] / theirs[0]
        out.append(f'<text x="{width - 60}" y="{y + bar_h + 4}" font-weight="bold">'
                   f"{ratio:.1f}x</text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    spec = CHARTS.get(sys.argv[1]) if len(sys.argv) > 1 else None
    if spec is None or len(sys.argv) != 2 + spec.folders:
        sys.exit("usage: scripts/bench-chart.py emmett DIR > chart.svg\n"
                 "       scripts/bench-chart.py pg-transactional-outbox DIR > chart.svg\n"
                 "       scripts/bench-chart.py powertools CLAIM_DIR INBOX_DIR CLAIM_BATCH_DIR "
                 "> chart.svg")
    folders = sys.argv[2:]
    rows = []
    for row in spec.rows:
        folder = folders[row.folder]
        ours = [row.docket_rate(r) for r in load(os.path.join(folder, row.docket_files))]
        theirs = [row.peer_rate(r) for r in load(os.path.join(folder, row.peer_files))]
        rows.append((row.label, spread(ours), spread(theirs)))
    sys.stdout.write(chart(rows, spec.peer, spec.what))


if __name__ == "__main__":
    main()
