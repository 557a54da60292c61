//! Nova's request id. Every answer under `/v2.1` names one, as Nova's
//! `compute_req_id` middleware does, in `x-openstack-request-id` and its
//! older `x-compute-request-id` (python-novaclient keeps it in each
//! resource's `request_ids`, for an operator to find the request in the
//! logs). A store failure logs its error under the id its answer carries;
//! any other answer gets a new one.

/// The headers that carry the id, Nova's current name first.
pub(crate) const HEADERS: [&str; 2] = ["x-openstack-request-id", "x-compute-request-id"];

/// A new id in Nova's form, `req-` and a random UUID.
pub(crate) fn new() -> String {
    format!("req-{}", uuid::Uuid::new_v4())
}

/// The id an answer names: the one its error carries, else a new one.
pub(crate) fn carried_or_new(carried: Option<&str>) -> String {
    carried.map_or_else(new, str::to_owned)
}
