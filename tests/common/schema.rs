//! The JSON Schemas of `schemas/`, compiled the one way every test module
//! uses. The schemas share definitions through `common.schema.json` (the
//! rules, a position, a line of picks): a `$ref` to it, or to any other
//! `https://mancala-sweep/schemas/NAME`, is read from `schemas/NAME` on
//! disk, because the validator fetches nothing over the network.

use jsonschema::{Retrieve, Uri, Validator};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The start of every schema's `$id`: the schemas' own address space.
const BASE: &str = "https://mancala-sweep/schemas/";

/// The folder of the schemas.
pub fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas")
}

/// `schemas/FILE` as JSON, or why not.
pub fn read(file: &str) -> Result<Value, String> {
    let path = folder().join(file);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Resolves the schemas' own addresses from `schemas/` and refuses any
/// other, so that a `$ref` outside the folder fails the test instead of
/// reaching for the network.
struct Local;

impl Retrieve for Local {
    fn retrieve(
        &self,
        uri: &Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let file = uri
            .as_str()
            .strip_prefix(BASE)
            .ok_or_else(|| format!("{}: not an address under {BASE}", uri.as_str()))?;
        Ok(read(file)?)
    }
}

/// The validator of `schemas/FILE`, its references resolved in `schemas/`,
/// or why it does not compile.
pub fn compile(file: &str) -> Result<Validator, String> {
    let doc = read(file)?;
    jsonschema::options()
        .with_retriever(Local)
        .build(&doc)
        .map_err(|e| format!("schemas/{file}: {e}"))
}

/// The validator of `schemas/{name}.schema.json`.
pub fn schema(name: &str) -> Validator {
    compile(&format!("{name}.schema.json")).unwrap_or_else(|e| panic!("{e}"))
}

/// Assert that `doc` (described by `what`) is valid against schema `name`,
/// naming every error and where it is.
pub fn valid(name: &str, doc: &Value, what: &str) {
    let errors: Vec<String> = schema(name)
        .iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what} against {name}: {errors:?}");
}
