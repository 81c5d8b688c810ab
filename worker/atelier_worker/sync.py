"""``atelier-worker sync PATH --to URL``: ship ART's .art folders to Atelier from a box with Python only.

The same door as the ``atelier`` CLI (Atelier's POST /api/import/plan and /api/import/file): the
server says which files it still needs and from where, this ships them; history.jsonl in parts of
whole lines, continuing only where the server's last line is still in the file. Standard library
only. ``--watch`` rescans every ``--interval`` seconds until stopped; a restart resumes from what
the server says it has.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

CHUNK_BYTES = 1024 * 1024
EMPTY_SHA = hashlib.sha256(b"").hexdigest()


class SyncError(Exception):
    pass


class Client:
    def __init__(self, url: str, key: str | None, timeout: float = 120.0, attempts: int = 5) -> None:
        self.base = url.rstrip("/")
        self.key = key
        self.timeout = timeout
        self.attempts = attempts

    def call(self, path: str, body: bytes, content_type: str, what: str) -> dict:
        """POST with a timeout and bounded retries (backoff with jitter, Retry-After honoured) on 429, 5xx and network errors."""
        headers = {"content-type": content_type}
        if self.key:
            headers["authorization"] = f"Bearer {self.key}"
        last = ""
        for attempt in range(1, self.attempts + 1):
            delay = random.random() * 0.5 * 2 ** (attempt - 1)
            request = urllib.request.Request(self.base + path, data=body, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as res:
                    return json.loads(res.read().decode("utf-8"))
            except urllib.error.HTTPError as err:
                text = err.read().decode("utf-8", "replace")
                try:
                    message = json.loads(text)["error"]["message"]
                except Exception:
                    message = text[:300]
                last = f"{what}: HTTP {err.code}: {message}"
                if err.code != 429 and err.code < 500:
                    raise SyncError(last) from None
                retry_after = err.headers.get("retry-after")
                if retry_after and retry_after.isdigit():
                    delay = min(60.0, float(retry_after))
            except (urllib.error.URLError, TimeoutError, ConnectionError) as err:
                last = f"{what}: {getattr(err, 'reason', err)}"
            if attempt < self.attempts:
                time.sleep(delay)
        raise SyncError(f"{last} (gave up after {self.attempts} attempts)")


def model_folders(path: str) -> list[str]:
    """An .art folder, a project folder or a model folder: the model folders in it."""
    if not os.path.isdir(path):
        raise SyncError(f"{path} is not a folder: expected an .art folder, a project folder or a model folder")
    if os.path.exists(os.path.join(path, "model.json")):
        return [path]

    def in_models(project: str) -> list[str]:
        models = os.path.join(project, "models")
        if not os.path.isdir(models):
            return []
        return [
            os.path.join(models, n)
            for n in sorted(os.listdir(models))
            if os.path.exists(os.path.join(models, n, "model.json"))
        ]

    found = in_models(path) or [
        m for n in sorted(os.listdir(path)) if os.path.isdir(os.path.join(path, n)) for m in in_models(os.path.join(path, n))
    ]
    if not found:
        raise SyncError(
            f"{path} holds no ART model: expected an .art folder (<project>/models/<name>/model.json), "
            "a project folder (models/<name>/model.json) or a model folder (model.json)"
        )
    return found


def sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def folder_files(folder: str, cache: dict | None = None) -> list[dict]:
    """model.json, history.jsonl, every file under trajectories/, each checkpoints/<step> directory.

    ``cache`` (absolute path -> (stat stamp, sha256)), kept by ``--watch`` across passes, spares
    hashing files unchanged since the last pass: a long run's folder is mostly old files.
    """
    out = []

    def add(rel: str) -> None:
        abs_path = os.path.join(folder, rel)
        st = os.stat(abs_path)
        stamp = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        known = cache.get(abs_path) if cache is not None else None
        sha = known[1] if known and known[0] == stamp else sha256_file(abs_path)
        if cache is not None:
            cache[abs_path] = (stamp, sha)
        out.append({"path": rel.replace(os.sep, "/"), "abs": abs_path, "size": st.st_size, "sha256": sha})

    for name in ("model.json", "history.jsonl"):
        if os.path.isfile(os.path.join(folder, name)):
            add(name)
    trajectories = os.path.join(folder, "trajectories")
    for root, dirs, files in os.walk(trajectories):
        dirs.sort()
        for n in sorted(files):
            add(os.path.relpath(os.path.join(root, n), folder))
    checkpoints = os.path.join(folder, "checkpoints")
    if os.path.isdir(checkpoints):
        for n in sorted(os.listdir(checkpoints)):
            if os.path.isdir(os.path.join(checkpoints, n)):
                out.append({"path": f"checkpoints/{n}", "abs": None, "size": 0, "sha256": EMPTY_SHA})
    return out


def read_range(path: str, offset: int, length: int) -> bytes:
    with open(path, "rb") as f:
        f.seek(offset)
        return f.read(length)


def send_file(client: Client, run_uuid: str, file: dict, start: int, chunk_bytes: int) -> int:
    def post(body: bytes, offset: int) -> dict:
        query = urllib.parse.urlencode(
            {"run": run_uuid, "path": file["path"], "from": offset, "size": file["size"], "sha256": file["sha256"]}
        )
        return client.call(f"/api/import/file?{query}", body, "application/octet-stream", f"import {file['path']}")

    if file["abs"] is None:
        return post(b"", 0)["stored"]
    if file["path"] != "history.jsonl":
        with open(file["abs"], "rb") as f:
            return post(f.read(), 0)["stored"]
    stored, offset, chunk = 0, start, chunk_bytes
    while offset < file["size"]:
        data = read_range(file["abs"], offset, min(chunk, file["size"] - offset))
        result = post(data, offset)
        stored += result["stored"]
        if result["consumed"] > offset:
            offset, chunk = result["consumed"], chunk_bytes
        elif len(data) < file["size"] - offset and chunk < chunk_bytes * 4:
            chunk *= 2
        else:
            break  # the rest is a line still being written
    return stored


def sync_folder(client: Client, folder: str, chunk_bytes: int = CHUNK_BYTES, cache: dict | None = None) -> dict:
    files = folder_files(folder, cache)
    model = next((f for f in files if f["path"] == "model.json"), None)
    model_text = open(model["abs"], encoding="utf-8").read() if model else None
    plan_body = json.dumps(
        {"model": model_text, "files": [{k: f[k] for k in ("path", "size", "sha256")} for f in files]}
    ).encode("utf-8")
    plan = client.call("/api/import/plan", plan_body, "application/json", f"import plan of {folder}")
    by_path = {f["path"]: f for f in files}
    summary = {"folder": folder, "run": plan["run"], "sent": 0, "stored": 0, "failed": []}
    for need in plan["need"]:
        file = by_path.get(need["path"])
        if file is None:
            continue
        start = need.get("from", 0)
        check = need.get("check")
        if start and file["abs"]:
            here = read_range(file["abs"], check["offset"], check["length"]) if check else None
            if here is None or hashlib.sha256(here).hexdigest() != check["sha256"]:
                start = 0
        try:
            summary["stored"] += send_file(client, plan["run"]["uuid"], file, start, chunk_bytes)
            summary["sent"] += 1
        except SyncError as err:
            summary["failed"].append({"path": need["path"], "error": str(err)})
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="atelier-worker sync", description=__doc__.split("\n\n")[0])
    parser.add_argument("path", help="an .art folder, a project folder or one model folder")
    parser.add_argument("--to", default=os.environ.get("ATELIER_URL", "http://127.0.0.1:4000"), help="Atelier's URL")
    parser.add_argument("--key", default=os.environ.get("ATELIER_API_KEY"), help="an API key with the write scope")
    parser.add_argument("--watch", action="store_true", help="keep syncing every --interval seconds")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between rescans with --watch (default 2)")
    parser.add_argument("--chunk-bytes", type=int, default=CHUNK_BYTES, help="bytes of history.jsonl per request")
    args = parser.parse_args(argv)
    client = Client(args.to, args.key or None)
    hashes: dict = {}
    try:
        while True:
            failed = 0
            for folder in model_folders(args.path):
                s = sync_folder(client, folder, args.chunk_bytes, hashes)
                if s["sent"] or not args.watch:
                    print(f"{folder}: run {s['run']['uuid']}: {s['sent']} file(s) sent, {s['stored']} row(s) stored", flush=True)
                for f in s["failed"]:
                    print(f"  {f['path']}: {f['error']}", file=sys.stderr, flush=True)
                failed += len(s["failed"])
            if not args.watch:
                return 1 if failed else 0
            time.sleep(args.interval)
    except SyncError as err:
        print(f"atelier-worker sync: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
