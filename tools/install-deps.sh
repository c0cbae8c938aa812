#!/usr/bin/env bash
# Installs the build dependencies from Debian/Ubuntu packages (run as root).
# The CUDA backend is built as well when nvcc is on PATH or in /usr/local/cuda.
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then echo "run as root (apt-get)" >&2; exit 1; fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  cmake ninja-build g++ make \
  libtomlplusplus-dev libcli11-dev zlib1g-dev libpng-dev libgtest-dev libmuparser-dev python3 \
  libcpp-httplib-dev chromium chromium-driver \
  libopenmpi-dev openmpi-bin \
  python3-dev python3-venv python3-pip \
  clang libclang-rt-dev libomp-dev >/dev/null  # the fuzz targets (tools/fuzz.sh): libFuzzer, ASan, UBSan
# The live view (barracuda run --serve) is served by cpp-httplib and tested in headless
# Chromium through Selenium (tests/browser).
# The Python module (docs/python.md) builds against nanobind and is tested with numpy,
# pytest and matplotlib (the example): from PyPI into .venv in the repository, which the
# CMake build then uses (a Debian system Python refuses pip installs of its own).
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python3 ]; then python3 -m venv .venv; fi
.venv/bin/python3 -m pip install --quiet --disable-pip-version-check \
  "nanobind>=2.0" "scikit-build-core>=0.10" numpy pytest matplotlib selenium
echo "dependencies installed"
