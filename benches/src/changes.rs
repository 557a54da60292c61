//! One answer served two ways across ten versions (docs/performance.md,
//! section 11): by a head handler and ten version changes (`Walked`), and
//! by eleven same-named variants, one per version (`Variants`). At each
//! version `1.k` the item's field is named `n<k>` in the request and the
//! answer; both controllers answer every version byte for byte alike
//! (`benches/tests/changes.rs`). A request at 1.0 walks the ten upgrades
//! and the ten downgrades; one at 1.10 is the head's.

use microversion_axum::portable::{ApiError, Json};
use microversion_axum::{Api, Downgrade, Upgrade, controller, history, version_change};
use serde::{Deserialize, Serialize};

/// 1.0 to 1.10: the item's field renamed at each version.
pub const CHANGES_API: Api = Api::new(
    "bench",
    history![
        "1.0" => "Items.", "1.1" => "n1.", "1.2" => "n2.", "1.3" => "n3.", "1.4" => "n4.", "1.5" => "n5.",
        "1.6" => "n6.", "1.7" => "n7.", "1.8" => "n8.", "1.9" => "n9.", "1.10" => "n10.",
    ],
);

/// The request and the answer of version `1.k`, and the change to it from
/// the version before (`$change`, renaming the field to `n<k>`).
macro_rules! versions {
    ($($body:ident, $view:ident, $name:literal;)*) => {$(
        /// A request's body at one version.
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $body {
            /// The value, under this version's name.
            #[serde(rename = $name)]
            pub value: String,
            /// A count.
            pub count: u32,
        }

        /// An answer at one version.
        #[derive(Debug, Serialize)]
        pub struct $view {
            /// The item's id.
            pub id: u32,
            /// The value, under this version's name.
            #[serde(rename = $name)]
            pub value: String,
            /// The count, one more.
            pub count: u32,
        }

        impl $view {
            /// What every version answers to a request, in its own words.
            pub fn of(body: $body) -> $view {
                $view { id: 7, value: body.value, count: body.count + 1 }
            }
        }
    )*};
}

versions! {
    Body0, View0, "n0"; Body1, View1, "n1"; Body2, View2, "n2"; Body3, View3, "n3"; Body4, View4, "n4";
    Body5, View5, "n5"; Body6, View6, "n6"; Body7, View7, "n7"; Body8, View8, "n8"; Body9, View9, "n9";
    Body10, View10, "n10";
}

/// Change `$change` at `$version`: from `$before` and `$old` to `$after` and `$new`.
macro_rules! changes {
    ($($change:ident $version:literal: $before:ident -> $after:ident, $old:ident <- $new:ident;)*) => {$(
        /// The field renamed.
        #[version_change(api = CHANGES_API, $version)]
        pub struct $change;

        impl Upgrade<Json<$after>> for $change {
            type Before = Json<$before>;
            fn upgrade(Json(before): Json<$before>) -> Result<Json<$after>, ApiError> {
                Ok(Json($after { value: before.value, count: before.count }))
            }
        }

        impl Downgrade<Json<$new>> for $change {
            type Before = Json<$old>;
            fn downgrade(Json(after): Json<$new>) -> Json<$old> {
                Json($old { id: after.id, value: after.value, count: after.count })
            }
        }
    )*};
}

changes! {
    C1 "1.1": Body0 -> Body1, View0 <- View1;
    C2 "1.2": Body1 -> Body2, View1 <- View2;
    C3 "1.3": Body2 -> Body3, View2 <- View3;
    C4 "1.4": Body3 -> Body4, View3 <- View4;
    C5 "1.5": Body4 -> Body5, View4 <- View5;
    C6 "1.6": Body5 -> Body6, View5 <- View6;
    C7 "1.7": Body6 -> Body7, View6 <- View7;
    C8 "1.8": Body7 -> Body8, View7 <- View8;
    C9 "1.9": Body8 -> Body9, View8 <- View9;
    C10 "1.10": Body9 -> Body10, View9 <- View10;
}

/// The head's handler and ten version changes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Walked;

#[controller(api = CHANGES_API, axum)]
impl Walked {
    /// Creates an item.
    #[post("/items")]
    #[api_version("1.0")]
    #[change(C1, body, answer)]
    #[change(C2, body, answer)]
    #[change(C3, body, answer)]
    #[change(C4, body, answer)]
    #[change(C5, body, answer)]
    #[change(C6, body, answer)]
    #[change(C7, body, answer)]
    #[change(C8, body, answer)]
    #[change(C9, body, answer)]
    #[change(C10, body, answer)]
    async fn create(&self, body: Json<Body10>) -> Json<View10> {
        Json(View10::of(body.0))
    }
}

/// Eleven same-named variants, one per version.
#[derive(Clone, Copy, Debug, Default)]
pub struct Variants;

#[controller(api = CHANGES_API, axum)]
impl Variants {
    /// Creates an item, 1.0.
    #[post("/items")]
    #[api_version("1.0", "1.0")]
    async fn create(&self, body: Json<Body0>) -> Json<View0> {
        Json(View0::of(body.0))
    }

    /// 1.1.
    #[post("/items")]
    #[api_version("1.1", "1.1")]
    async fn create(&self, body: Json<Body1>) -> Json<View1> {
        Json(View1::of(body.0))
    }

    /// 1.2.
    #[post("/items")]
    #[api_version("1.2", "1.2")]
    async fn create(&self, body: Json<Body2>) -> Json<View2> {
        Json(View2::of(body.0))
    }

    /// 1.3.
    #[post("/items")]
    #[api_version("1.3", "1.3")]
    async fn create(&self, body: Json<Body3>) -> Json<View3> {
        Json(View3::of(body.0))
    }

    /// 1.4.
    #[post("/items")]
    #[api_version("1.4", "1.4")]
    async fn create(&self, body: Json<Body4>) -> Json<View4> {
        Json(View4::of(body.0))
    }

    /// 1.5.
    #[post("/items")]
    #[api_version("1.5", "1.5")]
    async fn create(&self, body: Json<Body5>) -> Json<View5> {
        Json(View5::of(body.0))
    }

    /// 1.6.
    #[post("/items")]
    #[api_version("1.6", "1.6")]
    async fn create(&self, body: Json<Body6>) -> Json<View6> {
        Json(View6::of(body.0))
    }

    /// 1.7.
    #[post("/items")]
    #[api_version("1.7", "1.7")]
    async fn create(&self, body: Json<Body7>) -> Json<View7> {
        Json(View7::of(body.0))
    }

    /// 1.8.
    #[post("/items")]
    #[api_version("1.8", "1.8")]
    async fn create(&self, body: Json<Body8>) -> Json<View8> {
        Json(View8::of(body.0))
    }

    /// 1.9.
    #[post("/items")]
    #[api_version("1.9", "1.9")]
    async fn create(&self, body: Json<Body9>) -> Json<View9> {
        Json(View9::of(body.0))
    }

    /// 1.10.
    #[post("/items")]
    #[api_version("1.10")]
    async fn create(&self, body: Json<Body10>) -> Json<View10> {
        Json(View10::of(body.0))
    }
}

/// A router serving `controller` behind the negotiation.
pub fn router<C>(controller: C) -> axum::Router
where
    axum::Router: From<C>,
{
    axum::Router::from(controller).layer(microversion_axum::VersionNegotiation::new(CHANGES_API))
}

/// The request at `1.k`: its body names the field `n<k>`.
pub fn request(minor: u16) -> axum::http::Request<axum::body::Body> {
    let body = format!(r#"{{"n{minor}":"widget","count":41}}"#);
    axum::http::Request::post("/items")
        .header("OpenStack-API-Version", format!("bench 1.{minor}"))
        .header("Content-Type", "application/json")
        .body(axum::body::Body::from(body))
        .expect("a request")
}

/// The status and body `router` answers to the request at `1.minor`.
pub async fn answer(router: &axum::Router, minor: u16) -> (u16, Vec<u8>) {
    use tower::ServiceExt as _;
    let response = router.clone().oneshot(request(minor)).await.unwrap_or_else(|never| match never {});
    let status = response.status().as_u16();
    let body = axum::body::to_bytes(response.into_body(), usize::MAX).await.expect("a body");
    (status, body.to_vec())
}
