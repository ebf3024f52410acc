//! Reading `node-types.json`: the transitive supertypes of every kind and the
//! child slots (field or unnamed children) of every visible kind.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde_json::Value;

use crate::error::{GenerateError, malformed};
use crate::generated::OwnedSlotInfo;
use crate::json::str_field;

/// What the table takes from `node-types.json`.
pub(crate) struct NodeTypes {
    /// Kind name -> its transitive supertypes, sorted.
    pub(crate) supertypes: BTreeMap<String, Vec<String>>,
    /// Every child slot, sorted by `(kind, field)` with `None` first.
    pub(crate) slots: Vec<OwnedSlotInfo>,
}

impl NodeTypes {
    /// Loads a parsed `node-types.json`.
    pub(crate) fn load(node_types: &Value) -> Result<NodeTypes, GenerateError> {
        let entries = node_types
            .as_array()
            .ok_or_else(|| malformed("node-types.json", "not an array"))?;
        // Direct edges subtype -> supertype.
        let mut parents: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        let mut slots = Vec::new();
        for entry in entries {
            let kind = str_field(entry, "type")
                .ok_or_else(|| malformed("node-types.json", "entry without `type`"))?;
            let named = entry.get("named").and_then(Value::as_bool).unwrap_or(false);
            if !named {
                continue;
            }
            if let Some(subtypes) = entry.get("subtypes").and_then(Value::as_array) {
                for sub in subtypes {
                    let sub = str_field(sub, "type").ok_or_else(|| {
                        malformed(
                            "node-types.json",
                            format!("`{kind}`: subtype without `type`"),
                        )
                    })?;
                    parents.entry(sub).or_default().push(kind);
                }
            }
            if let Some(fields) = entry.get("fields").and_then(Value::as_object) {
                for (field, info) in fields {
                    slots.push(slot(kind, Some(field), info));
                }
            }
            if let Some(children) = entry.get("children") {
                slots.push(slot(kind, None, children));
            }
        }
        slots.sort_by(|a, b| (&a.kind, &a.field).cmp(&(&b.kind, &b.field)));

        let mut supertypes = BTreeMap::new();
        for &kind in parents.keys() {
            let mut seen: BTreeSet<&str> = BTreeSet::new();
            let mut queue: VecDeque<&str> = VecDeque::from([kind]);
            while let Some(k) = queue.pop_front() {
                for &parent in parents.get(k).map_or(&[][..], Vec::as_slice) {
                    if parent != kind && seen.insert(parent) {
                        queue.push_back(parent);
                    }
                }
            }
            supertypes.insert(
                kind.to_owned(),
                seen.into_iter().map(str::to_owned).collect(),
            );
        }
        Ok(NodeTypes { supertypes, slots })
    }
}

/// The slot of `kind` for `field` (`None`: unnamed children) described by `info`.
fn slot(kind: &str, field: Option<&str>, info: &Value) -> OwnedSlotInfo {
    let flag = |key| info.get(key).and_then(Value::as_bool).unwrap_or(false);
    let mut types: Vec<String> = info
        .get("types")
        .and_then(Value::as_array)
        .map(|types| {
            types
                .iter()
                .filter(|t| t.get("named").and_then(Value::as_bool).unwrap_or(false))
                .filter_map(|t| str_field(t, "type").map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    types.sort();
    types.dedup();
    OwnedSlotInfo {
        kind: kind.to_owned(),
        field: field.map(str::to_owned),
        required: flag("required"),
        multiple: flag("multiple"),
        types,
    }
}
