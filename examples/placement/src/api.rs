//! Placement's declaration: its service type and its version history, one
//! line per microversion (from Placement's `rest_api_version_history`).

use microversion_actix::version::VersionSyntax;
use microversion_actix::{Api, Microversion};

/// The placement API, 1.0 to 1.39, with no legacy header. Its versions are
/// read as microversion-parse reads them: `placement 1.05` is 1.5, and
/// `-1.5` a version not served (406), not a malformed one.
pub const PLACEMENT: Api =
    Api::new("placement", &HISTORY).with_id("v1.0").with_version_syntax(VersionSyntax::MicroversionParse);

/// Every microversion with the change it made.
static HISTORY: [Microversion; 40] = [
    Microversion::new("1.0", "Initial version: resource providers, inventories, usages and allocations."),
    Microversion::new("1.1", "Resource provider aggregates."),
    Microversion::new("1.2", "Custom resource classes."),
    Microversion::new("1.3", "The `member_of` query parameter of `GET /resource_providers`."),
    Microversion::new("1.4", "Resource providers filtered by requested capacity (`resources`)."),
    Microversion::new("1.5", "`DELETE` all the inventory of a resource provider."),
    Microversion::new("1.6", "The traits API."),
    Microversion::new("1.7", "`PUT /resource_classes/{name}` creates, without a body, idempotently."),
    Microversion::new("1.8", "`PUT /allocations` requires `project_id` and `user_id`."),
    Microversion::new("1.9", "`GET /usages` for a project and user."),
    Microversion::new("1.10", "Allocation candidates."),
    Microversion::new("1.11", "An `allocations` link in resource provider views."),
    Microversion::new("1.12", "`PUT /allocations/{consumer_uuid}` takes and gives a dict of allocations."),
    Microversion::new("1.13", "`POST /allocations` sets the allocations of several consumers."),
    Microversion::new("1.14", "Nested resource providers: parents and roots."),
    Microversion::new("1.15", "`Last-Modified` and `Cache-Control` headers."),
    Microversion::new("1.16", "A limit on allocation candidates."),
    Microversion::new("1.17", "The `required` traits parameter of allocation candidates."),
    Microversion::new("1.18", "The `required` traits parameter of `GET /resource_providers`."),
    Microversion::new("1.19", "Generations and conflict detection in provider aggregates."),
    Microversion::new("1.20", "`POST /resource_providers` answers 200 with the provider."),
    Microversion::new("1.21", "The `member_of` parameter of allocation candidates."),
    Microversion::new("1.22", "Forbidden traits on resource providers and allocation candidates."),
    Microversion::new("1.23", "A `code` in JSON error responses."),
    Microversion::new("1.24", "Several `member_of` parameters."),
    Microversion::new("1.25", "Granular resource requests of allocation candidates."),
    Microversion::new("1.26", "Inventories may reserve their whole total."),
    Microversion::new("1.27", "Every inventory of a provider in provider summaries."),
    Microversion::new("1.28", "Consumer generations."),
    Microversion::new("1.29", "Allocation candidates with nested resource providers."),
    Microversion::new("1.30", "The `/reshaper` resource."),
    Microversion::new("1.31", "The `in_tree` parameter of allocation candidates."),
    Microversion::new("1.32", "Forbidden aggregates."),
    Microversion::new("1.33", "String request group suffixes."),
    Microversion::new("1.34", "Request group mappings in allocation candidates."),
    Microversion::new("1.35", "The `root_required` parameter of allocation candidates."),
    Microversion::new("1.36", "The `same_subtree` parameter of allocation candidates."),
    Microversion::new("1.37", "Re-parenting and un-parenting with `PUT /resource_providers/{uuid}`."),
    Microversion::new("1.38", "Consumer types in allocations, usages and the reshaper."),
    Microversion::new("1.39", "The any-traits syntax (`in:`) in `required`."),
];
