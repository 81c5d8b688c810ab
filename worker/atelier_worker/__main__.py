"""``atelier-worker`` command line: serve the atelier-worker/1 protocol next to ART, or
``atelier-worker sync PATH --to URL`` to ship ART's .art folders to Atelier (sync.py)."""

from __future__ import annotations

import argparse
import os
import signal
import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["sync"]:
        from .sync import main as sync_main

        return sync_main(argv[1:])
    parser = argparse.ArgumentParser(
        prog="atelier-worker",
        description="Serve the atelier-worker/1 HTTP + NDJSON protocol in front of OpenPipe ART's LocalBackend.",
    )
    parser.add_argument("--host", default=os.environ.get("ATELIER_WORKER_HOST", "127.0.0.1"),
                        help="address to listen on (default 127.0.0.1; use 0.0.0.0 to accept Atelier from another host)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("ATELIER_WORKER_PORT", "7998")),
                        help="port (default 7998; 0 picks a free port and prints it)")
    parser.add_argument("--art-path", default=os.environ.get("ATELIER_WORKER_ART_PATH"),
                        help="ART's .art directory (LocalBackend(path=...)); ART's default when omitted")
    parser.add_argument("--token", default=None,
                        help="bearer token required on every request except GET /v1/health "
                             "(default: $ATELIER_WORKER_TOKEN; none means no auth)")
    parser.add_argument("--heartbeat-seconds", type=float,
                        default=float(os.environ.get("ATELIER_WORKER_HEARTBEAT_SECONDS", "15")),
                        help="during training, send a heartbeat line after this many quiet seconds (default 15)")
    parser.add_argument("--max-body-bytes", type=int,
                        default=int(os.environ.get("ATELIER_WORKER_MAX_BODY_BYTES", str(128 * 1024 * 1024))),
                        help="largest request body accepted, checked from Content-Length before reading (default 128 MiB)")
    parser.add_argument("--max-connections", type=int,
                        default=int(os.environ.get("ATELIER_WORKER_MAX_CONNECTIONS", "32")),
                        help="connections served at once; more are answered 503 and closed (default 32)")
    parser.add_argument("--socket-timeout-seconds", type=float,
                        default=float(os.environ.get("ATELIER_WORKER_SOCKET_TIMEOUT_SECONDS", "30")),
                        help="an idle or half-sent connection is closed after this long without progress (default 30)")
    parser.add_argument("--rollouts-only", action="store_true",
                        default=os.environ.get("ATELIER_WORKER_ROLLOUTS_ONLY", "") not in ("", "0", "false"),
                        help="run the user's rollouts only, with no LocalBackend (no GPU; e.g. beside W&B serverless training)")
    args = parser.parse_args(argv)
    token = args.token if args.token is not None else os.environ.get("ATELIER_WORKER_TOKEN") or None
    if args.heartbeat_seconds <= 0:
        parser.error("--heartbeat-seconds must be positive")
    if args.max_body_bytes < 1024:
        parser.error("--max-body-bytes must be at least 1024")
    if args.max_connections < 1:
        parser.error("--max-connections must be at least 1")
    if args.socket_timeout_seconds <= 0:
        parser.error("--socket-timeout-seconds must be positive")

    # SIGTERM shuts down like Ctrl-C so ART's backend gets closed.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))

    from .art_driver import ArtDriver, RolloutsOnlyDriver
    from .server import serve

    # Entrypoints are the user's modules: import them from where the worker was started, as uvicorn does.
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    driver = RolloutsOnlyDriver() if args.rollouts_only else ArtDriver(args.art_path)
    try:
        serve(driver, host=args.host, port=args.port, token=token, heartbeat_seconds=args.heartbeat_seconds,
              max_body_bytes=args.max_body_bytes, max_connections=args.max_connections,
              socket_timeout=args.socket_timeout_seconds)
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
