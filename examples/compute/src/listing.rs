//! What the flavor and keypair lists share: reading a query validated the
//! Nova way (`{"key": ["v1", "v2"]}`) and paging after a marker.

use microversion_actix::ApiError;
use serde_json::Value;

/// The last value of `key` in a validated query, as Nova's `req.GET.get` gives it.
pub(crate) fn last<'q>(query: &'q Value, key: &str) -> Option<&'q str> {
    query.get(key)?.as_array()?.last()?.as_str()
}

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
