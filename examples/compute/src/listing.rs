//! What the flavor and keypair lists share, as Nova's `api/openstack/common.py`
//! pages them: a marker, a page at most `max_limit` long, and a `next` link
//! whenever the page is full.

use serde_json::{Value, json};

use crate::web::{ApiError, JsonQuery, Origin};

/// Nova's `CONF.api.max_limit`: the most items a page holds, asked for or not.
pub(crate) const MAX_LIMIT: usize = 1000;

/// Drops every item up to and including the one `id_of` names `marker`;
/// an unknown marker is `not_found(marker)`.
pub(crate) fn skip_past_marker<T>(
    items: &mut Vec<T>,
    marker: Option<&str>,
    id_of: impl Fn(&T) -> &str,
    not_found: impl FnOnce(&str) -> ApiError,
) -> Result<(), ApiError> {
    let Some(marker) = marker else { return Ok(()) };
    let at = items.iter().position(|item| id_of(item) == marker).ok_or_else(|| not_found(marker))?;
    items.drain(..=at);
    Ok(())
}

/// The `limit` of a list that is not paged: what a version change puts in
/// the query of a version before paging (the keypairs' before 2.35). A
/// client cannot send it: a query string's values are strings.
pub(crate) const UNPAGED: Value = Value::Null;

/// The page size of `get_limit_and_marker`: the last `limit` (digits only,
/// as the query schema checked), at most [`MAX_LIMIT`]; none asked, or more
/// than any integer holds, is [`MAX_LIMIT`]; an [`UNPAGED`] list has no end.
pub(crate) fn page_size(query: &JsonQuery) -> usize {
    if query.value().get("limit") == Some(&UNPAGED) {
        return usize::MAX;
    }
    query.last("limit").map_or(MAX_LIMIT, |limit| limit.parse().unwrap_or(MAX_LIMIT).min(MAX_LIMIT))
}

/// `_get_collection_links`: `[{"rel": "next", ...}]` when the page is
/// `page_size` long and not empty, else `None`. The link repeats every
/// parameter of the query with `marker` set to the page's last id, as
/// `_get_next_link` writes it: the pairs sorted (a repeated key keeps its
/// first place and its greatest value, Python's `OrderedDict(sorted(...))`),
/// `marker` replaced in place or else appended, encoded by Python's
/// `urlencode`.
pub(crate) fn next_link(
    origin: &Origin,
    collection: &str,
    query: &JsonQuery,
    page_size: usize,
    last_id: Option<&str>,
    len: usize,
) -> Option<Value> {
    let last_id = last_id.filter(|_| page_size > 0 && len == page_size)?;
    let mut pairs: Vec<(&str, &str)> = query
        .value()
        .as_object()
        .into_iter()
        .flatten()
        .flat_map(|(key, values)| {
            values.as_array().into_iter().flatten().filter_map(|v| v.as_str()).map(move |v| (key.as_str(), v))
        })
        .collect();
    pairs.sort_unstable();
    let mut params: Vec<(&str, &str)> = Vec::new();
    for (key, value) in pairs {
        match params.iter_mut().find(|(k, _)| *k == key) {
            Some(kept) => kept.1 = value,
            None => params.push((key, value)),
        }
    }
    match params.iter_mut().find(|(k, _)| *k == "marker") {
        Some(marker) => marker.1 = last_id,
        None => params.push(("marker", last_id)),
    }
    let encoded: Vec<String> =
        params.iter().map(|(key, value)| format!("{}={}", quote_plus(key), quote_plus(value))).collect();
    let href = format!("{}/v2.1/{collection}?{}", origin.as_str(), encoded.join("&"));
    Some(json!([{"rel": "next", "href": href}]))
}

/// Python's `urllib.parse.quote_plus`: letters, digits and `_.-~` as they
/// are, a space as `+`, every other byte of the UTF-8 as `%XX`.
fn quote_plus(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'.' | b'-' | b'~' => out.push(char::from(byte)),
            b' ' => out.push('+'),
            other => out.push_str(&format!("%{other:02X}")),
        }
    }
    out
}

/// Nova's `parameter_types.non_negative_integer` as a query value: an
/// integer carried as text, so the validator (which sees a string) checks
/// its digits, at least one, and the documents say integer.
pub(crate) fn non_negative_integer() -> Value {
    json!({"type": ["integer", "string"], "pattern": "^[0-9]*$", "minLength": 1, "minimum": 0})
}

/// A link list's schema: `[{"rel": ..., "href": ...}]`.
pub(crate) fn links_schema() -> Value {
    json!({"type": "array", "items": {"type": "object", "required": ["rel", "href"],
           "properties": {"rel": {"type": "string"}, "href": {"type": "string"}}}})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> JsonQuery {
        let mut object = serde_json::Map::new();
        for (key, value) in pairs {
            let values = object.entry(*key).or_insert_with(|| json!([]));
            values.as_array_mut().expect("an array").push(json!(value));
        }
        JsonQuery(Value::Object(object))
    }

    fn href(link: Option<Value>) -> Option<String> {
        link.map(|l| l[0]["href"].as_str().expect("an href").to_owned())
    }

    /// `_get_next_link`: `OrderedDict(sorted(request.params.items()))`,
    /// then `params["marker"] = identifier`, then `urlencode`.
    #[test]
    fn the_next_link_is_written_as_novas_get_next_link_writes_it() {
        let origin = Origin::new("http://cloud:8774");
        let link =
            |pairs: &[(&str, &str)]| href(next_link(&origin, "flavors", &query(pairs), 2, Some("b 2"), 2));
        // No marker asked: appended after the sorted pairs.
        assert_eq!(
            link(&[("sort_key", "name"), ("limit", "2")]).as_deref(),
            Some("http://cloud:8774/v2.1/flavors?limit=2&sort_key=name&marker=b+2")
        );
        // A marker asked: replaced where it sorts.
        assert_eq!(
            link(&[("sort_key", "name"), ("marker", "a"), ("limit", "2")]).as_deref(),
            Some("http://cloud:8774/v2.1/flavors?limit=2&marker=b+2&sort_key=name")
        );
        // A repeated key: its first place, its greatest value.
        assert_eq!(
            link(&[("minRam", "9"), ("minRam", "10"), ("a*~", "é")]).as_deref(),
            Some("http://cloud:8774/v2.1/flavors?a%2A~=%C3%A9&minRam=9&marker=b+2")
        );
    }

    /// `_get_collection_links`: only a full, non-empty page has a link.
    #[test]
    fn only_a_full_page_links_to_the_next() {
        let origin = Origin::new("http://cloud");
        let any = query(&[]);
        assert!(next_link(&origin, "flavors", &any, 2, Some("x"), 1).is_none());
        assert!(next_link(&origin, "flavors", &any, 0, None, 0).is_none());
        assert!(next_link(&origin, "flavors", &any, 2, Some("x"), 2).is_some());
        assert_eq!(page_size(&query(&[])), MAX_LIMIT);
        assert_eq!(page_size(&query(&[("limit", "5"), ("limit", "7")])), 7);
        assert_eq!(page_size(&query(&[("limit", "1001")])), MAX_LIMIT);
        assert_eq!(page_size(&query(&[("limit", "99999999999999999999999")])), MAX_LIMIT);
        assert_eq!(page_size(&query(&[("limit", "0")])), 0);
    }
}
