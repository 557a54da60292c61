//! The order routes are registered in: one actix resource per path, a
//! literal segment ahead of a parameter where both can match a request.

use super::ast::{Controller, Operation, Route};

/// Routes grouped by path: actix matches one resource per path, so every
/// method of a path must live in the same resource. Actix tries resources in
/// registration order, so a path with a literal segment is registered ahead
/// of one with a parameter at the same position (`/volumes/summary` before
/// `/volumes/{id}`), whatever the order of declaration. Paths that cannot
/// match the same request keep their declaration order: a request is not
/// tried against more resources than the declaration asks for.
pub(super) fn routes_by_path(c: &Controller) -> Vec<(String, Vec<(&Route, &Operation)>)> {
    let mut grouped: Vec<(String, Vec<(&Route, &Operation)>)> = Vec::new();
    for op in &c.operations {
        let Some(route) = op.variants[0].route.as_ref() else { continue };
        match grouped.iter_mut().find(|(path, _)| *path == route.path.value()) {
            Some((_, ops)) => ops.push((route, op)),
            None => grouped.push((route.path.value(), vec![(route, op)])),
        }
    }
    let mut ordered: Vec<(String, Vec<(&Route, &Operation)>)> = Vec::with_capacity(grouped.len());
    for group in grouped {
        let at = ordered.iter().position(|(path, _)| goes_before(&group.0, path)).unwrap_or(ordered.len());
        ordered.insert(at, group);
    }
    ordered
}

/// Whether `a` must be registered ahead of `b`: both can match the same
/// request, and at the first position where one has a literal and the other
/// a parameter, `a` has the literal. Paths with as many segments can; paths
/// of different lengths can only when one has a parameter that may span
/// segments (`{tail}*`, or one with a pattern such as `{path:.*}`).
fn goes_before(a: &str, b: &str) -> bool {
    let (kinds_a, kinds_b) = (segment_kinds(a), segment_kinds(b));
    let comparable = kinds_a.len() == kinds_b.len() || spans_segments(a) || spans_segments(b);
    comparable && kinds_a < kinds_b
}

/// Whether a parameter of `path` may match more than one segment: a tail
/// (`{tail}*`) or a parameter with a pattern (`{path:.*}`; any pattern is
/// taken to, since the macro does not read regular expressions).
fn spans_segments(path: &str) -> bool {
    path.split('/').any(|s| s.starts_with('{') && (s.contains(':') || s.ends_with('*')))
}

/// For each segment of `path`, whether it is a parameter (`{id}`): literals sort first.
fn segment_kinds(path: &str) -> Vec<bool> {
    path.split('/').filter(|s| !s.is_empty()).map(|s| s.starts_with('{')).collect()
}

#[cfg(test)]
mod tests {
    use super::goes_before;

    #[test]
    fn a_literal_goes_before_a_parameter_only_where_both_can_match() {
        assert!(goes_before("/volumes/summary", "/volumes/{id}"));
        assert!(!goes_before("/volumes/{id}", "/volumes/summary"));
        // A literal at the first position where they differ decides.
        assert!(goes_before("/a/b/{y}", "/a/{x}/c"));
        assert!(!goes_before("/a/{x}/c", "/a/b/{y}"));
        // Paths of different lengths never match the same request: declaration order stays.
        assert!(!goes_before("/servers", "/servers/{id}"));
        assert!(!goes_before("/servers/detail", "/servers/{id}/model"));
        assert!(!goes_before("/servers/{id}/model", "/servers"));
        // Equal shapes: no reason to move.
        assert!(!goes_before("/servers/{id}", "/flavors/{id}"));
        // A parameter that may span segments shares requests with longer paths.
        assert!(goes_before("/files/readme/raw", "/files/{path:.*}"));
        assert!(!goes_before("/files/{path:.*}", "/files/readme/raw"));
        assert!(goes_before("/files/readme/raw", "/files/{tail}*"));
        assert!(!goes_before("/files/{tail}*", "/files/readme"));
        assert!(goes_before("/files/readme", "/files/{tail}*"));
    }
}
