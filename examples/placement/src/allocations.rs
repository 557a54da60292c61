//! Allocations and consumers.

use std::sync::Arc;

use crate::store::Store;

/// The allocation resources.
pub(crate) struct Allocations {
    store: Arc<Store>,
}

impl Allocations {
    pub(crate) fn new(store: Arc<Store>) -> Allocations {
        Allocations { store }
    }
}

#[microversion_actix::controller(api = crate::api::PLACEMENT)]
impl Allocations {
    #[get("/allocations/{consumer}")]
    async fn show(&self, consumer: actix_web::web::Path<String>) -> actix_web::HttpResponse {
        let _ = &self.store;
        actix_web::HttpResponse::Ok().json(serde_json::json!({"allocations": {}, "consumer": *consumer}))
    }
}
