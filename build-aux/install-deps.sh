#!/bin/sh
# SPDX-License-Identifier: MIT
# Install reprobench's build and test dependencies from Debian/Ubuntu packages.
# Runs apt-get as root, or through sudo.  CUDA is not packaged here: configure
# finds nvcc on PATH or in /usr/local/cuda when it is installed.
set -e
if [ "$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
pkgs="autoconf automake make gcc g++ pkg-config git
      libhwloc-dev hwloc-nox libjansson-dev libsqlite3-dev
      ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo libclblast-dev
      libopenblas-dev liblapacke-dev gnuplot-nox"
$SUDO apt-get update -q
# The fuzz targets need clang and its runtime libraries (libFuzzer, ASan),
# packaged apart from it on Debian 12.
pkgs="$pkgs clang"
if apt-cache show libclang-rt-dev >/dev/null 2>&1; then pkgs="$pkgs libclang-rt-dev"; fi
# Debian's hipcc compiles the HIP sources for AMD targets, even without a GPU.
if apt-cache show hipcc >/dev/null 2>&1; then pkgs="$pkgs hipcc libamdhip64-dev"; fi
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $pkgs
