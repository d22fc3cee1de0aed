"""The certificate `serve` answers HTTPS with, and the CA that vouches for it.

Some product clients only speak HTTPS to the host they are given (`simple_salesforce`
builds `https://<host>/services/data/…`), so `serve` also listens with TLS. It makes a
private certificate authority once, keeps it in the state dir, and issues a server
certificate for the names it serves; a client trusts the CA file (`requests.Session.verify`,
`httpx.Client(verify=…)`, `SSL_CERT_FILE`). Keeping the CA across restarts keeps clients'
trust across restarts; a server certificate is re-issued when the names change or it nears
expiry.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

CA_DAYS, SERVER_DAYS, RENEW_DAYS = 3650, 825, 30


@dataclass(frozen=True)
class Certificate:
    ca_file: Path  # what clients trust
    cert_file: Path  # what the server presents (leaf, then the CA)
    key_file: Path


def server_certificate(directory: Path, names: list[str]) -> Certificate:
    """The CA in `directory` (made on first use) and a server certificate for `names`
    (host names or IP addresses), re-issued when the names change or expiry is near."""
    directory.mkdir(parents=True, exist_ok=True)
    ca_key, ca_cert = _authority(directory)
    cert_file, key_file = directory / "server.pem", directory / "server-key.pem"
    wanted = sorted(set(names))
    if not _still_good(cert_file, wanted):
        key = ec.generate_private_key(ec.SECP256R1())
        now = dt.datetime.now(dt.UTC)
        cert = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, wanted[0])]))
            .issuer_name(ca_cert.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(minutes=5))
            .not_valid_after(now + dt.timedelta(days=SERVER_DAYS))
            .add_extension(x509.SubjectAlternativeName([_general_name(n) for n in wanted]), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .sign(ca_key, hashes.SHA256())
        )
        _write_private(key_file, _pem_key(key))
        cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM) + ca_cert.public_bytes(serialization.Encoding.PEM))
    return Certificate(directory / "ca.pem", cert_file, key_file)


def _authority(directory: Path) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
    ca_file, ca_key_file = directory / "ca.pem", directory / "ca-key.pem"
    if ca_file.exists() and ca_key_file.exists():
        key = serialization.load_pem_private_key(ca_key_file.read_bytes(), password=None)
        return key, x509.load_pem_x509_certificate(ca_file.read_bytes())  # type: ignore[return-value]
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "officegym local CA")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True, content_commitment=False,
                                     key_encipherment=False, data_encipherment=False, key_agreement=False,
                                     encipher_only=False, decipher_only=False), critical=True)
        .sign(key, hashes.SHA256())
    )
    _write_private(ca_key_file, _pem_key(key))
    ca_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return key, cert


def _still_good(cert_file: Path, names: list[str]) -> bool:
    if not cert_file.exists():
        return False
    cert = x509.load_pem_x509_certificate(cert_file.read_bytes())
    alt = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    have = sorted([str(n) for n in alt.get_values_for_type(x509.DNSName)]
                  + [str(n) for n in alt.get_values_for_type(x509.IPAddress)])
    fresh = cert.not_valid_after_utc - dt.datetime.now(dt.UTC) > dt.timedelta(days=RENEW_DAYS)
    return fresh and have == sorted(str(_general_name(n).value) for n in names)


def _general_name(name: str) -> x509.GeneralName:
    try:
        return x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        return x509.DNSName(name)


def _pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())


def _write_private(path: Path, data: bytes) -> None:
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.replace(tmp, path)
