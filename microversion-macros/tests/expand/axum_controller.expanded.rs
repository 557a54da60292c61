impl Servers {
    #[doc(hidden)]
    #[allow(clippy::unused_async, dead_code)]
    async fn __mv_show_v0(&self, id: Path<String>) -> String {
        id.0
    }
    #[doc(hidden)]
    #[allow(clippy::unused_async, dead_code)]
    async fn __mv_show_v1(&self, id: Path<String>, version: ApiVersion) -> String {
        format!("{} {}", id.0, version.version())
    }
    #[doc(hidden)]
    #[allow(clippy::unused_async, dead_code)]
    async fn __mv_lock_v0(&self, body: Json<Value>) -> Json<Value> {
        body
    }
    #[doc(hidden)]
    #[allow(unused_mut, unused_variables)]
    fn __mv_route_show(
        __controller: ::microversion_axum::__private::Shared<Self>,
        mut __input: ::microversion_axum::__private::OperationInput,
    ) -> impl ::core::future::Future<
        Output = ::microversion_axum::__private::Response,
    > + 'static {
        async move {
            let __version = __input.version;
            if __version < ::microversion_axum::__private::Version::new(2, 3) {
                if __version >= ::microversion_axum::__private::Version::new(2, 1) {
                    let id: Path<String> = ::microversion_axum::__private::tried!(
                        ::microversion_axum::__private::error_response, < Path < String >
                        as ::microversion_axum::__private::RouteArgument < _ >>
                        ::extract(& mut __input). await
                    );
                    let __out = __controller.__mv_show_v0(id).await;
                    <_ as ::microversion_axum::__private::RouteResponse<
                        _,
                    >>::respond(__out, &__input.request)
                } else {
                    ::microversion_axum::__private::missing(
                        ::microversion_axum::__private::MissingVariant::new(
                            __version,
                            404u16,
                            ::core::option::Option::None,
                            <Self as ::microversion_axum::__private::Controller>::OPERATIONS,
                            "show",
                        ),
                    )
                }
            } else {
                let id: Path<String> = ::microversion_axum::__private::tried!(
                    ::microversion_axum::__private::error_response, < Path < String > as
                    ::microversion_axum::__private::RouteArgument < _ >> ::extract(& mut
                    __input). await
                );
                let version: ApiVersion = ::microversion_axum::__private::tried!(
                    ::microversion_axum::__private::error_response, < ApiVersion as
                    ::microversion_axum::__private::RouteArgument < _ >> ::extract(& mut
                    __input). await
                );
                let __out = __controller.__mv_show_v1(id, version).await;
                <_ as ::microversion_axum::__private::RouteResponse<
                    _,
                >>::respond(__out, &__input.request)
            }
        }
    }
    #[doc(hidden)]
    #[allow(unused_mut, unused_variables)]
    fn __mv_route_lock(
        __controller: ::microversion_axum::__private::Shared<Self>,
        mut __input: ::microversion_axum::__private::OperationInput,
    ) -> impl ::core::future::Future<
        Output = ::microversion_axum::__private::Response,
    > + 'static {
        async move {
            let __version = __input.version;
            if __version >= ::microversion_axum::__private::Version::new(2, 4) {
                let body: Json<Value> = ::microversion_axum::__private::tried!(
                    ::microversion_axum::__private::error_response, < Json < Value > as
                    ::microversion_axum::__private::RouteArgument < _ >> ::extract(& mut
                    __input). await
                );
                let __out = __controller.__mv_lock_v0(body).await;
                <_ as ::microversion_axum::__private::RouteResponse<
                    _,
                >>::respond(__out, &__input.request)
            } else {
                ::microversion_axum::__private::missing(
                    ::microversion_axum::__private::MissingVariant::new(
                        __version,
                        405u16,
                        ::core::option::Option::None,
                        <Self as ::microversion_axum::__private::Controller>::OPERATIONS,
                        "lock",
                    ),
                )
            }
        }
    }
    #[doc(hidden)]
    fn __mv_routes(
        __controller: ::microversion_axum::__private::Shared<Self>,
        __route: usize,
        __input: ::microversion_axum::__private::OperationInput,
    ) -> impl ::core::future::Future<
        Output = ::microversion_axum::__private::Response,
    > + 'static {
        match __route {
            0usize => {
                ::microversion_axum::__private::Either::Left(
                    Self::__mv_route_show(__controller, __input),
                )
            }
            _ => {
                ::microversion_axum::__private::Either::Right(
                    Self::__mv_route_lock(__controller, __input),
                )
            }
        }
    }
}
::microversion_axum::__private::register_controller!(
    Servers, routes = < Servers > ::__mv_routes
);
#[automatically_derived]
impl ::microversion_axum::__private::Controller for Servers {
    const OPERATIONS: &'static [::microversion_axum::__private::Operation] = &[
        ::microversion_axum::__private::Operation {
            name: "show",
            http_method: ::core::option::Option::Some("GET"),
            path: ::core::option::Option::Some("/v2.1/servers/{id}"),
            variants: &[
                ::microversion_axum::__private::OperationVariant {
                    range: ::microversion_axum::__private::VersionRange::between(
                        ::microversion_axum::__private::Version::new(2, 1),
                        ::microversion_axum::__private::Version::new(2, 2),
                    ),
                    schemas: &[],
                    query_schemas: &[],
                    response: ::core::option::Option::None,
                    errors: &[],
                    deprecation: ::core::option::Option::None,
                    doc: "",
                },
                ::microversion_axum::__private::OperationVariant {
                    range: ::microversion_axum::__private::VersionRange::from(
                        ::microversion_axum::__private::Version::new(2, 3),
                    ),
                    schemas: &[],
                    query_schemas: &[],
                    response: ::core::option::Option::None,
                    errors: &[],
                    deprecation: ::core::option::Option::None,
                    doc: "",
                },
            ],
            missing_status: 404u16,
        },
        ::microversion_axum::__private::Operation {
            name: "lock",
            http_method: ::core::option::Option::Some("PUT"),
            path: ::core::option::Option::Some("/v2.1/servers/{id}"),
            variants: &[
                ::microversion_axum::__private::OperationVariant {
                    range: ::microversion_axum::__private::VersionRange::from(
                        ::microversion_axum::__private::Version::new(2, 4),
                    ),
                    schemas: &[],
                    query_schemas: &[],
                    response: ::core::option::Option::None,
                    errors: &[],
                    deprecation: ::core::option::Option::None,
                    doc: "",
                },
            ],
            missing_status: 405u16,
        },
    ];
    fn check_schemas() -> ::core::result::Result<
        (),
        ::microversion_axum::__private::SchemaError,
    > {
        ::core::result::Result::Ok(())
    }
}
#[doc(hidden)]
const _: () = {
    const __MV_API: &::microversion_axum::__private::Api = &API;
    ::core::assert!(
        __MV_API
        .declares(::microversion_axum::__private::VersionRange::only(::microversion_axum::__private::Version::new(2,
        1))),
        "a version of `show`, 2.1, is outside the versions declared by `API`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API
        .declares(::microversion_axum::__private::VersionRange::only(::microversion_axum::__private::Version::new(2,
        2))),
        "a version of `show`, 2.2, is outside the versions declared by `API`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API
        .declares(::microversion_axum::__private::VersionRange::only(::microversion_axum::__private::Version::new(2,
        3))),
        "a version of `show`, 2.3, is outside the versions declared by `API`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API
        .declares(::microversion_axum::__private::VersionRange::only(::microversion_axum::__private::Version::new(2,
        4))),
        "a version of `lock`, 2.4, is outside the versions declared by `API`: declare it in its version history first"
    );
};
const _: () = ::microversion_axum::__private::check_route_path("/servers/{id}");
const _: () = ::microversion_axum::__private::check_route_path("/servers/{id}");
const _: () = ::microversion_axum::__private::check_route_path("/servers/{id}");
