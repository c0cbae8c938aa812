#!/usr/bin/env bash
# `mpirun -np N barracuda run`: the same case on 1 and 2 ranks writes the same
# forces.csv and PNG slice (decomposition independence end to end), a .pvti
# with one piece per rank, the summary once (rank 0); bad input under MPI stops
# every rank with the documented exit code and one message, without hanging.
# Skipped (exit 0 with a note) when mpirun is not installed.
#
# usage: bash mpi_run.sh <path-to-barracuda> [<source-dir>]
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)  # the cases/ of this tree
cli_init mpi_run "$@"
command -v mpirun >/dev/null || { echo "mpi_run: mpirun not found, skipped"; exit 0; }
# A binary configured with BARRACUDA_MPI=OFF runs each mpirun process as a rank 0 of one.
"$BIN" info 2>/dev/null | grep -q "mpi   built" || { echo "mpi_run: barracuda built without MPI, skipped"; exit 0; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
MPI=(timeout 300 mpirun -np 2 --oversubscribe)

# A 2D channel with a cylinder cut by the subdomain faces, forces every 50 steps.
channel_case "cli mpi" 50 100 >case.toml
# Probes on both ranks' blocks and means over 100-200 with a section (gathered on rank 0).
cat >>case.toml <<'CASE'
[probes]
points = [[10, 10], [45, 15]]
interval = 10
[average]
steps = [100, 200]
interval = 10
section = "z"
profiles = [10, 45]
CASE

rc=0
"$BIN" run case.toml --backend cpu -q --out one >"$T/stdout" 2>"$T/stderr" || rc=$?
[[ $rc == 0 ]] || { fail "1 rank: exit $rc"; show_run; }
rc=0
"${MPI[@]}" "$BIN" run case.toml --backend cpu --out two >"$T/stdout" 2>"$T/stderr" || rc=$?
[[ $rc == 0 ]] || { fail "2 ranks: exit $rc"; show_run; }
grep -qF "2 ranks as [2, 1, 1]" "$T/stderr" || { fail "the log does not name the rank grid"; show_run; }
[[ $(grep -c "^done:" "$T/stdout") == 1 ]] || { fail "the summary is not printed once (rank 0 only)"; show_run; }
cmp -s one/forces.csv two/forces.csv || fail "forces.csv differs between 1 and 2 ranks"
cmp -s one/slice_00000200.png two/slice_00000200.png || fail "the PNG slice differs between 1 and 2 ranks"
for f in probes.csv mean_section.csv mean_section_speed.png mean_profiles.png; do
    cmp -s "one/$f" "two/$f" || fail "$f differs between 1 and 2 ranks"
done
[[ -s two/mean.pvti && -s two/mean_r0001.vti ]] || fail "the means were not written as mean.pvti and its pieces"
for f in two/fields_00000200.pvti two/fields_00000200_r0000.vti two/fields_00000200_r0001.vti; do
    [[ -s $f ]] || fail "$f was not written"
done
grep -qF 'Source="fields_00000200_r0001.vti"' two/fields_00000200.pvti || fail "the .pvti does not list rank 1's piece"
grep -qF 'fields_00000200.pvti' two/fields.pvd || fail "fields.pvd does not list the .pvti"
((failures)) || echo "ok   1 and 2 ranks agree; pieces, .pvti and .pvd written"

# A multiphase case (the free energy, a drop on a wetting wall): its macro field crosses
# the subdomain faces; multiphase.csv (the interface's gradient over the whole box) and
# the slice are the same on 1 and 2 ranks. The GPU is refused on several ranks.
before=$failures
for n in 1 2; do
    rc=0
    timeout 300 mpirun -np $n --oversubscribe "$BIN" run "$SRC/cases/free_energy_sessile_drop.toml" --backend cpu -q \
        --set run.steps=200 --set output.interval=100 --out "fe$n" >"$T/stdout" 2>"$T/stderr" || rc=$?
    [[ $rc == 0 ]] || { fail "free energy on $n rank(s): exit $rc"; show_run; }
done
cmp -s fe1/multiphase.csv fe2/multiphase.csv || fail "multiphase.csv differs between 1 and 2 ranks"
cmp -s fe1/slice_00000200.png fe2/slice_00000200.png || fail "the free energy's slice differs between 1 and 2 ranks"
((failures > before)) || echo "ok   the free energy on 1 and 2 ranks agrees"

# validate runs on one rank: refused under two, before anything is written (each rank
# used to run its own copy into its own directory, and womersley failed to initialise).
rc=0
"${MPI[@]}" "$BIN" validate --short --backend cpu --out vout womersley >"$T/stdout" 2>"$T/stderr" || rc=$?
[[ $rc == 2 ]] || { fail "validate on 2 ranks: exit $rc, expected 2"; show_run; }
grep -qF "barracuda validate runs on one rank (2 here)" "$T/stderr" || { fail "validate on 2 ranks: no clear refusal"; show_run; }
[[ ! -e vout && ! -e vout-1 ]] || fail "validate on 2 ranks wrote a directory"
((failures)) || echo "ok   validate refused on 2 ranks"

# Checkpoints of a decomposed run, one file per rank: sitting 1 ends at step 100
# (an output and force step), sitting 2 goes on to 200 and ends where one sitting does.
rc=0
"${MPI[@]}" "$BIN" run case.toml --backend cpu -q --out parts --checkpoint-every 100 --set run.steps=100 \
    >"$T/stdout" 2>"$T/stderr" || rc=$?
[[ $rc == 0 ]] || { fail "2 ranks, sitting 1: exit $rc"; show_run; }
[[ -s parts/checkpoint_r0000.bin && -s parts/checkpoint_r0001.bin ]] || fail "no checkpoint per rank"
rc=0
"${MPI[@]}" "$BIN" run case.toml --backend cpu -q --restart parts >"$T/stdout" 2>"$T/stderr" || rc=$?
[[ $rc == 0 ]] || { fail "2 ranks, restart: exit $rc"; show_run; }
for f in forces.csv slice_00000200.png fields_00000200_r0000.vti fields_00000200_r0001.vti fields.pvd probes.csv \
    mean_r0000.vti mean_r0001.vti mean_section.csv; do
    cmp -s "two/$f" "parts/$f" || fail "2 ranks: $f differs after a restart"
done
# As if rank 1 had stopped before saving step 200: its latest file is of step 100,
# rank 0's are of 200 and 100. The restart goes on from 100, the step both hold.
mv parts/checkpoint_r0001.previous.bin parts/checkpoint_r0001.bin
rc=0
"${MPI[@]}" "$BIN" run case.toml --backend cpu -q --restart parts >"$T/stdout" 2>"$T/stderr" || rc=$?
[[ $rc == 0 ]] && grep -qF "going on from step 100, the newest every rank holds" "$T/stderr" ||
    { fail "2 ranks, checkpoints of steps 200 and 100: exit $rc"; show_run; }
cmp -s two/forces.csv parts/forces.csv || fail "2 ranks: forces.csv differs after going on from the previous checkpoint"
rc=0
"$BIN" run case.toml --backend cpu -q --restart parts --set run.steps=300 >"$T/stdout" 2>"$T/stderr" || rc=$?
[[ $rc == 3 ]] && grep -qF "(the directory holds checkpoint_r0000.bin, checkpoint_r0001.bin: a run on another number of ranks)" \
    "$T/stderr" || { fail "a 2-rank checkpoint on 1 rank: exit $rc"; show_run; }
((failures)) || echo "ok   2 ranks: a restart ends where one sitting does; refused on 1 rank"

# expect_mpi NAME RC PATTERN -- ARGS: exit code (through mpirun) and one message naming the problem.
expect_mpi() {
    local name=$1 want=$2 pattern=$3
    shift 4
    local rc=0
    "${MPI[@]}" "$BIN" "$@" >"$T/stdout" 2>"$T/stderr" || rc=$?
    if [[ $rc != "$want" ]]; then fail "$name: exit $rc, expected $want"; show_run; return; fi
    if ! grep -qF -- "$pattern" "$T/stderr"; then fail "$name: stderr does not mention '$pattern'"; show_run; return; fi
    if [[ $(grep -c "^error" "$T/stderr") != 1 ]]; then fail "$name: the error is not printed once"; show_run; return; fi
    echo "ok   $name (exit $rc)"
}
expect_mpi "decomposition for 4 ranks on 2" 3 "domain.decomposition = [4, 1, 1]: it has 4 subdomains but the run has 2" -- \
    run case.toml --backend cpu -q --out bad1 --set "domain.decomposition=[4, 1]"
printf '[model]\nlattice = "D2Q9"\ntau = 0.8\n[domain]\nsize = [40, 3]\ndecomposition = [1, 2]\n' >thin.toml
expect_mpi "subdomains thinner than the ghost layer" 3 "splitting y (3 cells) into 2 leaves subdomains thinner than 2 cells" -- \
    run thin.toml --backend cpu -q --out bad2
expect_mpi "in-place streaming on 2 ranks" 3 "model.streaming = \"in-place\" is not offered with more than one rank" -- \
    run case.toml --backend cpu -q --out bad3 --set model.streaming=in-place
expect_mpi "fp16 on 2 ranks" 3 "model.precision = \"fp16\" is not offered with more than one rank" -- \
    run case.toml --backend cpu -q --out bad4 --set model.precision=fp16

cli_finish mpi_run
