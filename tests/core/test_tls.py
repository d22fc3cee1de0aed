"""The private CA and server certificate `serve` answers HTTPS with."""

from __future__ import annotations

import ssl

from cryptography import x509

from officegym.tls import server_certificate


def test_certificate_is_signed_by_a_kept_ca_and_covers_the_names(tmp_path) -> None:
    first = server_certificate(tmp_path, ["127.0.0.1", "localhost"])
    ca_before = first.ca_file.read_bytes()
    context = ssl.create_default_context(cafile=str(first.ca_file))  # loads: a valid CA
    assert context.cert_store_stats()["x509_ca"] == 1
    leaf = x509.load_pem_x509_certificates(first.cert_file.read_bytes())[0]
    names = leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert [str(n) for n in names.get_values_for_type(x509.IPAddress)] == ["127.0.0.1"]
    assert names.get_values_for_type(x509.DNSName) == ["localhost"]
    assert oct(first.key_file.stat().st_mode & 0o777) == "0o600"

    again = server_certificate(tmp_path, ["localhost", "127.0.0.1"])  # same names: kept as is
    assert again.cert_file.read_bytes() == first.cert_file.read_bytes()
    wider = server_certificate(tmp_path, ["127.0.0.1", "localhost", "officegym.internal"])  # re-issued, same CA
    assert wider.ca_file.read_bytes() == ca_before
    names = x509.load_pem_x509_certificates(wider.cert_file.read_bytes())[0].extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert "officegym.internal" in names.get_values_for_type(x509.DNSName)
