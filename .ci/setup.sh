#!/usr/bin/env bash
# Installs what grundy needs and a fresh Debian machine may lack: the
# compilers and interpreters of the judged languages. Safe to run twice.
set -euo pipefail

need=()
have() { command -v "$1" >/dev/null 2>&1; }
have gcc || need+=(gcc)
have g++ || need+=(g++)
have javac || need+=(default-jdk-headless)
have python3 || need+=(python3)

if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi

if ! have cargo; then
  echo "grundy needs a Rust toolchain (cargo, rustc): install it with rustup or your package manager" >&2
  exit 1
fi
