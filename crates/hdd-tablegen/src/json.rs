//! Reading fields of the `serde_json` values of `grammar.json` and `node-types.json`.

use serde_json::Value;

/// The string field `key` of a JSON object, if it has one.
pub(crate) fn str_field<'v>(node: &'v Value, key: &str) -> Option<&'v str> {
    node.get(key).and_then(Value::as_str)
}
