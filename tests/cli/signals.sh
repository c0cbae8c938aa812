#!/usr/bin/env bash
# SIGTERM and SIGINT stop a run cleanly (issue 21): it finishes the steps under
# way, saves a checkpoint in its directory (also without --checkpoint-every),
# says where and how to go on, and exits 8; the restart from that checkpoint ends
# bit for bit where an uninterrupted run ends. A second signal ends it at once.
# With MPI, a signal to one rank stops all of them at the same step.
#
# usage: bash signals.sh <path-to-barracuda> [<source-dir>]
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
cli_init signals "$@"

cat >case.toml <<EOF
title = "signals"
[model]
lattice = "D2Q9"
collision = "trt"
precision = "fp64"
viscosity = 0.02
[domain]
size = [96, 64]
[boundary.y_max]
type = "moving_wall"
velocity = [0.05, 0.0]
[run]
steps = 6000
check_interval = 100
[output]
interval = 500
formats = ["vti"]
compression = "none"
EOF
"$BIN" run case.toml --backend cpu -q --out whole >/dev/null 2>&1 || fail "the uninterrupted run failed"

# start_and_signal DIR SIGNAL...: starts the run, waits for its output of step 500,
# sends the signals back to back; sets rc.
start_and_signal() {
    local dir=$1 sig
    shift
    "$BIN" run case.toml --backend cpu -q --out "$dir" >"$dir.out" 2>"$dir.err" &
    local pid=$!
    for _ in $(seq 300); do [[ -e $dir/fields_00000500.vti ]] && break; sleep 0.05; done
    for sig in "$@"; do kill -"$sig" "$pid" 2>/dev/null || true; done
    rc=0
    wait "$pid" || rc=$?
}

for sig in TERM INT; do
    dir=stop_$sig
    start_and_signal "$dir" "$sig"
    step=""
    [[ $(cat "$dir.err") =~ stopped\ by\ SIG$sig\ at\ step\ ([0-9]+)\ of\ 6000 ]] && step=${BASH_REMATCH[1]}
    if [[ $rc != 8 || -z $step ]]; then
        fail "SIG$sig: exit $rc, expected 8 with 'stopped by SIG$sig at step N'"
        sed 's/^/     /' "$dir.err" >&2
        continue
    fi
    [[ -f $dir/checkpoint.bin ]] || fail "SIG$sig: no checkpoint.bin in $dir"
    grep -qF "go on with: barracuda run case.toml --restart $dir" "$dir.err" || fail "SIG$sig: no 'go on with' line"
    rc=0
    "$BIN" run case.toml --backend cpu -q --restart "$dir" >"$dir.restart.out" 2>"$dir.restart.err" || rc=$?
    if [[ $rc != 0 ]]; then
        fail "SIG$sig: the restart exited $rc"
        sed 's/^/     /' "$dir.restart.err" >&2
    elif ! cmp -s whole/fields_00006000.vti "$dir/fields_00006000.vti"; then
        fail "SIG$sig: stopped at step $step and restarted, the fields at step 6000 differ from the uninterrupted run's"
    else
        echo "ok   SIG$sig: stopped at step $step (exit 8) with a checkpoint; the restart ends bit for bit as the uninterrupted run"
    fi
done

# A second signal ends the process at once: killed by it (130 or 143), not the orderly
# stop (8). Two different signals: two of one kind sent back to back may reach the
# process as one (standard signals are not queued); the kernel may deliver them in
# either order, so the one that kills is either.
start_and_signal twice INT TERM
if [[ $rc == 130 || $rc == 143 ]]; then
    echo "ok   a second signal ends the run at once (exit $rc: killed by it)"
else
    fail "SIGINT then SIGTERM: exit $rc, expected 130 or 143 (killed by the second signal)"
fi

# Several ranks: SIGTERM to one of them; all stop at one step and save one checkpoint each.
if command -v mpirun >/dev/null && "$BIN" info 2>/dev/null | grep -q "^  mpi   built"; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
    mpirun --oversubscribe -np 2 "$BIN" run case.toml --backend cpu -q --out mpi_stop >mpi.out 2>mpi.err &
    pid=$!
    for _ in $(seq 300); do [[ -e mpi_stop/fields_00000500.pvti ]] && break; sleep 0.05; done
    rank=$(pgrep -f -- "--out mpi_stop" | grep -v "^$pid\$" | tail -1 || true)
    [[ -n $rank ]] && kill -TERM "$rank"
    rc=0
    wait "$pid" || rc=$?
    if [[ $rc == 8 && -f mpi_stop/checkpoint_r0000.bin && -f mpi_stop/checkpoint_r0001.bin ]]; then
        rc=0
        mpirun --oversubscribe -np 2 "$BIN" run case.toml --backend cpu -q --restart mpi_stop >mpi2.out 2>mpi2.err || rc=$?
        python3 - whole/fields_00006000.vti mpi_stop <<'PY' && echo "ok   MPI: one rank signalled, both stopped with checkpoints; the restart ends as the one-rank run" || fail "MPI: the restarted fields differ from the one-rank run's (or the restart failed, exit $rc)"
import glob, struct, sys, re
def density(path):
    d = open(path, "rb").read()
    base = d.find(b"_", d.find(b'<AppendedData encoding="raw">')) + 1
    head = d[:base].decode(errors="replace")
    m = re.search(r'<DataArray type="Float64" Name="density" NumberOfComponents="1" format="appended" offset="(\d+)"', head)
    (n,) = struct.unpack_from("<Q", d, base + int(m.group(1)))
    return struct.unpack_from(f"<{n // 8}d", d, base + int(m.group(1)) + 8)
whole = density(sys.argv[1])
pieces = sorted(glob.glob(sys.argv[2] + "/fields_00006000_r*.vti"))
assert len(pieces) == 2, pieces
total = sum(len(density(p)) for p in pieces)
assert total == len(whole), (total, len(whole))
assert sorted(whole) == sorted(v for p in pieces for v in density(p)), "the values differ"
PY
    else
        fail "MPI: exit $rc, expected 8 with checkpoint_r0000.bin and checkpoint_r0001.bin"
        sed 's/^/     /' mpi.err >&2
    fi
else
    echo "skip MPI: no mpirun or a build without MPI"
fi

cli_finish signals
