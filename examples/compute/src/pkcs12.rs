//! A PKCS#12 file (RFC 7292) of one private key and its certificate, as
//! `openssl pkcs12 -export -password pass:` writes it for Nova's generated
//! x509 key pairs (`nova.crypto.generate_winrm_x509_cert`, which returns it
//! base64-encoded as the private key): the key and the certificate in the
//! clear, each bag named by the certificate's SHA-1 (`localKeyID`), and the
//! integrity MAC, HMAC-SHA1 keyed from the empty password.

use hmac::{Hmac, Mac};
use sha1::{Digest, Sha1};

/// `pkcs7-data` (1.2.840.113549.1.7.1).
const DATA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01];
/// `keyBag` (1.2.840.113549.1.12.10.1.1): a PKCS#8 private key in the clear.
const KEY_BAG: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x0a, 0x01, 0x01];
/// `certBag` (1.2.840.113549.1.12.10.1.3).
const CERT_BAG: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x0a, 0x01, 0x03];
/// `x509Certificate` (1.2.840.113549.1.9.22.1).
const X509_CERTIFICATE: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x16, 0x01];
/// `localKeyID` (1.2.840.113549.1.9.21).
const LOCAL_KEY_ID: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x15];
/// SHA-1 (1.3.14.3.2.26).
const SHA1: &[u8] = &[0x2b, 0x0e, 0x03, 0x02, 0x1a];
/// OpenSSL's default MAC iteration count.
const MAC_ITERATIONS: u32 = 2048;

/// The PKCS#12 file of `private_key` (PKCS#8 DER) and `certificate` (DER),
/// with the MAC's `salt`.
pub(crate) fn export(private_key: &[u8], certificate: &[u8], salt: &[u8; 8]) -> Vec<u8> {
    let key_id = Sha1::digest(certificate);
    let attributes = set(&[&seq(&[&oid(LOCAL_KEY_ID), &set(&[&octets(&key_id)])])]);
    let cert_bag = seq(&[
        &oid(CERT_BAG),
        &explicit(&seq(&[&oid(X509_CERTIFICATE), &explicit(&octets(certificate))])),
        &attributes,
    ]);
    let key_bag = seq(&[&oid(KEY_BAG), &explicit(private_key), &attributes]);
    let data = |content: &[u8]| seq(&[&oid(DATA), &explicit(&octets(content))]);
    let authenticated_safe = seq(&[&data(&seq(&[&cert_bag])), &data(&seq(&[&key_bag]))]);
    let mac = {
        let key = mac_key(salt, MAC_ITERATIONS);
        let mut hmac = <Hmac<Sha1> as Mac>::new_from_slice(&key).expect("HMAC takes any key");
        hmac.update(&authenticated_safe);
        hmac.finalize().into_bytes()
    };
    let mac_data = seq(&[
        &seq(&[&seq(&[&oid(SHA1), &[0x05, 0x00]]), &octets(&mac)]),
        &octets(salt),
        &integer(MAC_ITERATIONS),
    ]);
    seq(&[&integer(3), &data(&authenticated_safe), &mac_data])
}

/// The MAC key of RFC 7292 appendix B.2 for the empty password (the
/// BMPString of no characters and its terminator, `00 00`), SHA-1: one
/// 20-byte block of `H^iterations(D || S || P)` with the diversifier 3.
fn mac_key(salt: &[u8], iterations: u32) -> [u8; 20] {
    const BLOCK: usize = 64;
    let fill = |source: &[u8]| -> Vec<u8> {
        source.iter().copied().cycle().take(BLOCK * source.len().div_ceil(BLOCK)).collect()
    };
    let mut digest =
        Sha1::new().chain_update([3u8; BLOCK]).chain_update(fill(salt)).chain_update(fill(&[0, 0]));
    let mut block = digest.finalize_reset();
    for _ in 1..iterations {
        digest.update(block);
        block = digest.finalize_reset();
    }
    block.into()
}

/// A DER element: its tag, its length, its content.
fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    match content.len() {
        short @ 0..0x80 => out.push(short as u8),
        long => {
            let bytes = long.to_be_bytes();
            let skip = bytes.iter().take_while(|b| **b == 0).count();
            out.push(0x80 | (bytes.len() - skip) as u8);
            out.extend_from_slice(&bytes[skip..]);
        }
    }
    out.extend_from_slice(content);
    out
}

fn seq(parts: &[&[u8]]) -> Vec<u8> {
    tlv(0x30, &parts.concat())
}

fn set(parts: &[&[u8]]) -> Vec<u8> {
    tlv(0x31, &parts.concat())
}

fn oid(body: &[u8]) -> Vec<u8> {
    tlv(0x06, body)
}

fn octets(content: &[u8]) -> Vec<u8> {
    tlv(0x04, content)
}

/// `[0] EXPLICIT`.
fn explicit(content: &[u8]) -> Vec<u8> {
    tlv(0xa0, content)
}

/// A non-negative INTEGER, in its fewest bytes.
fn integer(value: u32) -> Vec<u8> {
    let bytes = value.to_be_bytes();
    let skip = bytes.iter().take_while(|b| **b == 0).count().min(3);
    let mut content = bytes[skip..].to_vec();
    if content[0] & 0x80 != 0 {
        content.insert(0, 0);
    }
    tlv(0x02, &content)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn der_lengths_and_integers_are_minimal() {
        assert_eq!(tlv(0x04, &[7; 3]), [0x04, 3, 7, 7, 7]);
        assert_eq!(&tlv(0x04, &[0; 200])[..3], [0x04, 0x81, 200]);
        assert_eq!(&tlv(0x04, &[0; 300])[..4], [0x04, 0x82, 0x01, 0x2c]);
        assert_eq!(integer(3), [0x02, 1, 3]);
        assert_eq!(integer(128), [0x02, 2, 0, 128]);
        assert_eq!(integer(2048), [0x02, 2, 0x08, 0x00]);
        assert_eq!(integer(0), [0x02, 1, 0]);
    }

    /// The MAC key of the empty password (RFC 7292 B.2 over `00 00`), for
    /// a fixed salt: one SHA-1 block, iterated. OpenSSL reads the whole file
    /// back in `keypairs::tests`, Python's cryptography in the interop test.
    #[test]
    fn the_mac_key_is_one_sha1_block_iterated() {
        let salt = [1, 2, 3, 4, 5, 6, 7, 8];
        let once = mac_key(&salt, 1);
        let mut input = vec![3u8; 64];
        input.extend(salt.iter().cycle().take(64));
        input.extend([0u8; 64]);
        assert_eq!(once, <[u8; 20]>::from(Sha1::digest(&input)));
        let twice = mac_key(&salt, 2);
        assert_eq!(twice, <[u8; 20]>::from(Sha1::digest(once)));
    }
}
