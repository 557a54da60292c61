//! Nova's request id. Every answer under `/v2.1` names one, as Nova's
//! `compute_req_id` middleware does, in `x-openstack-request-id` and its
//! older `x-compute-request-id` (python-novaclient keeps it in each
//! resource's `request_ids`, for an operator to find the request in the
//! logs): the negotiation names them (`Negotiation::with_request_ids`). A
//! store failure logs its error under an id of its own, which its answer
//! names; any other answer gets a new one.

/// The headers that carry the id, Nova's current name first.
pub(crate) const HEADERS: [&str; 2] = ["x-openstack-request-id", "x-compute-request-id"];

/// A new id in Nova's form, `req-` and a random UUID.
pub(crate) fn new() -> String {
    format!("req-{}", uuid::Uuid::new_v4())
}
