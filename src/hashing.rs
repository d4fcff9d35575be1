//! The hasher of the tracker's id maps: `SipHash`, keyed in the wasm
//! module by bits the host draws.
//!
//! On wasm32-unknown-unknown the standard library has no randomness:
//! `RandomState`'s keys are the addresses of a stack and a heap value,
//! the same on every page that runs this module through the same calls.
//! Ids an agent chose to collide under them would make every insert and
//! lookup scan the others. So in wasm every hash starts from a salt the
//! agent cannot know, 128 bits the binding draws from the host's
//! `Math.random` before the first tracker (`crate::host`), and
//! `RandomState`, which adds nothing there, is not used. Native builds
//! use `RandomState`, which draws its keys from the operating system.

#[cfg(not(target_arch = "wasm32"))]
use std::hash::RandomState;
use std::hash::{BuildHasher, DefaultHasher, Hasher};

/// The id maps' `BuildHasher`: its hashers start with the salt already
/// written, cloned rather than salted again for every key, so salting
/// costs nothing per lookup.
#[derive(Clone, Debug)]
pub struct Salted(DefaultHasher);

impl Salted {
    /// Hashers that start from `salt` (`DefaultHasher::new()`'s fixed
    /// keys, then the salt): the same salt hashes a key alike in every
    /// map, another salt differently.
    ///
    /// ```
    /// use agui_tool_calls::hashing::Salted;
    /// use std::hash::BuildHasher;
    ///
    /// assert_eq!(Salted::with_salt([1, 2]).hash_one("c1"), Salted::with_salt([1, 2]).hash_one("c1"));
    /// assert_ne!(Salted::with_salt([1, 2]).hash_one("c1"), Salted::with_salt([3, 4]).hash_one("c1"));
    /// ```
    pub fn with_salt(salt: [u64; 2]) -> Self {
        let mut seeded = DefaultHasher::new();
        seeded.write_u64(salt[0]);
        seeded.write_u64(salt[1]);
        Salted(seeded)
    }
}

impl Default for Salted {
    /// In wasm, salted by the host's bits: the binding installs them
    /// before its first tracker, and every map belongs to a tracker. (The
    /// crate used in wasm without the binding hashes with a zero salt, as
    /// predictable as `RandomState` is there.) Natively, `RandomState`.
    fn default() -> Self {
        #[cfg(target_arch = "wasm32")]
        return Salted::with_salt(installed_salt().unwrap_or_default());
        #[cfg(not(target_arch = "wasm32"))]
        Salted(RandomState::new().build_hasher())
    }
}

impl BuildHasher for Salted {
    type Hasher = DefaultHasher;

    fn build_hasher(&self) -> DefaultHasher {
        self.0.clone()
    }
}

/// The salt the installed host drew, `None` without a host (natively,
/// always: only the wasm binding installs one).
///
/// ```
/// assert_eq!(agui_tool_calls::hashing::installed_salt(), None);
/// ```
pub fn installed_salt() -> Option<[u64; 2]> {
    crate::host::get().map(|host| host.salt)
}

#[cfg(test)]
mod tests {
    use super::Salted;
    use std::hash::{BuildHasher, DefaultHasher, Hash, Hasher};

    #[test]
    fn one_map_hashes_a_key_alike_and_two_keys_apart() {
        let s = Salted::default();
        assert_eq!(s.hash_one("call_1"), s.hash_one("call_1"));
        assert_ne!(s.hash_one("call_1"), s.hash_one("call_2"));
    }

    #[test]
    fn the_salt_keys_every_hash() {
        let unsalted = {
            let mut h = DefaultHasher::new();
            "call_1".hash(&mut h);
            h.finish()
        };
        let salted = Salted::with_salt([7, 9]);
        assert_ne!(salted.hash_one("call_1"), unsalted);
        assert_eq!(
            salted.hash_one("call_1"),
            Salted::with_salt([7, 9]).hash_one("call_1")
        );
        assert_ne!(
            salted.hash_one("call_1"),
            Salted::with_salt([7, 8]).hash_one("call_1")
        );
        assert_ne!(
            salted.hash_one("call_1"),
            Salted::with_salt([6, 9]).hash_one("call_1")
        );
    }
}
