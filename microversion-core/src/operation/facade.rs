//! The middleware types every facade declares over its own `http` types,
//! written once: their settings and builders, which the facade's
//! framework registers (actix's `Transform` and `HttpServiceFactory`,
//! axum's `Layer` and `Router`), and the orphan rule lets only the facade
//! make a type of its framework's:
//!
//! - [`facade_discovery!`](crate::facade_discovery): `Discovery`'s settings
//!   and documents;
//! - [`facade_face!`](crate::facade_face): the names at a facade's root and
//!   its `schema` and `client` modules, the same on every facade.
//!
//! The value types a handler names (`ApiError`, `ApiVersion`, `Json`,
//! `Path`, `Query`, `Versioned`, `LinkRoot`) and the `ErrorRenderer` are the
//! core's own types, which every facade re-exports.

/// Declares `pub struct Discovery` in the calling facade, with the
/// attributes and docs given before it, and the core's documents under
/// their names: the version discovery endpoints'
/// settings, their builders, and the documents and refusals they answer
/// (docs/reference.md §7). `hook` is the facade's `ClientDefault`, whose
/// `choose(&headers)` is awaited for a client's version; `status` its
/// `http::StatusCode`, `response` its answer and `wire` its
/// [`HeaderWire`](crate::header::HeaderWire). The facade registers the routes and
/// writes the documents' answers. Not for services: a facade's `discovery`
/// module calls it.
#[macro_export]
#[doc(hidden)]
macro_rules! facade_discovery {
    (
        $(#[$meta:meta])* pub struct Discovery;
        hook = $hook:ty; headers = $headers:ty; status = $status:ty; response = $response:ty; wire = $wire:ty;
    ) => {
        pub use $crate::{discovery::Link, discovery::MediaType, client::ServerVersion, discovery::SingleVersion, discovery::VersionDocument, discovery::VersionList};

        /// The version discovery endpoints of a service, generated from its
        /// API declarations (cap and statuses included), the same on every
        /// facade (docs/reference.md §7):
        ///
        /// - `GET /`: the version list ([`VersionList`]($crate::discovery::VersionList)) of every API;
        /// - `GET /v2.1` and `GET /v2.1/`: the document of one API
        ///   ([`SingleVersion`]($crate::discovery::SingleVersion); python-novaclient reads it
        ///   from its endpoint URL, without the slash), at the API's
        ///   [`Api::with_path`]($crate::Api::with_path) (`/` + its id unless set:
        ///   Cinder's `v3.0` is served at `/v3`);
        /// - `GET /v3` and other version-like ids no API declares: 404 with a
        ///   JSON body in the error format;
        /// - any other method on these paths: 405 with `Allow: GET` and a JSON body.
        ///
        /// Version headers are ignored. `self` links are built from the
        /// [`PublicUrl`]($crate::discovery::PublicUrl) given to [`Discovery::with_public_url`],
        /// else the one configured for the request (by default the request's own
        /// `Host` and the connection's scheme, forwarded headers ignored), the
        /// [`Discovery::with_prefix`] of a proxy that strips a path (when the
        /// links come from the request), the path the endpoints are mounted at,
        /// and the API's path; the documents carry `Vary` naming the headers
        /// read, so that a shared cache keeps one copy per host a client names.
        /// Keep it out of [`VersionNegotiation`](crate::VersionNegotiation),
        /// which would negotiate its requests.
        ///
        $(#[$meta])*
        #[derive(Clone)]
        pub struct Discovery {
            /// The APIs, each with the cap handle it follows and its client default.
            listed: $crate::discovery::ListedApis<$hook>,
            public_url: ::core::option::Option<$crate::discovery::PublicUrl>,
            prefix: ::std::string::String,
            format: ::std::sync::Arc<dyn $crate::ErrorFormat>,
        }

        impl ::core::fmt::Debug for Discovery {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("Discovery")
                    .field("apis", &self.listed.declared())
                    .field("public_url", &self.public_url)
                    .field("prefix", &self.prefix)
                    .finish_non_exhaustive()
            }
        }

        impl Discovery {
            /// The endpoints for `apis`, listed in this order in `GET /`.
            pub fn new(apis: &[$crate::Api]) -> Discovery {
                Discovery {
                    listed: $crate::discovery::ListedApis::new(apis),
                    public_url: ::core::option::Option::None,
                    prefix: ::std::string::String::new(),
                    format: ::std::sync::Arc::new($crate::error::ApiSigErrors),
                }
            }

            /// A path prefix added to `self` links, for a proxy that serves the
            /// service under `/compute` and strips it before forwarding. A fixed
            /// [`PublicUrl`]($crate::discovery::PublicUrl) carries its own prefix: this one is then not added.
            pub fn with_prefix(mut self, prefix: impl ::core::convert::Into<::std::string::String>) -> Discovery {
                self.prefix = $crate::discovery::path_prefix(&prefix.into());
                self
            }

            /// Builds `self` links as `public_url` says, whatever the request
            /// carries: a fixed URL ([`PublicUrl::fixed`]($crate::discovery::PublicUrl::fixed)),
            /// or the request read through trusted proxies.
            pub fn with_public_url(mut self, public_url: $crate::discovery::PublicUrl) -> Discovery {
                self.public_url = ::core::option::Option::Some(public_url);
                self
            }

            /// Shows the served maximum of `cap`'s API as it is when each document
            /// is asked for (docs/reference.md §13.4): share the handle given to
            /// [`Negotiation::with_version_cap`]($crate::exchange::Negotiation::with_version_cap).
            /// The API is the one with the same path (and service type) among those
            /// given to [`Discovery::new`]; its declaration becomes the handle's, so
            /// a retirement shows too. A handle of an API not listed is added at the end.
            pub fn with_version_cap(mut self, cap: $crate::VersionCap) -> Discovery {
                self.listed.follow_cap(cap);
                self
            }

            /// Shows each client the version its requests to `api` get when they
            /// name none (`client_version` in the API's documents), as
            /// `client_default` chooses it for the negotiation
            /// ([`Negotiation::with_client_default`]($crate::exchange::Negotiation::with_client_default));
            /// the documents then name the headers it reads in `Vary`, and a
            /// hook that fails answers its error. `api` is matched as in
            /// [`Discovery::with_version_cap`]; one not listed is added at the end.
            pub fn with_client_default(mut self, api: &$crate::Api, client_default: $hook) -> Discovery {
                self.listed.attach(api, client_default);
                self
            }

            /// Renders the refusals (an unknown version id, a method but GET)
            /// with `format` (API-SIG errors by default).
            pub fn with_error_format(mut self, format: impl $crate::ErrorFormat) -> Discovery {
                self.format = ::std::sync::Arc::new(format);
                self
            }

            /// The `client_version` for a request with `headers` of each API
            /// of `indexes` (as served now), and the headers the hooks read.
            async fn client_versions(
                &self,
                headers: &$headers,
                indexes: &[usize],
            ) -> ::core::result::Result<(::std::vec::Vec<::core::option::Option<$crate::Version>>, ::std::vec::Vec<&str>), ApiError> {
                let mut versions = ::std::vec::Vec::with_capacity(indexes.len());
                let mut vary = ::std::vec::Vec::new();
                for &index in indexes {
                    let ::core::option::Option::Some(client_default) = self.listed.hook(index) else {
                        versions.push(::core::option::Option::None);
                        continue;
                    };
                    vary.push(client_default.vary());
                    let chosen = client_default.choose(headers).await?;
                    versions.push(chosen.and_then(|pinned| self.listed.current(index).client_version(pinned)));
                }
                ::core::result::Result::Ok((versions, vary))
            }

            /// `GET /` for a request with `headers`, its links under `root`:
            /// the document and the headers it was built from, for `Vary`.
            async fn list_document(
                &self,
                headers: &$headers,
                root: &str,
            ) -> ::core::result::Result<($crate::discovery::VersionList, ::std::vec::Vec<&str>), ApiError> {
                let indexes: ::std::vec::Vec<usize> = (0..self.listed.declared().len()).collect();
                let (chosen, vary) = self.client_versions(headers, &indexes).await?;
                let apis: ::std::vec::Vec<$crate::Api> = indexes.iter().map(|&i| self.listed.current(i)).collect();
                let mut list = $crate::discovery::VersionList::new(&apis, root);
                for (document, version) in list.versions.iter_mut().zip(chosen) {
                    document.client_version = version;
                }
                ::core::result::Result::Ok((list, vary))
            }

            /// `GET /v2.1/` of the API at `index`, as [`Discovery::list_document`].
            async fn single_document(
                &self,
                index: usize,
                headers: &$headers,
                root: &str,
            ) -> ::core::result::Result<($crate::discovery::SingleVersion, ::std::vec::Vec<&str>), ApiError> {
                let (chosen, vary) = self.client_versions(headers, &[index]).await?;
                let mut single = self.listed.current(index).single_version_document(root);
                single.version.client_version = chosen.into_iter().next().flatten();
                ::core::result::Result::Ok((single, vary))
            }

            /// A document as the answer, with `Vary` naming the headers
            /// it was built from (`url_vary` those of its links), or the
            /// error of a client default's hook.
            fn answer<T: ::serde::Serialize>(
                &self,
                built: ::core::result::Result<(T, ::std::vec::Vec<&str>), ApiError>,
                url_vary: ::core::option::Option<&str>,
            ) -> $response {
                let (body, mut vary) = match built {
                    ::core::result::Result::Ok(built) => built,
                    ::core::result::Result::Err(error) => return self.render(&error),
                };
                vary.extend(url_vary);
                let vary = vary.join(", ");
                let text = ::serde_json::to_vec(&body).unwrap_or_else(|_| b"{}".to_vec());
                let headers = [("content-type", "application/json"), ("vary", vary.as_str())];
                let headers = headers.into_iter().filter(|(_, value)| !value.is_empty());
                $crate::header::plain_answer::<$wire>(200, headers, ::core::option::Option::Some(text))
            }

            /// The 404 of a version id no API declares.
            fn unknown(&self, id: &str) -> ApiError {
                let known: ::std::vec::Vec<::std::string::String> =
                    self.listed.declared().iter().map(|a| a.id().into_owned()).collect();
                ApiError::not_found(::std::format!(
                    "API version {id} does not exist; this service offers {}.",
                    known.join(", ")
                ))
            }

            /// The 405 of any method but GET.
            fn not_allowed() -> ApiError {
                ApiError::from_status(
                    <$status>::METHOD_NOT_ALLOWED,
                    "Version discovery documents are read with GET only.",
                )
            }

            /// `error` in the configured format, its code naming the first
            /// API's service.
            fn render(&self, error: &ApiError) -> $response {
                let renderer = ErrorRenderer::shared(::std::sync::Arc::clone(&self.format));
                match self.listed.declared().first() {
                    ::core::option::Option::Some(api) => renderer.with_service(api.service_type()).render(error),
                    ::core::option::Option::None => renderer.render(error),
                }
            }

            /// The answer to any method but GET (the frameworks' own 405
            /// has an empty body).
            fn refuse_method(&self) -> $response {
                let mut res = self.render(&Discovery::not_allowed());
                $crate::header::set_header::<$wire>(res.headers_mut(), "allow", "GET");
                res
            }
        }
    };
}

/// Declares, at the calling facade's root, the names every facade exports
/// there and the modules that are the core's alone (`schema`, `client`):
/// one face, written once, so that moving a service from one facade to
/// another changes the crate its imports name and nothing else
/// (docs/19-axum.md, "From actix to axum"). The facade declares the
/// modules the names come from (`__private`, `api_version`, `body`,
/// `discovery`, `error`, `middleware`, `model`). Not for services: a
/// facade's `lib.rs` calls it.
#[macro_export]
#[doc(hidden)]
macro_rules! facade_face {
    () => {
        pub use discovery::Discovery;
        pub use error::{ApiError, Error};
        pub use middleware::{Negotiation, VersionNegotiation};
        pub use model::VersionedModel;
        pub use native::Native;
        /// Version changes (docs/reference.md §4.10): an operation written
        /// once, at the head of its history, the versions before each change
        /// served by its typed upgrade and downgrade. The core's, the same on
        /// every facade.
        pub use $crate::change;
        pub use $crate::change::{Downgrade, Upgrade, VersionChange};
        /// The arguments and answers of a controller that every facade
        /// serves (docs/reference.md §4.8).
        pub use $crate::portable;
        /// The arguments and answers of a controller, the core's, the same
        /// on every facade (docs/reference.md §4.8).
        pub use $crate::portable::{ApiVersion, Json, JsonQuery, Versioned};
        pub use $crate::{Api, Microversion, Version};

        /// Versioned JSON-Schema validation of request bodies and query
        /// strings (docs/reference.md §6): schemas keyed by non-overlapping
        /// version ranges, compiled once with `jsonschema`. The core's, the
        /// same on every facade; an [`InvalidInput`] becomes the 400
        /// [`ApiError::invalid_input`](crate::ApiError::invalid_input).
        pub mod schema {
            pub use $crate::schema::{
                InvalidInput, MAX_LISTED_VIOLATIONS, Schema, SchemaError, SchemaSource, VersionedSchemas,
                json_schema_of, query_to_json,
            };
        }

        /// The client's side (docs/10-client-negotiation.md): read a
        /// service's version discovery and choose the version to ask for,
        /// as keystoneauth1 does. The core's, the same on every facade.
        pub mod client {
            pub use $crate::{
                client::ClientNegotiationError, client::ClientRequest, client::DiscoveryParseError,
                client::choose_version, client::parse_discovery,
            };
        }
    };
}
