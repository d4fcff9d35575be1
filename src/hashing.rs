//! The hasher of the tracker's id maps: the standard library's keyed
//! `SipHash` (`RandomState`), salted in the wasm module with bits the host
//! draws.
//!
//! On wasm32-unknown-unknown the standard library has no randomness:
//! `RandomState`'s keys are the addresses of a stack and a heap value,
//! the same on every page that runs this module through the same calls.
//! Ids an agent chose to collide under them would make every insert and
//! lookup scan the others. The salt (128 bits from the host's
//! `Math.random`, installed with the rest of `crate::host`) starts every
//! hash from a state the agent cannot know. Native builds draw `RandomState`'s keys from the
//! operating system and need no salt.

use std::hash::{BuildHasher, DefaultHasher, Hasher, RandomState};

/// A `RandomState` whose hashers start with the salt already written:
/// cloned, not re-salted, for every key, so salting costs nothing per
/// lookup.
#[derive(Clone, Debug)]
pub(crate) struct Salted(DefaultHasher);

impl Default for Salted {
    fn default() -> Self {
        let mut seeded = RandomState::new().build_hasher();
        if let Some(host) = crate::host::get() {
            seeded.write_u64(host.salt[0]);
            seeded.write_u64(host.salt[1]);
        }
        Salted(seeded)
    }
}

impl BuildHasher for Salted {
    type Hasher = DefaultHasher;

    fn build_hasher(&self) -> DefaultHasher {
        self.0.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::Salted;
    use std::hash::BuildHasher;

    #[test]
    fn one_map_hashes_a_key_alike_and_two_keys_apart() {
        let s = Salted::default();
        assert_eq!(s.hash_one("call_1"), s.hash_one("call_1"));
        assert_ne!(s.hash_one("call_1"), s.hash_one("call_2"));
    }
}
