#!/usr/bin/env bash
# Runs started at once never share a directory (issue 21): four runs given the
# same --out each get their own (out, out-1, out-2, out-3), each holding only its
# own files; a directory being restarted is locked, so that a second --restart of
# it is refused (exit 6) while the first runs.
#
# usage: bash concurrency.sh <path-to-barracuda> [<source-dir>]
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
cli_init concurrency "$@"
need_python "check the directories"

# A lid-driven cavity of n x n nodes: the extent in its .vti files tells the runs apart.
cavity() {
    cat <<EOF
title = "concurrency $1"
[model]
lattice = "D2Q9"
tau = 0.8
[domain]
size = [$1, $1]
[boundary.y_max]
type = "moving_wall"
velocity = [0.05, 0.0]
[run]
steps = ${2:-400}
check_interval = 50
[output]
interval = 50
formats = ["vti"]
EOF
}

sizes=(16 18 20 22)
for n in "${sizes[@]}"; do cavity "$n" >"c$n.toml"; done
pids=()
for n in "${sizes[@]}"; do
    OMP_NUM_THREADS=1 "$BIN" run "c$n.toml" --backend cpu -q --out mix >"out$n" 2>"err$n" &
    pids+=($!)
done
rcs=""
for p in "${pids[@]}"; do
    rc=0
    wait "$p" || rc=$?
    rcs+=" $rc"
done
[[ $rcs == " 0 0 0 0" ]] || fail "exit codes$rcs, expected 0 0 0 0"
if python3 - "${sizes[@]}" <<'PY'; then
import os, re, sys
sizes = [int(s) for s in sys.argv[1:]]
claimed = {}
for n in sizes:
    m = re.search(r"^output: (\S+)", open(f"out{n}").read(), re.M)
    assert m, f"run {n}: no 'output:' line"
    claimed[n] = m.group(1)
assert len(set(claimed.values())) == 4, f"the runs share directories: {claimed}"
assert sorted(claimed.values()) == ["mix", "mix-1", "mix-2", "mix-3"], claimed
for n, d in claimed.items():
    files = sorted(f for f in os.listdir(d) if f.endswith(".vti"))
    listed = re.findall(r'file="([^"]+)"', open(os.path.join(d, "fields.pvd")).read())
    assert files == sorted(listed) and len(files) == 400 // 50 + 1, (d, files, listed)
    for f in files:
        head = open(os.path.join(d, f), "rb").read(2000).decode(errors="replace")
        assert f'WholeExtent="0 {n-1} 0 {n-1} 0 0"' in head, f"{d}/{f} is not run {n}'s ({n}x{n})"
print("ok   four runs into one --out: four directories, each with only its own run's 9 field files")
PY
    :
else
    fail "the four runs' directories are mixed up (above)"
fi

# A restart holds its directory: a second restart of it is refused while it runs.
cavity 64 200 >long.toml
"$BIN" run long.toml --backend cpu -q --out held --checkpoint-every 100 >/dev/null 2>&1 || fail "the first sitting failed"
# (no checkpoint of its own before it is killed: the third sitting goes on from step 200)
OMP_NUM_THREADS=1 "$BIN" run long.toml --backend cpu -q --restart held --set run.steps=100000000 \
    --checkpoint-every 99999999 >first.out 2>first.err &
first=$!
for _ in $(seq 100); do grep -q "going on from" first.err 2>/dev/null && break; sleep 0.1; done
rc=0
"$BIN" run long.toml --backend cpu -q --restart held --set run.steps=100000000 >second.out 2>second.err || rc=$?
if [[ $rc == 6 ]] && grep -qF "the run directory held is in use by another barracuda run (process $first)" second.err; then
    echo "ok   a second --restart of a directory in use is refused (exit 6) and names the process"
else
    fail "second --restart: exit $rc, expected 6 naming process $first"
    sed 's/^/     /' second.err >&2
fi
kill -KILL "$first" 2>/dev/null || true
wait "$first" 2>/dev/null || true
# The lock dies with its process, however it ends: the directory can be restarted now.
rc=0
"$BIN" run long.toml --backend cpu -q --restart held --set run.steps=300 >third.out 2>third.err || rc=$?
[[ $rc == 0 ]] || { fail "a restart after the holder was killed: exit $rc"; sed 's/^/     /' third.err >&2; }
((failures)) || echo "ok   the lock is gone with its process (killed): the next restart runs"

cli_finish concurrency
