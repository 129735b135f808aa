#!/usr/bin/env bash
# Install (or update) tafel as a systemd service on Raspberry Pi OS; see docs/service.md.
#
#   sudo systemd/install.sh --variant gpio-mux     # first install: pick the wiring variant
#   sudo systemd/install.sh                        # update: keeps /etc/tafel/config.toml
#   systemd/install.sh --dry-run --variant gpio-mux  # show every change, make none
#   sudo systemd/install.sh --uninstall            # remove the service (keeps config and game)
#
# Idempotent: running it again updates the code, profiles, unit and udev rule, never the config.
set -euo pipefail
umask 022 # the service user must be able to read what root installs

readonly PREFIX=/opt/tafel
readonly VENV="$PREFIX/venv"
readonly CONFIG_DIR=/etc/tafel
readonly CONFIG="$CONFIG_DIR/config.toml"
readonly UNIT=/etc/systemd/system/tafel.service
readonly RULES=/etc/udev/rules.d/99-tafel.rules
readonly MODULES=/etc/modules-load.d/tafel.conf
# The drivers of the scanner's USB serial port and of the SPI devices: loaded at boot, before the
# unit resolves its DeviceAllow= list (a driver loaded later would leave its devices refused).
readonly KERNEL_MODULES="cdc_acm spidev"
readonly SERVICE_USER=tafel
# The system's Python: the one Raspberry Pi OS's python3-lgpio, -gpiozero and -serial belong to.
readonly PYTHON=/usr/bin/python3
readonly VARIANTS="sim gpio-mux gpio-shift gpio-analog rp2040"
# The compiled libraries: pip may take them only as wheels, never build them (no compiler, no headers
# on a Pi). Where PyPI has no wheel, Raspberry Pi OS's own package provides them (see APT_PACKAGES
# and the table in wiring/README.md); on 32-bit, piwheels (Raspberry Pi OS's extra index) has wheels.
readonly COMPILED="lgpio,gpiod,sysv_ipc,spidev,RPi.GPIO,rpi_ws281x"
readonly PIWHEELS=https://www.piwheels.org/simple
# python3-lgpio: lgpio for Trixie's Python 3.13 and the Pi Zero's armv6l (no PyPI wheel there);
# python3-libgpiod: Blinka imports gpiod (1.6 on Bookworm, 2.2 on Trixie; PyPI's 2.x is 64-bit only);
# python3-sysv-ipc: Blinka needs sysv_ipc (PyPI's wheels are 64-bit only); python3-spidev for
# RPi.GPIO's SPI. The venv sees them through --system-site-packages.
readonly APT_PACKAGES="python3-venv python3-pip python3-lgpio python3-gpiozero python3-serial python3-libgpiod \
python3-spidev python3-sysv-ipc"

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly SRC

usage() {
    cat <<EOF
usage: sudo $0 [--variant VARIANT] [--editable] [--any-os] [--no-start] [--dry-run] [--uninstall]
               [--broker ACCOUNTS]

  --variant VARIANT  wiring of this board, for a first install: ${VARIANTS// /, }
                     (copies wiring/examples/VARIANT.toml to $CONFIG; an existing config is kept)
  --editable         install the checkout in editable mode (it must not live under /home:
                     the service cannot see /home)
  --any-os           do not insist on Raspberry Pi OS (e.g. Debian or Ubuntu on a Pi)
  --no-start         install and enable, but do not (re)start the service now
  --dry-run          print every change it would make (packages, files, boot configuration) and
                     make none; needs no root
  --uninstall        stop and remove the service, unit, udev rule and program; keeps
                     $CONFIG_DIR and the saved game in /var/lib/tafel
  --broker ACCOUNTS  this board also runs the club's MQTT broker (docs/remote.md): installs
                     Mosquitto with an account per name (e.g. kitchen,club,relay) and the ACL;
                     the new passwords go to $CONFIG_DIR/broker-passwords
EOF
}

say() { printf 'tafel install: %s\n' "$*"; }
# Every change goes through run/append_line, so --dry-run can show it instead.
run() {
    if ((dry_run)); then
        printf 'tafel install: would run: %s\n' "$*"
    else
        "$@"
    fi
}
append_line() { # append_line FILE LINE: add LINE at the end of FILE
    if ((dry_run)); then
        printf 'tafel install: would add to %s: %s\n' "$1" "$2"
    else
        printf '%s\n' "$2" >>"$1"
    fi
}
die() {
    printf 'tafel install: error: %s\n' "$*" >&2
    exit 1
}

variant=""
editable=0
any_os=0
start=1
dry_run=0
uninstall=0
broker=""
while (($#)); do
    case "$1" in
    --variant)
        (($# >= 2)) || die "--variant needs a value (${VARIANTS// /, })"
        variant="$2"
        shift 2
        ;;
    --variant=*)
        variant="${1#--variant=}"
        shift
        ;;
    --broker)
        (($# >= 2)) || die "--broker needs the accounts, e.g. kitchen,club,relay"
        broker="$2"
        shift 2
        ;;
    --editable) editable=1 && shift ;;
    --any-os) any_os=1 && shift ;;
    --no-start) start=0 && shift ;;
    --dry-run) dry_run=1 && shift ;;
    --uninstall) uninstall=1 && shift ;;
    -h | --help)
        usage
        exit 0
        ;;
    *)
        usage >&2
        die "unknown argument: $1"
        ;;
    esac
done

# --- checks before anything changes ---------------------------------------------------------------
((EUID == 0 || dry_run)) || die "run me as root (sudo $0 ...)"
# A dry run that names a release (TAFEL_OS) shows that system's install: no need to be on it.
if ((!any_os)) && { ((!dry_run)) || [[ -z "${TAFEL_OS:-}" ]]; }; then
    if [[ ! -f /etc/rpi-issue ]] && ! grep -qs '^ID=raspbian' /etc/os-release; then
        die "this is not Raspberry Pi OS (no /etc/rpi-issue); use --any-os to install anyway"
    fi
fi
# The release, architecture and model this installs for (a dry run may name others: TAFEL_OS,
# TAFEL_MACHINE and TAFEL_MODEL show what an install there would do).
# shellcheck source=/dev/null # the running system's release file
os_release="${TAFEL_OS:-$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-unknown}")}"
machine="${TAFEL_MACHINE:-$(uname -m)}"
model="${TAFEL_MODEL:-$({ tr -d '\0' </proc/device-tree/model; } 2>/dev/null || echo "an unknown model")}"
case "$os_release" in
bookworm | trixie) ;;
*) ((any_os)) || die "Raspberry Pi OS $os_release is not supported (Bookworm and Trixie are); use --any-os to try" ;;
esac
case "$machine" in
aarch64) bits=64 ;;
armv7l | armv6l) bits=32 ;;
*) ((any_os)) || die "a $machine processor is not a Raspberry Pi's (aarch64, armv7l, armv6l); use --any-os to try" ;;
esac
say "installing for $model, Raspberry Pi OS $os_release, ${bits:-?}-bit ($machine)"
[[ -f "$SRC/pyproject.toml" && -f "$SRC/systemd/tafel.service" ]] || die "$SRC is not a tafel checkout"
if [[ -n "$variant" && " $VARIANTS " != *" $variant "* ]]; then
    die "unknown variant '$variant' (variants: ${VARIANTS// /, })"
fi
if ((uninstall)); then
    say "removing tafel (keeping $CONFIG_DIR and /var/lib/tafel)"
    run systemctl disable --now tafel.service || true
    run rm -f "$UNIT" "$RULES" "$MODULES"
    run systemctl daemon-reload
    run udevadm control --reload-rules
    run rm -rf "$PREFIX"
    say "done: the user $SERVICE_USER, $CONFIG_DIR and /var/lib/tafel are still there (remove them by hand)"
    exit 0
fi
if [[ ! -e "$CONFIG" && -z "$variant" ]]; then
    die "no $CONFIG yet: choose the wiring with --variant (${VARIANTS// /, })"
fi
if ((editable)) && [[ "$SRC" == /home/* || "$SRC" == /root/* ]]; then
    die "an editable install must live outside /home and /root (the service runs with ProtectHome=yes)"
fi

# --- system packages, groups and the service user --------------------------------------------------
say "installing system packages"
export DEBIAN_FRONTEND=noninteractive
run apt-get update
# shellcheck disable=SC2086 # one argument per package
run apt-get install -y --no-install-recommends $APT_PACKAGES

for group in gpio spi dialout; do
    getent group "$group" >/dev/null || run groupadd --system "$group"
done
if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
    say "creating the system user $SERVICE_USER"
    run useradd --system --user-group --home-dir /var/lib/tafel --no-create-home \
        --shell /usr/sbin/nologin --comment "tafel smart board" "$SERVICE_USER"
fi
run usermod --append --groups gpio,spi,dialout "$SERVICE_USER"

# --- the program, its board profiles and docs ------------------------------------------------------
run install -d -m 0755 "$PREFIX"
if [[ ! -x "$VENV/bin/python" ]]; then
    say "creating $VENV"
    # System site packages: Raspberry Pi OS's own lgpio, gpiozero and pyserial satisfy the [pi] extra.
    run "$PYTHON" -m venv --system-site-packages "$VENV"
fi
say "installing tafel from $SRC"
# Wheels only for the compiled libraries: an install that would compile fails here, naming the
# package, instead of half-way through a build on the Pi.
pip_options=(--quiet "--only-binary=$COMPILED" --prefer-binary)
if [[ "${bits:-}" == 32 ]]; then
    pip_options+=(--extra-index-url "$PIWHEELS") # 32-bit Raspberry Pi OS's wheel index
fi
if ((editable)); then
    run "$VENV/bin/pip" install "${pip_options[@]}" --editable "${SRC}[pi]"
else
    run "$VENV/bin/pip" install "${pip_options[@]}" --upgrade "${SRC}[pi]"
fi

# Profile names in the config are looked up in $PREFIX/wiring (profile_dir).
run rm -rf "$PREFIX/wiring.new"
run cp -r "$SRC/wiring" "$PREFIX/wiring.new"
run rm -rf "$PREFIX/wiring"
run mv "$PREFIX/wiring.new" "$PREFIX/wiring"
run install -d -m 0755 "$PREFIX/docs"
run install -m 0644 "$SRC/docs/service.md" "$PREFIX/docs/service.md"

# --- configuration ---------------------------------------------------------------------------------
run install -d -m 0755 "$CONFIG_DIR"
if [[ -e "$CONFIG" ]]; then
    say "keeping the existing $CONFIG"
else
    say "writing $CONFIG for the $variant wiring"
fi
if [[ ! -e "$CONFIG" ]] && ((!dry_run)); then
    tmp="$(mktemp "$CONFIG_DIR/config.toml.XXXXXX")"
    sed "s|^# *profile_dir = .*|profile_dir = \"$PREFIX/wiring\"|" "$SRC/wiring/examples/$variant.toml" >"$tmp"
    chmod 0644 "$tmp"
    mv "$tmp" "$CONFIG"
fi
# The configuration the boot settings depend on: the installed one, or (dry run, first install) the
# example it would become, read with the checkout's own code.
if ((dry_run)); then
    config_file="$CONFIG"
    [[ -e "$config_file" ]] || config_file="$SRC/wiring/examples/$variant.toml"
    read_python=(env "PYTHONPATH=$SRC" "$PYTHON")
else
    say "checking $CONFIG as $SERVICE_USER"
    runuser -u "$SERVICE_USER" -- "$VENV/bin/tafel" run --config "$CONFIG" --check ||
        die "fix $CONFIG (docs: $PREFIX/docs/service.md), then run me again"
    config_file="$CONFIG"
    read_python=("$VENV/bin/python")
fi

# The SPI buses the wiring uses: SPI0 for an analog scanner's ADCs or a strip on spi_port 0, SPI1 for
# a strip on spi_port 1 (the configuration knows; see Config.spi_buses).
buses=" $("${read_python[@]}" -c 'import sys
from controller.service.config import load_config
print(*load_config(sys.argv[1]).spi_buses())' "$config_file") "
boot_dir=/boot/firmware
[[ -d "$boot_dir" ]] || boot_dir=/boot
boot_config="$boot_dir/config.txt"
cmdline="$boot_dir/cmdline.txt"
if [[ "$buses" == *" 0 "* ]]; then
    if command -v raspi-config >/dev/null; then
        say "enabling SPI0 (takes effect after a reboot if it was off)"
        run raspi-config nonint do_spi 0
    else
        say "switch SPI0 on yourself: dtparam=spi=on in $boot_config, then reboot"
    fi
fi
if [[ "$buses" == *" 1 "* ]] && ! grep -qs '^dtoverlay=spi1-1cs' "$boot_config"; then
    say "enabling SPI1 for the LED strip in $boot_config (takes effect after a reboot)"
    # Under [all]: a config.txt that ends in a conditional section ([pi4], [cm4] ...) would else
    # apply the overlay to that model only.
    append_line "$boot_config" ""
    append_line "$boot_config" "[all]"
    append_line "$boot_config" "# tafel: the LED strip on SPI1 (data on GPIO20)"
    append_line "$boot_config" "dtoverlay=spi1-1cs"
fi
if [[ "$buses" != "  " ]] && ! grep -qs '^# tafel: the SPI clock' "$boot_config"; then
    # The SPI clock is divided from the core clock, which the firmware lowers and raises with the
    # load: the LED strip's bit timing would drift with it (flicker, wrong colours). Pinned per model
    # with config.txt's own model filters, so one block serves every Pi (the Pi 5's SPI does not
    # follow the core clock and needs nothing).
    say "pinning the core clock for the LED strip's SPI timing in $boot_config (after a reboot)"
    append_line "$boot_config" ""
    append_line "$boot_config" "[all]"
    append_line "$boot_config" "# tafel: the SPI clock follows the core clock; pinned for the LED strip"
    for line in "[pi3]" "core_freq=250" "[pi02]" "core_freq=250" "[pi4]" "core_freq_min=500" "[all]"; do
        append_line "$boot_config" "$line"
    done
    case "$model" in
    *"Pi 5"*) say "on $model the SPI clock does not follow the core clock: none of these lines applies" ;;
    *"Pi 4"*) say "on $model the [pi4] line applies: core_freq_min=500" ;;
    *"Pi 3"* | *"Zero 2"*) say "on $model the [pi3]/[pi02] line applies: core_freq=250" ;;
    esac
fi
if [[ "$buses" != "  " ]] && ! grep -qs 'spidev\.bufsiz=' "$cmdline"; then
    # One LED frame goes to the SPI driver in one transfer: 201 LEDs need 4,952 bytes, more than
    # the kernel's 4,096-byte default, so the strip would fail at its first frame.
    say "raising the SPI transfer size in $cmdline (takes effect after a reboot)"
    if ((dry_run)); then
        printf 'tafel install: would add to the kernel command line in %s: spidev.bufsiz=32768\n' "$cmdline"
    else
        sed -i '1 s/$/ spidev.bufsiz=32768/' "$cmdline"
    fi
fi

# --- kernel modules, udev rule and systemd unit -----------------------------------------------------
say "loading ${KERNEL_MODULES// /, } at boot ($MODULES)"
if ((dry_run)); then
    printf 'tafel install: would write %s: %s\n' "$MODULES" "$KERNEL_MODULES"
else
    printf '# tafel: drivers its systemd unit allows devices of (see tafel.service)\n%s\n' \
        "${KERNEL_MODULES// /$'\n'}" >"$MODULES"
fi
# shellcheck disable=SC2086 # one argument per module
run modprobe -a $KERNEL_MODULES || say "could not load ${KERNEL_MODULES// /, } now; they load at the next boot"
run install -D -m 0644 "$SRC/systemd/99-tafel.rules" "$RULES"
run udevadm control --reload-rules
run udevadm trigger --subsystem-match=tty --action=change || say "udevadm trigger failed; replug the scanner board"
run udevadm trigger --subsystem-match=gpio --subsystem-match=spidev --action=change || true

# Every library the configured backends load, imported as the service user: a missing one is named
# with the package that provides it now, not as an ImportError when the service starts.
say "checking the libraries this board needs"
if ((dry_run)); then
    printf 'tafel install: would run: %s\n' "runuser -u $SERVICE_USER -- $VENV/bin/tafel diagnose --imports --config $CONFIG"
elif ! runuser -u "$SERVICE_USER" -- "$VENV/bin/tafel" diagnose --imports --config "$CONFIG"; then
    say "some libraries are missing (named above): install them, then run me again"
fi

# The club's broker on this board (docs/remote.md, "Setting up a broker").
if [[ -n "$broker" ]]; then
    say "setting up Mosquitto for the accounts $broker"
    run apt-get install -y mosquitto
    run "$VENV/bin/tafel" broker-config "$broker" --dir /etc/mosquitto --passwords "$CONFIG_DIR/broker-passwords"
    run systemctl restart mosquitto
fi

run install -D -m 0644 "$SRC/systemd/tafel.service" "$UNIT"
run systemctl daemon-reload
run systemctl enable tafel.service
if ((start)); then
    say "(re)starting tafel.service"
    run systemctl restart tafel.service
    ((dry_run)) || systemctl --no-pager --lines=5 status tafel.service || true
fi
((!dry_run)) || say "dry run: nothing was changed"
say "done: logs with  journalctl -u tafel -f"
