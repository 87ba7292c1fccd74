//! Plain words for a JSON input file of the wrong shape: when serde refuses a poses or rays
//! file, the file is read again as untyped JSON to say what is there instead of what is
//! expected (a bare array, a missing key, an entry with the wrong fields).

use serde_json::Value;

/// What a JSON value is, in words.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Why `text` is not `{"<key>": [<entry>, ...]}` with each entry an object holding `fields`
/// as lists of three numbers, or `None` when the shape is right (or the text is not JSON at
/// all: serde's own message, with line and column, then says more).
pub fn explain(text: &str, key: &str, fields: &[&str]) -> Option<String> {
    let value: Value = serde_json::from_str(text).ok()?;
    let list = match &value {
        Value::Object(map) => match map.get(key) {
            Some(Value::Array(list)) => list,
            Some(other) => {
                return Some(format!("\"{key}\" must be a list, not {}", kind(other)));
            }
            None => {
                let keys: Vec<&str> = map.keys().map(String::as_str).collect();
                return Some(format!(
                    "the top-level object has no \"{key}\" list (its keys: {})",
                    if keys.is_empty() {
                        "none".into()
                    } else {
                        keys.join(", ")
                    }
                ));
            }
        },
        Value::Array(_) => {
            return Some(format!(
                "the file is a bare list; wrap it in an object: {{\"{key}\": [...]}}"
            ));
        }
        other => return Some(format!("the file holds {}, not an object", kind(other))),
    };
    list.iter()
        .enumerate()
        .find_map(|(index, entry)| explain_entry(entry, fields).map(|why| (index, why)))
        .map(|(index, why)| format!("{key}[{index}]: {why}"))
}

/// Why `entry` is not an object with each of `fields` a list of three numbers.
fn explain_entry(entry: &Value, fields: &[&str]) -> Option<String> {
    let Value::Object(map) = entry else {
        return Some(format!("expected an object, not {}", kind(entry)));
    };
    fields.iter().find_map(|&field| match map.get(field) {
        None => Some(format!("\"{field}\" is missing")),
        Some(Value::Array(v)) if v.len() == 3 && v.iter().all(Value::is_number) => None,
        Some(Value::Array(v)) if v.len() != 3 => {
            Some(format!("\"{field}\" has {} numbers, not 3", v.len()))
        }
        Some(other) => Some(format!(
            "\"{field}\" must be a list of three numbers, not {}",
            if other.is_array() {
                "a list with something else"
            } else {
                kind(other)
            }
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::explain;

    #[test]
    fn says_what_is_wrong() {
        let fields = ["translation", "rotation"];
        let cases = [
            (
                r#"[{"translation":[0,0,0],"rotation":[0,0,0]}]"#,
                "bare list",
            ),
            (r#"{"pose":[]}"#, "no \"poses\" list (its keys: pose)"),
            (r#"{"poses":{}}"#, "\"poses\" must be a list, not an object"),
            (
                r#"{"poses":[{"translation":[0,0]}]}"#,
                "poses[0]: \"translation\" has 2 numbers",
            ),
            (
                r#"{"poses":[{"translation":[0,0,0]}]}"#,
                "poses[0]: \"rotation\" is missing",
            ),
            (
                r#"{"poses":[1]}"#,
                "poses[0]: expected an object, not a number",
            ),
            (
                r#"{"poses":[{"translation":[0,0,"x"],"rotation":[0,0,0]}]}"#,
                "a list with something else",
            ),
        ];
        for (text, expected) in cases {
            let why = explain(text, "poses", &fields).unwrap_or_default();
            assert!(why.contains(expected), "{text}: {why:?}");
        }
        assert_eq!(explain(r#"{"poses":[]}"#, "poses", &fields), None);
        assert_eq!(explain("not json", "poses", &fields), None);
    }
}
