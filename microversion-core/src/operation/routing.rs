//! The routes of a controller as every facade registers them: its routed
//! operations grouped by path, in the order a framework that tries paths in
//! registration order (actix) must see them (docs/reference.md §4.1).
//!
//! `#[controller]` expands to the same table for every framework (its
//! [`Operation`]s and one function that runs the routed operation at an
//! index); each facade registers that table in code of its own, reading it
//! through [`RoutedPath::of`].

use crate::operation::Operation;

/// One path of a controller and the operations routed at it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoutedPath {
    /// The path, the controller's scope included (`/flavors/{id}`).
    pub path: &'static str,
    /// Each operation at the path: its HTTP method (`"GET"`) and its index
    /// among the controller's routed operations, the index the generated
    /// route function runs.
    pub routes: Vec<(&'static str, usize)>,
}

impl RoutedPath {
    /// The routed paths of `operations`, grouped by path. A path with a
    /// literal segment comes ahead of one with a parameter at the same
    /// position where both can match a request (`/volumes/summary` before
    /// `/volumes/{id}`), whatever the order of declaration; paths that
    /// cannot match the same request keep their declaration order.
    ///
    /// ```
    /// use microversion_core::{operation::Operation, operation::RoutedPath};
    ///
    /// const fn route(name: &'static str, method: &'static str, path: &'static str) -> Operation {
    ///     Operation { name, http_method: Some(method), path: Some(path), variants: &[], missing_status: 404 }
    /// }
    /// const OPERATIONS: [Operation; 3] = [
    ///     route("show", "GET", "/volumes/{id}"),
    ///     route("summary", "GET", "/volumes/summary"),
    ///     route("delete", "DELETE", "/volumes/{id}"),
    /// ];
    /// let paths = RoutedPath::of(&OPERATIONS);
    /// assert_eq!(paths[0], RoutedPath { path: "/volumes/summary", routes: vec![("GET", 1)] });
    /// assert_eq!(paths[1], RoutedPath { path: "/volumes/{id}", routes: vec![("GET", 0), ("DELETE", 2)] });
    /// ```
    pub fn of(operations: &'static [Operation]) -> Vec<RoutedPath> {
        let routed = operations.iter().filter_map(|op| Some((op.http_method?, op.path?)));
        let mut grouped: Vec<RoutedPath> = Vec::new();
        for (index, (method, path)) in routed.enumerate() {
            match grouped.iter_mut().find(|p| p.path == path) {
                Some(group) => group.routes.push((method, index)),
                None => grouped.push(RoutedPath { path, routes: vec![(method, index)] }),
            }
        }
        let mut ordered: Vec<RoutedPath> = Vec::with_capacity(grouped.len());
        for group in grouped {
            let at = ordered.iter().position(|p| goes_before(group.path, p.path)).unwrap_or(ordered.len());
            ordered.insert(at, group);
        }
        ordered
    }
}

/// Whether `a` must be registered ahead of `b`: both can match the same
/// request, and at the first position where one has a literal and the other
/// a parameter, `a` has the literal. Paths with as many segments can; paths
/// of different lengths can only when one has a parameter that may span
/// segments (`{tail}*`, `{*tail}`, or one with a pattern such as `{path:.*}`).
fn goes_before(a: &str, b: &str) -> bool {
    let (kinds_a, kinds_b) = (segment_kinds(a), segment_kinds(b));
    let comparable = kinds_a.len() == kinds_b.len() || spans_segments(a) || spans_segments(b);
    comparable && kinds_a < kinds_b
}

/// Whether a parameter of `path` may match more than one segment: a tail
/// or a parameter with a pattern (any pattern is taken to, since regular
/// expressions are not read here).
fn spans_segments(path: &str) -> bool {
    path.split('/').any(|s| s.starts_with('{') && (s.contains(':') || s.contains('*')))
}

/// For each segment of `path`, whether it is a parameter (`{id}`): literals sort first.
fn segment_kinds(path: &str) -> Vec<bool> {
    path.split('/').filter(|s| !s.is_empty()).map(|s| s.starts_with('{')).collect()
}

/// How a route path is written, read at compile time: each facade's
/// `check_route_path` refuses, at the path, what its router cannot route.
///
/// ```
/// use microversion_core::operation::PathSyntax;
///
/// const SHOW: PathSyntax = PathSyntax::of("/volumes/{id:\\d+}");
/// assert_eq!(SHOW, PathSyntax { rooted: true, patterns: true, tails: false });
/// assert!(PathSyntax::of("/files/{tail}*").tails);
/// assert!(!PathSyntax::of("servers").rooted);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathSyntax {
    /// It starts with `/`.
    pub rooted: bool,
    /// A parameter has a pattern (`{id:\d+}`, `{path:.*}`).
    pub patterns: bool,
    /// A parameter is followed by `*`, actix's tail (`{tail}*`).
    pub tails: bool,
}

impl PathSyntax {
    /// How `path` is written.
    pub const fn of(path: &str) -> PathSyntax {
        let bytes = path.as_bytes();
        let rooted = !bytes.is_empty() && bytes[0] == b'/';
        let mut syntax = PathSyntax { rooted, patterns: false, tails: false };
        let (mut i, mut in_parameter) = (0, false);
        while i < bytes.len() {
            match bytes[i] {
                b'{' => in_parameter = true,
                b'}' => {
                    in_parameter = false;
                    syntax.tails |= i + 1 < bytes.len() && bytes[i + 1] == b'*';
                }
                b':' if in_parameter => syntax.patterns = true,
                _ => {}
            }
            i += 1;
        }
        syntax
    }
}

#[cfg(test)]
mod tests {
    use super::{PathSyntax, goes_before};

    #[test]
    fn a_path_says_how_it_is_written() {
        let plain = PathSyntax { rooted: true, patterns: false, tails: false };
        for path in ["/", "/servers/{id}", "/files/{*rest}", "/a/{x}/b/{y}", "/a:b/{x}"] {
            assert_eq!(PathSyntax::of(path), plain, "{path}");
        }
        assert!(!PathSyntax::of("").rooted);
        assert!(!PathSyntax::of("servers").rooted);
        assert!(PathSyntax::of("/volumes/{id:\\d+}").patterns);
        assert!(PathSyntax::of("/files/{path:.*}").patterns);
        assert!(PathSyntax::of("/files/{tail}*").tails);
        assert!(!PathSyntax::of("/files/{tail}/*").tails);
    }

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
        assert!(goes_before("/files/readme", "/files/{*tail}"));
    }
}
