#!/usr/bin/env bash
# What a successful run leaves behind: fields.pvd listing the .vti files, VTK
# ImageData files, PNG slices, no temporaries, and a summary on stdout. Also
# `barracuda info` and `barracuda bench --json`.
#
# usage: bash run_outputs.sh <path-to-barracuda> [<source-dir>]
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
cli_init run_outputs "$@"
need_python "check the XML and JSON"

# check_output_dir DIR COMPRESSED: the files a run with interval 5, steps 10 leaves.
check_output_dir() {
    local dir=$1 compressed=$2 f
    local f0=$failures
    [[ -f $dir/fields.pvd ]] || fail "$dir: no fields.pvd"
    mapfile -t vtis < <(find "$dir" -maxdepth 1 -name '*.vti' -printf '%f\n' | LC_ALL=C sort)
    mapfile -t pngs < <(find "$dir" -maxdepth 1 -name '*.png' -printf '%f\n' | LC_ALL=C sort)
    ((${#vtis[@]} >= 1)) || fail "$dir: no .vti file"
    ((${#pngs[@]} >= 1)) || fail "$dir: no .png file"
    # steps 0, 5 and 10
    [[ ${vtis[*]:-} == "fields_00000000.vti fields_00000005.vti fields_00000010.vti" ]] ||
        fail "$dir: expected the .vti files of steps 0, 5, 10, found: ${vtis[*]:-none}"

    # The .pvd is well-formed XML and lists exactly the .vti files in the directory.
    if [[ -f $dir/fields.pvd ]]; then
        local listed
        if listed=$(python3 - "$dir/fields.pvd" <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "VTKFile" and root.get("type") == "Collection", f"root is {root.tag} type={root.get('type')}"
for d in root.iter("DataSet"):
    print(d.get("timestep"), d.get("file"))
EOF
        ); then
            local want=""
            for f in "${vtis[@]}"; do
                want+="$((10#${f//[!0-9]/})) $f"$'\n'
            done
            if [[ "$listed"$'\n' != "$want" ]]; then
                fail "$dir/fields.pvd does not list the .vti files (timestep file):"
                diff <(echo -n "$want") <(echo "$listed") >&2 || true
            fi
        else
            fail "$dir/fields.pvd is not a well-formed VTK collection:"
            cat "$dir/fields.pvd" >&2
        fi
        [[ $(tail -c 20 "$dir/fields.pvd") == *"</VTKFile>"* ]] || fail "$dir/fields.pvd does not end with </VTKFile>"
    fi

    for f in "${vtis[@]}"; do
        [[ $(head -c 5 "$dir/$f") == "<?xml" ]] || fail "$dir/$f does not start with <?xml"
        grep -aqF '<VTKFile type="ImageData"' "$dir/$f" || fail "$dir/$f has no <VTKFile type=\"ImageData\""
        grep -aqF 'WholeExtent="0 15 0 15 0 0"' "$dir/$f" || fail "$dir/$f: no WholeExtent=\"0 15 0 15 0 0\" for 16x16"
        [[ $(tail -c 20 "$dir/$f") == *"</VTKFile>"* ]] || fail "$dir/$f does not end with </VTKFile>"
        if [[ $compressed == yes ]]; then
            grep -aqF 'compressor="vtkZLibDataCompressor"' "$dir/$f" || fail "$dir/$f is not zlib-compressed"
        else
            grep -aqF 'compressor=' "$dir/$f" && fail "$dir/$f names a compressor although compression = none"
        fi
    done
    for f in "${pngs[@]}"; do
        [[ $(head -c 8 "$dir/$f" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] ||
            fail "$dir/$f does not start with the PNG signature"
    done
    local tmps
    tmps=$(find "$dir" -name '*.tmp*')
    [[ -z $tmps ]] || fail "$dir: temporary files remain: $tmps"
    ((failures == f0)) && echo "ok   $dir: fields.pvd lists ${#vtis[@]} .vti files, ${#pngs[@]} .png, no temporaries"
    return 0
}

cat >case.toml <<EOF
title = "cli run outputs"

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
directory = "$T/out"
interval = 5
EOF

# --- a tiny run ----------------------------------------------------------------------
rc=0
timeout 120 "$BIN" run case.toml --backend cpu -q >stdout 2>stderr || rc=$?
if [[ $rc != 0 ]]; then
    fail "barracuda run case.toml --backend cpu -q: exit code $rc, expected 0"
    show_run
else
    echo "ok   run exits 0"
    check_output_dir "$T/out" no
    grep -q "MLUPS" stdout || { fail "the summary on stdout does not mention MLUPS"; show_run; }
    grep -qF "$T/out" stdout || { fail "the summary on stdout does not name the output directory $T/out"; show_run; }
    grep -q "MLUPS" stdout && grep -qF "$T/out" stdout && echo "ok   summary: $(grep -F "$T/out" stdout)"
fi

# --- the same with zlib compression of the VTK data ------------------------------------
rc=0
timeout 120 "$BIN" run case.toml --backend cpu -q --set output.compression=zlib --set "output.directory=$T/zout" \
    >stdout 2>stderr || rc=$?
if [[ $rc != 0 ]]; then
    fail "run with output.compression = zlib: exit code $rc, expected 0"
    show_run
else
    check_output_dir "$T/zout" yes
fi

# --- forces on named obstacles: forces.csv and the summary -------------------------------
# The moving-lid cavity with a block and a disc; forces every 4 steps and at the last.
rc=0
timeout 120 "$BIN" run case.toml --backend cpu -q --set "output.directory=$T/fout" \
    --set 'obstacle=[{name = "block", shape = "box", min = [6, 3], max = [9, 5]}, {name = "disc", shape = "sphere", center = [8, 10], radius = 2}]' \
    --set 'forces.obstacles=["disc", "block"]' --set forces.reference_velocity=0.05 --set forces.reference_area=4 \
    --set forces.interval=4 >stdout 2>stderr || rc=$?
if [[ $rc != 0 ]]; then
    fail "run with [forces]: exit code $rc, expected 0"
    show_run
elif [[ ! -f $T/fout/forces.csv ]]; then
    fail "run with [forces]: no $T/fout/forces.csv"
    show_run
elif ! python3 - "$T/fout/forces.csv" <<'EOF' 2>"$T/csv_error"; then
import csv, math, sys
rows = list(csv.reader(open(sys.argv[1])))
want = ["step", "time"] + [f"{n}.{c}" for n in ("disc", "block") for c in ("Fx", "Fy", "Fz", "C_d", "C_l")]
assert rows[0] == want, rows[0]
assert [r[0] for r in rows[1:]] == ["4", "8", "10"], [r[0] for r in rows[1:]]
q = 0.5 * 0.05**2 * 4
for r in rows[1:]:
    v = [float(x) for x in r]
    assert all(math.isfinite(x) for x in v), r
    for k in range(2):
        F = v[2 + 5 * k: 5 + 5 * k]
        assert abs(v[5 + 5 * k] - F[0] / q) <= 1e-9 * abs(v[5 + 5 * k]) + 1e-12, r
        assert abs(v[6 + 5 * k] - F[1] / q) <= 1e-9 * abs(v[6 + 5 * k]) + 1e-12, r
EOF
    fail "forces.csv: $(tail -n 1 "$T/csv_error")"
    cat "$T/fout/forces.csv" >&2
elif ! grep -q 'forces: forces.csv, 3 samples every 4 steps' stdout || ! grep -q '"disc" C_d = ' stdout; then
    fail "the summary does not mention forces.csv with 3 samples and the coefficients of \"disc\""
    show_run
else
    echo "ok   forces.csv: header, rows at steps 4, 8, 10, C = F / (U^2 A / 2); summary: $(grep '^forces:' stdout)"
fi

# --- barracuda info ----------------------------------------------------------------------
rc=0
"$BIN" info >stdout 2>stderr || rc=$?
if [[ $rc != 0 ]]; then
    fail "barracuda info: exit code $rc, expected 0"
    show_run
elif ! grep -qi "cpu" stdout; then
    fail "barracuda info does not mention cpu"
    show_run
else
    echo "ok   barracuda info exits 0 and lists the cpu backend"
fi

# --- barracuda bench --json ---------------------------------------------------------------
rc=0
timeout 120 "$BIN" bench --backend cpu --size 16 --repetitions 1 --steps 2 --json >stdout 2>stderr || rc=$?
if [[ $rc != 0 ]]; then
    fail "barracuda bench --backend cpu --size 16 --repetitions 1 --steps 2 --json: exit code $rc, expected 0"
    show_run
elif ! python3 -c 'import json,sys; json.load(sys.stdin)' <stdout 2>"$T/json_error"; then
    fail "barracuda bench --json does not print valid JSON: $(tail -n 1 "$T/json_error")"
    show_run
elif ! grep -q '"mlups"' stdout; then
    fail "barracuda bench --json has no \"mlups\""
    show_run
elif ! python3 -c '
import json, sys
d = json.load(sys.stdin)
r = d["results"]
assert d["backend"] == "cpu", d["backend"]
assert len(r) == 1 and r[0]["size"] == 16 and r[0]["steps"] == 2, r
assert r[0]["mlups"] > 0, r
' <stdout 2>"$T/json_error"; then
    fail "barracuda bench --json: unexpected content: $(tail -n 1 "$T/json_error")"
    show_run
else
    echo "ok   barracuda bench --json prints valid JSON with mlups"
fi

cli_finish run_outputs
