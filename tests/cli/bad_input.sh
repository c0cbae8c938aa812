#!/usr/bin/env bash
# Bad input to `barracuda`: every mistake must stop the program with the
# documented exit code (3 invalid case, 4 no resources, 2 bad command line), a
# message on stderr that names the key and the value, and no output written.
#
# usage: bash bad_input.sh <path-to-barracuda> [<source-dir>]
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
cli_init bad_input "$@"
WORK=$T/work  # the cases live here, the runs start here, nothing may appear here
LOG=$T/log    # stdout / stderr of each run
mkdir -p "$WORK" "$LOG"
cd "$WORK"
checks=0

# A small valid base case: D2Q9 16x16 lid-driven cavity, 10 steps.
cat >base.toml <<EOF
title = "cli bad-input base"

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
directory = "$WORK/out"
interval = 5
EOF

# Everything under WORK: names, types, sizes, mtimes and contents.
snapshot() {
    (cd "$WORK" && find . -printf '%p %y %s %T@\n' | LC_ALL=C sort && find . -type f -exec sha256sum {} + | LC_ALL=C sort)
}

# expect NAME RC PATTERN... -- ARGS...
# Runs `barracuda ARGS...` in WORK and checks the exit code, that stderr holds
# every PATTERN (fixed strings) and that nothing in WORK was created or changed.
expect() {
    local name=$1 want=$2
    shift 2
    local -a patterns=()
    while (($#)) && [[ $1 != -- ]]; do
        patterns+=("$1")
        shift
    done
    [[ ${1:-} == -- ]] || { echo "test script bug: expect $name without --" >&2; exit 1; }
    shift
    checks=$((checks + 1))

    local before after rc=0
    before=$(snapshot)
    timeout 120 "$BIN" "$@" >"$LOG/stdout" 2>"$LOG/stderr" || rc=$?
    after=$(snapshot)

    local ok=1
    if [[ $rc != "$want" ]]; then
        fail "$name: exit code $rc, expected $want"
        ok=0
    fi
    local p
    for p in "${patterns[@]}"; do
        if ! grep -qF -- "$p" "$LOG/stderr"; then
            fail "$name: stderr does not mention '$p'"
            ok=0
        fi
    done
    if [[ -e $WORK/out ]]; then
        fail "$name: the output directory $WORK/out was created"
        ok=0
    fi
    if [[ $before != "$after" ]]; then
        fail "$name: files in the working directory were created or changed:"
        diff <(echo "$before") <(echo "$after") >&2 || true
        ok=0
    fi
    if ((ok)); then
        echo "ok   $name (exit $rc)"
    else
        {
            echo "     command: barracuda $*"
            echo "     --- stderr ---"
            sed 's/^/     /' "$LOG/stderr"
            echo "     --- stdout ---"
            sed 's/^/     /' "$LOG/stdout"
        } >&2
    fi
    rm -rf "$WORK/out"  # keep later checks independent of an earlier failure
}

# expect_runs LABEL CASE [pvd]
# A base case must run (exit 0; with "pvd", and write fields.pvd), or the checks
# built on it prove nothing. Its output goes outside WORK and is removed.
expect_runs() {
    local label=$1 case=$2 want_pvd=${3:-} rc=0
    checks=$((checks + 1))
    "$BIN" run "$case" --backend cpu -q --set "output.directory=$T/case-out" >"$LOG/stdout" 2>"$LOG/stderr" || rc=$?
    if [[ $rc != 0 || ( -n $want_pvd && ! -e $T/case-out/fields.pvd ) ]]; then
        fail "the $label does not run (exit $rc):"
        cat "$LOG/stderr" >&2
    else
        echo "ok   $label runs (exit 0)"
    fi
    rm -rf "$T/case-out"
}

RUN=(run base.toml --backend cpu -q)

# The base case itself must be valid, or every check below proves nothing.
expect_runs "base case" base.toml pvd

# --- unknown keys (with a hint) ------------------------------------------------
expect "unknown key via --set" 3 "model.colision" "did you mean 'model.collision'" -- \
    "${RUN[@]}" --set model.colision=bgk
cat >unknown_key.toml <<EOF
[model]
lattice = "D2Q9"
colision = "bgk"
tau = 0.8
[domain]
size = [16, 16]
[output]
directory = "$WORK/out"
EOF
expect "unknown key in a file (with line)" 3 "unknown_key.toml:3:" "model.colision" "did you mean 'model.collision'" -- \
    run unknown_key.toml --backend cpu -q

# --- wrong type -------------------------------------------------------------------
expect "wrong type via --set" 3 "model.tau" '"abc"' "expected a number" -- \
    "${RUN[@]}" --set model.tau=abc
cat >wrong_type.toml <<EOF
[model]
lattice = "D2Q9"
tau = "abc"
[domain]
size = [16, 16]
[output]
directory = "$WORK/out"
EOF
expect "wrong type in a file (with line)" 3 "wrong_type.toml:3:" "model.tau" '"abc"' "expected a number" -- \
    run wrong_type.toml --backend cpu -q

# --- viscosity ----------------------------------------------------------------------
expect "tau = 0.5" 3 "model.tau" "0.5" "> 0.5" -- "${RUN[@]}" --set model.tau=0.5
expect "tau = 0.3" 3 "model.tau" "0.3" -- "${RUN[@]}" --set model.tau=0.3
expect "viscosity = -0.1" 3 "model.viscosity" "-0.1" "> 0" -- "${RUN[@]}" --set model.viscosity=-0.1
expect "viscosity = 0" 3 "model.viscosity" "= 0" -- "${RUN[@]}" --set model.viscosity=0
expect "tau = 1e300 (issue 21)" 3 "model.tau = 1e+300" "at most 100" -- "${RUN[@]}" --set model.tau=1e300
expect "viscosity = 1e6" 3 "model.tau" "at most 100" -- "${RUN[@]}" --set model.viscosity=1e6

# --- the velocity limit |u| < 0.4 -------------------------------------------------
expect "initial.velocity at the limit" 3 "initial.velocity" "0.4" "< 0.4" -- \
    "${RUN[@]}" --set 'initial.velocity=[0.4, 0]'
expect "moving wall velocity above the limit" 3 "boundary.y_max.velocity" "0.5" "< 0.4" -- \
    "${RUN[@]}" --set 'boundary.y_max.velocity=[0.5, 0]'
expect "velocity inlet above the limit (|[0.3, 0.3]| = 0.42)" 3 "boundary.x_min.velocity" "[0.3, 0.3]" "< 0.4" -- \
    "${RUN[@]}" --set boundary.x_min.type=velocity --set 'boundary.x_min.velocity=[0.3, 0.3]'

# --- domain size ----------------------------------------------------------------------
expect "size 0" 3 "domain.size" "[0, 16]" ">= 1" -- "${RUN[@]}" --set 'domain.size=[0, 16]'
expect "size -3" 3 "domain.size" "[16, -3]" ">= 1" -- "${RUN[@]}" --set 'domain.size=[16, -3]'
expect "3D lattice with a 2D size" 3 "domain.size" "[16, 16, 1]" "D3Q19" -- "${RUN[@]}" --set model.lattice=D3Q19
expect "2D lattice with a 3D size" 3 "domain.size" "[16, 16, 8]" "D2Q9" -- "${RUN[@]}" --set 'domain.size=[16, 16, 8]'

# --- refusals quoted in docs/case-file.md ------------------------------------------------
expect "lattice misspelt" 3 'model.lattice = "D2Q8"' 'did you mean "D2Q9"' -- "${RUN[@]}" --set model.lattice=D2Q8
expect "entropic on D3Q19" 3 'model.collision = "entropic"' "not for D3Q19" "configurations offered" -- \
    "${RUN[@]}" --set model.lattice=D3Q19 --set 'domain.size=[8, 8, 8]' --set model.collision=entropic
expect "density range without 1" 3 "run.density_range = [0.5, 0.9]" "0 < min < 1 < max" -- \
    "${RUN[@]}" --set 'run.density_range=[0.5, 0.9]'
expect "MRT rate 2 (0 < s < 2)" 3 "model.mrt.s_q" "(0, 2)" -- "${RUN[@]}" --set model.collision=mrt --set model.mrt.s_q=2

# --- obstacles outside the domain (files: --set cannot create an array of tables) ----
cat >obstacle_box.toml <<EOF
[model]
lattice = "D2Q9"
tau = 0.8
[domain]
size = [16, 16]
[[obstacle]]
name = "block"
shape = "box"
min = [2, 2]
max = [20, 5]
[output]
directory = "$WORK/out"
EOF
expect "box corner outside the domain" 3 "obstacle[0]" "block" "max" "[20, 5]" "outside the domain" -- \
    run obstacle_box.toml --backend cpu -q
sed 's/^max = \[20, 5\]$/max = [15, 15]/; s/^min = \[2, 2\]$/min = [0, 0]/' obstacle_box.toml >obstacle_all.toml
expect "obstacles filling the box (issue 21)" 3 "the obstacles cover every node" "no fluid" -- \
    run obstacle_all.toml --backend cpu -q
# --- STL obstacles (issue 22): a missing file, an open surface, a truncated file ---------
stl_facet() { printf '  facet normal 0 0 0\n    outer loop\n      vertex %s\n      vertex %s\n      vertex %s\n    endloop\n  endfacet\n' "$@"; }
{
  echo "solid tetra"
  stl_facet "2 2 2" "6 2 2" "2 6 2"
  stl_facet "2 2 2" "2 6 2" "2 2 6"
  stl_facet "2 2 2" "2 2 6" "6 2 2"
  stl_facet "6 2 2" "2 2 6" "2 6 2"
  echo "endsolid tetra"
} >tetra.stl
grep -v "^endsolid" tetra.stl >truncated.stl
{ grep -v "^endsolid" tetra.stl; stl_facet "6 2 2" "2 2 6" "6 6 6"; echo "endsolid tetra"; } >open.stl  # a fin
cat >obstacle_stl.toml <<EOF
[model]
lattice = "D3Q19"
tau = 0.8
[domain]
size = [12, 12, 12]
[[obstacle]]
name = "tetra"
shape = "stl"
file = "absent.stl"
[output]
directory = "$WORK/out"
EOF
expect "STL file missing" 3 "obstacle[0].file" "absent.stl" "cannot open" -- run obstacle_stl.toml --backend cpu -q
expect "STL file truncated" 3 "obstacle[0].file" "without 'endsolid'" "truncated" -- \
    run obstacle_stl.toml --backend cpu -q --set 'obstacle[0].file="truncated.stl"'
expect "STL surface not closed" 3 "obstacle[0].file" "not closed" "edges" -- \
    run obstacle_stl.toml --backend cpu -q --set 'obstacle[0].file="open.stl"'
expect "STL surface outside the domain" 3 "obstacle[0]" "tetra" "outside the domain" -- \
    run obstacle_stl.toml --backend cpu -q --set 'obstacle[0].file="tetra.stl"' --set 'obstacle[0].translate=[40, 0, 0]'
expect "STL on a 2D lattice" 3 "obstacle[0].shape" "3D lattice" -- \
    run obstacle_stl.toml --backend cpu -q --set 'obstacle[0].file="tetra.stl"' --set 'model.lattice="D2Q9"' --set 'domain.size=[12, 12]'
# --- voxel images (issue 22): a raw file of another size, an NRRD header that names a detached file
head -c 1000 /dev/zero >short.raw
printf 'NRRD0004\ntype: uint8\ndimension: 3\nsizes: 4 4 4\nencoding: raw\ndata file: elsewhere.raw\n\n' >detached.nrrd
cat >obstacle_voxels.toml <<EOF
[model]
lattice = "D3Q19"
tau = 0.8
[domain]
size = [12, 12, 12]
[[obstacle]]
name = "rock"
shape = "voxels"
file = "short.raw"
dimensions = [10, 10, 12]
type = "uint8"
solid = [1]
[output]
directory = "$WORK/out"
EOF
expect "voxel raw file of another size" 3 "obstacle[0].file" "short.raw" "1000 bytes" "need 1200" -- \
    run obstacle_voxels.toml --backend cpu -q
cat >obstacle_nrrd.toml <<EOF
[model]
lattice = "D3Q19"
tau = 0.8
[domain]
size = [12, 12, 12]
[[obstacle]]
name = "rock"
shape = "voxels"
file = "detached.nrrd"
threshold = 1
[output]
directory = "$WORK/out"
EOF
expect "voxel NRRD with a detached data file" 3 "obstacle[0].file" "detached data file" -- \
    run obstacle_nrrd.toml --backend cpu -q
cat >obstacle_sphere.toml <<EOF
[model]
lattice = "D2Q9"
tau = 0.8
[domain]
size = [16, 16]
[[obstacle]]
shape = "sphere"
center = [8, 8]
radius = 2
[[obstacle]]
name = "ball"
shape = "sphere"
center = [8, 40]
radius = 2
[output]
directory = "$WORK/out"
EOF
expect "sphere centre outside the domain" 3 "obstacle[1]" "ball" "center" "[8, 40]" "outside the domain" -- \
    run obstacle_sphere.toml --backend cpu -q

# --- force reports (a file: obstacles are an array of tables) ------------------------
cat >forces_name.toml <<EOF
[model]
lattice = "D2Q9"
tau = 0.8
[domain]
size = [32, 16]
[[obstacle]]
name = "cylinder"
shape = "cylinder"
center = [8, 8]
radius = 3
[forces]
obstacles = ["cilinder"]
reference_velocity = 0.05
reference_area = 6
[output]
directory = "$WORK/out"
EOF
expect "force report on a missing obstacle name" 3 "forces_name.toml:" "forces.obstacles" '"cilinder"' \
    "is not the name of any [[obstacle]]" '"cylinder"' -- run forces_name.toml --backend cpu -q
expect "force report in a case without obstacles" 3 "forces.obstacles" '"cylinder"' "the case has no obstacles" -- \
    "${RUN[@]}" --set 'forces.obstacles=["cylinder"]' --set forces.reference_velocity=0.05 --set forces.reference_area=6
expect "force reference velocity 0" 3 "forces.reference_velocity = 0" "> 0" -- \
    run forces_name.toml --backend cpu -q --set 'forces.obstacles=["cylinder"]' --set forces.reference_velocity=0
expect "force reference area missing" 3 "forces.reference_area" "missing" -- \
    "${RUN[@]}" --set 'obstacle=[{name = "cylinder", shape = "cylinder", center = [8, 8], radius = 3}]' \
    --set 'forces.obstacles=["cylinder"]' --set forces.reference_velocity=0.05
expect "lift along the flow axis" 3 "forces.lift_axis" '"x"' "forces.flow_axis" -- \
    run forces_name.toml --backend cpu -q --set 'forces.obstacles=["cylinder"]' --set forces.lift_axis=x

# --- moving obstacles ----------------------------------------------------------------
cat >moving.toml <<EOF
[model]
lattice = "D3Q19"
tau = 0.8
[domain]
size = [12, 12, 16]
[boundary]
z_min = { type = "velocity", velocity = [0, 0, 0.02] }
z_max = { type = "pressure" }
[[obstacle]]
name = "pipe"
shape = "pipe"
axis = "z"
center = [5.5, 5.5, 0]
radius = 5
velocity = [0, 0, 0.02]
[[obstacle]]
name = "ball"
shape = "sphere"
center = [5.5, 5.5, 8]
radius = 2
[run]
steps = 4
[output]
directory = "$WORK/out"
EOF
expect_runs "moving-pipe base case" moving.toml
expect "force report on a moving obstacle" 3 'forces.obstacles = "pipe"' "the obstacle moves" "at rest only" -- \
    run moving.toml --backend cpu -q --set 'forces.obstacles=["pipe"]' --set forces.reference_velocity=0.02 \
    --set forces.reference_area=78
expect "pipe velocity across its axis" 3 'obstacle[0] ("pipe").velocity' "[0.01, 0, 0.02]" "only slide along its axis (z)" -- \
    run moving.toml --backend cpu -q --set 'obstacle[0].velocity=[0.01, 0, 0.02]'
expect "obstacle velocity too large" 3 'obstacle[0] ("pipe").velocity' "|u| = 0.5" "must be < 0.4" -- \
    run moving.toml --backend cpu -q --set 'obstacle[0].velocity=[0, 0, 0.5]'
expect "a moving pipe that ends inside the domain" 3 'obstacle[0] ("pipe").velocity' "ends inside the domain" \
    "extend the body through the domain along z" -- run moving.toml --backend cpu -q --set 'obstacle[0].max=10'
expect "Smagorinsky constant out of range" 3 "model.smagorinsky = -0.1" "[0, 1]" -- \
    "${RUN[@]}" --set model.collision=regularized --set model.smagorinsky=-0.1
expect "a sphere with a velocity" 3 'obstacle[1] ("ball").velocity' "cannot slide with one uniform velocity" -- \
    run moving.toml --backend cpu -q --set 'obstacle[1].velocity=[0, 0, 0.01]'

# --- expressions on faces (sim/expression.hpp) ------------------------------------------
cat >expr.toml <<EOF
[model]
lattice = "D2Q9"
tau = 0.8

[domain]
size = [16, 16]

[boundary.x_min]
type = "velocity"
velocity = ["0.05 * 4 * (y + 0.5) * (ny - y - 0.5) / ny^2", 0]

[boundary.x_max]
type = "pressure"
density = "1 + 1e-3 * sin(2 * _pi * t / 100)"

[run]
steps = 10
check_interval = 5

[output]
directory = "$WORK/out"
EOF
expect_runs "expression base case" expr.toml pvd
expect "expression that does not parse" 3 "boundary.x_min.velocity" "does not parse" \
    "Unexpected end of expression" "    0.05 * (y +" -- run expr.toml --backend cpu -q --set 'boundary.x_min.velocity=["0.05 * (y +", 0]'
expect "expression with an unknown variable" 3 "boundary.x_max.density" 'Unexpected token "q"' -- \
    run expr.toml --backend cpu -q --set 'boundary.x_max.density="1 + q"'
expect "expression NaN at the first step" 3 'boundary.x_min.velocity[0] = "0.01 * sqrt(y - 4)"' "is NaN/Inf" \
    "at node (x, y, z) = (0, 0, 0) at t = 1" -- run expr.toml --backend cpu -q --set 'boundary.x_min.velocity=["0.01 * sqrt(y - 4)", 0]'
expect "expression too fast" 3 'boundary.x_min.velocity[0] = "0.1 * y"' "|u| = 0.4" "must be < 0.4" -- \
    run expr.toml --backend cpu -q --set 'boundary.x_min.velocity=["0.1 * y", 0]'
expect "expression density <= 0" 3 "boundary.x_max.density" "gives a density <= 0" -- \
    run expr.toml --backend cpu -q --set 'boundary.x_max.density="1 - t"'
expect "expression on a moving wall" 3 "boundary.y_max.velocity" "expressions are offered on velocity and pressure faces" -- \
    "${RUN[@]}" --set 'boundary.y_max.velocity=["0.05 * sin(t)", 0]'
expect "expression for z on a 2D lattice" 3 "boundary.x_min.velocity[2]" "2D" -- \
    run expr.toml --backend cpu -q --set 'boundary.x_min.velocity=[0.01, 0, "0.01"]'

# --- a boundary on a periodic axis -------------------------------------------------
expect "boundary table in the file on a periodic axis" 3 "boundary.y_max" "periodic" -- \
    "${RUN[@]}" --set 'domain.periodic=[false, true]'
expect "boundary table via --set on a periodic axis" 3 "boundary.x_min" "periodic" -- \
    "${RUN[@]}" --set 'domain.periodic=[true, false]' --set boundary.x_min.type=wall

# --- MRT rates a lattice does not have --------------------------------------------
expect "s_pi on D3Q15" 3 "model.mrt.s_pi" "D3Q15 has no such moments" -- \
    "${RUN[@]}" --set model.lattice=D3Q15 --set 'domain.size=[8, 8, 8]' --set model.collision=mrt --set model.mrt.s_pi=1.2

expect "an MRT rate of 2 (docs/case-file.md)" 3 "model.mrt.s_q = 2: must be in (0, 2)" -- \
    "${RUN[@]}" --set model.collision=mrt --set model.mrt.s_q=2
expect "a moving wall not sliding in its plane (docs/case-file.md)" 3 "boundary.y_max.velocity" "slides in its own plane" -- \
    "${RUN[@]}" --set 'boundary.y_max.velocity=[0.1, 0.1]'
expect "a 2D body force with gz (docs/case-file.md)" 3 "force.body" -- "${RUN[@]}" --set 'force.body=[0, 0, 1e-5]'
printf '[model]\nlattice = "D2Q9"\ntau = 0.8\n[domain]\nsize = [16, 16]\n[obstacle]\nshape = "sphere"\ncenter = [8, 8]\nradius = 2\n' >single_obstacle.toml
expect "[obstacle] written as one table (docs/case-file.md)" 3 "obstacle" "[[obstacle]]" -- \
    run single_obstacle.toml --backend cpu -q
printf '[model]\nlattice = "D2Q9"\ntau = 0.8\n[domain]\nsize = [16, 16]\n[[obstacle]]\nshape = "cylinder"\naxis = "x"\ncenter = [8, 8]\nradius = 2\n' >cylinder_x.toml
expect "a 2D cylinder along x (docs/case-file.md)" 3 "axis" "z" -- run cylinder_x.toml --backend cpu -q

# --- D3Q13 on one sub-lattice --------------------------------------------------------
D3Q13=("${RUN[@]}" --set model.lattice=D3Q13 --set 'domain.size=[8, 8, 8]')
cat >d3q13.toml <<EOF2
title = "D3Q13 cavity"
[model]
lattice = "D3Q13"
tau = 0.8
[domain]
size = [8, 8, 8]
[boundary.y_max]
type = "moving_wall"
velocity = [0.05, 0, 0]
[run]
steps = 10
check_interval = 5
[output]
interval = 5
EOF2
expect_runs "D3Q13 cavity (MRT by default)" d3q13.toml pvd
expect "D3Q13 with BGK" 3 'model.collision = "bgk"' 'D3Q13 offers "mrt" only' -- "${D3Q13[@]}" --set model.collision=bgk
expect "D3Q13 with an odd nx" 3 "domain.size = [9, 8, 8]" "even nx, got 9" -- \
    "${RUN[@]}" --set model.lattice=D3Q13 --set 'domain.size=[9, 8, 8]'
expect "D3Q13 with an odd periodic nz" 3 "domain.size = [8, 8, 9]" "periodic z axis" "got 9" -- \
    "${RUN[@]}" --set model.lattice=D3Q13 --set 'domain.size=[8, 8, 9]' --set 'domain.periodic=[false, false, true]'
expect "D3Q13 with LES" 3 "model.smagorinsky" "D3Q13" -- "${D3Q13[@]}" --set model.smagorinsky=0.1
expect "D3Q13 with a regularized face" 3 'boundary.x_min.method = "regularized"' "D3Q13" -- \
    "${D3Q13[@]}" --set boundary.x_min.type=velocity --set 'boundary.x_min.velocity=[0.01, 0, 0]' \
    --set boundary.x_min.method=regularized
expect "D3Q13 with an outflow face" 3 'boundary.x_max.type = "outflow"' "D3Q13" -- \
    "${D3Q13[@]}" --set boundary.x_max.type=outflow
expect "a pressure face with bounce-back" 3 'boundary.x_max.method = "bounce_back"' "offered on velocity faces" -- \
    "${RUN[@]}" --set boundary.x_max.type=pressure --set boundary.x_max.method=bounce_back
expect "an unknown face method" 3 "boundary.x_min.method" '"bounce_back"' -- \
    "${RUN[@]}" --set boundary.x_min.type=velocity --set 'boundary.x_min.velocity=[0.01, 0, 0]' \
    --set boundary.x_min.method=bounceback
VEL_IN=(--set boundary.x_min.type=velocity --set 'boundary.x_min.velocity=[0.01, 0, 0]')
expect "a sponge on a wall" 3 "boundary.y_min.sponge" "takes no sponge" -- \
    "${RUN[@]}" --set boundary.y_min.type=wall --set boundary.y_min.sponge.width=4 \
    --set boundary.y_min.sponge.strength=0.05
expect "a sponge of width 0" 3 "boundary.x_min.sponge.width = 0" "between 1 and" -- \
    "${RUN[@]}" "${VEL_IN[@]}" --set boundary.x_min.sponge.width=0 --set boundary.x_min.sponge.strength=0.05
expect "a sponge of strength 2" 3 "boundary.x_min.sponge.strength = 2" "(0, 1]" -- \
    "${RUN[@]}" "${VEL_IN[@]}" --set boundary.x_min.sponge.width=4 --set boundary.x_min.sponge.strength=2
expect "a sponge before a pressure face without a target velocity" 3 "boundary.x_max.sponge.velocity" \
    "no single velocity" -- "${RUN[@]}" --set boundary.x_max.type=pressure --set boundary.x_max.sponge.width=4 \
    --set boundary.x_max.sponge.strength=0.05
expect "D3Q13 with s_q" 3 "model.mrt.s_q" "D3Q13 has no such moments" -- "${D3Q13[@]}" --set model.mrt.s_q=1.2

# --- entropic, outflow, forcing --------------------------------------------------------
expect "entropic on D3Q19" 3 'model.collision = "entropic"' "D2Q9 and D3Q27" "D3Q19" -- \
    "${RUN[@]}" --set model.lattice=D3Q19 --set 'domain.size=[8, 8, 8]' --set model.collision=entropic
expect "entropic with the incompressible equilibrium" 3 'model.equilibrium = "incompressible"' "entropic" -- \
    "${RUN[@]}" --set model.collision=entropic --set model.equilibrium=incompressible
expect "outflow with in-place streaming" 3 'boundary.x_max.type = "outflow"' 'model.streaming = "two-copy"' -- \
    "${RUN[@]}" --set boundary.x_max.type=outflow --set model.streaming=in-place
expect "unknown forcing" 3 "model.forcing" "edm" -- "${RUN[@]}" --set model.forcing=shan

# --- resources -----------------------------------------------------------------------
info=$("$BIN" info 2>&1) || true
if grep -qE '^[[:space:]]*gpu [0-9]+:' <<<"$info"; then
    echo "skip --backend cuda without a GPU: 'barracuda info' lists a GPU on this machine"
else
    expect "--backend cuda without a GPU" 4 "cuda" -- run base.toml --backend cuda -q
fi
# 10^12 cells of D3Q19: some 170 TiB, more than any host has (and below the 2^40-cell cap).
expect "more memory than available" 4 "domain.size" "[10000, 10000, 10000]" "needs" "GiB" "available" -- \
    "${RUN[@]}" --set model.lattice=D3Q19 --set 'domain.size=[10000, 10000, 10000]'
# 10^15 cells is past the 2^40-cell limit: rejected as an invalid case.
expect "more than 2^40 cells" 3 "domain.size" "[100000, 100000, 100000]" -- \
    "${RUN[@]}" --set model.lattice=D3Q19 --set 'domain.size=[100000, 100000, 100000]'

# --- malformed command-line values -------------------------------------------------
expect "--set without '='" 3 "model.tau" "expected key=value" -- "${RUN[@]}" --set model.tau

# --- TOML syntax errors name file, line and column ---------------------------------
printf '[model]\nlattice = "D2Q9"\ntau = = 0.8\n[domain]\nsize = [16, 16]\n[output]\ndirectory = "%s/out"\n' "$WORK" >syntax.toml
expect "TOML syntax error (line 3)" 3 "syntax.toml:3:" "TOML syntax error" -- run syntax.toml --backend cpu -q
printf 'title = "x"\n[model]\nlattice = "D2Q9\ntau = 0.8\n[domain]\nsize = [16, 16]\n' >unterminated.toml
expect "TOML unterminated string (line 3)" 3 "unterminated.toml:3:" "TOML syntax error" -- \
    run unterminated.toml --backend cpu -q

# --- the command line itself -------------------------------------------------------------
expect "unknown option to run" 2 "--frobnicate" -- run base.toml --backend cpu -q --frobnicate
expect "unknown top-level option" 2 "--frobnicate" -- --frobnicate
expect "unknown option to bench" 2 "--frobnicate" -- bench --frobnicate
expect "bad --backend value" 2 "gpu" -- run base.toml --backend gpu -q
expect "missing case file" 2 "nothere.toml" -- run nothere.toml --backend cpu -q
# Numeric options (issue 21): the allowed range as whole numbers, values past int64 refused.
expect "--checkpoint-every 0" 2 "--checkpoint-every: '0' is not a whole number from 1 to" -- \
    run base.toml --backend cpu -q --checkpoint-every 0
expect "--checkpoint-every past int64" 2 "'99999999999999999999' is not a whole number from 1 to 4611686018427387904" -- \
    run base.toml --backend cpu -q --checkpoint-every 99999999999999999999
expect "bench --size 0" 2 "--size: '0' is not a whole number from 1 to 1048576" -- bench --size 0
expect "bench --size 2^21 (issue 21: std::length_error)" 2 "'2097152' is not a whole number from 1 to 1048576" -- \
    bench --size 2097152
expect "bench --steps 0" 2 "--steps: '0' is not a whole number" -- bench --steps 0
expect "bench --size too large for the memory" 4 "--size 1048576 needs" "the largest that fits: --size" -- \
    bench --backend cpu --size 1048576 --copy-bytes 1048576
expect "validate --stop-after 0" 2 "'0' is not a positive number of seconds" -- validate --stop-after 0
# Output directories: a file in the way, a place that cannot be written (before any allocation).
touch a_file
expect "--out names a file (issue 21)" 6 "a_file is a file, not a directory" -- run base.toml --backend cpu -q --out a_file
expect "--out cannot be created (issue 21)" 6 "cannot create output directory /proc/barracuda-nope" -- \
    run base.toml --backend cpu -q --out /proc/barracuda-nope

# --- help exits 0 and prints usage ------------------------------------------------------
for args in "--help" "run --help" "bench --help"; do
    checks=$((checks + 1))
    rc=0
    # shellcheck disable=SC2086
    "$BIN" $args >"$LOG/stdout" 2>"$LOG/stderr" || rc=$?
    if [[ $rc != 0 ]]; then
        fail "barracuda $args: exit code $rc, expected 0"
    elif ! grep -qi "usage" "$LOG/stdout"; then
        fail "barracuda $args: no usage text on stdout"
    else
        echo "ok   barracuda $args (exit 0)"
    fi
done

# --- [thermal] (docs/case-file.md) ---------------------------------------------------
THERM=("${RUN[@]}" --set model.precision=fp64 --set thermal.prandtl=0.71)
{
    sed 's/^tau = 0.8/tau = 0.8\nprecision = "fp64"/; s/^velocity = \[0.05, 0.0\]/velocity = [0.05, 0.0]\ntemperature = 1/' base.toml
    printf '\n[thermal]\nprandtl = 0.71\nexpansion = 0.01\ngravity = [0, -1e-4]\n'
} >thermal.toml
expect_runs "base case with [thermal]" thermal.toml pvd
expect "temperature without [thermal]" 3 "boundary.y_max" "temperature only in a case with a [thermal] table" -- \
    "${RUN[@]}" --set boundary.y_max.temperature=1
expect "diffusivity and prandtl" 3 "thermal.prandtl" "both given" -- "${THERM[@]}" --set thermal.diffusivity=0.1
expect "tau_T too near 1/2" 3 "thermal.diffusivity = 1e-04" "0.501" "raise the diffusivity" -- \
    "${RUN[@]}" --set model.precision=fp64 --set thermal.diffusivity=1e-4
expect "beta dT too large" 3 "thermal.expansion = 0.5" "<= 0.1" -- "${THERM[@]}" --set thermal.expansion=0.5 \
    --set boundary.y_max.temperature=1
expect "buoyancy too strong" 3 "thermal.gravity" "<= 0.01" -- "${THERM[@]}" --set thermal.expansion=0.1 \
    --set boundary.y_max.temperature=1 --set 'thermal.gravity=[0, -1]'
expect "3D scalar lattice on D2Q9" 3 "thermal.lattice" "D2Q5" -- "${THERM[@]}" --set thermal.lattice=D3Q7
expect "heat flux on a pressure face" 3 "boundary.x_max.heat_flux" "heat fluxes go on walls" -- "${THERM[@]}" \
    --set boundary.x_max.type=pressure --set boundary.x_max.heat_flux=1e-3
expect "thermal configuration not offered" 3 "thermal.lattice" "D2Q9 fp32" "not offered" 'model.precision = "fp64"' -- \
    "${RUN[@]}" --set thermal.prandtl=0.71
expect "turbulent Prandtl without LES" 3 "thermal.turbulent_prandtl" "model.smagorinsky" -- "${THERM[@]}" \
    --set thermal.turbulent_prandtl=0.9
expect "temperature field without [thermal]" 3 "output.fields" '"temperature" is not a field' -- \
    "${RUN[@]}" --set 'output.fields=["temperature"]'

expect "power on a face" 3 "boundary.y_min.power" -- "${THERM[@]}" --set boundary.y_min.type=wall \
    --set boundary.y_min.power=5
{
    cat base.toml
    printf '\n[thermal]\nprandtl = 0.71\nexpansion = 0.01\ngravity = [0, -1e-4]\n'
    printf '\n[[obstacle]]\nname = "heater"\nshape = "box"\nmin = [6, 6]\nmax = [9, 9]\npower = 0.5\n'
} >heater.toml
expect "power and temperature on one obstacle" 3 'obstacle "heater"' "more than one of temperature, heat_flux, power" -- \
    run heater.toml --backend cpu -q --set model.precision=fp64 --set 'obstacle[0].temperature=1'
{
    cat base.toml
    printf '\n[[obstacle]]\nname = "heater"\nshape = "box"\nmin = [6, 6]\nmax = [9, 9]\npower = 0.5\n'
} >heater_cold.toml
expect "power without [thermal]" 3 "obstacle[0].power" "only in a case with a [thermal] table" -- \
    run heater_cold.toml --backend cpu -q
expect "power too large" 3 'obstacle "heater".power' "below 1e9" -- \
    run heater.toml --backend cpu -q --set model.precision=fp64 --set 'obstacle[0].power=1e12'

# --- [multiphase] (docs/case-file.md) -------------------------------------------------
{
    sed 's/^tau = 0.8/tau = 1.0\nprecision = "fp64"/' base.toml
    printf '\n[multiphase]\nmodel = "shan-chen"\n'
    printf '\n[initial]\ndensity = "(x - 7.5)^2 + (y - 7.5)^2 < 16 ? 1.93 : 0.16"\n'
} >drop.toml
expect_runs "base case with [multiphase]" drop.toml pvd
checks=$((checks + 1))
"$BIN" run drop.toml --backend cpu -q --set "output.directory=$T/drop-out" >"$LOG/stdout" 2>"$LOG/stderr" || true
if grep -aq 'Name="pressure"' "$T"/drop-out/fields_00000010.vti 2>/dev/null &&
    grep -q '^step,time,mass,kinetic_energy,max_speed,interface$' "$T"/drop-out/multiphase.csv; then
    echo "ok   [multiphase] writes the pressure of its equation of state and multiphase.csv"
else
    fail "the [multiphase] case wrote no pressure field or no multiphase.csv"
fi
rm -rf "$T/drop-out"
MP=(run drop.toml --backend cpu -q)
expect "multiphase model missing" 3 "multiphase.model" "shan-chen" -- "${MP[@]}" --set multiphase.model=lattice-gas
expect "unknown pseudopotential" 3 "multiphase.pseudopotential" "carnahan-starling" -- "${MP[@]}" \
    --set multiphase.pseudopotential=vdw
expect "rho0 with Carnahan-Starling" 3 "multiphase.rho0" "Carnahan-Starling takes" -- "${MP[@]}" \
    --set multiphase.pseudopotential=carnahan-starling --set multiphase.rho0=2
expect "temperature with the exponential form" 3 "multiphase.temperature" "carnahan-starling" -- "${MP[@]}" \
    --set multiphase.temperature=0.05
expect "Carnahan-Starling with G > 0" 3 "multiphase.g = 1" "G < 0" -- "${MP[@]}" \
    --set multiphase.pseudopotential=carnahan-starling --set multiphase.g=1 --set initial.density=0.3
expect "mixing out of range" 3 "multiphase.mixing = 2.5" "[0, 2]" -- "${MP[@]}" --set multiphase.mixing=2.5
expect "Carnahan-Starling with Guo's forcing" 3 "model.forcing" "carnahan-starling" "exact difference" -- "${MP[@]}" \
    --set multiphase.pseudopotential=carnahan-starling --set multiphase.g=-1 --set initial.density=0.3 \
    --set model.forcing=guo
expect "G of zero" 3 "multiphase.g = 0" "nonzero" -- "${MP[@]}" --set multiphase.g=0
expect "negative wall density" 3 "multiphase.wall_density" ">= 0" -- "${MP[@]}" --set multiphase.wall_density=-1
expect "multiphase with thermal" 3 "[multiphase] with [thermal]" -- "${MP[@]}" --set thermal.prandtl=0.71
expect "multiphase configuration not offered" 3 "multiphase.model" "D2Q9 fp32" "not offered" -- "${MP[@]}" \
    --set model.precision=fp32
expect "negative initial density by expression" 3 "initial.density" "must be a number > 0" -- "${MP[@]}" \
    --set 'initial.density="x - 8"'
expect "wall density beyond Carnahan-Starling's pole" 3 "multiphase.wall_density = 2" "pole" -- "${MP[@]}" \
    --set multiphase.pseudopotential=carnahan-starling --set multiphase.g=-1 --set multiphase.wall_density=2 \
    --set initial.density=0.3
expect "initial density beyond Carnahan-Starling's pole" 3 "initial.density" "below Carnahan-Starling's pole" -- \
    "${MP[@]}" --set multiphase.pseudopotential=carnahan-starling --set multiphase.g=-1

# Two components (multiphase.model = "shan-chen-binary")
{
    sed 's/^tau = 0.8/tau = 1.0\nprecision = "fp64"/; s/type = "moving_wall"/type = "wall"/; /^velocity = \[0.05, 0.0\]/d' base.toml
    printf '\n[multiphase]\nmodel = "shan-chen-binary"\nviscosity_b = 0.1\n'
    printf '\n[initial]\ndensity = "(x - 7.5)^2 + (y - 7.5)^2 < 16 ? 0.05 : 1"\n'
    printf 'density_b = "(x - 7.5)^2 + (y - 7.5)^2 < 16 ? 1 : 0.05"\n'
} >binary.toml
expect_runs "base case with two components" binary.toml pvd
checks=$((checks + 1))
"$BIN" run binary.toml --backend cpu -q --set "output.directory=$T/binary-out" --set 'probes.points=[[7, 7]]' \
    >"$LOG/stdout" 2>"$LOG/stderr" || true
if grep -q 'density of A in \[.*\], of B in \[' "$LOG/stdout" && head -1 "$T"/binary-out/probes.csv 2>/dev/null | grep -q '\.rho_a,.*\.rho_b$'; then
    echo "ok   two components: the summary gives both densities, probes.csv has rho_a and rho_b"
else
    fail "two components: the summary or probes.csv lacks a component ($(head -1 "$T"/binary-out/probes.csv 2>/dev/null))"
fi
rm -rf "$T/binary-out"
expect "mixing with two components" 3 "multiphase.mixing" "model = \"shan-chen\"" -- run binary.toml --backend cpu -q \
    --set multiphase.mixing=1.2
checks=$((checks + 1))
"$BIN" run binary.toml --backend cpu -q --set "output.directory=$T/binary-out" >"$LOG/stdout" 2>"$LOG/stderr" || true
if grep -aq 'Name="density_b"' "$T"/binary-out/fields_00000010.vti 2>/dev/null &&
    grep -aq 'Name="phi"' "$T"/binary-out/fields_00000010.vti &&
    grep -q '^step,time,mass_a,mass_b,kinetic_energy,max_speed,interface$' "$T"/binary-out/multiphase.csv &&
    [[ $(wc -l <"$T"/binary-out/multiphase.csv) == 4 ]]; then
    echo "ok   two components write each density, phi and multiphase.csv"
else
    fail "the two-component case wrote no density_b or phi field, or no multiphase.csv of 3 rows"
fi
rm -rf "$T/binary-out"
checks=$((checks + 1))
"$BIN" run binary.toml --backend cpu -q --set "output.directory=$T/binary-out" --set 'average.steps=[2, 10]' \
    --set average.interval=1 >"$LOG/stdout" 2>"$LOG/stderr" || true
if grep -aq 'Name="density_b"' "$T"/binary-out/mean.vti 2>/dev/null && grep -aq 'Name="phi"' "$T"/binary-out/mean.vti; then
    echo "ok   two components' means hold each density and phi"
else
    fail "the two-component case's mean.vti has no density_b or phi"
fi
rm -rf "$T/binary-out"
grep -v '^viscosity_b' binary.toml >binary_no_nu.toml
grep -v '^density_b' binary.toml >binary_no_rho.toml
BI=(run binary.toml --backend cpu -q)
expect "binary without viscosity_b" 3 "multiphase.viscosity_b" "B's kinematic viscosity" -- \
    run binary_no_nu.toml --backend cpu -q
expect "binary without density_b" 3 "initial.density_b" "component B's initial density" -- \
    run binary_no_rho.toml --backend cpu -q
expect "binary viscosity_b of zero" 3 "multiphase.viscosity_b = 0" "must be > 0" -- "${BI[@]}" \
    --set multiphase.viscosity_b=0
expect "binary with Guo's forcing" 3 "model.forcing" "exact difference method" -- "${BI[@]}" --set model.forcing=guo
expect "binary with an open face" 3 "boundary.x_max.type" "shan-chen-binary" "walls, free-slip or periodic" -- \
    "${BI[@]}" --set boundary.x_max.type=pressure
expect "binary with a moving wall" 3 "boundary.y_max.type" "moving_wall" "shan-chen-binary" -- "${BI[@]}" \
    --set boundary.y_max.type=moving_wall --set 'boundary.y_max.velocity=[0.05, 0]'
expect "binary with a wall density" 3 "multiphase.wall_density" 'model = "shan-chen"' -- "${BI[@]}" \
    --set multiphase.wall_density=1
expect "binary contact angle of 30" 3 "multiphase.contact_angle = 30" "50 to 130 degrees" -- "${BI[@]}" \
    --set multiphase.contact_angle=30
expect "binary contact angle without two phases" 3 "multiphase.contact_angle" "do not separate at G = 0.5" -- \
    "${BI[@]}" --set multiphase.contact_angle=60 --set multiphase.g=0.5
sed 's/^model = "shan-chen-binary"/model = "shan-chen-binary"\ncontact_angle = 120/' binary.toml >binary_wet.toml
expect_runs "two-component case with wetting walls" binary_wet.toml pvd
expect "binary density_b not positive" 3 "initial.density_b" "must be a number > 0" -- "${BI[@]}" \
    --set 'initial.density_b="y - 8"'
expect "binary collision not offered" 3 "multiphase.model" "shan-chen-binary" "not offered" -- "${BI[@]}" \
    --set model.collision=trt
expect "density_b with one component" 3 "initial.density_b" 'belongs to model = "shan-chen-binary"' -- \
    "${MP[@]}" --set initial.density_b=0.5

# The free-energy binary fluid (multiphase.model = "free-energy")
{
    sed 's/^tau = 0.8/tau = 1.0\nprecision = "fp64"/; s/type = "moving_wall"/type = "wall"/; /^velocity = \[0.05, 0.0\]/d' base.toml
    printf '\n[multiphase]\nmodel = "free-energy"\nviscosity_b = 0.1\n'
    printf '\n[initial]\nphi = "(x - 7.5)^2 + (y - 7.5)^2 < 16 ? -1 : 1"\n'
} >fe.toml
expect_runs "base case with the free energy" fe.toml pvd
checks=$((checks + 1))
"$BIN" run fe.toml --backend cpu -q --set "output.directory=$T/fe-out" >"$LOG/stdout" 2>"$LOG/stderr" || true
if grep -aq 'Name="phi"' "$T"/fe-out/fields_00000010.vti 2>/dev/null &&
    grep -aq 'Name="pressure"' "$T"/fe-out/fields_00000010.vti && ! grep -aq 'Name="density_b"' "$T"/fe-out/fields_00000010.vti &&
    grep -q '^step,time,mass,phi_sum,kinetic_energy,max_speed,interface$' "$T"/fe-out/multiphase.csv &&
    [[ $(wc -l <"$T"/fe-out/multiphase.csv) == 4 ]]; then
    echo "ok   the free energy writes phi, the pressure and multiphase.csv"
else
    fail "the free-energy case wrote no phi or pressure field, or no multiphase.csv of 3 rows"
fi
rm -rf "$T/fe-out"
grep -v '^phi' fe.toml >fe_no_phi.toml
FE=(run fe.toml --backend cpu -q)
expect "free energy without phi" 3 "initial.phi" "the initial order parameter" -- run fe_no_phi.toml --backend cpu -q
expect "free energy kappa of zero" 3 "multiphase.kappa = 0" "must be > 0" -- "${FE[@]}" --set multiphase.kappa=0
expect "free energy too sharp" 3 "multiphase.kappa" "interface width" "below 0.25" -- "${FE[@]}" \
    --set multiphase.kappa=1e-6
expect "free energy gamma too large" 3 "multiphase.gamma = 5" "exceeds 0.6" "use gamma <=" -- "${FE[@]}" \
    --set multiphase.gamma=5
expect "free energy tau_phi at 1/2" 3 "multiphase.tau_phi = 0.5" "must be in [0.501" -- "${FE[@]}" \
    --set multiphase.tau_phi=0.5
expect "free energy phi out of range" 3 "initial.phi" "must be in [-1.5, 1.5]" -- "${FE[@]}" \
    --set 'initial.phi="y - 8"'
expect "free energy contact angle of 180" 3 "multiphase.contact_angle = 180" "must be in (0, 180)" -- "${FE[@]}" \
    --set multiphase.contact_angle=180
sed 's/^model = "free-energy"/model = "free-energy"\ncontact_angle = 60/' fe.toml >fe_wet.toml
expect_runs "free-energy case with wetting walls" fe_wet.toml pvd
expect "contact angle and wall density" 3 "multiphase.contact_angle" "not both" -- \
    "${MP[@]}" --set multiphase.contact_angle=60 --set multiphase.wall_density=1
expect "one component's contact angle of 140" 3 "multiphase.contact_angle = 140" "50 to 130 degrees" -- \
    "${MP[@]}" --set multiphase.contact_angle=140
sed 's/^model = "shan-chen"$/model = "shan-chen"\ncontact_angle = 60/' drop.toml >drop_wet.toml
grep -q '^contact_angle = 60' drop_wet.toml || fail "drop_wet.toml: the sed did not add the contact angle"
expect_runs "one-component case with wetting walls" drop_wet.toml pvd
expect "free energy with a Shan-Chen key" 3 "multiphase.g" 'model = "free-energy" takes' -- "${FE[@]}" \
    --set multiphase.g=1
expect "free energy with an open face" 3 "boundary.x_max.type" "free-energy" "walls, free-slip or periodic" -- \
    "${FE[@]}" --set boundary.x_max.type=pressure
expect "free energy with Guo's forcing" 3 "model.forcing" "exact difference method" -- "${FE[@]}" \
    --set model.forcing=guo
expect "phi with a Shan-Chen model" 3 "initial.phi" 'belongs to model = "free-energy"' -- "${MP[@]}" \
    --set initial.phi=0.5
expect "free-energy key with a Shan-Chen model" 3 "multiphase.kappa" 'belongs to model = "free-energy"' -- \
    "${MP[@]}" --set multiphase.kappa=0.04

# --- [probes] and [average] (docs/case-file.md) -----------------------------------
expect "probes without points" 3 "probes.points" "give the probes' positions" -- "${RUN[@]}" --set probes.interval=2
expect "probe outside the box" 3 "probes.points[1]" "outside the box" "[-0.5, 15.5]" -- "${RUN[@]}" \
    --set 'probes.points=[[3, 4], [20, 4]]'
expect "probe point with one coordinate" 3 "probes.points" "an array of 2 or 3 numbers" -- "${RUN[@]}" \
    --set 'probes.points=[[3]]'
expect "probe names of the wrong count" 3 "probes.names" "one per point" -- "${RUN[@]}" \
    --set 'probes.points=[[3, 4]]' --set 'probes.names=["a", "b"]'
expect "probe names twice" 3 "probes.names" "given twice" -- "${RUN[@]}" \
    --set 'probes.points=[[3, 4], [5, 5]]' --set 'probes.names=["a", "a"]'
expect "probe name with a comma" 3 "probes.names" "without commas" -- "${RUN[@]}" \
    --set 'probes.points=[[3, 4]]' --set 'probes.names=["a,b"]'
expect "probes.period without [units]" 3 "probes.period" "needs a [units] table" -- "${RUN[@]}" \
    --set 'probes.points=[[3, 4]]' --set probes.period=0.1
expect "probes.interval of 0" 3 "probes.interval" ">= 1" -- "${RUN[@]}" --set 'probes.points=[[3, 4]]' \
    --set probes.interval=0
expect "average without a window" 3 "average.steps" "no default" -- "${RUN[@]}" --set average.interval=2
expect "average window backwards" 3 "average.steps" "first < last" -- "${RUN[@]}" --set 'average.steps=[8, 4]'
expect "average.time without [units]" 3 "average.time" "needs a [units] table" -- "${RUN[@]}" \
    --set 'average.time=[1, 2]'
expect "average interval longer than the window" 3 "average.interval" "longer than the window" -- "${RUN[@]}" \
    --set 'average.steps=[2, 6]' --set average.interval=5
expect "section across a 2D plane" 3 "average.section" '"z"' -- "${RUN[@]}" --set 'average.steps=[2, 6]' \
    --set average.section=x
expect "profiles without a section" 3 "average.profiles" "give average.section" -- "${RUN[@]}" \
    --set 'average.steps=[2, 6]' --set 'average.profiles=[3]'
expect "profile outside the box" 3 "average.profiles" "outside the box" -- "${RUN[@]}" \
    --set 'average.steps=[2, 6]' --set average.section=z --set 'average.profiles=[30]'

# --- decomposition (one rank here; tests/cli/mpi_run.sh runs several) -----------
expect "decomposition product differs from the rank count" 3 "domain.decomposition = [2, 1, 1]" \
    "2 subdomains but the run has 1 rank(s)" "mpirun -np 2" -- "${RUN[@]}" --set "domain.decomposition=[2, 1]"
expect "decomposition with a zero entry" 3 "domain.decomposition" "between 1 and 65536" -- \
    "${RUN[@]}" --set "domain.decomposition=[0, 1]"
expect "decomposition with the wrong number of entries" 3 "domain.decomposition" "has 3 entries but domain.size has 2" -- \
    "${RUN[@]}" --set "domain.decomposition=[1, 1, 1]"

if ((failures)); then
    echo "bad_input: $failures of $checks checks FAILED" >&2
    exit 1
fi
echo "bad_input: all $checks checks passed"
