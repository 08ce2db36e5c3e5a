//! Name-based UUIDs (RFC 9562 §5.3 and §5.5): v3 is MD5, v5 is SHA-1, of a
//! namespace UUID's 16 bytes followed by the name's bytes. The same
//! namespace and name give the same UUID everywhere, so these are content
//! keys, not unique IDs. The RFC prefers v5; v3 stays for compatibility.
//! The hashes are RustCrypto's `md-5` and `sha1` (`no_std`), behind the
//! default feature `name-based` (a bare-metal x86 target needs a cfg for
//! `sha1`'s backend: builds without the feature need none). The namespaces
//! are constants, always there.

#[cfg(feature = "name-based")]
use md5::Md5;
#[cfg(feature = "name-based")]
use sha1::{Digest, Sha1};

use crate::uuid::Uuid;

/// The namespaces RFC 9562 §6.6 predefines (Table 3).
impl Uuid {
    /// Names are fully qualified domain names.
    pub const NAMESPACE_DNS: Uuid = Uuid(0x6ba7b810_9dad_11d1_80b4_00c04fd430c8);
    /// Names are URLs.
    pub const NAMESPACE_URL: Uuid = Uuid(0x6ba7b811_9dad_11d1_80b4_00c04fd430c8);
    /// Names are ISO object identifiers (OIDs).
    pub const NAMESPACE_OID: Uuid = Uuid(0x6ba7b812_9dad_11d1_80b4_00c04fd430c8);
    /// Names are X.500 distinguished names (DER or text).
    pub const NAMESPACE_X500: Uuid = Uuid(0x6ba7b814_9dad_11d1_80b4_00c04fd430c8);

    /// The predefined namespaces by the names the bindings give them.
    pub const NAMESPACES: [(&'static str, Uuid); 4] = [
        ("DNS", Uuid::NAMESPACE_DNS),
        ("URL", Uuid::NAMESPACE_URL),
        ("OID", Uuid::NAMESPACE_OID),
        ("X500", Uuid::NAMESPACE_X500),
    ];

    /// The v3 (MD5) UUID of `name` in `namespace`.
    #[cfg(feature = "name-based")]
    pub fn v3(namespace: Uuid, name: &[u8]) -> Uuid {
        NameHasher::v3(namespace).chain(name).finish()
    }

    /// The v5 (SHA-1) UUID of `name` in `namespace`.
    #[cfg(feature = "name-based")]
    pub fn v5(namespace: Uuid, name: &[u8]) -> Uuid {
        NameHasher::v5(namespace).chain(name).finish()
    }
}

/// A name-based UUID whose name is hashed part by part, for a caller that
/// holds only part of the name at a time (the browser's module, whose
/// buffer is smaller than a name may be): the same UUID as [`Uuid::v3`] or
/// [`Uuid::v5`] of the parts joined.
#[cfg(feature = "name-based")]
#[derive(Clone)]
pub enum NameHasher {
    /// Version 3: MD5.
    V3(Md5),
    /// Version 5: SHA-1.
    V5(Sha1),
}

#[cfg(feature = "name-based")]
impl NameHasher {
    /// A v3 UUID of a name in `namespace`, before any of the name.
    pub fn v3(namespace: Uuid) -> Self {
        NameHasher::V3(Md5::new_with_prefix(namespace.to_bytes()))
    }

    /// A v5 UUID of a name in `namespace`, before any of the name.
    pub fn v5(namespace: Uuid) -> Self {
        NameHasher::V5(Sha1::new_with_prefix(namespace.to_bytes()))
    }

    /// Hashes the next part of the name.
    pub fn update(&mut self, part: &[u8]) {
        match self {
            NameHasher::V3(h) => h.update(part),
            NameHasher::V5(h) => h.update(part),
        }
    }

    /// [`NameHasher::update`], by value.
    pub fn chain(mut self, part: &[u8]) -> Self {
        self.update(part);
        self
    }

    /// The UUID: the hash's first 16 bytes, with the version and variant bits set.
    pub fn finish(self) -> Uuid {
        let (hash, version) = match self {
            NameHasher::V3(h) => (first_16(&h.finalize()), 3),
            NameHasher::V5(h) => (first_16(&h.finalize()), 5),
        };
        Uuid::with_version(u128::from_be_bytes(hash), version)
    }
}

#[cfg(feature = "name-based")]
fn first_16(hash: &[u8]) -> [u8; 16] {
    let mut first = [0u8; 16];
    first.copy_from_slice(&hash[..16]);
    first
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_hashed_in_parts_is_the_name_hashed_whole() {
        let name = b"https://www.example.com/a/longer/name";
        let v3 = Uuid::v3(Uuid::NAMESPACE_URL, name);
        let v5 = Uuid::v5(Uuid::NAMESPACE_URL, name);
        for cut in [0, 1, 7, name.len()] {
            let (a, b) = name.split_at(cut);
            let hashed = NameHasher::v3(Uuid::NAMESPACE_URL).chain(a).chain(b);
            assert_eq!(hashed.finish(), v3);
            let hashed = NameHasher::v5(Uuid::NAMESPACE_URL).chain(a).chain(b);
            assert_eq!(hashed.finish(), v5);
        }
    }

    #[test]
    fn rfc_9562_appendix_a_examples() {
        // A.2 and A.4: "www.example.com" in the DNS namespace.
        let v3 = Uuid::v3(Uuid::NAMESPACE_DNS, b"www.example.com");
        assert_eq!(&*v3.to_text(), "5df41881-3aed-3515-88a7-2f4a814cf09e");
        let v5 = Uuid::v5(Uuid::NAMESPACE_DNS, b"www.example.com");
        assert_eq!(&*v5.to_text(), "2ed6657d-e927-568b-95e1-2665a8aea6a2");
        assert_eq!((v3.version(), v5.version()), (3, 5));
        assert!(v3.is_rfc_variant() && v5.is_rfc_variant());
    }
}
