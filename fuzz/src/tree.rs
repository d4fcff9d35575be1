//! A JSON value that keeps members in text order, repeated keys included
//! (`serde_json::Value` sorts keys and keeps the last repeat), so that one
//! partial value can be compared with the next member by member.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum Tree {
    Null,
    Bool(bool),
    /// The number as `serde_json` reads it, written back.
    Num(String),
    Str(String),
    Arr(Vec<Tree>),
    Obj(Vec<(String, Tree)>),
}

impl Tree {
    /// Parses JSON text.
    pub fn parse(text: &str) -> Result<Tree, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Whether `next` extends `self` as the partial-value rules allow
    /// (docs/partial-json.md, "The partial value only grows"): scalars and
    /// every member but the last stay as they were; the last member of a
    /// container may grow, a string only at its end; new members follow.
    pub fn grows_into(&self, next: &Tree) -> bool {
        match (self, next) {
            (Tree::Str(a), Tree::Str(b)) => b.starts_with(a.as_str()),
            (Tree::Arr(a), Tree::Arr(b)) => {
                b.len() >= a.len() && prefix_grows(a.iter(), b.iter(), |x, y| x.grows_into(y))
            }
            (Tree::Obj(a), Tree::Obj(b)) => {
                b.len() >= a.len()
                    && prefix_grows(a.iter(), b.iter(), |(ka, va), (kb, vb)| {
                        ka == kb && va.grows_into(vb)
                    })
            }
            (a, b) => a == b,
        }
    }
}

/// Every pair equal but the last, which only has to grow.
fn prefix_grows<'a, T: PartialEq + 'a>(
    a: impl ExactSizeIterator<Item = &'a T>,
    b: impl Iterator<Item = &'a T>,
    grows: impl Fn(&T, &T) -> bool,
) -> bool {
    let last = a.len().saturating_sub(1);
    a.zip(b)
        .enumerate()
        .all(|(i, (x, y))| if i == last { grows(x, y) } else { x == y })
}

impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Tree, D::Error> {
        d.deserialize_any(TreeVisitor)
    }
}

struct TreeVisitor;

impl<'de> Visitor<'de> for TreeVisitor {
    type Value = Tree;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<Tree, E> {
        Ok(Tree::Null)
    }

    fn visit_bool<E>(self, v: bool) -> Result<Tree, E> {
        Ok(Tree::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Tree, E> {
        Ok(Tree::Num(v.to_string()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Tree, E> {
        Ok(Tree::Num(v.to_string()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Tree, E> {
        Ok(Tree::Num(format!("{v:?}")))
    }

    fn visit_str<E>(self, v: &str) -> Result<Tree, E> {
        Ok(Tree::Str(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Tree, E> {
        Ok(Tree::Str(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tree, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Tree::Arr(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tree, A::Error> {
        let mut members = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, Tree>()? {
            members.push((k, v));
        }
        Ok(Tree::Obj(members))
    }
}
