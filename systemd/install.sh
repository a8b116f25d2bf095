#!/usr/bin/env bash
# Install the Zefiria Companion referee as a service on Raspberry Pi OS Bookworm.
#
#   sudo ./systemd/install.sh            (from a checkout of the project)
#
# Safe to run again (after a `git pull`, to upgrade): every step checks before it changes.
# What it does:
#   1. apt: python3-picamera2 (libcamera's Python binding is only packaged by apt),
#      python3-venv, python3-lgpio and i2c-tools
#   2. enables I2C for the OLED (raspi-config), if it is not already
#   3. creates the system user `zefiria` in the groups gpio, i2c and video
#   4. makes /opt/zefiria/venv with --system-site-packages (so it sees apt's picamera2)
#      and installs this checkout into it with the `pi` extra
#   5. puts the example config at /etc/zefiria/config.toml (never overwrites yours)
#   6. lets `zefiria` power the Pi off (polkit rule) for the long-press safe shutdown
#   7. installs, enables and (re)starts zefiria-referee.service
set -euo pipefail

SERVICE=zefiria-referee.service
PREFIX=/opt/zefiria
VENV="$PREFIX/venv"
USER_NAME=zefiria
CONFIG_DIR=/etc/zefiria
POLKIT_RULE=/etc/polkit-1/rules.d/50-zefiria-poweroff.rules

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
project="$(dirname "$here")"

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

[[ "$(id -u)" -eq 0 ]] || die "run me as root: sudo $0"
[[ -f "$project/pyproject.toml" ]] || die "$project is not a Zefiria Companion checkout"
command -v apt-get >/dev/null || die "this script is for Raspberry Pi OS (Debian Bookworm)"

say "Packages (apt)"
wanted=(python3-picamera2 python3-venv python3-lgpio i2c-tools)
missing=()
for pkg in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$pkg")
done
if ((${#missing[@]})); then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "already installed: ${wanted[*]}"
fi

say "I2C for the display"
if command -v raspi-config >/dev/null; then
  # get_i2c prints 0 when I2C is enabled (raspi-config's own convention)
  if [[ "$(raspi-config nonint get_i2c)" != "0" ]]; then
    raspi-config nonint do_i2c 0
    echo "I2C enabled: reboot once the install is done"
  else
    echo "I2C already enabled"
  fi
else
  echo "raspi-config not found: enable I2C yourself (dtparam=i2c_arm=on in config.txt)"
fi

say "User $USER_NAME"
if ! id -u "$USER_NAME" >/dev/null 2>&1; then
  useradd --system --user-group --home-dir /var/lib/zefiria --no-create-home \
    --shell /usr/sbin/nologin "$USER_NAME"
fi
for group in gpio i2c video; do
  getent group "$group" >/dev/null || groupadd --system "$group"
  usermod -a -G "$group" "$USER_NAME"
done
id "$USER_NAME"

say "Python environment $VENV"
install -d -m 0755 "$PREFIX"
if [[ ! -x "$VENV/bin/python" ]]; then
  python3 -m venv --system-site-packages "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --upgrade pip
# apt's picamera2 stack (simplejpeg, ...) is compiled against apt's numpy: pin numpy to that
# version, or a newer wheel in the venv would shadow it and picamera2 would fail to import.
constraints="$(mktemp)"
trap 'rm -f "$constraints"' EXIT
sys_numpy="$(python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)"
if [[ -n "$sys_numpy" ]]; then
  echo "numpy==$sys_numpy" >"$constraints"
fi
"$VENV/bin/python" -m pip install --quiet --upgrade -c "$constraints" "${project}[pi]"
"$VENV/bin/python" -c "import picamera2" 2>/dev/null \
  || echo "warning: picamera2 is not importable from $VENV (no camera module support)"

say "Config $CONFIG_DIR/config.toml"
install -d -m 0755 "$CONFIG_DIR"
if [[ ! -e "$CONFIG_DIR/config.toml" ]]; then
  install -m 0644 "$project/device/data/config.example.toml" "$CONFIG_DIR/config.toml"
  echo "example config installed: edit it for your pins and display"
else
  echo "keeping your $CONFIG_DIR/config.toml"
fi

say "Safe shutdown permission"
install -d -m 0755 "$(dirname "$POLKIT_RULE")"
cat >"$POLKIT_RULE.tmp" <<RULE
// Installed by Zefiria Companion: the referee's long press on Undo powers the Pi off.
polkit.addRule(function(action, subject) {
    if (subject.user == "$USER_NAME" &&
        (action.id == "org.freedesktop.login1.power-off" ||
         action.id == "org.freedesktop.login1.power-off-multiple-sessions")) {
        return polkit.Result.YES;
    }
});
RULE
mv "$POLKIT_RULE.tmp" "$POLKIT_RULE"
chmod 0644 "$POLKIT_RULE"

say "Service $SERVICE"
install -m 0644 "$here/$SERVICE" "/etc/systemd/system/$SERVICE"
systemctl daemon-reload
systemctl enable "$SERVICE"
systemctl restart "$SERVICE" || true
systemctl --no-pager --lines=5 status "$SERVICE" || true
echo
echo "Done. Logs: journalctl -u $SERVICE -f    Hardening: systemd-analyze security $SERVICE"
