//! Validating an instance against a compiled [`Graph`].
//!
//! Validation recurses over the schema graph and the instance together, so
//! every step into a subschema counts against [`MAX_DEPTH`]: a hostile
//! schema (a `$ref` cycle that consumes no instance) or a deep instance ends
//! in an error, never a stack overflow. Every keyword's work counts against
//! [`MAX_STEPS`] (see there), so no schema and instance, both at most a few
//! MiB, make it compute for long.
//!
//! `unevaluatedProperties` and `unevaluatedItems` need to know what the
//! other keywords looked at. Each schema applied to an instance location
//! fills an [`Eval`] (one flag per property or item); an in-place applicator
//! (`allOf`, `$ref`, `if`...) hands its flags up only when it passed.

use super::compile::{type_bit, Graph, Keywords, Node, NodeId};
use super::value::{canonical, is_integer, is_multiple_of, number_text};
use super::{Failures, ValidationError, MAX_ERRORS, MAX_ERROR_TEXT};
use crate::quote::cut;
use crate::value::{Map, Number, Value};
use crate::HashMap;
use std::fmt::Write;

/// Deepest nesting of subschema applications validation follows.
pub(crate) const MAX_DEPTH: usize = 128;

/// Most steps of work one validation may take; past them the instance fails
/// with a `limit` error. A step is one subschema applied to one place of
/// the instance; one property name, `required` name or `enum` value looked
/// up; or 64 bytes (`BYTES_PER_STEP`) of text written out, hashed, compared or
/// counted. Depth alone does not bound time: `anyOf` of two refs to itself
/// doubles the work at each level, and an `enum` of 100,000 values checked
/// against 100,000 items once took 10^10 comparisons.
pub const MAX_STEPS: usize = 2_000_000;

/// Bytes of text one step covers: writing, hashing or comparing a
/// canonical text, counting a string's characters, looking up a name.
const BYTES_PER_STEP: usize = 64;

/// The steps of handling `len` bytes of text once.
fn text_steps(len: usize) -> usize {
    1 + len / BYTES_PER_STEP
}

/// Where errors go: `None` while trying a branch whose errors don't count.
type Out<'o> = Option<&'o mut Failures>;

#[derive(Clone, Copy)]
enum Seg<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

/// The instance location, as a chain on the stack: a pointer string is
/// built only when an error is reported.
struct Path<'p, 'a> {
    parent: Option<&'p Path<'p, 'a>>,
    seg: Seg<'a>,
}

impl<'p, 'a> Path<'p, 'a> {
    fn push(&'p self, seg: Seg<'a>) -> Path<'p, 'a> {
        Path {
            parent: Some(self),
            seg,
        }
    }

    /// The JSON Pointer, cut at [`MAX_ERROR_TEXT`] bytes: its keys are the
    /// instance's, of any length, and it is built for each kept error.
    fn pointer(&self) -> String {
        let mut segs = Vec::new();
        let mut here = Some(self);
        while let Some(p) = here {
            segs.push(p.seg);
            here = p.parent;
        }
        let mut out = String::new();
        for seg in segs.iter().rev() {
            match seg {
                Seg::Root => {}
                Seg::Key(k) => {
                    out.push('/');
                    // Escaped as RFC 6901 says, and no further than kept.
                    for c in k.chars().take(MAX_ERROR_TEXT) {
                        match c {
                            '~' => out.push_str("~0"),
                            '/' => out.push_str("~1"),
                            c => out.push(c),
                        }
                    }
                }
                Seg::Index(i) => {
                    let _ = write!(out, "/{i}");
                }
            }
            if out.len() > MAX_ERROR_TEXT {
                break;
            }
        }
        cut(&mut out, MAX_ERROR_TEXT);
        out
    }
}

/// Which properties (by position in the object) or items were evaluated.
#[derive(Default)]
struct Eval {
    props: Vec<bool>,
    items: Vec<bool>,
}

impl Eval {
    fn new(tracks: bool, inst: &Value) -> Eval {
        match inst {
            Value::Object(m) if tracks => Eval {
                props: vec![false; m.len()],
                items: Vec::new(),
            },
            Value::Array(a) if tracks => Eval {
                props: Vec::new(),
                items: vec![false; a.len()],
            },
            _ => Eval::default(),
        }
    }

    fn merge(&mut self, other: &Eval) {
        for (a, b) in self.props.iter_mut().zip(&other.props) {
            *a |= *b;
        }
        for (a, b) in self.items.iter_mut().zip(&other.items) {
            *a |= *b;
        }
    }

    fn mark(flags: &mut [bool], i: usize) {
        if let Some(f) = flags.get_mut(i) {
            *f = true;
        }
    }
}

/// Counts a failure, and keeps it while fewer than [`MAX_ERRORS`] are: its
/// path and message are built only then, and cut to [`MAX_ERROR_TEXT`].
fn report(
    out: &mut Out<'_>,
    path: &Path,
    keyword: &'static str,
    msg: impl FnOnce() -> String,
) -> bool {
    if let Some(failures) = out {
        failures.count += 1;
        if failures.errors.len() < MAX_ERRORS {
            failures.errors.push(error(path, keyword, msg()));
        }
    }
    false
}

fn error(path: &Path, keyword: &'static str, mut message: String) -> ValidationError {
    cut(&mut message, MAX_ERROR_TEXT);
    ValidationError {
        path: path.pointer(),
        keyword,
        message,
    }
}

/// Validates `instance` against the root of `graph`.
pub(crate) fn run(graph: &Graph, instance: &Value, out: Out<'_>) -> bool {
    run_within(graph, instance, out, MAX_STEPS).0
}

/// [`run`] with a budget of `max_steps`; also returns the steps taken.
pub(crate) fn run_within(
    graph: &Graph,
    instance: &Value,
    mut out: Out<'_>,
    max_steps: usize,
) -> (bool, usize) {
    let mut run = Run {
        g: graph,
        depth: 0,
        steps: 0,
        max_steps,
        scope: Vec::new(),
        aborted: None,
    };
    let path = Path {
        parent: None,
        seg: Seg::Root,
    };
    let mut eval = Eval::new(graph.tracks, instance);
    let ok = run.node(0, instance, &path, &mut out, &mut eval);
    let ok = match run.aborted {
        None => ok,
        Some(error) => {
            // Kept even past `MAX_ERRORS`: it says why the rest is missing.
            if let Some(failures) = out {
                failures.count += 1;
                failures.errors.push(error);
            }
            false
        }
    };
    (ok, run.steps)
}

struct Run<'g> {
    g: &'g Graph,
    depth: usize,
    steps: usize,
    max_steps: usize,
    /// The dynamic scope: resources entered, outermost first.
    scope: Vec<usize>,
    /// Set when a limit is hit: from then on every subschema fails, so no
    /// `not` can turn the cut-off into a pass, and the whole instance is
    /// invalid with this error.
    aborted: Option<ValidationError>,
}

impl Run<'_> {
    fn node<'a>(
        &mut self,
        id: NodeId,
        inst: &'a Value,
        path: &Path<'_, 'a>,
        out: &mut Out<'_>,
        eval: &mut Eval,
    ) -> bool {
        let g = self.g;
        let (node, res) = &g.nodes[id];
        // Checked and counted before a boolean schema too: `items: true`
        // over millions of items is work.
        if self.aborted.is_some() || self.limit_hit(path) {
            return false;
        }
        self.steps += 1;
        let kw = match node {
            Node::Bool(true) => return true,
            Node::Bool(false) => {
                return report(out, path, "false", || "no value is allowed here".into())
            }
            Node::Object(kw) => kw,
        };
        self.depth += 1;
        let entered = self.scope.last() != Some(res);
        if entered {
            self.scope.push(*res);
        }
        let ok = self.keywords(kw, inst, path, out, eval);
        if entered {
            self.scope.pop();
        }
        self.depth -= 1;
        ok
    }

    fn limit_hit(&mut self, path: &Path) -> bool {
        let message = if self.depth >= MAX_DEPTH {
            format!("validation nested deeper than {MAX_DEPTH} subschemas")
        } else if self.steps >= self.max_steps {
            format!("validation took more than {} steps", self.max_steps)
        } else {
            return false;
        };
        self.aborted = Some(error(path, "limit", message));
        true
    }

    /// Counts `steps` of work; the next subschema applied past
    /// [`MAX_STEPS`] stops the validation.
    fn spend(&mut self, steps: usize) {
        self.steps = self.steps.saturating_add(steps);
    }

    /// A fresh [`Eval`] for `inst`: one flag per member when tracking,
    /// charged, as it is made and merged per subschema applied.
    fn eval_for(&mut self, inst: &Value) -> Eval {
        let eval = Eval::new(self.g.tracks, inst);
        self.spend((eval.props.len() + eval.items.len()) / BYTES_PER_STEP);
        eval
    }

    /// Applies `id` to a child location of the instance.
    fn child<'a>(
        &mut self,
        id: NodeId,
        inst: &'a Value,
        path: &Path<'_, 'a>,
        seg: Seg<'a>,
        out: &mut Out<'_>,
    ) -> bool {
        let mut eval = self.eval_for(inst);
        self.node(id, inst, &path.push(seg), out, &mut eval)
    }

    /// Like [`Run::child`] for the subschema of `keyword`: when it is
    /// `false`, the failure names `keyword` and what it refuses, rather than
    /// a bare `false` schema.
    fn child_of<'a>(
        &mut self,
        keyword: &'static str,
        id: NodeId,
        inst: &'a Value,
        path: &Path<'_, 'a>,
        seg: Seg<'a>,
        out: &mut Out<'_>,
    ) -> bool {
        if !matches!(self.g.nodes[id].0, Node::Bool(false)) {
            return self.child(id, inst, path, seg, out);
        }
        self.spend(1);
        report(out, &path.push(seg), keyword, || match seg {
            Seg::Key(key) => format!("property \"{key}\" is not allowed"),
            _ => "no item is allowed here".into(),
        })
    }

    /// Applies `id` to the same location; its annotations count if it passed.
    fn in_place<'a>(
        &mut self,
        id: NodeId,
        inst: &'a Value,
        path: &Path<'_, 'a>,
        out: &mut Out<'_>,
        eval: &mut Eval,
    ) -> bool {
        let mut own = self.eval_for(inst);
        let ok = self.node(id, inst, path, out, &mut own);
        if ok {
            eval.merge(&own);
        }
        ok
    }

    fn keywords<'a>(
        &mut self,
        kw: &Keywords,
        inst: &'a Value,
        path: &Path<'_, 'a>,
        out: &mut Out<'_>,
        eval: &mut Eval,
    ) -> bool {
        let mut ok = self.generic(kw, inst, path, out);
        ok &= match inst {
            Value::Number(n) => numeric(kw, n, path, out),
            Value::String(s) => self.string(kw, s, path, out),
            Value::Array(items) => self.array(kw, items, path, out, eval),
            Value::Object(map) => self.object(kw, map, path, out, eval),
            _ => true,
        };
        ok &= self.applicators(kw, inst, path, out, eval);
        // Last: they read what every other keyword evaluated.
        match inst {
            Value::Array(items) => {
                if let Some(s) = kw.unevaluated_items {
                    self.spend(items.len() / BYTES_PER_STEP);
                    for (i, item) in items.iter().enumerate() {
                        if !eval.items.get(i).copied().unwrap_or(false) {
                            ok &= self.child_of(
                                "unevaluatedItems",
                                s,
                                item,
                                path,
                                Seg::Index(i),
                                out,
                            );
                            Eval::mark(&mut eval.items, i);
                        }
                    }
                }
            }
            Value::Object(map) => {
                if let Some(s) = kw.unevaluated_properties {
                    self.spend(map.len() / BYTES_PER_STEP);
                    for (i, (k, v)) in map.iter().enumerate() {
                        if !eval.props.get(i).copied().unwrap_or(false) {
                            ok &= self.child_of(
                                "unevaluatedProperties",
                                s,
                                v,
                                path,
                                Seg::Key(k),
                                out,
                            );
                            Eval::mark(&mut eval.props, i);
                        }
                    }
                }
            }
            _ => {}
        }
        ok
    }

    fn array<'a>(
        &mut self,
        kw: &Keywords,
        items: &'a [Value],
        path: &Path<'_, 'a>,
        out: &mut Out<'_>,
        eval: &mut Eval,
    ) -> bool {
        let n = items.len() as u64;
        let mut ok = true;
        if kw.max_items.is_some_and(|m| n > m) {
            ok = report(out, path, "maxItems", || {
                format!(
                    "array has {n} items, more than {}",
                    kw.max_items.unwrap_or(0)
                )
            });
        }
        if kw.min_items.is_some_and(|m| n < m) {
            ok = report(out, path, "minItems", || {
                format!(
                    "array has {n} items, fewer than {}",
                    kw.min_items.unwrap_or(0)
                )
            });
        }
        if kw.unique_items {
            if let Some((i, j)) = duplicate(items, &mut self.steps) {
                ok = report(out, path, "uniqueItems", || {
                    format!("items {i} and {j} are equal")
                });
            }
        }
        // Each item a subschema applies to is a step of its own.
        self.spend(items.len() / BYTES_PER_STEP);
        for (i, item) in items.iter().enumerate() {
            let schema = match kw.prefix_items.get(i) {
                Some(&s) => Some(s),
                None => kw.items,
            };
            if let Some(s) = schema {
                ok &= self.child(s, item, path, Seg::Index(i), out);
                Eval::mark(&mut eval.items, i);
            }
        }
        if let Some(c) = kw.contains {
            ok &= self.contains(kw, c, items, path, out, eval);
        }
        ok
    }

    fn contains<'a>(
        &mut self,
        kw: &Keywords,
        c: NodeId,
        items: &'a [Value],
        path: &Path<'_, 'a>,
        out: &mut Out<'_>,
        eval: &mut Eval,
    ) -> bool {
        let mut found = 0u64;
        for (i, item) in items.iter().enumerate() {
            if self.child(c, item, path, Seg::Index(i), &mut None) {
                found += 1;
                Eval::mark(&mut eval.items, i);
            }
        }
        let min = kw.min_contains.unwrap_or(1);
        if found < min {
            let keyword = if kw.min_contains.is_some() {
                "minContains"
            } else {
                "contains"
            };
            return report(out, path, keyword, || {
                format!("{found} items match `contains`, fewer than {min}")
            });
        }
        match kw.max_contains {
            Some(max) if found > max => report(out, path, "maxContains", || {
                format!("{found} items match `contains`, more than {max}")
            }),
            _ => true,
        }
    }

    fn object<'a>(
        &mut self,
        kw: &Keywords,
        map: &'a Map,
        path: &Path<'_, 'a>,
        out: &mut Out<'_>,
        eval: &mut Eval,
    ) -> bool {
        let mut ok = self.counts(kw, map, path, out);
        // Each name is hashed, and matched against each pattern.
        let per_name = 1 + kw.pattern_properties.len();
        for (i, (key, value)) in map.iter().enumerate() {
            self.spend(text_steps(key.len()) * per_name);
            let mut matched = false;
            if let Some(&s) = kw.properties.get(key) {
                matched = true;
                ok &= self.child(s, value, path, Seg::Key(key), out);
            }
            for (pattern, s) in &kw.pattern_properties {
                if pattern.is_match(key) {
                    matched = true;
                    ok &= self.child(*s, value, path, Seg::Key(key), out);
                }
            }
            if let (false, Some(s)) = (matched, kw.additional_properties) {
                matched = true;
                ok &= self.child_of("additionalProperties", s, value, path, Seg::Key(key), out);
            }
            if matched {
                Eval::mark(&mut eval.props, i);
            }
            if let Some(s) = kw.property_names {
                let name = Value::String(key.clone());
                if !self.child(s, &name, path, Seg::Key(key), &mut None) {
                    ok = report(out, path, "propertyNames", || {
                        format!("property name \"{key}\" is not allowed")
                    });
                }
            }
        }
        ok
    }

    /// The keywords that apply subschemas to the instance in place.
    fn applicators<'a>(
        &mut self,
        kw: &Keywords,
        inst: &'a Value,
        path: &Path<'_, 'a>,
        out: &mut Out<'_>,
        eval: &mut Eval,
    ) -> bool {
        let mut ok = true;
        if let Some(r) = kw.reference {
            ok &= self.in_place(r, inst, path, out, eval);
        }
        if let Some(d) = &kw.dynamic_ref {
            let target = self.dynamic_target(d.target, d.anchor.as_deref());
            ok &= self.in_place(target, inst, path, out, eval);
        }
        for &s in &kw.all_of {
            ok &= self.in_place(s, inst, path, out, eval);
        }
        if let Some(any) = &kw.any_of {
            ok &= self.any_of(any, inst, path, out, eval);
        }
        if let Some(one) = &kw.one_of {
            ok &= self.one_of(one, inst, path, out, eval);
        }
        if let Some(n) = kw.not {
            if self.in_place(n, inst, path, &mut None, &mut Eval::default()) {
                ok = report(out, path, "not", || {
                    "value must not match the `not` schema".into()
                });
            }
        }
        if let Some((cond, then, otherwise)) = kw.if_then_else {
            let branch = if self.in_place(cond, inst, path, &mut None, eval) {
                then
            } else {
                otherwise
            };
            if let Some(b) = branch {
                ok &= self.in_place(b, inst, path, out, eval);
            }
        }
        if let Value::Object(map) = inst {
            for (name, s) in &kw.dependent_schemas {
                self.spend(text_steps(name.len()));
                if map.contains_key(name) {
                    ok &= self.in_place(*s, inst, path, out, eval);
                }
            }
        }
        ok
    }

    fn any_of<'a>(
        &mut self,
        any: &[NodeId],
        inst: &'a Value,
        path: &Path<'_, 'a>,
        out: &mut Out<'_>,
        eval: &mut Eval,
    ) -> bool {
        let mut matched = false;
        for &s in any {
            matched |= self.in_place(s, inst, path, &mut None, eval);
            // Every passing branch adds annotations; without tracking, one is enough.
            if matched && !self.g.tracks {
                break;
            }
        }
        matched
            || report(out, path, "anyOf", || {
                "value matches none of the `anyOf` schemas".into()
            })
    }

    fn one_of<'a>(
        &mut self,
        one: &[NodeId],
        inst: &'a Value,
        path: &Path<'_, 'a>,
        out: &mut Out<'_>,
        eval: &mut Eval,
    ) -> bool {
        let mut passing = Vec::new();
        for (i, &s) in one.iter().enumerate() {
            if self.in_place(s, inst, path, &mut None, eval) {
                passing.push(i);
            }
        }
        match passing.as_slice() {
            [_] => true,
            [] => report(out, path, "oneOf", || {
                "value matches none of the `oneOf` schemas".into()
            }),
            [a, b, ..] => report(out, path, "oneOf", || {
                format!("value matches `oneOf` schemas {a} and {b}; exactly one must match")
            }),
        }
    }

    /// The outermost resource in the dynamic scope that declares `anchor`
    /// as a `$dynamicAnchor`, else the static target.
    fn dynamic_target(&self, target: NodeId, anchor: Option<&str>) -> NodeId {
        let Some(name) = anchor else {
            return target;
        };
        self.scope
            .iter()
            .find_map(|&res| {
                self.g.dynamic_anchors[res]
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|&(_, node)| node)
            })
            .unwrap_or(target)
    }
}

impl Run<'_> {
    /// `type`, `enum` and `const`. The value's canonical text is written
    /// once, hashed once to look it up among the `enum` values, and
    /// compared once with the `const`.
    fn generic(&mut self, kw: &Keywords, inst: &Value, path: &Path, out: &mut Out<'_>) -> bool {
        let mut ok = true;
        if let Some(t) = kw.types {
            let actual = match inst {
                Value::Null => 1,
                Value::Bool(_) => 2,
                Value::Object(_) => 4,
                Value::Array(_) => 8,
                Value::Number(n) if is_integer(n) => 16 | 64,
                Value::Number(_) => 16,
                Value::String(_) => 32,
            };
            if t & actual == 0 {
                ok = report(out, path, "type", || {
                    format!("expected {}, found {}", type_names(t), type_name(inst))
                });
            }
        }
        if kw.enumeration.is_some() || kw.constant.is_some() {
            let text = canonical(inst);
            self.spend(text_steps(text.len()));
            if kw
                .enumeration
                .as_ref()
                .is_some_and(|e| !e.contains_key(&text))
            {
                ok = report(out, path, "enum", || {
                    "value is not one of the allowed values".into()
                });
            }
            if kw.constant.as_ref().is_some_and(|c| *c != text) {
                ok = report(out, path, "const", || {
                    "value is not the required constant".into()
                });
            }
        }
        ok
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Object(_) => "object",
        Value::Array(_) => "array",
        Value::Number(_) => "number",
        Value::String(_) => "string",
    }
}

fn type_names(bits: u8) -> String {
    let names = [
        "null", "boolean", "object", "array", "number", "string", "integer",
    ];
    // Joined by hand: no `[&str]::join` is linked into the wasm module.
    let mut list = String::new();
    for name in names {
        if type_bit(name).is_some_and(|b| bits & b != 0) {
            if !list.is_empty() {
                list.push_str(" or ");
            }
            list.push_str(name);
        }
    }
    list
}

/// A numeric bound: its limit, the test it imposes, keyword and wording.
type Bound = (
    Option<f64>,
    fn(f64, f64) -> bool,
    &'static str,
    &'static str,
);

fn numeric(kw: &Keywords, n: &Number, path: &Path, out: &mut Out<'_>) -> bool {
    let x = n.as_f64().unwrap_or(f64::NAN);
    let checks: [Bound; 4] = [
        (kw.maximum, |x, m| x <= m, "maximum", "at most"),
        (
            kw.exclusive_maximum,
            |x, m| x < m,
            "exclusiveMaximum",
            "less than",
        ),
        (kw.minimum, |x, m| x >= m, "minimum", "at least"),
        (
            kw.exclusive_minimum,
            |x, m| x > m,
            "exclusiveMinimum",
            "greater than",
        ),
    ];
    let mut ok = true;
    for (limit, holds, keyword, words) in checks {
        if let Some(m) = limit.filter(|&m| !holds(x, m)) {
            ok = report(out, path, keyword, || {
                format!("{} must be {words} {}", number_text(x), number_text(m))
            });
        }
    }
    if let Some(m) = kw.multiple_of.filter(|&m| !is_multiple_of(n, m)) {
        ok = report(out, path, "multipleOf", || {
            format!("{} is not a multiple of {}", number_text(x), number_text(m))
        });
    }
    ok
}

impl Run<'_> {
    /// `maxLength`, `minLength` and `pattern`: each reads the whole string.
    fn string(&mut self, kw: &Keywords, s: &str, path: &Path, out: &mut Out<'_>) -> bool {
        let mut ok = true;
        if kw.max_length.is_some() || kw.min_length.is_some() {
            self.spend(text_steps(s.len()));
            let len = s.chars().count() as u64;
            if let Some(m) = kw.max_length.filter(|&m| len > m) {
                ok = report(out, path, "maxLength", || {
                    format!("string has {len} characters, more than {m}")
                });
            }
            if let Some(m) = kw.min_length.filter(|&m| len < m) {
                ok = report(out, path, "minLength", || {
                    format!("string has {len} characters, fewer than {m}")
                });
            }
        }
        if let Some((source, pattern)) = &kw.pattern {
            self.spend(text_steps(s.len()));
            if !pattern.is_match(s) {
                ok = report(out, path, "pattern", || {
                    format!("string does not match /{source}/")
                });
            }
        }
        ok
    }

    /// `maxProperties`, `minProperties`, `required`, `dependentRequired`:
    /// one lookup per name.
    fn counts(&mut self, kw: &Keywords, map: &Map, path: &Path, out: &mut Out<'_>) -> bool {
        let n = map.len() as u64;
        let mut ok = true;
        if let Some(m) = kw.max_properties.filter(|&m| n > m) {
            ok = report(out, path, "maxProperties", || {
                format!("object has {n} properties, more than {m}")
            });
        }
        if let Some(m) = kw.min_properties.filter(|&m| n < m) {
            ok = report(out, path, "minProperties", || {
                format!("object has {n} properties, fewer than {m}")
            });
        }
        for name in &kw.required {
            self.spend(text_steps(name.len()));
            if !map.contains_key(name) {
                ok = report(out, path, "required", || {
                    format!("missing required property \"{name}\"")
                });
            }
        }
        for (name, deps) in &kw.dependent_required {
            self.spend(text_steps(name.len()));
            if !map.contains_key(name) {
                continue;
            }
            for dep in deps {
                self.spend(text_steps(dep.len()));
                if map.contains_key(dep) {
                    continue;
                }
                ok = report(out, path, "dependentRequired", || {
                    format!("property \"{name}\" requires property \"{dep}\"")
                });
            }
        }
        ok
    }
}

/// The first pair of equal items, if any, found in O(n); the texts written
/// and hashed are counted in `steps`.
fn duplicate(items: &[Value], steps: &mut usize) -> Option<(usize, usize)> {
    // A map of canonical texts, of the type the tracker's id index has, so
    // the wasm carries one hash-map instantiation for both.
    let mut seen: HashMap<String, usize> = HashMap::default();
    for (i, item) in items.iter().enumerate() {
        let text = canonical(item);
        *steps = steps.saturating_add(text_steps(text.len()));
        if let Some(j) = seen.insert(text, i) {
            return Some((j, i));
        }
    }
    None
}
