#!/bin/sh
# Print the path of a CPython 3.13 or 3.14 for `make pyodide-env` (the course on Pyodide's package
# versions: scipy 1.18 needs Python 3.12 or later, and Pyodide runs 3.14). In order: PYODIDE_PYTHON
# if set; python3.14 or python3.13 on PATH (one that runs: pyenv's shims exist for versions not
# selected); pyenv's own versions; a build of ours in build/cpython-3.13; else CPython 3.13.5 built
# here from Debian's source package (the upstream tarball as Debian ships it, its SHA-256 checked;
# about 5 minutes on 2 cores, once; as root the build's Debian packages are installed first).
#     tools/python3.13.sh [BUILD_DIR]    (default build/cpython-3.13)
set -eu
prefix=${1:-build/cpython-3.13}
case $prefix in /*) ;; *) prefix=$(cd "$(dirname "$0")/.." && pwd)/$prefix ;; esac
works() { "$1" -c 'import sys, sqlite3, ctypes; sys.exit(sys.version_info[:2] not in ((3, 13), (3, 14)))' 2>/dev/null; }
for candidate in ${PYODIDE_PYTHON:-} "$(command -v python3.14 || true)" "$(command -v python3.13 || true)" \
        "$prefix/bin/python3.13" $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[34]*/bin/python3 2>/dev/null | sort -r); do
    if [ -n "$candidate" ] && works "$candidate"; then echo "$candidate"; exit 0; fi
done
if [ -n "${PYODIDE_PYTHON:-}" ]; then echo "PYODIDE_PYTHON=$PYODIDE_PYTHON is not a CPython 3.13 or 3.14" >&2; exit 1; fi
version=3.13.5
sha256=93e583f243454e6e9e4588ca2c2662206ad961659863277afcdb96801647d640
url=http://deb.debian.org/debian/pool/main/p/python3.13/python3.13_$version.orig.tar.xz
echo "no CPython 3.13 or 3.14 found: building CPython $version from Debian's source into $prefix" >&2
if [ "$(id -u)" = 0 ]; then
    "$(dirname "$0")/apt_install.sh" build-essential libssl-dev libffi-dev zlib1g-dev libsqlite3-dev libbz2-dev \
        liblzma-dev xz-utils curl >&2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
curl -fsSL -o "$work/src.tar.xz" "$url"
echo "$sha256  $work/src.tar.xz" | sha256sum -c --quiet
tar -xJf "$work/src.tar.xz" -C "$work"
cd "$work"/Python-$version
./configure --quiet --prefix="$prefix" --without-ensurepip >&2
make --quiet -j"$(nproc)" >&2
make --quiet altinstall >&2
works "$prefix/bin/python3.13" || { echo "the build in $prefix does not run" >&2; exit 1; }
echo "$prefix/bin/python3.13"
