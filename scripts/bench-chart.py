#!/usr/bin/env python3
"""Draws docket beside a peer as an SVG bar chart, from the JSON the peer harnesses write.

    scripts/bench-chart.py emmett DIR > chart.svg

DIR holds interleaved runs of ../shared/peers (emmett-N.json and docket-events-N.json,
N = 1, 2, ...). Each bar is the median over the runs; a thin line spans min to max.
Only the standard library is used, so the chart can be redrawn on any machine that has
the JSON. Cases compared:

    1-event appends to new streams, 1 client     emmett seq_new_streams    docket c1 many-1
    10-event appends to new streams, 1 client    emmett batch10_new_streams docket c1 many-10
    1-event appends to new streams, 4 clients    emmett c4_new_streams     docket c4 many-1
    1-event appends to new streams, 16 clients   emmett c16_new_streams    docket c16 many-1
    1-event appends to one stream, 1 client      emmett one_stream_seq     docket c1 one-1

Rates are appends per second (Emmett's batch case reports appends, each of 10 events).
"""
import glob
import json
import os
import statistics
import sys
from xml.sax.saxutils import escape

CASES = [
    ("1 event, new streams, 1 client", "seq_new_streams", "c1", "many-1"),
    ("10 events, new streams, 1 client", "batch10_new_streams", "c1", "many-10"),
    ("1 event, new streams, 4 clients", "c4_new_streams", "c4", "many-1"),
    ("1 event, new streams, 16 clients", "c16_new_streams", "c16", "many-1"),
    ("1 event, one stream, 1 client", "one_stream_seq", "c1", "one-1"),
]


def load(pattern):
    runs = []
    for path in sorted(glob.glob(pattern)):
        with open(path) as f:
            runs.append(json.load(f))
    if not runs:
        sys.exit(f"bench-chart: no file matches {pattern}")
    return runs


def emmett_rate(run, key):
    case = run["cases"][key]
    return case.get("appends_per_s", case.get("events_per_s"))


def docket_rate(run, clients, name):
    for case in run[clients]["cases"]:
        if case["case"] == name:
            return case["rate"]
    sys.exit(f"bench-chart: docket run has no case {name} at {clients}")


def spread(values):
    return statistics.median(values), min(values), max(values)


def chart(rows, peer):
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
        "appends per second on PostgreSQL 15 (median of interleaved runs; line: min-max)</text>",
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
    if len(sys.argv) != 3 or sys.argv[1] != "emmett":
        sys.exit("usage: scripts/bench-chart.py emmett DIR > chart.svg")
    folder = sys.argv[2]
    peers = load(os.path.join(folder, "emmett-*.json"))
    ours = load(os.path.join(folder, "docket-events-*.json"))
    rows = []
    for label, peer_key, clients, case in CASES:
        rows.append((label, spread([docket_rate(r, clients, case) for r in ours]),
                     spread([emmett_rate(r, peer_key) for r in peers])))
    sys.stdout.write(chart(rows, "Emmett 0.42"))


if __name__ == "__main__":
    main()
