#!/usr/bin/env bash
# `barracuda run --checkpoint-every N` and `--restart DIR`: a run stopped at a
# checkpoint and taken on from it ends bit for bit where the run in one sitting
# ends (fields, PNG, force samples), also when the first sitting wrote outputs
# past its last checkpoint before it stopped (they are dropped and written
# again); a restart that cannot go on (no checkpoint, another case, nothing left
# to run, a damaged file) says why, exits 3 and leaves the directory as it was;
# a damaged latest checkpoint falls back to the previous one.
#
# usage: bash restart.sh <path-to-barracuda> [<source-dir>]
# BARRACUDA_BACKEND=cuda runs the same checks on the GPU (a build with the D2Q9
# FP64 unit; ctest runs them on the CPU).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
cli_init restart "$@"
BACKEND=${BARRACUDA_BACKEND:-cpu}
need_python "compare forces.csv and fields.pvd"

# A 2D channel with a cylinder: forces every 25 steps, fields every 50.
channel_case "cli restart" 25 50 >case.toml
# Probes every 10 steps and means over steps 100-200: a restart inside the window goes
# on with its sums (the checkpoint holds them) and truncates probes.csv as forces.csv.
cat >>case.toml <<'CASE'
[probes]
points = [[10, 10], [40, 15]]
interval = 10
[average]
steps = [100, 200]
interval = 10
section = "z"
profiles = [10, 30]
CASE

# run_ok LABEL ARGS...: barracuda exits 0.
run_ok() {
    local label=$1 rc=0
    shift
    "$BIN" "$@" >"$T/stdout" 2>"$T/stderr" || rc=$?
    [[ $rc == 0 ]] || { fail "$label: exit $rc"; show_run; }
}

run_ok "one sitting" run case.toml --backend $BACKEND -q --out whole
# Sitting 1 ends at step 120 (checkpoints at 60 and 120); sitting 2 goes on to 150
# and saves there, the one of step 120 becoming checkpoint.previous.bin. Removing
# checkpoint.bin leaves the directory as a stop in the middle of that save would
# (after the rename, before the new file): sitting 2 wrote its outputs of steps
# 125-150 but has no checkpoint of them. Sitting 3 goes on from 120 to 200.
run_ok "sitting 1" run case.toml --backend $BACKEND -q --out part --checkpoint-every 60 --set run.steps=120
grep -qF "checkpoint: checkpoint.bin at step 120, every 60 steps" "$T/stdout" || { fail "sitting 1 does not report its checkpoint"; show_run; }
run_ok "sitting 2" run case.toml --backend $BACKEND -q --restart part --set run.steps=150
grep -qF "going on from the checkpoint at step 120" "$T/stderr" || { fail "sitting 2 does not say where it goes on from"; show_run; }
[[ -e part/fields_00000150.vti && -e part/checkpoint.previous.bin ]] || fail "sitting 2 did not write step 150 or keep the previous checkpoint"
rm part/checkpoint.bin
run_ok "sitting 3" run case.toml --backend $BACKEND -q --restart part --set run.steps=200
grep -qF "done: 80 steps (from the checkpoint at step 120 to 200)" "$T/stdout" || { fail "sitting 3's summary"; show_run; }
for f in fields_00000200.vti fields_00000150.vti slice_00000200.png probes.csv mean.vti mean_section.csv; do
    cmp -s "whole/$f" "part/$f" || fail "$f differs from the run in one sitting"
done
# Sitting 3 kept sitting 1's last instant (step 120, its end) and dropped nothing
# else: apart from that instant, forces.csv and the series equal the one sitting's.
python3 - whole part <<'PY' || fail "forces.csv or fields.pvd differ from the run in one sitting (beyond step 120)"
import re, sys
whole, part = sys.argv[1:]
def rows(d):
    return [l for l in open(d + "/forces.csv").read().splitlines() if not l.startswith("120,")]
def series(d):
    return [f for f in re.findall(r'file="([^"]+)"', open(d + "/fields.pvd").read()) if f != "fields_00000120.vti"]
assert rows(whole) == rows(part), (rows(whole), rows(part))
assert series(whole) == series(part), (series(whole), series(part))
assert len(rows(part)) == 1 + 200 // 25, rows(part)
PY
((failures)) || echo "ok   three sittings end where one does (fields, PNG, forces.csv, probes.csv, means, series)"

# A changed output schedule is allowed: the restart writes every 40 steps from 200 on.
run_ok "output.interval changed" run case.toml --backend $BACKEND -q --restart part --set run.steps=280 --set output.interval=40
[[ -e part/fields_00000240.vti && -e part/fields_00000280.vti ]] || fail "the restart with output.interval = 40 wrote no step 240/280"
((failures)) || echo "ok   a restart may change [output] and run.steps"

# expect NAME RC PATTERN -- ARGS: exit code, the message, and part/ left as it was.
expect() {
    local name=$1 want=$2 pattern=$3
    shift 4
    local before after rc=0
    before=$(cd part && ls -l --time-style=+%s.%N | sha256sum)
    "$BIN" "$@" >"$T/stdout" 2>"$T/stderr" || rc=$?
    after=$(cd part && ls -l --time-style=+%s.%N | sha256sum)
    if [[ $rc != "$want" ]]; then fail "$name: exit $rc, expected $want"; show_run; return; fi
    if ! grep -qF -- "$pattern" "$T/stderr"; then fail "$name: stderr does not mention '$pattern'"; show_run; return; fi
    if [[ $before != "$after" ]]; then fail "$name: the directory changed"; return; fi
    echo "ok   $name (exit $rc)"
}
mkdir empty
expect "no checkpoint" 3 "--restart: no checkpoint empty/checkpoint.bin (a run writes one with --checkpoint-every N)" -- \
    run case.toml --backend $BACKEND -q --restart empty --set run.steps=300
expect "not a directory" 3 "--restart: 'nowhere' is not a directory" -- \
    run case.toml --backend $BACKEND -q --restart nowhere
expect "another case" 3 "was written by another case (model.tau: 0.65 -> 0.68); a restart may change run.steps (run.time), run.backend, [output] and the title only" -- \
    run case.toml --backend $BACKEND -q --restart part --set run.steps=300 --set model.viscosity=0.06
expect "nothing left to run" 3 "the checkpoint is at step 280 and run.steps = 280: nothing left to run; raise run.steps" -- \
    run case.toml --backend $BACKEND -q --restart part --set run.steps=280
expect "--restart with --out" 2 "excludes" -- \
    run case.toml --backend $BACKEND -q --restart part --out elsewhere
expect "--checkpoint-every 0" 2 "--checkpoint-every" -- \
    run case.toml --backend $BACKEND -q --out zero --checkpoint-every 0
# Without forces.interval the forces are sampled at output.interval: then that must stay.
channel_case "cli restart" 25 50 | grep -v '^interval = 25$' >sampled_at_output.toml
run_ok "forces at output.interval" run sampled_at_output.toml --backend $BACKEND -q --out at_output --checkpoint-every 100 \
    --set run.steps=100
expect "another force interval" 3 "was written by a run sampling forces every 50 steps, this one every 40" -- \
    run sampled_at_output.toml --backend $BACKEND -q --restart at_output --set output.interval=40
# Damaged checkpoints (issue 21): the checksum finds three flipped bytes in the
# populations, and a cut file; alone, each is refused naming the file; beside an
# intact previous checkpoint, the restart goes on from that one and says so.
cp part/checkpoint.bin intact.bin
mv part/checkpoint.previous.bin previous.bin
flip3() { python3 -c '
import sys
p = sys.argv[1]; b = bytearray(open(p, "rb").read()); m = len(b) // 2
for k in range(3): b[m + 7 * k] ^= 0x5A
open(p, "wb").write(b)' "$1"; }
flip3 part/checkpoint.bin
expect "three flipped bytes" 3 "--restart: no usable checkpoint: checkpoint part/checkpoint.bin: damaged (checksum" -- \
    run case.toml --backend $BACKEND -q --restart part --set run.steps=300
head -c 1000 intact.bin >part/checkpoint.bin
expect "a cut checkpoint" 3 "part/checkpoint.bin: truncated" -- \
    run case.toml --backend $BACKEND -q --restart part --set run.steps=300
cp intact.bin part/checkpoint.bin
run_ok "the restored checkpoint goes on" run case.toml --backend $BACKEND -q --restart part --set run.steps=300
# Now checkpoint.bin is of step 300 and previous.bin of 280: damage the newest.
flip3 part/checkpoint.bin
run_ok "fallback to the previous checkpoint" run case.toml --backend $BACKEND -q --restart part --set run.steps=320
if grep -qF "note: checkpoint part/checkpoint.bin: damaged (checksum" "$T/stderr" &&
    grep -qF "going on from part/checkpoint.previous.bin (step 280)" "$T/stderr" &&
    grep -qF "done: 40 steps (from the checkpoint at step 280 to 320)" "$T/stdout"; then
    echo "ok   a damaged latest checkpoint falls back to the previous one and says so"
else
    fail "the fallback from a damaged checkpoint.bin is not reported as expected"
    show_run
fi

# The same case said differently (issue 21): keys given with their default values, a
# number written as an integer, tau instead of the viscosity. The canonical text
# differs, the case read from it does not, so the restart goes on.
run_ok "the same case with explicit defaults" run case.toml --backend $BACKEND -q --restart part --set run.steps=340 \
    --set model.equilibrium=compressible --set model.trt_magic=0.1875 --set boundary.y_min.type=wall \
    --set boundary.x_max.density=1 --set model.tau=0.65
grep -qF "done: 20 steps (from the checkpoint at step 320 to 340)" "$T/stdout" &&
    echo "ok   a restart accepts the same case with explicit defaults" ||
    { fail "the restart with explicit defaults did not go on from step 320"; show_run; }
expect "explicit defaults beside a change" 3 "was written by another case (model.collision: \"trt\" -> \"bgk\")" -- \
    run case.toml --backend $BACKEND -q --restart part --set run.steps=360 --set model.equilibrium=compressible \
    --set model.collision=bgk

# An SI case gives run.time instead of run.steps: a restart may change it as it may
# change run.steps (the canonical text leaves it out), and says so.
cat >si.toml <<'CASE'
title = "restart in seconds"
[units]
length = 0.1
velocity = 0.01
[model]
lattice = "D2Q9"
viscosity = 1e-5
[domain]
size = [32, 16]
[boundary.y_max]
type = "moving_wall"
velocity = [0.01, 0]
[run]
time = 2
[output]
formats = ["vti"]
CASE
run_ok "SI case, 2 s" run si.toml --backend $BACKEND -q --out si --checkpoint-every 50
grep -qF -- "--restart si --set run.time=SECONDS" "$T/stdout" || { fail "the SI case's checkpoint line does not say run.time"; show_run; }
run_ok "SI case restarted to 3 s" run si.toml --backend $BACKEND -q --restart si --set run.time=3
grep -qF "from the checkpoint at step" "$T/stdout" && echo "ok   an SI case's restart may change run.time" ||
    { fail "the SI case's restart to 3 s did not go on from its checkpoint"; show_run; }

cli_finish restart
