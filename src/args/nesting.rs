//! The stack of open containers, as bits.
//!
//! Nesting is capped at [`MAX_DEPTH_CEILING`] levels, so one `u128` holds the
//! whole stack (bit `i` set = level `i` is an object): no allocation, and a
//! copy of the stack costs nothing.

/// The deepest nesting a reader ever accepts, whatever its limits say.
///
/// The final value is built by `serde_json`, which refuses a document nested
/// 128 levels deep or more; accepting deeper text here would only defer the
/// refusal to the final parse.
pub const MAX_DEPTH_CEILING: usize = 127;

/// The kind of an open container.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Container {
    Array,
    Object,
}

impl Container {
    /// The byte that closes this container.
    pub(crate) fn closer(self) -> u8 {
        match self {
            Container::Array => b']',
            Container::Object => b'}',
        }
    }
}

/// Open containers, innermost last.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Nesting {
    objects: u128,
    depth: u8,
}

impl Nesting {
    /// How many containers are open.
    pub(crate) fn depth(self) -> usize {
        usize::from(self.depth)
    }

    /// The innermost open container, if any.
    pub(crate) fn top(self) -> Option<Container> {
        self.depth.checked_sub(1).map(|level| self.at(level))
    }

    /// The container open at `level` (0 = outermost). `level` < depth.
    pub(crate) fn at(self, level: u8) -> Container {
        if self.objects >> level & 1 == 1 {
            Container::Object
        } else {
            Container::Array
        }
    }

    /// Opens a container. The caller keeps depth below [`MAX_DEPTH_CEILING`].
    pub(crate) fn push(&mut self, container: Container) {
        debug_assert!(self.depth() < MAX_DEPTH_CEILING);
        let bit = 1u128 << self.depth;
        match container {
            Container::Object => self.objects |= bit,
            Container::Array => self.objects &= !bit,
        }
        self.depth += 1;
    }

    /// Closes the innermost container.
    pub(crate) fn pop(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// The closers of the `depth` outermost containers, innermost first.
    pub(crate) fn closers(self, depth: usize, out: &mut String) {
        for level in (0..depth.min(self.depth())).rev() {
            // `level` < depth <= 127, so it fits a u8.
            out.push(char::from(self.at(level as u8).closer()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closers_follow_the_open_containers() {
        let mut n = Nesting::default();
        n.push(Container::Object);
        n.push(Container::Array);
        n.push(Container::Object);
        let mut s = String::new();
        n.closers(3, &mut s);
        assert_eq!(s, "}]}");
        s.clear();
        n.closers(2, &mut s);
        assert_eq!(s, "]}");
        n.pop();
        n.push(Container::Array);
        assert_eq!(n.top(), Some(Container::Array));
    }

    #[test]
    fn the_ceiling_fits_the_bits() {
        let mut n = Nesting::default();
        for i in 0..MAX_DEPTH_CEILING {
            n.push(if i % 2 == 0 {
                Container::Object
            } else {
                Container::Array
            });
        }
        assert_eq!(n.depth(), MAX_DEPTH_CEILING);
        assert_eq!(n.top(), Some(Container::Object));
    }
}
