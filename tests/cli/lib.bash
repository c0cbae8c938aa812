# Shared setup of the CLI test scripts (sourced; not a test itself: CMake
# registers only *.sh here). Each script starts with
#   source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
#   cli_init <name> "$@"
# and ends with cli_finish <name>.

# Checks the barracuda binary (argument 1), makes it absolute, and moves into
# a fresh temporary directory $T that is removed on exit.
cli_init() {
    local name=$1
    shift
    BIN=${1:?usage: $name.sh <path-to-barracuda> [<source-dir>]}
    [[ -x $BIN ]] || { echo "FAIL: barracuda binary '$BIN' is not executable" >&2; exit 1; }
    BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
    T=$(mktemp -d "${TMPDIR:-/tmp}/barracuda-cli-${name//_/-}.XXXXXX")
    trap 'rm -rf "$T"' EXIT
    cd "$T"
    failures=0
}

# python3 checks the files a run writes; say why when it is missing.
need_python() {
    command -v python3 >/dev/null || { echo "FAIL: python3 is needed to $1" >&2; exit 1; }
}

# A 2D channel (60 x 22, D2Q9 TRT FP64, parabolic inflow, pressure outlet) with a
# cylinder, 200 steps: forces every $2 steps, fields every $3. Title $1.
channel_case() {
    cat <<CASE
title = "$1"
[model]
lattice = "D2Q9"
collision = "trt"
precision = "fp64"
viscosity = 0.05
[domain]
size = [60, 22]
[boundary.x_min]
type = "velocity"
profile = "parabolic"
velocity = [0.05, 0.0]
[boundary.x_max]
type = "pressure"
density = 1.0
[[obstacle]]
name = "cyl"
shape = "cylinder"
axis = "z"
center = [20, 10.5]
radius = 4
[forces]
obstacles = ["cyl"]
reference_velocity = 0.05
reference_area = 9
interval = $2
[run]
steps = 200
check_interval = 50
[output]
interval = $3
CASE
}

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# The last run's stderr and stdout ($T/stderr, $T/stdout), indented.
show_run() {
    {
        echo "     --- stderr ---"
        sed 's/^/     /' "$T/stderr"
        echo "     --- stdout ---"
        sed 's/^/     /' "$T/stdout"
    } >&2
}

cli_finish() {
    if ((failures)); then
        echo "$1: $failures check(s) FAILED" >&2
        exit 1
    fi
    echo "$1: all checks passed"
}
