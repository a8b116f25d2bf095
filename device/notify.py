"""systemd's sd_notify protocol in a few lines of the standard library.

The unit is ``Type=notify`` with ``WatchdogSec=``: the referee says ``READY=1`` once the
camera, display and buttons are open, pings ``WATCHDOG=1`` from its main loop (never from a
side thread: a hung loop must stop pinging so systemd restarts it) and says ``STOPPING=1``
on the way out. Outside systemd ($NOTIFY_SOCKET unset) every call does nothing, so the same
code runs on a laptop. We avoid python-systemd: it is one more native package on the Pi.
"""

from __future__ import annotations

import os
import socket
import time


def notify(*states: str) -> bool:
    """Send ``states`` ("READY=1", "STATUS=...") to systemd; False when not under systemd."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address or not states:
        return False
    if address.startswith("@"):  # an abstract socket: Linux spells it with a leading NUL
        address = "\0" + address[1:]
    message = "\n".join(states).encode("utf-8")
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message)
    except OSError:
        return False  # systemd gone (shutting down): nothing useful to do about it
    return True


def ready(status: str | None = None) -> bool:
    return notify("READY=1", *([f"STATUS={status}"] if status else []))


def status(text: str) -> bool:
    return notify(f"STATUS={text}")


def stopping() -> bool:
    return notify("STOPPING=1")


def watchdog_interval() -> float | None:
    """Seconds between pings (half of WatchdogSec=), or None when no watchdog watches us."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        value = int(usec)
    except ValueError:
        return None
    return value / 2_000_000 if value > 0 else None


class Watchdog:
    """Pings at most once per interval; call :meth:`kick` from every turn of the main loop."""

    def __init__(self, interval: float | None = None) -> None:
        self.interval = interval if interval is not None else watchdog_interval()
        self._last = 0.0

    def kick(self) -> bool:
        """Send WATCHDOG=1 if an interval has passed; True when a ping went out."""
        if self.interval is None:
            return False
        now = time.monotonic()
        if now - self._last < self.interval:
            return False
        self._last = now
        return notify("WATCHDOG=1")
