#!/usr/bin/env bash
# Installs what a fresh Debian machine may lack. Safe to run twice.
#
#   bash .ci/setup.sh           what judging needs: the compilers and
#                               interpreters of the judged languages
#   bash .ci/setup.sh --tests   that, and what the test suite also runs:
#                               Chromium, problemtools with TeX, Slurm with
#                               munge, kubernetes-validate, faketime
#
# Both need a Rust toolchain already there (rustup or the distribution's).
set -euo pipefail

tests=false
for arg in "$@"; do
  case "$arg" in
    --tests) tests=true ;;
    -h | --help)
      sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "setup.sh: unknown option $arg (only --tests)" >&2
      exit 2
      ;;
  esac
done

have() { command -v "$1" >/dev/null 2>&1; }

# Judging: the judged languages' compilers and interpreters.
need=()
have gcc || need+=(gcc)
have g++ || need+=(g++)
have javac || need+=(default-jdk-headless)
have python3 || need+=(python3)
# A package's Python 3 runs with PyPy, as problemtools runs it.
have pypy3 || need+=(pypy3)

# The tests, installed without recommends (which would add hundreds of MB
# of TeX documentation).
lean=()
if $tests; then
  # Chromium: tests look at the HTML reports and statements as a person would.
  have chromium || lean+=(chromium)
  # tests/serve_browser.rs drives Chromium over WebDriver.
  have chromedriver || lean+=(chromium-driver)
  # problemtools' verifyproblem (tests/export.rs checks every export with
  # it) typesets statements with LuaLaTeX, converts them to HTML (tidy),
  # and cleans PDFs with Ghostscript; tests/export_statement.rs reads the
  # PDF back with pdftotext and runs the HTML's MathJax from Debian's copy.
  have lualatex || lean+=(texlive-latex-base texlive-latex-recommended texlive-latex-extra
    texlive-fonts-recommended texlive-plain-generic texlive-luatex texlive-lang-cyrillic)
  have dvisvgm || lean+=(dvisvgm)
  have tidy || lean+=(tidy)
  have gs || lean+=(ghostscript)
  have pdftotext || lean+=(poppler-utils)
  [ "$(dpkg-query -W -f='${Status}' libjs-mathjax 2>/dev/null)" = "install ok installed" ] ||
    lean+=(libjs-mathjax)
  # tests/batch_slurm.rs starts a one-node Slurm cluster of its own.
  have slurmctld || lean+=(slurmctld)
  have slurmd || lean+=(slurmd)
  have sbatch || lean+=(slurm-client)
  have munged || lean+=(munge)
  # tests/serve_judgehost.rs runs a judge host with its clock days ahead.
  have faketime || lean+=(faketime)
fi

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

# Python 2: old contest packages' programs are Python 2, judged where a
# `python2` runs. Debian has none; a machine with pyenv's 2.7 keeps it under
# root's home, which the sandboxed judge user cannot enter, so a copy goes
# to /opt/python2.7 (its libpython found through the loader's cache) and
# `python2` on PATH names it.
python2_runs() { python2 -c 'import sys; sys.exit(sys.version_info[0] != 2)' >/dev/null 2>&1; }
if ! python2_runs && [ ! -x /opt/python2.7/bin/python2 ]; then
  for v in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/2.7.*; do
    [ -x "$v/bin/python2" ] && py2=$v
  done
  if [ -n "${py2:-}" ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo rm -rf /opt/python2.7.tmp
    $sudo cp -a "$py2" /opt/python2.7.tmp
    $sudo chmod -R a+rX /opt/python2.7.tmp
    $sudo mv /opt/python2.7.tmp /opt/python2.7
  fi
fi
if [ -x /opt/python2.7/bin/python2 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if [ ! -f /etc/ld.so.conf.d/python2.7.conf ]; then
    echo /opt/python2.7/lib | $sudo tee /etc/ld.so.conf.d/python2.7.conf >/dev/null
    $sudo ldconfig
  fi
  [ -e /usr/local/bin/python2 ] || $sudo ln -s /opt/python2.7/bin/python2 /usr/local/bin/python2
fi
hash -r
if ! python2_runs && ! [ -x /usr/local/bin/python2 ]; then
  echo "setup.sh: no Python 2 here: tests/icpc_organisers.rs needs one (pyenv install 2.7.18, then run this again)" >&2
fi

pip_install() {
  python3 -m pip install -q "$1" 2>/dev/null ||
    python3 -m pip install -q --break-system-packages "$1"
  hash -r
}

if $tests; then
  # tests/batch_deploy.rs validates deploy/k8s against Kubernetes' schemas.
  have kubernetes-validate || pip_install kubernetes-validate
  # problemtools (the ICPC package format's reference checker) from PyPI.
  have verifyproblem || pip_install problemtools
fi

if ! have cargo; then
  echo "grundy needs a Rust toolchain (cargo, rustc): install it with rustup or your package manager" >&2
  exit 1
fi
