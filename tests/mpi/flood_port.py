#!/usr/bin/env python3
"""Floods the watchdog's port during its rendezvous, as a port scanner or a hostile host could.

Usage: flood_port.py LOG COUNT
Waits (up to 30 s) for rank 0's "watchdog: listening on A.B.C.D:PORT" line in LOG
(COLLSCOPE_WATCHDOG_HOLD_MS makes rank 0 print it and wait before the ranks connect),
opens COUNT connections that say nothing and COUNT that send the wrong answer, prints
"flooded N", and holds them open until it is killed.
"""
import re
import socket
import sys
import time


def find_port(log):
    for _ in range(3000):
        try:
            with open(log, errors="replace") as f:
                m = re.search(r"watchdog: listening on ([0-9.]+):([0-9]+)", f.read())
            if m:
                return m.group(1), int(m.group(2))
        except OSError:
            pass
        time.sleep(0.01)
    sys.exit("no watchdog port in " + log)


def main():
    log, count = sys.argv[1], int(sys.argv[2])
    addr = find_port(log)
    held = []
    for wrong in (False, True):
        for _ in range(count):
            s = socket.create_connection(addr, timeout=5)
            if wrong:
                s.sendall(b"Z" * 64)
            held.append(s)
    print("flooded", len(held), flush=True)
    time.sleep(120)


main()
