#!/usr/bin/env python3
"""Checks a catalog and store after a crash: integrity, foreign keys, and for ID@VERSION that it is
either fully present (catalog row, every file, hashes match) or absent from catalog and index,
with no half-written ID/VERSION folder (a version is staged and renamed into place whole).

Usage: check-store.py CATALOG STORE ID VERSION   -> prints 'present' or 'absent', exits 1 otherwise
"""
import hashlib, json, os, sqlite3, sys

catalog, store, pack, version = sys.argv[1:5]

def fail(message):
    print(f"BROKEN: {message}")
    sys.exit(1)

def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()

if not os.path.exists(catalog):
    row = None
else:
    db = sqlite3.connect(catalog)
    if db.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
        fail("integrity_check is not ok")
    if db.execute("PRAGMA foreign_key_check").fetchall():
        fail("foreign_key_check reports rows")
    try:
        row = db.execute("SELECT manifest_sha256 FROM versions WHERE pack_id = ? AND version = ? AND published_at IS NOT NULL",
                         (pack, version)).fetchone()
    except sqlite3.OperationalError:
        row = None  # the schema itself was never committed

index_path = os.path.join(store, "index.json")
indexed = False
if os.path.exists(index_path):
    index = json.load(open(index_path))
    indexed = version in index.get("packs", {}).get(pack, {}).get("versions", {})

base = os.path.join(store, pack, version)

def complete(base):
    """Whether the version folder holds its manifest and every file it lists, hashes matching."""
    manifest_path = os.path.join(base, "manifest.json")
    if not os.path.exists(manifest_path):
        return False
    manifest = json.load(open(manifest_path))
    files = [c for c in manifest["clips"].values()] + list(manifest["archives"].values()) + [manifest["packJSON"]]
    return all(os.path.exists(os.path.join(base, e["file"])) and sha(os.path.join(base, e["file"])) == e["sha256"] for e in files)

if row is None:
    if indexed:
        fail(f"{pack}@{version} is in index.json but not in the catalog")
    if os.path.exists(base) and not complete(base):
        fail(f"{pack}/{version} is half written in the store")
    print("absent")
    sys.exit(0)

manifest_path = os.path.join(base, "manifest.json")
if not os.path.exists(manifest_path) or sha(manifest_path) != row[0]:
    fail("manifest.json is missing or differs from the catalog")
manifest = json.load(open(manifest_path))
files = [c for c in manifest["clips"].values()] + list(manifest["archives"].values()) + [manifest["packJSON"]]
for entry in files:
    path = os.path.join(base, entry["file"])
    if not os.path.exists(path) or sha(path) != entry["sha256"]:
        fail(f"{entry['file']} is missing or its hash differs")
print("present")
