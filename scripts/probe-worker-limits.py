"""Measures the worker's limits against hostile clients (issue #23 item 6), the figures in docs/SECURITY.md:
the worker's RSS before and after two unauthenticated POSTs announcing 300 MB each (and streaming it
until the worker closes the connection), and its thread count with 400 half-sent requests open, then
after its socket timeout. Usage (from worker/): PYTHONPATH=. python3 ../scripts/probe-worker-limits.py
"""
import os, socket, sys, threading, time
sys.path.insert(0, ".")  # run from worker/
from tests.test_server import Worker
def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"): return int(line.split()[1]) // 1024
w = Worker(token="t0ken", env={"ATELIER_WORKER_MAX_CONNECTIONS": "32", "ATELIER_WORKER_SOCKET_TIMEOUT_SECONDS": "2"})
before = rss(w.proc.pid)
def send():
    s = socket.create_connection(("127.0.0.1", w.port))
    n = 300 * 1024 * 1024
    s.sendall(f"POST /v1/models/train HTTP/1.1\r\nHost: x\r\nContent-Length: {n}\r\n\r\n".encode())
    chunk = b"x" * (1 << 20); sent = 0
    try:
        while sent < n: s.sendall(chunk); sent += len(chunk)
    except OSError as e: pass
    s.close()
    return sent
ts = [threading.Thread(target=send) for _ in range(2)]; [t.start() for t in ts]; [t.join() for t in ts]
peak = rss(w.proc.pid)
# 400 half-sent requests
socks = []
for _ in range(400):
    try:
        s = socket.create_connection(("127.0.0.1", w.port)); s.sendall(b"POST /v1/models/register HTTP/1.1\r\nHost: x\r\n"); socks.append(s)
    except OSError: pass
time.sleep(0.5)
threads = len(os.listdir(f"/proc/{w.proc.pid}/task"))
time.sleep(3)
threads_after = len(os.listdir(f"/proc/{w.proc.pid}/task"))
print(f"RSS before {before} MB, after two 300 MB unauthenticated POSTs {peak} MB; threads with 400 half-sent requests open: {threads}, 3 s later (socket timeout 2 s): {threads_after}")
for s in socks: s.close()
w.stop()
