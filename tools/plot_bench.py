#!/usr/bin/python3
"""Plot `barracuda bench --json` results: MLUPS against grid size.

usage: /usr/bin/python3 tools/plot_bench.py BENCH.json [MORE.json ...] -o bench.png
                                            [--title TEXT] [--logy] [--no-bound]

One line per configuration (lattice / collision / precision / streaming, and the
device when the files come from several), MLUPS (median) against the number of
cells on a log axis. Dashed horizontal lines show the copy-bandwidth bound of
each distinct bytes/cell: the measured kernel copy bandwidth divided by the
bytes a cell update moves, i.e. the MLUPS a kernel would reach at 100 % of the
copy bandwidth. Skipped configurations are left out.

Needs matplotlib (Debian: apt-get install python3-matplotlib); only used to make
figures for the documentation, not in CI. Run it with /usr/bin/python3 when
another python3 (pyenv, a virtual environment) comes first on the PATH.
"""

import argparse
import json
import sys


def load(paths):
    """[(document, path)] for every file; exits with a message on a bad file."""
    docs = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, json.JSONDecodeError) as e:
            sys.exit(f"plot_bench: {path}: {e}")
        if not isinstance(doc, dict) or "results" not in doc:
            sys.exit(f"plot_bench: {path}: not the output of `barracuda bench --json` (no \"results\")")
        docs.append((doc, path))
    return docs


def config_key(r):
    return (r.get("lattice", "?"), r.get("collision", "?"), r.get("precision", "?"), r.get("streaming", "two-copy"))


def main(argv=None):
    ap = argparse.ArgumentParser(description="Plot barracuda bench --json results (MLUPS against grid size).")
    ap.add_argument("json", nargs="+", help="output of `barracuda bench --json`")
    ap.add_argument("-o", "--output", default="bench.png", help="PNG to write (default: bench.png)")
    ap.add_argument("--title", help="figure title (default: the device(s))")
    ap.add_argument("--logy", action="store_true", help="log scale for MLUPS")
    ap.add_argument("--no-bound", action="store_true", help="leave out the copy-bandwidth bounds")
    args = ap.parse_args(argv)

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_bench: needs matplotlib (Debian: apt-get install python3-matplotlib; then /usr/bin/python3)")

    docs = load(args.json)
    devices = sorted({d.get("device", "?") for d, _ in docs})
    several_devices = len(devices) > 1

    # (device, config) -> {cells: mlups}; a later file overrides an earlier one at the same size.
    series = {}
    bounds = {}  # (device, bytes_per_cell) -> [MLUPS at the kernel copy bandwidth, {"lattice precision"}]
    for doc, path in docs:
        device = doc.get("device", "?")
        copy_gbps = (doc.get("copy_bandwidth") or {}).get("kernel_gbps") or 0
        for r in doc["results"]:
            if r.get("skipped") or not r.get("mlups") or not r.get("cells"):
                continue
            key = (device if several_devices else "",) + config_key(r)
            series.setdefault(key, {})[r["cells"]] = r["mlups"]
            bpc = r.get("bytes_per_cell") or 0
            if copy_gbps > 0 and bpc > 0:
                b = bounds.setdefault((device if several_devices else "", bpc), [0.0, set()])
                b[0] = copy_gbps * 1e3 / bpc
                b[1].add(f"{r.get('lattice', '?')} {r.get('precision', '?')}")
    if not series:
        sys.exit("plot_bench: no measured configuration in " + ", ".join(args.json))

    fig, ax = plt.subplots(figsize=(11, 5.5), dpi=120)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    markers = "osD^v<>ph*"
    for k, (key, points) in enumerate(sorted(series.items())):
        device, lattice, collision, precision, streaming = key
        cells = sorted(points)
        label = f"{lattice} {collision} {precision} {streaming}"
        if device:
            label = f"{device}: {label}"
        ax.plot(cells, [points[c] for c in cells], marker=markers[k % len(markers)], color=colours[k % len(colours)],
                label=label, linewidth=1.6, markersize=5)

    if not args.no_bound and bounds:
        all_cells = [c for p in series.values() for c in p]
        lo, hi = min(all_cells), max(all_cells)
        peak = max(m for p in series.values() for m in p.values())
        for (device, bpc), (mlups, which) in sorted(bounds.items(), key=lambda kv: -kv[1][0]):
            # Where meaningful: a bound far above every measurement (e.g. D2Q9 beside a D3Q27 MRT run
            # on a linear axis) only squashes the plot.
            if not args.logy and mlups > 4 * peak:
                continue
            ax.axhline(mlups, linestyle="--", color="0.45", linewidth=1.0)
            text = f"copy bound, {bpc:.0f} B/cell ({', '.join(sorted(which))}): {mlups:.0f} MLUPS"
            if device:
                text = f"{device}: {text}"
            ax.annotate(text, xy=(1.0, mlups), xycoords=("axes fraction", "data"), xytext=(-4, 3),
                        textcoords="offset points", ha="right", va="bottom", fontsize=7.5, color="0.3")
        if lo == hi:
            ax.set_xlim(lo / 2, hi * 2)

    ax.set_xscale("log")
    if args.logy:
        ax.set_yscale("log")
    else:
        ax.set_ylim(bottom=0)
    ax.set_xlabel("grid cells")
    ax.set_ylabel("MLUPS (median)")
    ax.grid(True, which="major", alpha=0.3)
    ax.grid(True, which="minor", alpha=0.1)
    title = args.title
    if title is None:
        title = "barracuda bench: " + ", ".join(devices)
        commits = sorted({d.get("commit", "?") for d, _ in docs})
        title += " (commit " + ", ".join(commits) + ")"
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    fig.text(0.01, 0.01, "dashed: kernel copy bandwidth / bytes per cell update (100 % of the measured copy bandwidth)",
             fontsize=7, color="0.35")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(args.output)
    print(f"plot_bench: wrote {args.output} ({len(series)} configuration(s) from {len(docs)} file(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
