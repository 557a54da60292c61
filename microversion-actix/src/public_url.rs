//! Where the scheme and host of the links a service writes come from
//! (docs/reference.md §7.1): the core's [`PublicUrl`] over an actix request.

use actix_web::HttpRequest;
use actix_web::http::header;
use microversion_core::discovery::RequestOrigin;

pub use microversion_core::discovery::{InvalidPublicUrl, PublicUrl, RequestLinks};

use crate::route::Actix;

/// What a request without a configured [`PublicUrl`] is read by.
static FROM_REQUEST: PublicUrl = PublicUrl::from_request();

/// Where the links of an actix request's answer point, by the [`PublicUrl`]
/// configured once as app data (`PublicUrl` or `web::Data<PublicUrl>`),
/// else [`PublicUrl::from_request`]: what [`Discovery`](crate::Discovery)
/// and a handler that writes links ask.
///
/// ```
/// use actix_web::{test, App, HttpRequest, web};
/// use microversion_actix::discovery::{PublicUrl, RequestLinks};
///
/// async fn show(req: HttpRequest) -> String {
///     format!("{}/v2.1/servers/42", req.link_base())
/// }
///
/// # actix_web::rt::System::new().block_on(async {
/// let public = PublicUrl::fixed("https://cloud.example/compute").unwrap();
/// let app = test::init_service(App::new().app_data(public).route("/", web::get().to(show))).await;
/// let req = test::TestRequest::get().uri("/").insert_header(("X-Forwarded-Host", "evil.example"));
/// let body = test::call_and_read_body(&app, req.to_request()).await;
/// assert_eq!(body, "https://cloud.example/compute/v2.1/servers/42");
/// # });
/// ```
impl RequestLinks<Actix> for HttpRequest {
    fn public_url(&self) -> &PublicUrl {
        crate::app_setting(self).unwrap_or(&FROM_REQUEST)
    }

    fn link_base(&self) -> String {
        link_base_by(self, self.public_url())
    }

    fn link_vary(&self) -> Option<&'static str> {
        self.public_url().vary(self.peer_addr().map(|peer| peer.ip()))
    }
}

/// The service root of `req` as `public` reads it (discovery's own
/// [`PublicUrl`] where it has one, else the request's).
pub(crate) fn link_base_by(req: &HttpRequest, public: &PublicUrl) -> String {
    let first = |name| req.headers().get(name).and_then(|v| v.to_str().ok());
    let secure = match req.uri().scheme_str() {
        Some(scheme) => scheme.eq_ignore_ascii_case("https"),
        None => req.app_config().secure(),
    };
    public.base(&RequestOrigin {
        peer: req.peer_addr().map(|peer| peer.ip()),
        secure,
        host: first(header::HOST).or_else(|| req.uri().authority().map(|a| a.as_str())),
        configured_host: req.app_config().host(),
        forwarded: first(header::FORWARDED),
        forwarded_host: first(header::X_FORWARDED_HOST),
        forwarded_proto: first(header::X_FORWARDED_PROTO),
    })
}
