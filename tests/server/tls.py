"""A self-signed certificate for 127.0.0.1 and localhost (trustme's test CA), for nginx with TLS in tests."""

from __future__ import annotations

import os
from pathlib import Path

import trustme


def self_signed(folder: Path) -> tuple[Path, Path]:
    """The certificate chain and private key files (PEM) in ``folder``; the key readable by its owner only.
    The CA's own certificate is ``folder / "ca.pem"``, for clients that should trust it."""
    folder.mkdir(parents=True, exist_ok=True)
    ca = trustme.CA()
    leaf = ca.issue_cert("127.0.0.1", "localhost")
    cert, key = folder / "cert.pem", folder / "key.pem"
    cert.write_bytes(b"".join(blob.bytes() for blob in leaf.cert_chain_pems))
    key.write_bytes(leaf.private_key_pem.bytes())
    os.chmod(key, 0o600)
    ca.cert_pem.write_to_path(str(folder / "ca.pem"))
    return cert, key
