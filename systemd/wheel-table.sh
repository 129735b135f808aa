#!/usr/bin/env bash
# Which of the Pi's Python libraries PyPI has as ready wheels, per Python version and architecture:
# `pip download --only-binary=:all:` for each platform, so the table in wiring/README.md is measured,
# not guessed. Each cell is the newest wheel that meets the requirement; "-" means pip found none (pip would compile it from source, or the
# package comes from apt: see the table's notes). Needs the network to PyPI; changes nothing.
#
#   systemd/wheel-table.sh            # prints the Markdown table
set -euo pipefail

readonly PIP="${PIP:-python3 -m pip}"
# PyPI alone, as a Pi reaches it: no local indexes, caches or constraints of this machine's pip.
export PIP_CONFIG_FILE=/dev/null PIP_NO_CACHE_DIR=1 PIP_FIND_LINKS="" PIP_EXTRA_INDEX_URL="" PIP_CONSTRAINT=""
# The requirements as the [pi] and [legacy] extras and their dependencies state them.
readonly PACKAGES="lgpio>=0.2 gpiozero>=2.0.1 gpiod>=2.0 gpiod sysv_ipc>=1.1.0 pyserial>=3.5 spidev rpi-lgpio RPi.GPIO adafruit-blinka>=8.0 adafruit-circuitpython-neopixel-spi>=1.0"
# Raspberry Pi OS Bookworm has Python 3.11, Trixie 3.13; 64-bit is aarch64, 32-bit armhf (armv7l wheels,
# and armv6l for the Pi Zero / Pi 1).
readonly PYTHONS="3.11 3.13"
readonly ARCHES="aarch64 armv7l armv6l"

platforms() { # platforms ARCH GLIBC_MINOR: the platform tags pip may take there
    local tags="--platform linux_$1" minor
    if [[ "$1" != armv6l ]]; then # manylinux covers aarch64 and armv7l, not the Pi Zero's ARMv6
        for ((minor = 17; minor <= $2; minor++)); do
            tags+=" --platform manylinux_2_${minor}_$1"
        done
    fi
    echo "$tags"
}
glibc() { # the C library (2.x) of the Raspberry Pi OS that ships this Python
    case "$1" in
    3.11) echo 36 ;; # Bookworm
    3.13) echo 41 ;; # Trixie
    esac
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
header="| package |"
rule="| --- |"
for python in $PYTHONS; do
    for arch in $ARCHES; do
        header+=" $python $arch |"
        rule+=" --- |"
    done
done
printf '%s\n%s\n' "$header" "$rule"
for package in $PACKAGES; do
    row="| \`$package\` |"
    for python in $PYTHONS; do
        for arch in $ARCHES; do
            rm -rf "${work:?}"/*
            # shellcheck disable=SC2046 # one argument per platform tag
            if $PIP download --quiet --no-deps --only-binary=:all: $(platforms "$arch" "$(glibc "$python")") \
                --python-version "$python" --implementation cp -d "$work" "$package" >/dev/null 2>&1; then
                wheel="$(basename "$(ls "$work"/*.whl)")"
                version="$(cut -d- -f2 <<<"$wheel")"
                if [[ "$wheel" == *-none-any.whl ]]; then
                    row+=" $version (pure) |"
                else
                    row+=" $version |"
                fi
            else
                row+=" - |"
            fi
        done
    done
    printf '%s\n' "$row"
done
