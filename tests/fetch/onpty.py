#!/usr/bin/env python3
"""onpty.py OUT COLS CMD... - run CMD with stdin, stdout and stderr on a new
pseudo-terminal of COLS columns (as a person's terminal would be) and
write everything it printed there, byte for byte, to OUT.  Exits with
CMD's status.  For the fetch tests: what a user sees on a terminal."""
import fcntl
import os
import pty
import struct
import sys
import termios

out, cols, cmd = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    try:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
        os.execvp(cmd[0], cmd)
    finally:
        os._exit(127)
data = bytearray()
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    data += chunk
_, status = os.waitpid(pid, 0)
with open(out, "wb") as f:
    f.write(bytes(data))
sys.exit(os.waitstatus_to_exitcode(status))
