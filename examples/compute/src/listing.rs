//! What the flavor and keypair lists share: paging after a marker.

use crate::web::ApiError;

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
