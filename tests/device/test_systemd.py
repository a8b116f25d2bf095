"""The systemd side: sd_notify over a real datagram socket, and the unit file checked with
``systemd-analyze verify`` (any output fails) and ``systemd-analyze security`` (<= 2.0)."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from zefiria.device import notify

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "zefiria-referee.service"
INSTALL = ROOT / "systemd" / "install.sh"
MAX_EXPOSURE = 2.0

analyze = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(analyze is None, reason="systemd-analyze is not installed")


@pytest.fixture
def notify_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    path = tmp_path / "notify.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(path))
    server.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield server
    server.close()


def test_ready_watchdog_and_stopping_reach_systemd(notify_socket: socket.socket) -> None:
    assert notify.ready("reading the table")
    assert notify_socket.recv(4096) == b"READY=1\nSTATUS=reading the table"
    assert notify.stopping()
    assert notify_socket.recv(4096) == b"STOPPING=1"


def test_watchdog_pings_once_per_half_interval(
    notify_socket: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "20000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert notify.watchdog_interval() == 10.0
    dog = notify.Watchdog()
    assert dog.kick() and not dog.kick()  # the second is too soon
    assert notify_socket.recv(4096) == b"WATCHDOG=1"


def test_outside_systemd_everything_is_a_quiet_no(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    assert not notify.ready()
    assert notify.watchdog_interval() is None
    assert not notify.Watchdog().kick()
    monkeypatch.setenv("NOTIFY_SOCKET", "/nonexistent/socket")
    assert not notify.status("x")  # systemd gone: no exception
    monkeypatch.setenv("WATCHDOG_USEC", "5000000")
    monkeypatch.setenv("WATCHDOG_PID", "1")  # the watchdog is for another process
    assert notify.watchdog_interval() is None


def _verifiable_unit(tmp_path: Path) -> Path:
    """The unit with ExecStart pointing at a binary that exists here (verify checks it)."""
    text = UNIT.read_text()
    text = re.sub(r"^ExecStart=\S+", f"ExecStart={shutil.which('true')}", text, flags=re.M)
    copy = tmp_path / UNIT.name
    copy.write_text(text)
    return copy


@needs_analyze
def test_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    unit = _verifiable_unit(tmp_path)
    result = subprocess.run(
        [str(analyze), "verify", "--man=no", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    output = (result.stdout + result.stderr).strip()
    # verify exits 0 even for unknown keys: any message at all is a finding
    assert result.returncode == 0 and output == "", output


@needs_analyze
def test_unit_exposure_is_at_most_two(tmp_path: Path) -> None:
    unit = _verifiable_unit(tmp_path)
    result = subprocess.run(
        [str(analyze), "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert match, result.stdout + result.stderr
    exposure = float(match.group(1))
    print(f"systemd-analyze security exposure: {exposure}")
    assert exposure <= MAX_EXPOSURE, result.stdout


def test_install_script_is_valid_bash() -> None:
    subprocess.run(["bash", "-n", str(INSTALL)], check=True, timeout=30)
    text = INSTALL.read_text()
    assert "set -euo pipefail" in text and "--system-site-packages" in text


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_install_script_passes_shellcheck() -> None:
    result = subprocess.run(
        ["shellcheck", str(INSTALL)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout
