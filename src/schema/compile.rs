//! Compiling a schema document into a graph of nodes.
//!
//! Every subschema becomes a [`Node`] in one vector and refers to its
//! children by index, so `$ref` cycles are just edges. Compiling is two
//! passes: the first walks the document, registering every subschema under
//! its URI (`base#/json/pointer`) and every anchor (`base#name`); the second
//! resolves each `$ref` against that registry. A pointer into a place the
//! walk did not visit (a subschema under an unknown keyword) is compiled on
//! demand.

use super::pattern::{Pattern, PatternEngine};
use super::uri::{self, escape_token, percent_decode, pointer_get, resolve, split_fragment};
use super::value::canonical;
use super::{Draft, SchemaError};
use crate::value::{Map, Value};
use crate::HashMap;

/// Deepest nesting of subschemas the compiler follows.
pub(crate) const MAX_SCHEMA_DEPTH: usize = 128;

/// Most subschemas one schema may have. Each costs its compiled keywords
/// (a few hundred bytes) and a registry entry: one 4 MiB run input of
/// `"pN":{}` properties held 326,000, took 251 MiB of wasm memory and
/// minutes to compile. Tool schemas have hundreds.
pub const MAX_SUBSCHEMAS: usize = 20_000;

pub(crate) type NodeId = usize;

/// One subschema.
pub(crate) enum Node {
    Bool(bool),
    Object(Box<Keywords>),
}

/// A schema resource: the root, or a subschema with its own `$id`.
pub(crate) struct Resource<'v> {
    pub(crate) uri: String,
    pub(crate) value: &'v Value,
    /// `$dynamicAnchor` names declared in this resource.
    pub(crate) dynamic_anchors: Vec<(String, NodeId)>,
}

/// A `$dynamicRef`: its static target, and the anchor name to look up in
/// the dynamic scope when the target declares that `$dynamicAnchor`.
pub(crate) struct DynamicRef {
    pub(crate) target: NodeId,
    pub(crate) anchor: Option<String>,
}

/// The keywords of an object schema that validation reads.
#[derive(Default)]
pub(crate) struct Keywords {
    /// Bit set of [`type_bit`] values.
    pub(crate) types: Option<u8>,
    /// The canonical text of each `enum` value (to its position): one
    /// hash per lookup, however many values.
    pub(crate) enumeration: Option<HashMap<String, usize>>,
    pub(crate) constant: Option<String>,
    pub(crate) multiple_of: Option<f64>,
    pub(crate) maximum: Option<f64>,
    pub(crate) exclusive_maximum: Option<f64>,
    pub(crate) minimum: Option<f64>,
    pub(crate) exclusive_minimum: Option<f64>,
    pub(crate) max_length: Option<u64>,
    pub(crate) min_length: Option<u64>,
    pub(crate) pattern: Option<(String, Box<dyn Pattern>)>,
    pub(crate) prefix_items: Vec<NodeId>,
    /// Applies to the items after `prefix_items` (`items`, or draft-07
    /// `additionalItems` after an array-form `items`).
    pub(crate) items: Option<NodeId>,
    pub(crate) contains: Option<NodeId>,
    pub(crate) min_contains: Option<u64>,
    pub(crate) max_contains: Option<u64>,
    pub(crate) max_items: Option<u64>,
    pub(crate) min_items: Option<u64>,
    pub(crate) unique_items: bool,
    pub(crate) max_properties: Option<u64>,
    pub(crate) min_properties: Option<u64>,
    pub(crate) required: Vec<String>,
    pub(crate) properties: HashMap<String, NodeId>,
    pub(crate) pattern_properties: Vec<(Box<dyn Pattern>, NodeId)>,
    pub(crate) additional_properties: Option<NodeId>,
    pub(crate) property_names: Option<NodeId>,
    pub(crate) dependent_required: Vec<(String, Vec<String>)>,
    pub(crate) dependent_schemas: Vec<(String, NodeId)>,
    pub(crate) all_of: Vec<NodeId>,
    pub(crate) any_of: Option<Vec<NodeId>>,
    pub(crate) one_of: Option<Vec<NodeId>>,
    pub(crate) not: Option<NodeId>,
    pub(crate) if_then_else: Option<(NodeId, Option<NodeId>, Option<NodeId>)>,
    pub(crate) reference: Option<NodeId>,
    pub(crate) dynamic_ref: Option<DynamicRef>,
    pub(crate) unevaluated_properties: Option<NodeId>,
    pub(crate) unevaluated_items: Option<NodeId>,
}

/// The bit of a JSON Schema type name in [`Keywords::types`].
pub(crate) fn type_bit(name: &str) -> Option<u8> {
    Some(match name {
        "null" => 1,
        "boolean" => 2,
        "object" => 4,
        "array" => 8,
        "number" => 16,
        "string" => 32,
        "integer" => 64,
        _ => return None,
    })
}

/// A compiled schema document.
pub(crate) struct Graph {
    pub(crate) nodes: Vec<(Node, usize)>,
    /// Per resource: the `$dynamicAnchor` names it declares.
    pub(crate) dynamic_anchors: Vec<Vec<(String, NodeId)>>,
    /// Whether any `unevaluated*` keyword exists, so validation must track
    /// which properties and items were evaluated.
    pub(crate) tracks: bool,
}

enum RefKind {
    Static,
    Dynamic,
}

struct Pending {
    node: NodeId,
    kind: RefKind,
    uri: String,
    at: String,
}

/// Whether `needle` occurs in `s`. `str::contains` with a string pattern
/// links core's two-way searcher, 1 KB of the wasm module for a `$schema`
/// URI of a few dozen bytes.
fn mentions(s: &str, needle: &str) -> bool {
    s.as_bytes()
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

/// Compiles `root` into a [`Graph`].
pub(crate) fn compile(
    root: &Value,
    default: Draft,
    engine: &dyn PatternEngine,
) -> Result<Graph, SchemaError> {
    let draft = match root.get("$schema").and_then(Value::as_str) {
        Some(s) if mentions(s, "draft-0") => Draft::Draft7,
        Some(s) if mentions(s, "2020-12") || mentions(s, "2019-09") => Draft::Draft2020,
        _ => default,
    };
    let mut c = Compiler {
        engine,
        draft,
        nodes: Vec::new(),
        resources: vec![Resource {
            uri: uri::DEFAULT_BASE.to_owned(),
            value: root,
            dynamic_anchors: Vec::new(),
        }],
        registry: HashMap::default(),
        pending: Vec::new(),
        tracks: false,
    };
    c.node(root, 0, "", 0)?;
    while let Some(p) = c.pending.pop() {
        c.link(p)?;
    }
    // A loop, not an in-place `collect` (generic code of its own: size).
    let mut dynamic_anchors = Vec::with_capacity(c.resources.len());
    for r in c.resources {
        dynamic_anchors.push(r.dynamic_anchors);
    }
    Ok(Graph {
        nodes: c.nodes,
        dynamic_anchors,
        tracks: c.tracks,
    })
}

struct Compiler<'v, 'e> {
    engine: &'e dyn PatternEngine,
    draft: Draft,
    nodes: Vec<(Node, usize)>,
    resources: Vec<Resource<'v>>,
    /// `uri#fragment` of every subschema and anchor, to the node.
    registry: HashMap<String, NodeId>,
    pending: Vec<Pending>,
    tracks: bool,
}

fn err(at: &str, message: impl Into<String>) -> SchemaError {
    SchemaError {
        path: at.to_owned(),
        message: message.into(),
    }
}

impl<'v> Compiler<'v, '_> {
    /// Compiles the subschema `v` found at `ptr` inside resource `res`.
    fn node(
        &mut self,
        v: &'v Value,
        res: usize,
        ptr: &str,
        depth: usize,
    ) -> Result<NodeId, SchemaError> {
        if depth > MAX_SCHEMA_DEPTH {
            return Err(err(ptr, "schema nested too deeply"));
        }
        if self.nodes.len() >= MAX_SUBSCHEMAS {
            return Err(err(ptr, format!("more than {MAX_SUBSCHEMAS} subschemas")));
        }
        let map = match v {
            Value::Bool(b) => {
                self.nodes.push((Node::Bool(*b), res));
                let id = self.nodes.len() - 1;
                self.register(res, ptr, id);
                return Ok(id);
            }
            Value::Object(map) => map,
            _ => return Err(err(ptr, "a schema must be an object or a boolean")),
        };
        let id = self.nodes.len();
        self.nodes.push((Node::Bool(true), res));
        self.register(res, ptr, id);
        let draft7_ref = self.draft == Draft::Draft7 && map.contains_key("$ref");
        let (res, ptr) = if draft7_ref {
            (res, ptr.to_owned())
        } else {
            self.identify(v, map, res, ptr, id)
        };
        self.nodes[id].1 = res;
        let kw = if draft7_ref {
            // Draft-07: `$ref` replaces its siblings; only `definitions` are
            // still walked so that refs into them resolve.
            self.references(map, id, res, &ptr);
            self.schema_map(map.get("definitions"), res, &ptr, "definitions", depth)?;
            Keywords::default()
        } else {
            self.keywords(map, id, res, &ptr, depth)?
        };
        self.nodes[id].0 = Node::Object(Box::new(kw));
        Ok(id)
    }

    fn register(&mut self, res: usize, ptr: &str, id: NodeId) {
        let key = format!("{}#{}", self.resources[res].uri, ptr);
        // The first registration wins.
        self.registry.get_or_insert_with(key, || id);
    }

    /// Handles `$id`, `$anchor` and `$dynamicAnchor`: returns the resource
    /// and pointer the keywords of this object live in.
    fn identify(
        &mut self,
        v: &'v Value,
        map: &'v Map,
        mut res: usize,
        ptr: &str,
        id: NodeId,
    ) -> (usize, String) {
        let mut ptr = ptr.to_owned();
        if let Some(sid) = map.get("$id").and_then(Value::as_str) {
            let full = resolve(&self.resources[res].uri, sid);
            let (base, frag) = split_fragment(&full);
            if !base.is_empty() && base != self.resources[res].uri {
                self.resources.push(Resource {
                    uri: base.to_owned(),
                    value: v,
                    dynamic_anchors: Vec::new(),
                });
                res = self.resources.len() - 1;
                ptr.clear();
                self.register(res, "", id);
            }
            // Draft-07 spells anchors as `$id: "#name"`.
            if self.draft == Draft::Draft7 && !frag.is_empty() {
                self.register(res, frag, id);
            }
        }
        if self.draft == Draft::Draft2020 {
            if let Some(a) = map.get("$anchor").and_then(Value::as_str) {
                self.register(res, a, id);
            }
            if let Some(a) = map.get("$dynamicAnchor").and_then(Value::as_str) {
                self.register(res, a, id);
                self.resources[res].dynamic_anchors.push((a.to_owned(), id));
            }
        }
        (res, ptr)
    }
}

impl<'v> Compiler<'v, '_> {
    fn keywords(
        &mut self,
        map: &'v Map,
        id: NodeId,
        res: usize,
        ptr: &str,
        depth: usize,
    ) -> Result<Keywords, SchemaError> {
        let mut kw = Keywords::default();
        self.scalars(map, ptr, &mut kw)?;
        self.arrays(map, res, ptr, depth, &mut kw)?;
        self.objects(map, res, ptr, depth, &mut kw)?;
        self.applicators(map, res, ptr, depth, &mut kw)?;
        self.references(map, id, res, ptr);
        for key in ["$defs", "definitions"] {
            self.schema_map(map.get(key), res, ptr, key, depth)?;
        }
        Ok(kw)
    }

    /// Keywords about the instance itself: type, enum, numbers, strings.
    fn scalars(&mut self, map: &'v Map, ptr: &str, kw: &mut Keywords) -> Result<(), SchemaError> {
        if let Some(t) = map.get("type") {
            kw.types = Some(types(t).ok_or_else(|| err(ptr, "`type` must name JSON types"))?);
        }
        if let Some(e) = map.get("enum") {
            let items = e
                .as_array()
                .ok_or_else(|| err(ptr, "`enum` must be an array"))?;
            let mut values = HashMap::default();
            for (i, item) in items.iter().enumerate() {
                values.insert(canonical(item), i);
            }
            kw.enumeration = Some(values);
        }
        kw.constant = map.get("const").map(canonical);
        kw.multiple_of = number(map, "multipleOf", ptr)?;
        if kw.multiple_of.is_some_and(|m| m <= 0.0) {
            return Err(err(ptr, "`multipleOf` must be greater than 0"));
        }
        kw.maximum = number(map, "maximum", ptr)?;
        kw.minimum = number(map, "minimum", ptr)?;
        kw.exclusive_maximum = exclusive(map, "exclusiveMaximum", &mut kw.maximum, ptr)?;
        kw.exclusive_minimum = exclusive(map, "exclusiveMinimum", &mut kw.minimum, ptr)?;
        kw.max_length = count(map, "maxLength", ptr)?;
        kw.min_length = count(map, "minLength", ptr)?;
        if let Some(p) = map.get("pattern") {
            let source = p
                .as_str()
                .ok_or_else(|| err(ptr, "`pattern` must be a string"))?;
            kw.pattern = Some((source.to_owned(), self.pattern(source, ptr)?));
        }
        Ok(())
    }

    fn arrays(
        &mut self,
        map: &'v Map,
        res: usize,
        ptr: &str,
        depth: usize,
        kw: &mut Keywords,
    ) -> Result<(), SchemaError> {
        let d20 = self.draft == Draft::Draft2020;
        if let Some(Value::Array(_)) = map.get("items") {
            // Draft-07 tuple form, also accepted without `$schema`.
            kw.prefix_items = self.schema_list(map.get("items"), res, ptr, "items", depth)?;
            kw.items = self.child(map, "additionalItems", res, ptr, depth)?;
        } else {
            if d20 {
                kw.prefix_items =
                    self.schema_list(map.get("prefixItems"), res, ptr, "prefixItems", depth)?;
            }
            kw.items = self.child(map, "items", res, ptr, depth)?;
        }
        kw.contains = self.child(map, "contains", res, ptr, depth)?;
        if d20 {
            kw.min_contains = count(map, "minContains", ptr)?;
            kw.max_contains = count(map, "maxContains", ptr)?;
            kw.unevaluated_items = self.child(map, "unevaluatedItems", res, ptr, depth)?;
        }
        kw.max_items = count(map, "maxItems", ptr)?;
        kw.min_items = count(map, "minItems", ptr)?;
        // Compared as a `bool`: `Value == Value` would link the value's
        // whole `PartialEq` (maps, numbers) for this one test (size).
        kw.unique_items = map.get("uniqueItems").and_then(Value::as_bool) == Some(true);
        Ok(())
    }

    fn objects(
        &mut self,
        map: &'v Map,
        res: usize,
        ptr: &str,
        depth: usize,
        kw: &mut Keywords,
    ) -> Result<(), SchemaError> {
        kw.max_properties = count(map, "maxProperties", ptr)?;
        kw.min_properties = count(map, "minProperties", ptr)?;
        if let Some(r) = map.get("required") {
            kw.required = strings(r).ok_or_else(|| err(ptr, "`required` must list strings"))?;
        }
        let props = self.schema_map(map.get("properties"), res, ptr, "properties", depth)?;
        for (name, node) in props {
            kw.properties.insert(name, node);
        }
        let patterns = self.schema_map(
            map.get("patternProperties"),
            res,
            ptr,
            "patternProperties",
            depth,
        )?;
        for (source, node) in patterns {
            kw.pattern_properties
                .push((self.pattern(&source, ptr)?, node));
        }
        kw.additional_properties = self.child(map, "additionalProperties", res, ptr, depth)?;
        kw.property_names = self.child(map, "propertyNames", res, ptr, depth)?;
        if self.draft == Draft::Draft2020 {
            kw.unevaluated_properties =
                self.child(map, "unevaluatedProperties", res, ptr, depth)?;
            if let Some(Value::Object(deps)) = map.get("dependentRequired") {
                for (k, v) in deps {
                    let names = strings(v)
                        .ok_or_else(|| err(ptr, "`dependentRequired` must list strings"))?;
                    kw.dependent_required.push((k.clone(), names));
                }
            }
            kw.dependent_schemas = self.schema_map(
                map.get("dependentSchemas"),
                res,
                ptr,
                "dependentSchemas",
                depth,
            )?;
        }
        self.dependencies(map, res, ptr, depth, kw)
    }

    /// Draft-07 `dependencies`: a list of names, or a schema. Accepted in
    /// both drafts, as providers mix them.
    fn dependencies(
        &mut self,
        map: &'v Map,
        res: usize,
        ptr: &str,
        depth: usize,
        kw: &mut Keywords,
    ) -> Result<(), SchemaError> {
        let Some(Value::Object(deps)) = map.get("dependencies") else {
            return Ok(());
        };
        let here = format!("{ptr}/dependencies");
        for (k, v) in deps {
            if let Some(names) = strings(v) {
                kw.dependent_required.push((k.clone(), names));
            } else {
                let at = format!("{here}/{}", escape_token(k));
                let node = self.node(v, res, &at, depth + 1)?;
                kw.dependent_schemas.push((k.clone(), node));
            }
        }
        Ok(())
    }

    fn applicators(
        &mut self,
        map: &'v Map,
        res: usize,
        ptr: &str,
        depth: usize,
        kw: &mut Keywords,
    ) -> Result<(), SchemaError> {
        kw.all_of = self.schema_list(map.get("allOf"), res, ptr, "allOf", depth)?;
        if map.contains_key("anyOf") {
            kw.any_of = Some(self.schema_list(map.get("anyOf"), res, ptr, "anyOf", depth)?);
        }
        if map.contains_key("oneOf") {
            kw.one_of = Some(self.schema_list(map.get("oneOf"), res, ptr, "oneOf", depth)?);
        }
        kw.not = self.child(map, "not", res, ptr, depth)?;
        let then = self.child(map, "then", res, ptr, depth)?;
        let otherwise = self.child(map, "else", res, ptr, depth)?;
        if let Some(cond) = self.child(map, "if", res, ptr, depth)? {
            kw.if_then_else = Some((cond, then, otherwise));
        }
        Ok(())
    }

    /// Queues `$ref` and `$dynamicRef` for the linking pass.
    fn references(&mut self, map: &'v Map, id: NodeId, res: usize, ptr: &str) {
        let mut queue = |key: &str, kind: RefKind| {
            if let Some(r) = map.get(key).and_then(Value::as_str) {
                self.pending.push(Pending {
                    node: id,
                    kind,
                    uri: resolve(&self.resources[res].uri, r),
                    at: format!("{ptr}/{key}"),
                });
            }
        };
        queue("$ref", RefKind::Static);
        if self.draft == Draft::Draft2020 {
            queue("$dynamicRef", RefKind::Dynamic);
        }
    }

    /// Compiles the subschema under `key`, if present.
    fn child(
        &mut self,
        map: &'v Map,
        key: &str,
        res: usize,
        ptr: &str,
        depth: usize,
    ) -> Result<Option<NodeId>, SchemaError> {
        match map.get(key) {
            None => Ok(None),
            Some(v) => {
                if key.starts_with("unevaluated") {
                    self.tracks = true;
                }
                let at = format!("{ptr}/{key}");
                self.node(v, res, &at, depth + 1).map(Some)
            }
        }
    }

    /// Compiles an array of subschemas.
    fn schema_list(
        &mut self,
        v: Option<&'v Value>,
        res: usize,
        ptr: &str,
        key: &str,
        depth: usize,
    ) -> Result<Vec<NodeId>, SchemaError> {
        let items = match v {
            None => return Ok(Vec::new()),
            Some(Value::Array(items)) => items,
            Some(_) => return Err(err(ptr, format!("`{key}` must be an array of schemas"))),
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, s) in items.iter().enumerate() {
            out.push(self.node(s, res, &format!("{ptr}/{key}/{i}"), depth + 1)?);
        }
        Ok(out)
    }

    /// Compiles an object whose values are subschemas.
    fn schema_map(
        &mut self,
        v: Option<&'v Value>,
        res: usize,
        ptr: &str,
        key: &str,
        depth: usize,
    ) -> Result<Vec<(String, NodeId)>, SchemaError> {
        let entries = match v {
            None => return Ok(Vec::new()),
            Some(Value::Object(entries)) => entries,
            Some(_) => return Err(err(ptr, format!("`{key}` must be an object of schemas"))),
        };
        let mut out = Vec::with_capacity(entries.len());
        for (k, s) in entries {
            let at = format!("{ptr}/{key}/{}", escape_token(k));
            out.push((k.clone(), self.node(s, res, &at, depth + 1)?));
        }
        Ok(out)
    }

    fn pattern(&self, source: &str, ptr: &str) -> Result<Box<dyn Pattern>, SchemaError> {
        self.engine
            .compile(source)
            .map_err(|e| err(ptr, format!("invalid pattern \"{source}\": {e}")))
    }

    /// Resolves one queued reference and stores its target.
    fn link(&mut self, p: Pending) -> Result<(), SchemaError> {
        let target = self.lookup(&p.uri, &p.at)?;
        let dynamic = match p.kind {
            RefKind::Static => None,
            RefKind::Dynamic => {
                // Dynamic only when the static target declares that very
                // `$dynamicAnchor`; otherwise it behaves as `$ref`.
                let (_, frag) = split_fragment(&p.uri);
                let declared = self.resources[self.nodes[target].1]
                    .dynamic_anchors
                    .iter()
                    .any(|(name, node)| name == frag && *node == target);
                Some(declared.then(|| frag.to_owned()))
            }
        };
        if let Node::Object(kw) = &mut self.nodes[p.node].0 {
            match dynamic {
                None => kw.reference = Some(target),
                Some(anchor) => kw.dynamic_ref = Some(DynamicRef { target, anchor }),
            }
        }
        Ok(())
    }

    fn lookup(&mut self, full: &str, at: &str) -> Result<NodeId, SchemaError> {
        let (base, frag) = split_fragment(full);
        let frag = percent_decode(frag);
        if let Some(&id) = self.registry.get(&format!("{base}#{frag}")) {
            return Ok(id);
        }
        if frag.is_empty() || frag.starts_with('/') {
            if let Some(res) = self.resources.iter().position(|r| r.uri == base) {
                let root: &'v Value = self.resources[res].value;
                if let Some(v) = pointer_get(root, &frag) {
                    return self.node(v, res, &frag, 0);
                }
            }
        }
        Err(err(
            at,
            format!("cannot resolve \"{full}\": only references inside the schema are followed"),
        ))
    }
}

fn types(t: &Value) -> Option<u8> {
    match t {
        Value::String(s) => type_bit(s),
        Value::Array(names) => names
            .iter()
            .try_fold(0, |acc, n| Some(acc | type_bit(n.as_str()?)?)),
        _ => None,
    }
}

fn strings(v: &Value) -> Option<Vec<String>> {
    // A loop, not `collect::<Option<Vec<_>>>()`: that adapter is generic
    // code of its own in the wasm (size).
    let mut out = Vec::new();
    for s in v.as_array()? {
        out.push(s.as_str()?.to_owned());
    }
    Some(out)
}

fn number(map: &Map, key: &str, ptr: &str) -> Result<Option<f64>, SchemaError> {
    match map.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_f64()
            .map(Some)
            .ok_or_else(|| err(ptr, format!("`{key}` must be a number"))),
    }
}

/// `exclusiveMaximum` or `exclusiveMinimum`: a number (draft-06 on), or
/// draft-04's boolean that makes `bound` (`maximum` or `minimum`)
/// exclusive. Read in every draft, as providers send draft-04 schemas
/// without `$schema`: ignoring `true` would call `1` valid against
/// `{"maximum": 1, "exclusiveMaximum": true}`.
fn exclusive(
    map: &Map,
    key: &str,
    bound: &mut Option<f64>,
    ptr: &str,
) -> Result<Option<f64>, SchemaError> {
    match map.get(key) {
        Some(Value::Bool(true)) => Ok(bound.take()),
        Some(Value::Bool(false)) => Ok(None),
        _ => number(map, key, ptr),
    }
}

fn count(map: &Map, key: &str, ptr: &str) -> Result<Option<u64>, SchemaError> {
    match map.get(key) {
        None => Ok(None),
        Some(v) => match v.as_f64() {
            // `2.0` is a valid count.
            Some(f) if f >= 0.0 && f.fract() == 0.0 => Ok(Some(v.as_u64().unwrap_or(f as u64))),
            _ => Err(err(ptr, format!("`{key}` must be a non-negative integer"))),
        },
    }
}
