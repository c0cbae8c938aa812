#!/usr/bin/env bash
# A run never overwrites earlier results: a second run with the same
# output.directory writes to <dir>-1 (and says so), the first run's files stay
# byte for byte as they were, and a run that fails validation touches nothing.
#
# usage: bash no_overwrite.sh <path-to-barracuda> [<source-dir>]
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
cli_init no_overwrite "$@"

OUT=$T/res
cat >case.toml <<EOF
title = "cli no-overwrite"

[model]
lattice = "D2Q9"
tau = 0.8

[domain]
size = [16, 16]

[boundary.y_max]
type = "moving_wall"
velocity = [0.05, 0.0]

[run]
steps = 10
check_interval = 5

[output]
directory = "$OUT"
interval = 5
EOF

# Names, sizes, mtimes and contents of every file under a directory.
state() {
    (cd "$1" && find . -printf '%p %y %s %T@\n' | LC_ALL=C sort && find . -type f -exec sha256sum {} + | LC_ALL=C sort)
}

# run_case EXPECTED_RC ARGS...: runs barracuda, stdout/stderr to $T/stdout, $T/stderr.
run_case() {
    local want=$1 rc=0
    shift
    timeout 120 "$BIN" "$@" >"$T/stdout" 2>"$T/stderr" || rc=$?
    if [[ $rc != "$want" ]]; then
        fail "barracuda $*: exit code $rc, expected $want"
        show_run
        return 1
    fi
}

# --- run 1: writes into the new directory -----------------------------------------
run_case 0 run case.toml --backend cpu -q || { echo "no_overwrite: the first run failed; cannot go on" >&2; exit 1; }
[[ -f $OUT/fields.pvd ]] || { echo "FAIL: the first run wrote no $OUT/fields.pvd" >&2; ls -la "$OUT" >&2 || true; exit 1; }
if grep -q "instead" "$T/stderr"; then fail "the first run reports a renamed directory:"; show_run; fi
[[ -e $OUT-1 ]] && fail "the first run created $OUT-1"
state "$OUT" >"$T/state1"
echo "ok   run 1 wrote $(find "$OUT" -type f | wc -l) files to $OUT"

sleep 1  # so that a rewrite of run 1's files would show in their mtimes too

# --- run 2: same directory -> <dir>-1 ---------------------------------------------------
if run_case 0 run case.toml --backend cpu -q; then
    if [[ ! -f $OUT-1/fields.pvd ]]; then
        fail "the second run did not write to $OUT-1"
        ls -la "$T" >&2
        show_run
    else
        echo "ok   run 2 wrote $(find "$OUT-1" -type f | wc -l) files to $OUT-1"
    fi
    if ! grep -qF "$OUT-1" "$T/stderr"; then
        fail "the second run does not say on stderr that it writes to $OUT-1"
        show_run
    else
        echo "ok   run 2 says so on stderr: $(grep -F "$OUT-1" "$T/stderr")"
    fi
    grep -qF "output: $OUT-1" "$T/stdout" || { fail "the summary of run 2 does not name $OUT-1"; show_run; }
fi
state "$OUT" >"$T/state2"
if ! cmp -s "$T/state1" "$T/state2"; then
    fail "the second run changed the first run's results in $OUT:"
    diff "$T/state1" "$T/state2" >&2 || true
else
    echo "ok   run 1's files are byte-identical after run 2"
fi
[[ -e $OUT-2 ]] && fail "the second run created $OUT-2"
state "$OUT-1" >"$T/state1b"

# --- run 3: an invalid case with the same directory touches nothing --------------------
f0=$failures
ls -la "$T" >"$T/listing_before"
if run_case 3 run case.toml --backend cpu -q --set model.tau=0.5; then
    echo "ok   run 3 (tau = 0.5) exits 3"
fi
grep -qF "model.tau" "$T/stderr" || { fail "run 3: the error does not name model.tau"; show_run; }
[[ -e $OUT-2 ]] && fail "the invalid run created $OUT-2"
cmp -s "$T/state1" <(state "$OUT") || { fail "the invalid run changed $OUT:"; diff "$T/state1" <(state "$OUT") >&2 || true; }
cmp -s "$T/state1b" <(state "$OUT-1") || { fail "the invalid run changed $OUT-1:"; diff "$T/state1b" <(state "$OUT-1") >&2 || true; }
ls -la "$T" >"$T/listing_after"
# (the listing holds stdout/stderr of the runs; compare only the result directories)
if ! diff <(grep ' res' "$T/listing_before") <(grep ' res' "$T/listing_after") >/dev/null; then
    fail "the invalid run changed the set of result directories:"
    diff <(grep ' res' "$T/listing_before") <(grep ' res' "$T/listing_after") >&2 || true
fi
((failures == f0)) && echo "ok   run 3 left $OUT and $OUT-1 untouched and created no $OUT-2"

# --- run 4: an existing but empty directory is used as it is ----------------------------
mkdir "$T/empty"
if run_case 0 run case.toml --backend cpu -q --set "output.directory=$T/empty"; then
    if [[ -f $T/empty/fields.pvd && ! -e $T/empty-1 ]]; then
        echo "ok   run 4 used the existing empty directory"
    else
        fail "run 4 did not write into the existing empty directory $T/empty"
        show_run
    fi
fi

# --- run 5: --out with a trailing slash numbers the directory, not an empty name -------
if run_case 0 run case.toml --backend cpu -q --out "$OUT/"; then
    if [[ -f $OUT-2/fields.pvd ]]; then
        echo "ok   run 5 (--out '$OUT/') wrote to $OUT-2"
    else
        fail "run 5 (--out '$OUT/') did not write to $OUT-2"
        ls -la "$T" "$OUT" >&2
        show_run
    fi
fi
cmp -s "$T/state1" <(state "$OUT") || { fail "run 5 changed $OUT:"; diff "$T/state1" <(state "$OUT") >&2 || true; }
cmp -s "$T/state1b" <(state "$OUT-1") || fail "run 5 changed $OUT-1"

cli_finish no_overwrite
