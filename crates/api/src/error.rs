//! The API's errors: a status, one line and the field it is about, and
//! the reading of a request body into its type, which names the field a
//! JSON error is in.

use rules::{MAX_PITS_PER_SIDE, MAX_STONES_IN_PLAY};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

/// An API error: an HTTP status, one line, and the request field it is
/// about (when one is).
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    /// The HTTP status: 400 for bad input, 404, 409, 413, 429, 503.
    pub status: u16,
    /// One line a person can read.
    pub message: String,
    /// The request field the message is about.
    pub field: Option<&'static str>,
}

/// The `"format"` of every error document.
pub const ERROR_FORMAT: &str = "mancala-sweep-web-error/1";

impl Error {
    /// Bad input (400).
    pub fn bad(msg: impl Into<String>) -> Self {
        Error::status(400, msg)
    }

    /// An error of another status. The message is made one line here:
    /// some messages quote the body's own text (serde names an unknown
    /// field as it was sent, and a field name may hold a newline), so a
    /// control character is shown escaped (`\n`) instead.
    pub fn status(status: u16, msg: impl Into<String>) -> Self {
        let msg: String = msg.into();
        let message = if msg.contains(char::is_control) {
            msg.chars()
                .map(|c| {
                    if c.is_control() {
                        c.escape_default().to_string()
                    } else {
                        c.to_string()
                    }
                })
                .collect()
        } else {
            msg
        };
        Error {
            status,
            message,
            field: None,
        }
    }

    /// The same error, about request field `name`.
    pub fn field(mut self, name: &'static str) -> Self {
        self.field = Some(name);
        self
    }

    /// The error document: `{"format", "error", "field"?}`.
    pub fn doc(&self) -> Value {
        let mut doc = json!({ "format": ERROR_FORMAT, "error": self.message });
        if let Some(f) = self.field {
            doc["field"] = json!(f);
        }
        doc
    }
}

/// A body of at most `limit` bytes as `T`: more is 413; JSON that does not
/// fit is 400, naming the field where serde stopped. An empty body is
/// `{}`.
pub fn parse<T: DeserializeOwned>(bytes: &[u8], limit: usize) -> Result<T, Error> {
    if bytes.len() > limit {
        return Err(too_large(limit));
    }
    let bytes = if bytes.is_empty() { &b"{}"[..] } else { bytes };
    serde_json::from_slice(bytes).map_err(|e| {
        // A value of the wrong kind in a field we know: say in plain words
        // what the field takes (serde's "invalid type: string ..." is not
        // for people), and name the field.
        if let Some((field, msg)) = serde_json::from_slice::<Value>(bytes)
            .ok()
            .as_ref()
            .and_then(wrong_kind)
        {
            return Error::bad(msg).field(field);
        }
        let err = Error::bad(format!("request body: {e}"));
        // A key that is no field is not beside any field (and through the
        // flattened `Position` serde reports it at the object's end, where
        // the last key before it is some other, valid field).
        if e.to_string().starts_with("unknown field") {
            return err;
        }
        match field_at(bytes, e.line(), e.column()) {
            Some(f) => err.field(f),
            None => err,
        }
    })
}

/// The first field of `body` whose value is of a kind it cannot take
/// (text for a number, -3 or 2.7 for a count), with a message that says
/// what it takes: `pits: give a whole number from 1 to 16, not -3`.
fn wrong_kind(body: &Value) -> Option<(&'static str, String)> {
    let obj = body.as_object()?;
    for (key, value) in obj {
        let Some(field) = FIELDS.iter().copied().find(|f| f == key) else {
            continue;
        };
        let wants = match field {
            "pits" => Some(format!("a whole number from 1 to {MAX_PITS_PER_SIDE}")),
            "stones" => Some(format!("a whole number from 0 to {MAX_STONES_IN_PLAY}")),
            "limit" => Some("a whole number from 1 to 1000".to_string()),
            "seed" | "nodes" => Some("a whole number from 0 up".to_string()),
            "pit" => Some("a pit number (a whole number from 1 up)".to_string()),
            _ => None,
        };
        let ok = match field {
            "seed" | "nodes" => value.as_u64().is_some(),
            "pits" | "stones" | "limit" | "pit" => {
                // u32 fields: a whole number that fits.
                value.as_u64().is_some_and(|v| v <= u64::from(u32::MAX))
            }
            "seconds" => value.as_f64().is_some_and(|v| v >= 0.0),
            "picks" => value.as_array().is_some_and(|a| {
                a.iter()
                    .all(|v| v.as_u64().is_some_and(|v| v <= u64::from(u32::MAX)))
            }),
            "relay" | "hint" => value.is_boolean(),
            _ => value.is_string(),
        };
        if ok {
            continue;
        }
        let given = match value {
            Value::String(t) if t.trim().is_empty() => "it is blank".to_string(),
            Value::String(t) => format!("not {t:?}"),
            Value::Null => "not null".to_string(),
            Value::Array(_) => "not a list".to_string(),
            Value::Object(_) => "not an object".to_string(),
            other => format!("not {other}"),
        };
        let wants = wants.unwrap_or_else(|| {
            match field {
                "seconds" => "a number of seconds from 0 up, like 1 or 2.5",
                "picks" => "a list of pit numbers, like [3, 1]",
                "relay" | "hint" => "true or false",
                _ => "text in quotes",
            }
            .to_string()
        });
        let sep = if given == "it is blank" { ";" } else { "," };
        return Some((field, format!("{field}: give {wants}{sep} {given}")));
    }
    None
}

/// The 413 of a body over `limit` bytes.
pub fn too_large(limit: usize) -> Error {
    Error::status(
        413,
        format!("request body is larger than the limit of {limit} bytes"),
    )
}

/// The request field whose value ends at `line`, `column` of `body`
/// (where serde_json reports a value of the wrong type): the last key
/// before that point. serde does not name the field itself through the
/// flattened `Position`, and the page wants to put the error beside it.
fn field_at(body: &[u8], line: usize, column: usize) -> Option<&'static str> {
    let text = std::str::from_utf8(body).ok()?;
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            offset += column.min(l.len());
            break;
        }
        offset += l.len();
    }
    let before = text.get(..offset)?;
    let colon = before.rfind("\":")?;
    let open = before[..colon].rfind('"')?;
    let key = &before[open + 1..colon];
    FIELDS.iter().copied().find(|f| *f == key)
}

/// Every field name a request body may have, for [`parse`]'s errors.
const FIELDS: &[&str] = &[
    "board", "pits", "stones", "rules", "scope", "relay", "capture", "limit", "picks", "seconds",
    "seed", "hint", "level", "agent", "person", "pit", "nodes",
];
