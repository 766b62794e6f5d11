#!/usr/bin/env bash
# Installs what grundy needs and a fresh Debian machine may lack: the
# compilers and interpreters of the judged languages, and Chromium, in
# which the tests look at the HTML reports as a person would. Safe to run
# twice.
set -euo pipefail

need=()
have() { command -v "$1" >/dev/null 2>&1; }
have gcc || need+=(gcc)
have g++ || need+=(g++)
have javac || need+=(default-jdk-headless)
have python3 || need+=(python3)
have chromium || need+=(chromium)
# tests/serve_browser.rs drives Chromium over WebDriver.
have chromedriver || need+=(chromium-driver)
# problemtools' verifyproblem (tests/export.rs checks every export with it)
# typesets statements with LuaLaTeX and converts them to HTML; installed
# without recommends, which would add hundreds of MB of TeX documentation.
lean=()
have lualatex || lean+=(texlive-latex-base texlive-latex-recommended texlive-latex-extra
  texlive-fonts-recommended texlive-plain-generic texlive-luatex texlive-lang-cyrillic)
have dvisvgm || lean+=(dvisvgm)
have tidy || lean+=(tidy)
# tests/batch_slurm.rs starts a one-node Slurm cluster of its own.
have slurmctld || lean+=(slurmctld)
have slurmd || lean+=(slurmd)
have sbatch || lean+=(slurm-client)
have munged || lean+=(munge)

if [ ${#need[@]} -gt 0 ] || [ ${#lean[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  if [ ${#need[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
  fi
  if [ ${#lean[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${lean[@]}" >/dev/null
  fi
fi

# tests/batch_deploy.rs validates deploy/k8s against Kubernetes' schemas.
if ! have kubernetes-validate; then
  python3 -m pip install -q kubernetes-validate 2>/dev/null ||
    python3 -m pip install -q --break-system-packages kubernetes-validate
  hash -r
fi

# problemtools (the ICPC package format's reference checker) from PyPI.
if ! have verifyproblem; then
  python3 -m pip install -q problemtools 2>/dev/null ||
    python3 -m pip install -q --break-system-packages problemtools
  hash -r
fi

if ! have cargo; then
  echo "grundy needs a Rust toolchain (cargo, rustc): install it with rustup or your package manager" >&2
  exit 1
fi
