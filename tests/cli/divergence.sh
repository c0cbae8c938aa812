#!/usr/bin/env bash
# A run that blows up stops with exit code 5 and a message naming the step, the
# cell (x, y, z) and the field; the output written before the divergence (the
# .vti files and fields.pvd) is kept and intact.
#
# usage: bash divergence.sh <path-to-barracuda> [<source-dir>]
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
cli_init divergence "$@"
need_python "check the VTK files"

# A valid case that is unstable: BGK with tau = 0.5001 (nu ~ 3e-5), a lid at
# |u| = 0.39 just below the limit, and a body force, in a closed 32x32 box.
# (A periodic box does not do: a uniform flow under a uniform force stays
# uniform, its density never leaves the range, and the run "succeeds".)
OUT=$T/out
N=32
CHECK=5
cat >case.toml <<EOF
title = "cli divergence"

[model]
lattice = "D2Q9"
collision = "bgk"
tau = 0.5001

[domain]
size = [$N, $N]

[boundary.y_max]
type = "moving_wall"
velocity = [0.39, 0.0]

[force]
body = [0.001, 0.0]

[run]
steps = 2000
check_interval = $CHECK

[output]
directory = "$OUT"
interval = $CHECK
formats = ["vti", "png"]
compression = "none"
EOF

rc=0
timeout 300 "$BIN" run case.toml --backend cpu -q >stdout 2>stderr || rc=$?
show_run() {
    {
        echo "     command: barracuda run case.toml --backend cpu -q"
        echo "     --- stderr ---"
        sed 's/^/     /' stderr
        echo "     --- stdout ---"
        sed 's/^/     /' stdout
    } >&2
}
if [[ $rc != 5 ]]; then
    fail "exit code $rc, expected 5 (diverged)"
    show_run
    echo "divergence: FAILED" >&2
    exit 1
fi
echo "ok   exit code 5"

# --- the message: step, cell (x, y, z), field ---------------------------------------
msg=$(grep -m1 "diverged" stderr || true)
step=""
if [[ $msg =~ at\ step\ ([0-9]+) ]]; then
    step=${BASH_REMATCH[1]}
    ((step > 0 && step <= 2000 && step % CHECK == 0)) ||
        fail "the step in the message ($step) is not a check step (a multiple of $CHECK in 1..2000)"
else
    fail "the message does not name the step ('at step N')"
fi
if [[ $msg =~ cell\ \(([0-9]+),\ ([0-9]+),\ ([0-9]+)\) ]]; then
    x=${BASH_REMATCH[1]} y=${BASH_REMATCH[2]} z=${BASH_REMATCH[3]}
    ((x < N && y < N && z == 0)) || fail "the cell ($x, $y, $z) in the message is outside the ${N}x${N} domain"
else
    fail "the message does not name the cell as '(x, y, z)'"
fi
[[ $msg =~ (density|velocity) ]] || fail "the message does not name the field (density or velocity)"
if ((failures)); then
    show_run
else
    echo "ok   message: $msg"
fi

# --- the output before the divergence is kept and intact ---------------------------
[[ -d $OUT ]] || { fail "the output directory $OUT is gone"; echo "divergence: FAILED" >&2; exit 1; }
tmps=$(find "$OUT" -name '*.tmp*')
[[ -z $tmps ]] || fail "temporary files remain: $tmps"
[[ -f $OUT/fields.pvd ]] || fail "$OUT/fields.pvd is missing"
[[ $(tail -c 20 "$OUT/fields.pvd" 2>/dev/null) == *"</VTKFile>"* ]] || fail "$OUT/fields.pvd does not end with </VTKFile>"
ls "$OUT"/slice_*.png >/dev/null 2>&1 || fail "no .png written before the divergence was kept"

# The .pvd is well-formed, lists every .vti in the directory and nothing else,
# every one from before the divergence step, the last one from the last check
# that passed. Each .vti is complete (header, every array's byte count, the
# closing tags) and holds a good state: finite, density within [0.1, 10].
if ! python3 - "$OUT" "$N" "${step:-0}" "$CHECK" <<'EOF'; then
import math, os, re, struct, sys, xml.etree.ElementTree as ET

out, n, step, check = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
errors = []

root = ET.parse(os.path.join(out, "fields.pvd")).getroot()
assert root.tag == "VTKFile" and root.get("type") == "Collection", "fields.pvd is not a VTK collection"
listed = [(float(d.get("timestep")), d.get("file")) for d in root.iter("DataSet")]
on_disk = sorted(f for f in os.listdir(out) if f.endswith(".vti"))
if sorted(f for _, f in listed) != on_disk:
    errors.append(f"fields.pvd lists {[f for _, f in listed]} but the directory holds {on_disk}")
times = [t for t, _ in listed]
if not times:
    errors.append("fields.pvd lists no data set")
else:
    if times[0] != 0:
        errors.append(f"the first data set is at step {times[0]}, expected 0")
    if step and max(times) >= step:
        errors.append(f"a data set at step {max(times)} is not before the divergence at step {step}")
    if step and max(times) < step - check:
        errors.append(f"the last data set is at step {max(times)}; the last good state (step {step - check}) is missing")

sizes = {"Float64": 8, "Float32": 4, "UInt8": 1}
for _, name in listed:
    path = os.path.join(out, name)
    if not os.path.exists(path):
        errors.append(f"{name} is listed but missing")
        continue
    data = open(path, "rb").read()
    mark = data.find(b'<AppendedData encoding="raw">')
    under = data.find(b"_", mark)
    if not data.startswith(b"<?xml") or mark < 0 or under < 0:
        errors.append(f"{name}: no XML header or no raw appended data")
        continue
    head = data[:under].decode()
    if '<VTKFile type="ImageData"' not in head or 'header_type="UInt64"' not in head:
        errors.append(f"{name}: not an ImageData file with UInt64 headers")
        continue
    if f'WholeExtent="0 {n-1} 0 {n-1} 0 0"' not in head:
        errors.append(f"{name}: not the {n}x{n} extent")
    base = under + 1
    end = base
    for m in re.finditer(r'<DataArray type="(\w+)" Name="(\w+)" NumberOfComponents="(\d+)" format="appended" offset="(\d+)"', head):
        typ, arr, comps, off = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
        at = base + off
        want = n * n * comps * sizes[typ]
        if at + 8 > len(data):
            errors.append(f"{name}: array {arr} lies past the end of the file")
            continue
        (count,) = struct.unpack_from("<Q", data, at)
        if count != want:
            errors.append(f"{name}: array {arr} has a byte count of {count}, expected {want}")
            continue
        if at + 8 + count > len(data):
            errors.append(f"{name}: array {arr} is cut short by the end of the file ({len(data)} bytes)")
            continue
        end = max(end, at + 8 + count)
        if typ == "Float64":
            values = struct.unpack_from(f"<{n * n * comps}d", data, at + 8)
            if not all(math.isfinite(v) for v in values):
                errors.append(f"{name}: {arr} holds NaN/Inf")
            elif arr == "density" and not all(0.1 <= v <= 10 for v in values):
                errors.append(f"{name}: density outside [0.1, 10]: {min(values)} .. {max(values)}")
    if end == base:
        errors.append(f"{name}: no DataArray found")
    if not data[end:].strip().endswith(b"</VTKFile>") or b"</AppendedData>" not in data[end:]:
        errors.append(f"{name}: the file does not end with </AppendedData> </VTKFile> after the data (truncated?)")

for e in errors:
    print(e, file=sys.stderr)
if not errors:
    print(f"ok   {len(listed)} data sets kept (steps {int(min(times))} .. {int(max(times))}), each complete and finite")
sys.exit(1 if errors else 0)
EOF
    fail "the output written before the divergence is not intact (above)"
    ls -la "$OUT" >&2
fi

# --- forces.csv keeps the samples from before the divergence -----------------------------
# The same case with a block whose force is sampled every 3 steps: the run still
# diverges; forces.csv is complete, every row finite and from a state that passed a check.
FOUT=$T/fout
sed -e "s|directory = \"$OUT\"|directory = \"$FOUT\"|" case.toml >forces.toml
cat >>forces.toml <<EOF

[[obstacle]]
name = "block"
shape = "box"
min = [12, 4]
max = [15, 9]

[forces]
obstacles = ["block"]
reference_velocity = 0.39
reference_area = 6
interval = 3
EOF
rc=0
timeout 300 "$BIN" run forces.toml --backend cpu -q >stdout 2>stderr || rc=$?
fstep=""
[[ $(grep -m1 "diverged" stderr || true) =~ at\ step\ ([0-9]+) ]] && fstep=${BASH_REMATCH[1]}
if [[ $rc != 5 || -z $fstep ]]; then
    fail "the case with [forces]: exit code $rc, expected 5 with 'at step N'"
    show_run
elif [[ -n $(find "$FOUT" -name '*.tmp*') ]]; then
    fail "temporary files remain in $FOUT"
elif ! python3 - "$FOUT/forces.csv" "$fstep" "$CHECK" <<'EOF' 2>"$T/csv_error"; then
import csv, math, sys
rows = list(csv.reader(open(sys.argv[1])))
stop = int(sys.argv[2])
assert rows[0] == ["step", "time", "block.Fx", "block.Fy", "block.Fz", "block.C_d", "block.C_l"], rows[0]
steps = [int(r[0]) for r in rows[1:]]
assert steps and steps == list(range(3, 3 * len(steps) + 1, 3)), steps
# Samples wait for a check at or after their step: the rows end at the last check that passed.
last_good = stop - int(sys.argv[3])
assert steps[-1] <= last_good and steps[-1] + 3 > last_good, (steps[-1], stop)
assert all(len(r) == 7 and all(math.isfinite(float(x)) for x in r) for r in rows[1:]), rows
EOF
    fail "forces.csv after the divergence at step $fstep: $(tail -n 1 "$T/csv_error")"
    cat "$FOUT/forces.csv" >&2 || true
else
    echo "ok   forces.csv kept: $(($(wc -l <"$FOUT/forces.csv") - 1)) finite rows, the last before step $fstep"
fi

# --- output between checks (issue 21) -----------------------------------------------
# The reproduction of issue 21: a lid at 0.39 over nu = 1e-5, fields every 10 steps
# and the watch at its default interval (100), then at 1000; forces every 5 steps.
# The run diverges; every field file it keeps and every forces.csv row must hold a
# state that passed the watch (finite, density in [0.1, 10], |u| < 1).
cat >between.toml <<EOF
title = "diverging between checks"
[model]
lattice = "D2Q9"
viscosity = 1e-5
[domain]
size = [64, 64]
[boundary.y_max]
type = "moving_wall"
velocity = [0.39, 0.0]
[[obstacle]]
name = "block"
shape = "box"
min = [28, 20]
max = [35, 27]
[forces]
obstacles = ["block"]
reference_velocity = 0.39
reference_area = 8
interval = 5
[run]
steps = 20000
[output]
interval = 10
formats = ["vti"]
compression = "none"
EOF
cat >check_kept.py <<'PY'
import csv, math, os, re, struct, sys
out = sys.argv[1]
errors = []
listed = re.findall(r'file="([^"]+)"', open(os.path.join(out, "fields.pvd")).read())
on_disk = sorted(f for f in os.listdir(out) if f.endswith(".vti"))
if sorted(listed) != on_disk:
    errors.append(f"fields.pvd lists {len(listed)} files, the directory holds {len(on_disk)}")
for name in listed:
    data = open(os.path.join(out, name), "rb").read()
    base = data.find(b"_", data.find(b'<AppendedData encoding="raw">')) + 1
    head = data[:base].decode(errors="replace")
    for m in re.finditer(r'<DataArray type="Float64" Name="(\w+)" NumberOfComponents="(\d+)" format="appended" offset="(\d+)"', head):
        arr, comps, off = m.group(1), int(m.group(2)), int(m.group(3))
        (count,) = struct.unpack_from("<Q", data, base + off)
        v = struct.unpack_from(f"<{count // 8}d", data, base + off + 8)
        if not all(math.isfinite(x) for x in v):
            errors.append(f"{name}: {arr} holds NaN/Inf")
        elif arr == "density" and not all(0.1 <= x <= 10 for x in v):
            errors.append(f"{name}: density {min(v):.3g} .. {max(v):.3g}")
        elif arr == "velocity" and max(math.sqrt(v[i]**2 + v[i+1]**2 + v[i+2]**2) for i in range(0, len(v), 3)) >= 1:
            errors.append(f"{name}: |u| >= 1")
path = os.path.join(out, "forces.csv")
rows = list(csv.reader(open(path))) if os.path.exists(path) else [[]]
stop = int(sys.argv[2])
for r in rows[1:]:
    if int(r[0]) >= stop or not all(math.isfinite(float(x)) for x in r) or abs(float(r[5])) > 100:
        errors.append(f"forces.csv row {r[:1] + r[5:6]} (step >= {stop}, not finite or |C_d| > 100)")
        break
for e in errors[:5]:
    print(e, file=sys.stderr)
if not errors:
    print(f"{len(listed)} field files and {len(rows) - 1} force rows kept, all from good states")
sys.exit(1 if errors else 0)
PY
for check in 100 1000; do
    rc=0
    timeout 300 "$BIN" run between.toml --backend cpu -q --out "between_$check" --set run.check_interval=$check \
        >stdout 2>stderr || rc=$?
    bstep=""
    [[ $(grep -m1 "diverged" stderr || true) =~ at\ step\ ([0-9]+) ]] && bstep=${BASH_REMATCH[1]}
    if [[ $rc != 5 || -z $bstep ]]; then
        fail "check_interval = $check: exit $rc, expected 5 with 'diverged at step N'"
        show_run
    elif kept=$(python3 check_kept.py "between_$check" "$bstep" 2>&1); then
        echo "ok   check_interval = $check: diverged at step $bstep; $kept"
    else
        fail "check_interval = $check: output kept after the divergence at step $bstep is bad: $kept"
    fi
done

cli_finish divergence
