//! A JSON value of the crate's own: tool schemas, the arguments they
//! check, interrupt payloads and the constructor's options, as the
//! tracker reads them (`events::json::value`).
//!
//! Shaped like `serde_json::Value`, with one difference that matters to
//! the wasm module: an object is a [`Map`], its members in a `Vec` sorted
//! by key once, when it is read, and searched by halves; not a B-tree
//! (serde_json's map without `preserve_order`), whose code is about 6 KB
//! of the module. A member is looked up in O(log n), a map is built in
//! O(n log n) whatever its keys (a hostile argument object cannot make it
//! quadratic), and members iterate in key order, as the B-tree's did.
//!
//! Native builds convert to and from `serde_json::Value` (tests, and
//! callers of the Rust API that hold one); the wasm module has no use for
//! them and cannot link them by mistake.
//!
//! ```
//! use agui_tool_calls::value::{Map, Value};
//!
//! let object = Map::from_members(vec![
//!     ("b".to_owned(), Value::Bool(true)),
//!     ("a".to_owned(), Value::Null),
//!     ("b".to_owned(), Value::from("last")),
//! ]);
//! // In key order; a key given twice keeps its last value, as `JSON.parse` does.
//! let keys: Vec<&String> = object.keys().collect();
//! assert_eq!(keys, ["a", "b"]);
//! assert_eq!(object.get("b").and_then(Value::as_str), Some("last"));
//! ```

use crate::heapsort;
pub use serde_json::Number;

/// A JSON value.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as the tracker reads it (`crate::number`).
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object.
    Object(Map),
}

impl Value {
    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, if this is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The number as an `f64`, if this is one.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number().and_then(Number::as_f64)
    }

    /// The number as a `u64`, if this is one that is.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number().and_then(Number::as_u64)
    }

    /// The number as an `i64`, if this is one that is.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number().and_then(Number::as_i64)
    }

    /// The items, if this is an array.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The members, if this is an object.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Whether this is a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    /// Whether this is an array.
    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    /// Whether this is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// The member `key`, if this is an object that has one.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object().and_then(|map| map.get(key))
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_owned())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<Map> for Value {
    fn from(map: Map) -> Value {
        Value::Object(map)
    }
}

/// A JSON object: its members sorted by key, each key once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Map(Vec<(String, Value)>);

impl Map {
    /// An empty object.
    pub fn new() -> Map {
        Map(Vec::new())
    }

    /// The object of `members`, given in any order: a key given more than
    /// once keeps its last value, as `JSON.parse` and `serde_json` keep it.
    /// O(n log n), whatever the keys.
    pub fn from_members(mut members: Vec<(String, Value)>) -> Map {
        if members.len() < 2 {
            return Map(members);
        }
        // Their places sorted by key, the later first among equal keys
        // (the heapsort keeps no order of its own), then each member taken
        // in that order unless its key was just taken.
        let mut order: Vec<usize> = (0..members.len()).collect();
        heapsort::sort_by(&mut order, |&i, &j| {
            let (a, b) = (&members[i].0, &members[j].0);
            a < b || (a == b && i > j)
        });
        let mut sorted: Vec<(String, Value)> = Vec::with_capacity(members.len());
        for i in order {
            let member = std::mem::take(&mut members[i]);
            if sorted.last().is_none_or(|(key, _)| *key != member.0) {
                sorted.push(member);
            }
        }
        Map(sorted)
    }

    /// Where `key` is, or where it would go.
    fn find(&self, key: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    /// The value of `key`, if the object has one.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.find(key).ok().map(|at| &self.0[at].1)
    }

    /// Whether the object has `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }

    /// Sets `key`, returning its value before. O(n): for objects made
    /// member by member, which are small; [`Map::from_members`] reads
    /// large ones.
    pub fn insert(&mut self, key: String, value: Value) -> Option<Value> {
        match self.find(&key) {
            Ok(at) => Some(std::mem::replace(&mut self.0[at].1, value)),
            Err(at) => {
                self.0.insert(at, (key, value));
                None
            }
        }
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the object has no member.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The members, in key order.
    pub fn iter(&self) -> Iter<'_> {
        Iter(self.0.iter())
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &String> + ExactSizeIterator {
        self.0.iter().map(|(k, _)| k)
    }

    /// The values, in their keys' order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator {
        self.0.iter().map(|(_, v)| v)
    }
}

impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter = std::vec::IntoIter<(String, Value)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a String, &'a Value);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// The members of a [`Map`], in key order.
#[derive(Clone, Debug)]
pub struct Iter<'a>(std::slice::Iter<'a, (String, Value)>);

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a String, &'a Value);

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl FromIterator<(String, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(members: I) -> Map {
        Map::from_members(members.into_iter().collect())
    }
}

/// `serde_json`'s values, for native callers and tests.
#[cfg(not(target_arch = "wasm32"))]
mod serde_values {
    use super::{Map, Value};

    impl From<serde_json::Value> for Value {
        fn from(value: serde_json::Value) -> Value {
            match value {
                serde_json::Value::Null => Value::Null,
                serde_json::Value::Bool(b) => Value::Bool(b),
                serde_json::Value::Number(n) => Value::Number(n),
                serde_json::Value::String(s) => Value::String(s),
                serde_json::Value::Array(items) => {
                    Value::Array(items.into_iter().map(Value::from).collect())
                }
                // Sorted here whatever serde_json's map keeps: a caller's
                // dependency graph may turn its `preserve_order` on.
                serde_json::Value::Object(map) => Value::Object(Map::from_members(
                    map.into_iter().map(|(k, v)| (k, v.into())).collect(),
                )),
            }
        }
    }

    impl From<Value> for serde_json::Value {
        fn from(value: Value) -> serde_json::Value {
            match value {
                Value::Null => serde_json::Value::Null,
                Value::Bool(b) => serde_json::Value::Bool(b),
                Value::Number(n) => serde_json::Value::Number(n),
                Value::String(s) => serde_json::Value::String(s),
                Value::Array(items) => {
                    serde_json::Value::Array(items.into_iter().map(Into::into).collect())
                }
                Value::Object(map) => {
                    serde_json::Value::Object(map.into_iter().map(|(k, v)| (k, v.into())).collect())
                }
            }
        }
    }

    impl PartialEq<serde_json::Value> for Value {
        fn eq(&self, other: &serde_json::Value) -> bool {
            same(self, other)
        }
    }

    /// Equal as values, members matched by key (`serde_json`'s map may
    /// keep them in the order given, see above).
    fn same(ours: &Value, theirs: &serde_json::Value) -> bool {
        use serde_json::Value as J;
        match (ours, theirs) {
            (Value::Null, J::Null) => true,
            (Value::Bool(a), J::Bool(b)) => a == b,
            (Value::Number(a), J::Number(b)) => a == b,
            (Value::String(a), J::String(b)) => a == b,
            (Value::Array(a), J::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
            }
            (Value::Object(a), J::Object(b)) => {
                a.len() == b.len() && b.iter().all(|(k, w)| a.get(k).is_some_and(|v| same(v, w)))
            }
            _ => false,
        }
    }

    impl PartialEq<Value> for serde_json::Value {
        fn eq(&self, other: &Value) -> bool {
            other == self
        }
    }

    impl serde::Serialize for Value {
        /// As `serde_json` serialises the same value.
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serde_json::Value::from(self.clone()).serialize(serializer)
        }
    }

    impl serde::Serialize for Map {
        /// As `serde_json` serialises the same object.
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_map(self.iter())
        }
    }

    impl std::fmt::Display for Value {
        /// As JSON text, as `serde_json` writes its value.
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            serde_json::Value::from(self.clone()).fmt(f)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Map, Value};
    use serde_json::json as serde_json;

    fn keys(map: &Map) -> Vec<&str> {
        map.keys().map(String::as_str).collect()
    }

    #[test]
    fn members_are_sorted_and_the_last_of_a_key_wins() {
        let member = |k: &str, v: i64| (k.to_owned(), Value::from(serde_json!(v)));
        let map = Map::from_members(vec![
            member("b", 1),
            member("a", 2),
            member("b", 3),
            member("c", 4),
            member("a", 5),
        ]);
        assert_eq!(keys(&map), ["a", "b", "c"]);
        assert_eq!(map.get("a"), Some(&Value::from(serde_json!(5))));
        assert_eq!(map.get("b"), Some(&Value::from(serde_json!(3))));
        assert_eq!(map.get("d"), None);
        assert!(map.contains_key("c") && !map.contains_key(""));
    }

    #[test]
    fn reads_as_serde_json_reads_the_same_members() {
        // Every order of up to 6 members over 4 keys, against serde_json's
        // map built member by member (the last of a key wins there too).
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for n in 0..200 {
            let len = n % 7;
            let mut members = Vec::new();
            let mut theirs = serde_json::Map::new();
            for i in 0..len {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let key = ["", "a", "ab", "b"][(seed % 4) as usize].to_owned();
                members.push((key.clone(), Value::from(serde_json!(i))));
                theirs.insert(key, serde_json!(i));
            }
            let ours = Map::from_members(members);
            assert_eq!(Value::Object(ours), serde_json::Value::Object(theirs));
        }
    }

    #[test]
    fn insert_keeps_the_order_and_replaces() {
        let mut map = Map::new();
        assert_eq!(map.insert("m".into(), Value::Null), None);
        assert_eq!(map.insert("a".into(), Value::Bool(true)), None);
        assert_eq!(map.insert("z".into(), Value::from("z")), None);
        assert_eq!(
            map.insert("a".into(), Value::Bool(false)),
            Some(Value::Bool(true))
        );
        assert_eq!(keys(&map), ["a", "m", "z"]);
        assert_eq!(map.len(), 3);
    }

    #[test]
    fn a_value_is_as_large_as_serde_jsons() {
        // docs/limits.md prices a parsed value per node.
        assert_eq!(size_of::<Value>(), size_of::<serde_json::Value>());
    }

    #[test]
    fn converts_to_and_from_serde_json() {
        let theirs = serde_json!({"b": [1, 2.5, "x", null, true], "a": {"c": {}}});
        let ours = Value::from(theirs.clone());
        assert_eq!(ours, theirs);
        assert_eq!(serde_json::Value::from(ours.clone()), theirs);
        assert_eq!(ours.to_string(), theirs.to_string());
    }
}
