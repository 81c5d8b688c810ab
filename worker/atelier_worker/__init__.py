"""Atelier worker: a small HTTP + NDJSON server in front of OpenPipe ART's LocalBackend."""

__version__ = "0.1.0"
PROTOCOL = "atelier-worker/1"
