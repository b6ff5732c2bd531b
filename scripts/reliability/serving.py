"""What checks.py and memory.py share: a `mapwright serve` started and waited for."""
import subprocess
import threading
import time
import urllib.request


def start_serve(mapwright, arguments, log=None, cwd=None):
    """Starts `MAPWRIGHT serve --port 0 ARGUMENTS` (in CWD, default this process's folder) and
    waits for /health; returns the process, its port (None when it did not start listening) and
    the warning lines it printed while starting (every line, saying why, when it did not start).
    The rest of its standard error goes to LOG (a list) when given."""
    log = [] if log is None else log
    server = subprocess.Popen([mapwright, "serve", "--port", "0", *arguments], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, cwd=cwd)
    port, warnings, lines = None, [], []
    while port is None:
        line = server.stderr.readline()
        if not line:
            warnings = lines
            break
        lines.append(line.strip())
        if "warning:" in line: warnings.append(line.strip())
        if "serving on http://127.0.0.1:" in line: port = int(line.rsplit(":", 1)[1].strip().split("/")[0])
    def drain():
        for line in server.stderr: log.append(line.rstrip("\n"))
    threading.Thread(target=drain, daemon=True).start()
    for _ in range(600):
        if port is None: break
        try:
            if urllib.request.urlopen(f"http://127.0.0.1:{port}/health").status == 200: break
        except Exception: time.sleep(0.1)
    return server, port, warnings
