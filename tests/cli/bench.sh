#!/usr/bin/env bash
# `barracuda bench` on the CPU backend: the copy-bandwidth measurement, the
# cartesian product of the configurations asked for, the JSON document (valid,
# every field, MLUPS and % of copy bandwidth > 0), combinations the registry
# refuses reported as skipped (not as a failure), the table, and the exit codes.
#
# usage: bash bench.sh <path-to-barracuda> [<source-dir>]
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
cli_init bench "$@"
need_python "check the JSON"

# bench ARGS...: runs `barracuda bench ARGS...`, sets rc.
bench() {
    rc=0
    timeout 60 "$BIN" bench "$@" >"$T/stdout" 2>"$T/stderr" || rc=$?
}
FAST=(--backend cpu --repetitions 2 --steps 2 --copy-bytes 16777216)

# --- JSON: 2 lattices x 2 precisions ----------------------------------------------------------
bench --json --size 16 --lattice D2Q9 --lattice D3Q19 --precision fp32 --precision fp64 "${FAST[@]}"
if [[ $rc != 0 ]]; then
    fail "bench --json (D2Q9, D3Q19 x fp32, fp64): exit code $rc, expected 0"
    show_run
elif ! python3 - "$T/stdout" 2>"$T/check" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("device", "backend", "commit", "command", "copy_bandwidth", "results"):
    assert k in d, "no top-level key %r" % k
assert d["backend"] == "cpu", d["backend"]
assert isinstance(d["commit"], str) and d["commit"], d["commit"]
assert d["command"].startswith("barracuda bench") and "--json" in d["command"], d["command"]
cb = d["copy_bandwidth"]
for k in ("kernel_gbps", "memcpy_gbps", "bytes"):
    assert k in cb, "no copy_bandwidth.%s" % k
assert cb["kernel_gbps"] > 0 and cb["memcpy_gbps"] > 0, cb
assert cb["bytes"] == 16777216, cb
r = d["results"]
got = sorted((x["lattice"], x["precision"]) for x in r)
want = sorted((l, p) for l in ("D2Q9", "D3Q19") for p in ("fp32", "fp64"))
assert got == want, got
fields = ("lattice", "collision", "precision", "streaming", "size", "cells", "steps", "repetitions", "mlups",
          "mlups_all", "bytes_per_cell", "effective_gbps", "percent_of_copy", "memory_bytes_per_cell",
          "largest_cells", "largest_edge")
for x in r:
    for k in fields:
        assert k in x, "result %s has no %r" % (x, k)
    assert x["skipped"] is False, x
    assert x["collision"] == "bgk" and x["streaming"] == "two-copy", x
    assert x["size"] == 16 and x["steps"] == 2 and x["repetitions"] == 2, x
    assert x["cells"] == (256 if x["lattice"] == "D2Q9" else 4096), x
    assert len(x["mlups_all"]) == 2 and all(v > 0 for v in x["mlups_all"]), x
    assert min(x["mlups_all"]) <= x["mlups"] <= max(x["mlups_all"]), x
    assert x["mlups"] > 0 and x["effective_gbps"] > 0 and x["percent_of_copy"] > 0, x
    q = 9 if x["lattice"] == "D2Q9" else 19
    s = 8 if x["precision"] == "fp64" else 4
    assert x["bytes_per_cell"] == 2 * q * s + 1, x
    assert abs(x["effective_gbps"] - x["mlups"] * x["bytes_per_cell"] / 1e3) <= 1e-3 * x["effective_gbps"], x
    pc = 100 * x["effective_gbps"] / cb["kernel_gbps"]
    assert abs(x["percent_of_copy"] - pc) <= 1e-3 * pc, (x, pc)
    assert x["memory_bytes_per_cell"] >= 2 * q * s, x
    assert x["largest_cells"] > x["cells"], x
    e = x["largest_edge"]
    dim = 2 if x["lattice"] == "D2Q9" else 3
    assert e ** dim <= x["largest_cells"] < (e + 1) ** dim, x
EOF
then
    fail "bench --json: unexpected content: $(tail -n 1 "$T/check")"
    show_run
else
    echo "ok   bench --json: 4 configurations with every field, MLUPS and % of copy bandwidth > 0"
fi

# --- a combination the registry refuses is skipped, the others run ---------------------------
# (D3Q13 offers MRT only.)
bench --json --size 12 --lattice D3Q13 --lattice D3Q19 --collision bgk --collision mrt "${FAST[@]}"
if [[ $rc != 0 ]]; then
    fail "bench --json with BGK on D3Q13 among others: exit code $rc, expected 0"
    show_run
elif ! python3 - "$T/stdout" 2>"$T/check" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
r = {(x["lattice"], x["collision"]): x for x in d["results"]}
assert len(r) == 4, list(r)
s = r[("D3Q13", "bgk")]
assert s["skipped"] is True and "bgk" in s["reason"] and "D3Q13" in s["reason"], s
for k, x in r.items():
    if k != ("D3Q13", "bgk"):
        assert x["skipped"] is False and x["mlups"] > 0, x
EOF
then
    fail "bench --json: BGK on D3Q13 not reported as skipped: $(tail -n 1 "$T/check")"
    show_run
else
    echo "ok   bench --json: BGK on D3Q13 is skipped with its reason, the other 3 run"
fi

# --- nothing runnable: exit 3, the document still printed --------------------------------------
bench --json --size 12 --lattice D3Q13 --collision bgk "${FAST[@]}"
if [[ $rc != 3 ]]; then
    fail "bench with only BGK on D3Q13: exit code $rc, expected 3"
    show_run
elif ! python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); assert d["results"][0]["skipped"]' \
    "$T/stdout" 2>"$T/check"; then
    fail "bench with only BGK on D3Q13: no skipped entry: $(tail -n 1 "$T/check")"
    show_run
else
    echo "ok   bench with nothing runnable exits 3 and reports the skip"
fi

# --- the table --------------------------------------------------------------------------------
bench --size 8 12 --lattice D2Q9,D3Q13 --collision bgk --precision fp32 "${FAST[@]}"
if [[ $rc != 0 ]]; then
    fail "bench (table): exit code $rc, expected 0"
    show_run
else
    ok=1
    for pattern in "commit " "command: barracuda bench" "copy bandwidth" "kernel copy bandwidth" "MLUPS" "B/cell" \
        "GB/s" "%copy" "mem B/cell" "largest grid"; do
        grep -qF -- "$pattern" "$T/stdout" || { fail "bench table: no '$pattern'"; ok=0; }
    done
    rows=$(grep -cE '^D2Q9 +bgk +fp32 +two-copy +(8|12) ' "$T/stdout" || true)
    [[ $rows == 2 ]] || { fail "bench table: $rows D2Q9 rows, expected 2 (sizes 8 and 12)"; ok=0; }
    skips=$(grep -cE '^D3Q13 +bgk .*skipped: ' "$T/stdout" || true)
    [[ $skips == 2 ]] || { fail "bench table: $skips skipped D3Q13 rows, expected 2"; ok=0; }
    ((ok)) && echo "ok   bench table: header, 2 rows and 2 skipped lines" || show_run
fi

# --- a case file against the same box without boundaries (issue 20) ----------------------------
channel_case "bench case" 25 50 >"$T/channel.toml"
bench --json --case "$T/channel.toml" --set model.collision=bgk "${FAST[@]}"
if [[ $rc != 0 ]]; then
    fail "bench --case: exit code $rc, expected 0"
    show_run
elif ! python3 - "$T/stdout" 2>"$T/check" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
(c,) = d["cases"]
assert c["engine"].startswith("cpu D2Q9 bgk"), c["engine"]  # --set reached the case
assert c["cells"] == 60 * 22 and c["steps"] == 2, c
assert c["mlups"] > 0 and c["bulk_only_mlups"] > 0, c
assert abs(c["ratio"] - c["mlups"] / c["bulk_only_mlups"]) < 1e-4 * c["ratio"], c
assert len(c["mlups_all"]) == 2 and len(c["bulk_only_mlups_all"]) == 2, c
EOF2
then
    fail "bench --case --json: $(cat "$T/check")"
else
    echo "ok   bench --case: the case and its box without boundaries, the ratio"
fi
bench --case "$T/channel.toml" --size 16 "${FAST[@]}"
[[ $rc == 2 ]] && grep -qF -- "--size excludes --case" "$T/stderr" && echo "ok   bench --case with --size exits 2" ||
    { fail "bench --case --size: exit $rc, expected 2 naming the conflict"; show_run; }

# --- bad values are command-line errors -------------------------------------------------------
f0=$failures
for args in "--precision fp8" "--streaming ab" "--size 0" "--lattice D3Q12" "--copy-bytes 10"; do
    # shellcheck disable=SC2086
    bench $args "${FAST[@]}"
    if [[ $rc != 2 ]]; then
        fail "bench $args: exit code $rc, expected 2"
        show_run
    fi
done
((failures == f0)) && echo "ok   bench with bad option values exits 2"

cli_finish bench
