#!/usr/bin/env python3
"""Checks an S3 store and a PostgreSQL catalog after crashes, from outside soundpack: every version
index.json lists is published in the catalog and fully present (manifest.json with the index's
SHA-256, every file it names with its hash), and no version is recorded twice. Requests are signed
with AWS Signature V4 here, in Python, not by soundpack's code.

Usage: check-s3-store.py ENDPOINT BUCKET PREFIX POSTGRES_URL [ID@VERSION]
       check-s3-store.py --create-bucket ENDPOINT BUCKET   (for the scripts that need a fresh one)
  With ID@VERSION, only that version's files are hashed (every listed manifest still is).
  prints "listed=N recorded=M" and exits 0, or prints BROKEN: … and exits 1
Credentials from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, region AWS_REGION (us-east-1).
"""
import datetime, hashlib, hmac, json, os, subprocess, sys, urllib.error, urllib.parse, urllib.request

access, secret = os.environ["AWS_ACCESS_KEY_ID"], os.environ["AWS_SECRET_ACCESS_KEY"]
region = os.environ.get("AWS_REGION", "us-east-1")


def send(method, endpoint, path):
    """One request with an empty body, signed with AWS Signature V4; the body, or None on 404."""
    now = datetime.datetime.now(datetime.timezone.utc)
    amz, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
    host = urllib.parse.urlparse(endpoint).netloc
    payload = hashlib.sha256(b"").hexdigest()
    signed = "host;x-amz-content-sha256;x-amz-date"
    canonical = f"{method}\n{path}\n\nhost:{host}\nx-amz-content-sha256:{payload}\nx-amz-date:{amz}\n\n{signed}\n{payload}"
    scope = f"{day}/{region}/s3/aws4_request"
    to_sign = f"AWS4-HMAC-SHA256\n{amz}\n{scope}\n" + hashlib.sha256(canonical.encode()).hexdigest()
    key_bytes = ("AWS4" + secret).encode()
    for part in (day, region, "s3", "aws4_request"):
        key_bytes = hmac.new(key_bytes, part.encode(), hashlib.sha256).digest()
    signature = hmac.new(key_bytes, to_sign.encode(), hashlib.sha256).hexdigest()
    request = urllib.request.Request(endpoint + path, method=method, data=b"" if method == "PUT" else None, headers={
        "x-amz-date": amz, "x-amz-content-sha256": payload,
        "Authorization": f"AWS4-HMAC-SHA256 Credential={access}/{scope}, SignedHeaders={signed}, Signature={signature}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.read()
    except urllib.error.HTTPError as error:
        if error.code == 404:
            return None
        raise


if sys.argv[1] == "--create-bucket":
    send("PUT", sys.argv[2], "/" + sys.argv[3])
    sys.exit(0)

endpoint, bucket, prefix, postgres = sys.argv[1:5]
only = sys.argv[5] if len(sys.argv) > 5 else None


def get(key):
    return send("GET", endpoint, "/" + bucket + "/" + urllib.parse.quote((prefix + "/" if prefix else "") + key, safe="/-_.~"))


def fail(message):
    print(f"BROKEN: {message}")
    sys.exit(1)


rows = subprocess.run(["psql", postgres, "-AtF", " ", "-c",
                       "SELECT pack_id, version, manifest_sha256 FROM versions WHERE published_at IS NOT NULL"],
                      check=True, capture_output=True, text=True).stdout.split()
recorded = {(rows[i], rows[i + 1]): rows[i + 2] for i in range(0, len(rows), 3)}
if len(recorded) * 3 != len(rows):
    fail("a version is recorded twice in the catalog")

index_bytes = get("index.json")
listed = 0
if index_bytes is not None:
    index = json.loads(index_bytes)
    for pack, entry in index["packs"].items():
        for version, facts in entry["versions"].items():
            listed += 1
            if (pack, version) not in recorded:
                fail(f"index.json lists {pack}@{version}, which the catalog does not record")
            manifest_bytes = get(f"{pack}/{version}/manifest.json")
            if manifest_bytes is None or hashlib.sha256(manifest_bytes).hexdigest() != facts["manifestSha256"]:
                fail(f"{pack}@{version} is listed but its manifest.json is missing or differs")
            manifest = json.loads(manifest_bytes)
            if only is not None and only != f"{pack}@{version}":
                continue
            for record in list(manifest["clips"].values()) + list(manifest["archives"].values()) + [manifest["packJSON"]]:
                data = get(f"{pack}/{version}/{record['file']}")
                if data is None or hashlib.sha256(data).hexdigest() != record["sha256"]:
                    fail(f"{pack}@{version} is listed but {record['file']} is missing or differs")
print(f"listed={listed} recorded={len(recorded)}")
