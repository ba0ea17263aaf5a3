#!/usr/bin/env python3
"""pty_test.py - drives `gpushare repl` on a pseudo-terminal, the way a
person would: readline's prompt, tab completion of a command, of a
workload name and of a key and its value, Ctrl-C clearing the line,
history written to $XDG_STATE_HOME, and Ctrl-D asking before unsaved
changes are discarded.

    python3 tests/repl/pty_test.py BIN [WORKLOADS]

BIN is the gpushare binary (the sanitized one in `make check`); WORKLOADS
defaults to examples/workloads.yaml. HOME and XDG_STATE_HOME point into a
fresh temporary directory, so the user's own history and inputrc are never
read or written. Every wait is bounded and the whole run is killed after 10
seconds. The last line is "N passed, M failed"; the exit status is 1 when
anything failed.
"""
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import struct
import sys
import tempfile
import termios
import time

DEADLINE = 10.0  # seconds for the whole run
# Terminal control sequences: CSI (colours, cursor, bracketed paste),
# charset selection, keypad modes, and carriage returns.
CONTROL = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\r")


class Session:
    def __init__(self, argv, env):
        self.start = time.monotonic()
        self.raw = b""
        self.seen = 0  # how much of the screen text earlier waits consumed
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            try:
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        # A real size: readline wraps and completes against the width.
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))

    def left(self):
        return DEADLINE - (time.monotonic() - self.start)

    def text(self):
        return CONTROL.sub(b"", self.raw).decode("utf-8", "replace")

    def read_some(self, timeout):
        """Reads what the child wrote within timeout; False at its end."""
        ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not ready:
            return True
        try:
            data = os.read(self.fd, 4096)
        except OSError:  # EIO: the child has closed the terminal
            data = b""
        self.raw += data
        return bool(data)

    def expect(self, pattern, timeout=3.0):
        """Waits until `pattern` (a regex) appears after what earlier waits
        matched; returns the match or None."""
        end = time.monotonic() + min(timeout, self.left())
        regex = re.compile(pattern)
        while True:
            m = regex.search(self.text(), self.seen)
            if m:
                self.seen = m.end()
                return m
            remaining = end - time.monotonic()
            if remaining <= 0 or not self.read_some(remaining):
                return None

    def send(self, data):
        os.write(self.fd, data.encode())

    def wait(self):
        """Exit status, or None if the child has not ended in time."""
        end = time.monotonic() + self.left()
        while time.monotonic() < end:
            self.read_some(0.05)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
        return None

    def kill(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


def main():
    if len(sys.argv) < 2:
        print("usage: pty_test.py BIN [WORKLOADS]", file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    workloads = sys.argv[2] if len(sys.argv) > 2 else "examples/workloads.yaml"
    tmp = tempfile.mkdtemp(prefix="gpushare-pty.")
    state = os.path.join(tmp, "state")  # missing: the session creates it
    inputrc = os.path.join(tmp, "inputrc")
    open(inputrc, "w").close()
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": tmp,
        "XDG_STATE_HOME": state,
        "TERM": "xterm",
        "INPUTRC": inputrc,
        "LC_ALL": "C",
        "ASAN_OPTIONS": "detect_leaks=1",
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
    }
    results = []

    def check(name, ok):
        results.append(ok)
        if not ok:
            print("FAIL %s" % name)

    s = Session([binary, "repl", workloads], env)
    signal.signal(signal.SIGALRM, lambda *_: (s.kill(), sys.exit("pty_test: killed after 10 s")))
    signal.alarm(int(DEADLINE) + 1)
    try:
        check("the load prints the summary", s.expect(r"\$3\.06/h \(-75\.0% vs dedicated\)"))
        check("prompt", s.expect(r"gpushare> $"))

        s.send("pla\t")
        check("'pla' + Tab completes to 'plan '", s.expect(r"plan $"))

        s.send("\x03")  # Ctrl-C: the line is dropped, a fresh prompt shown
        check("Ctrl-C shows a fresh prompt", s.expect(r"\ngpushare> $"))
        s.send("help quit\r")
        check("Ctrl-C cleared the line", s.expect(r"usage: quit"))
        check("prompt after help", s.expect(r"gpushare> $"))

        s.send("rm sen\t")
        check("'rm sen' + Tab completes the workload", s.expect(r"rm sentiment-api $"))
        s.send("\r")
        check("rm re-plans", s.expect(r"\$3\.06/h \(\+\$0\.00/h vs last, "))

        s.send("set * pri\t")
        check("a key completes with '='", s.expect(r"set \* pricing=$"))
        s.send("sp\t")
        check("its value completes", s.expect(r"spot $"))
        s.send("\r")
        check("set re-plans", s.expect(r"vs last, .* GPU"))
        check("prompt after set", s.expect(r"gpushare> $"))

        s.send("\x04")  # Ctrl-D with unsaved changes
        check("Ctrl-D asks first", s.expect(r"discard unsaved changes\? \[y/N\] $"))
        s.send("n\r")
        check("'n' keeps the session", s.expect(r"gpushare> $"))
        s.send("\x04")
        check("Ctrl-D asks again", s.expect(r"discard unsaved changes\? \[y/N\] $"))
        s.send("y\r")
        check("'y' ends the session with status 0", s.wait() == 0)
    finally:
        signal.alarm(0)
        s.kill()

    history = os.path.join(state, "gpushare", "history")
    try:
        with open(history) as f:
            lines = [l.strip() for l in f.read().splitlines()]
    except OSError:
        lines = []
    check("history in $XDG_STATE_HOME/gpushare/history",
          "rm sentiment-api" in lines and "set * pricing=spot" in lines)
    check("no sanitizer report", b"Sanitizer" not in s.raw and b"runtime error" not in s.raw)
    if not all(results):
        sys.stdout.write("---- screen ----\n%s\n----------------\n" % s.text())
    shutil.rmtree(tmp, ignore_errors=True)
    passed = sum(1 for r in results if r)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
