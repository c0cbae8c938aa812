#!/usr/bin/env bash
# `barracuda validate` bad input and listing: an unknown case name is a
# command-line error (exit 2) naming the known cases, before anything runs or
# is written; --short and --full together are refused; --list lists every case;
# a full-only case asked for by name in the short variant exits 7 and says why, with a report.
#
# usage: bash validate.sh <path-to-barracuda> [<source-dir>]
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
cli_init validate "$@"

validate() {
    rc=0
    timeout 60 "$BIN" validate "$@" >"$T/stdout" 2>"$T/stderr" || rc=$?
}

# --- an unknown name --------------------------------------------------------------------------
validate --short --backend cpu --out "$T/out" cavity2d-re100 no-such-case
if [[ $rc != 2 ]]; then
    fail "validate with an unknown case: exit code $rc, expected 2"
    show_run
else
    ok=1
    for want in "unknown validation case 'no-such-case'" cavity2d-re100 taylor-green-precision kida-vortex \
        cavity3d-re1000 sphere-pipe-re1 "--list"; do
        grep -qF -- "$want" "$T/stderr" || { fail "unknown case: stderr lacks '$want'"; ok=0; }
    done
    [[ ! -e $T/out ]] || { fail "unknown case: the output directory was created"; ok=0; }
    ((ok)) && echo "ok   unknown case name: exit 2, the known cases listed, nothing written" || show_run
fi

# --- --short with --full ----------------------------------------------------------------------
validate --short --full --backend cpu --out "$T/out2" kida-vortex
if [[ $rc != 2 ]]; then
    fail "validate --short --full: exit code $rc, expected 2"
    show_run
else
    echo "ok   --short with --full: exit 2"
fi

# --- --list -----------------------------------------------------------------------------------
validate --list
if [[ $rc != 0 ]]; then
    fail "validate --list: exit code $rc, expected 0"
    show_run
else
    ok=1
    for want in cavity2d-re100 cavity2d-re400 cavity2d-re1000 taylor-green-precision kida-vortex cavity3d-re1000 \
        sphere-pipe-re1 sphere-pipe-table3 sphere-pipe-table3-unsteady sphere-pipe-re1-d3q13 sphere-pipe-table3-d3q13 \
        sphere-pipe-table3-unsteady-d3q13 sphere-pipe-table3-unsteady-re300 sphere-pipe-table3-unsteady-re400 \
        sphere-pipe-table3-unsteady-d3q13-re400 sphere-pipe-table3-velocity-outlet \
        sphere-pipe-table3-d3q13-pressure-outlet womersley; do
        grep -qE "^$want " "$T/stdout" || { fail "validate --list: no line for $want"; ok=0; }
    done
    ((ok)) && echo "ok   --list names every case" || show_run
fi

# --- a full-only case named in the short variant -------------------------------------------------
validate --short --backend cpu --out "$T/out3" sphere-pipe-table3-unsteady
if [[ $rc != 7 ]]; then
    fail "validate --short sphere-pipe-table3-unsteady: exit code $rc, expected 7 (named but not run)"
    show_run
elif ! grep -q "not run" "$T/stdout" || ! grep -q "full variant only" "$T/out3/report.md"; then
    fail "validate --short sphere-pipe-table3-unsteady: 'not run' and the reason not reported"
    show_run
else
    echo "ok   a full-only case named in the short variant: exit 7, reported as not run with the reason"
fi

cli_finish validate
