#!/usr/bin/env bash
# Stages the Debian packages the build needs into .deps/ (ignored by git) for a
# machine that has a compiler and CUDA but no package registry (the GPU device
# machine): header-only toml++ and CLI11, static zlib, libpng and GoogleTest,
# and muparser (its shared library; the build tree's RPATH finds it); cpp-httplib for the
# live view (a shared library built with OpenSSL: its headers, and libssl3 and libbrotli1
# for a machine without them, found through LD_LIBRARY_PATH: tools/device.sh).
# Run on a Debian/Ubuntu machine with network access; the folder is then
# carried along with the working tree. CMake finds it through
# BARRACUDA_DEPS_PREFIX (default: .deps).
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .deps && mkdir -p .deps/debs
cd .deps/debs
apt-get download libtomlplusplus-dev libcli11-dev zlib1g-dev libpng-dev libgtest-dev libmuparser-dev libmuparser2v5 \
  libcpp-httplib-dev libcpp-httplib0.11 libssl-dev libssl3 libbrotli1 >/dev/null
for deb in *.deb; do dpkg -x "$deb" ..; done
cd .. && rm -rf debs
rm -f usr/lib/x86_64-linux-gnu/libssl.a usr/lib/x86_64-linux-gnu/libcrypto.a  # only the shared ones are used
# Links become copies (the folder is carried to the device, which may not keep
# links): the loader looks for libmuparser.so.2, a link to the versioned file.
find usr -type l | while read -r link; do
    target=$(readlink -f "$link") || true
    rm "$link"
    if [ -n "$target" ] && [ -e "$target" ]; then cp -r "$target" "$link"; fi
done
echo "staged into $(pwd):"; du -sh usr
