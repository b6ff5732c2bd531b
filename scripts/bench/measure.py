"""A command's wall time and peak resident memory, measured by a small process of its own: a child
of a benchmark's Python process, which may hold MapLibre Native's hundreds of MB, would start with
that process's peak (exec keeps maxrss). Shared by scripts/bench/native/speed.py and
scripts/bench/public/speed.py.
"""
import os
import subprocess
import sys

MEASURE = """
import os, sys, time
start = time.perf_counter()
pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ)
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as file:
    file.write(f"{time.perf_counter() - start} {usage.ru_maxrss}")
sys.exit(os.waitstatus_to_exitcode(status))
"""


def measured(command, work, cwd=None):
    """Runs `command` (its output captured); returns (seconds, peak MB, stdout). `work` is a folder
    for the figures' file."""
    figures = os.path.join(work, "figures")
    out = subprocess.run([sys.executable, "-c", MEASURE, figures] + command, capture_output=True, text=True, cwd=cwd)
    if out.returncode != 0:
        # A negative status is a signal (-6: SIGABRT, -4: SIGILL, a Swift trap): the command's
        # own last words say which and where.
        code = out.returncode - 256 if out.returncode > 128 else out.returncode
        raise RuntimeError(f"{' '.join(command)}: exit status {code}\n{out.stderr[-4000:]}")
    with open(figures) as file:
        seconds, maxrss_kb = file.read().split()
    return float(seconds), int(maxrss_kb) / 1024, out.stdout
