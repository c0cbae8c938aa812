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
  libopenmpi-dev openmpi-bin \
  clang libclang-rt-dev libomp-dev >/dev/null  # the fuzz targets (tools/fuzz.sh): libFuzzer, ASan, UBSan
echo "dependencies installed"
