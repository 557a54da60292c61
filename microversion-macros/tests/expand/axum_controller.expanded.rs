impl Servers {
    #[doc(hidden)]
    const __MV_API: &'static ::microversion_axum::__private::Api = &API;
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
    fn __mv_route_show<
        __F: ::microversion_axum::__private::Facade,
        __A0: 'static,
        __A1: 'static,
        __R0: 'static,
    >(
        __controller: ::std::sync::Arc<Self>,
        mut __input: ::microversion_axum::__private::RouteInput<__F>,
    ) -> impl ::core::future::Future<
        Output = <__F as ::microversion_axum::__private::Facade>::Response,
    > + 'static
    where
        __F: ::microversion_axum::__private::Extracts<Path<String>, __A0>,
        __F: ::microversion_axum::__private::Extracts<ApiVersion, __A1>,
        __F: ::microversion_axum::__private::Answers<String, __R0>,
    {
        async move {
            let __version = __input.version;
            if __version < ::microversion_axum::__private::Version::new(2, 3) {
                if __version >= ::microversion_axum::__private::Version::new(2, 1) {
                    let id: Path<String> = match <__F as ::microversion_axum::__private::Extracts<
                        Path<String>,
                        _,
                    >>::extract(&mut __input)
                        .await
                    {
                        ::core::result::Result::Ok(argument) => argument,
                        ::core::result::Result::Err(refusal) => return refusal,
                    };
                    let __out = __controller.__mv_show_v0(id).await;
                    <__F as ::microversion_axum::__private::Answers<
                        _,
                        _,
                    >>::answer(__out, &__input)
                } else {
                    ::microversion_axum::__private::__serving::missing::<
                        __F,
                    >(
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
                let id: Path<String> = match <__F as ::microversion_axum::__private::Extracts<
                    Path<String>,
                    _,
                >>::extract(&mut __input)
                    .await
                {
                    ::core::result::Result::Ok(argument) => argument,
                    ::core::result::Result::Err(refusal) => return refusal,
                };
                let version: ApiVersion = match <__F as ::microversion_axum::__private::Extracts<
                    ApiVersion,
                    _,
                >>::extract(&mut __input)
                    .await
                {
                    ::core::result::Result::Ok(argument) => argument,
                    ::core::result::Result::Err(refusal) => return refusal,
                };
                let __out = __controller.__mv_show_v1(id, version).await;
                <__F as ::microversion_axum::__private::Answers<
                    _,
                    _,
                >>::answer(__out, &__input)
            }
        }
    }
    #[doc(hidden)]
    #[allow(unused_mut, unused_variables)]
    fn __mv_route_lock<
        __F: ::microversion_axum::__private::Facade,
        __A2: 'static,
        __R1: 'static,
    >(
        __controller: ::std::sync::Arc<Self>,
        mut __input: ::microversion_axum::__private::RouteInput<__F>,
    ) -> impl ::core::future::Future<
        Output = <__F as ::microversion_axum::__private::Facade>::Response,
    > + 'static
    where
        __F: ::microversion_axum::__private::Extracts<Json<Value>, __A2>,
        __F: ::microversion_axum::__private::Answers<Json<Value>, __R1>,
    {
        async move {
            let __version = __input.version;
            if __version >= ::microversion_axum::__private::Version::new(2, 4) {
                let body: Json<Value> = match <__F as ::microversion_axum::__private::Extracts<
                    Json<Value>,
                    _,
                >>::extract(&mut __input)
                    .await
                {
                    ::core::result::Result::Ok(argument) => argument,
                    ::core::result::Result::Err(refusal) => return refusal,
                };
                let __out = __controller.__mv_lock_v0(body).await;
                <__F as ::microversion_axum::__private::Answers<
                    _,
                    _,
                >>::answer(__out, &__input)
            } else {
                ::microversion_axum::__private::__serving::missing::<
                    __F,
                >(
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
    fn __mv_routes<
        __F: ::microversion_axum::__private::Facade,
        __A0: 'static,
        __A1: 'static,
        __A2: 'static,
        __R0: 'static,
        __R1: 'static,
    >(
        __controller: ::std::sync::Arc<Self>,
        __route: usize,
        __input: ::microversion_axum::__private::RouteInput<__F>,
    ) -> impl ::core::future::Future<
        Output = <__F as ::microversion_axum::__private::Facade>::Response,
    > + 'static
    where
        __F: ::microversion_axum::__private::Extracts<Path<String>, __A0>,
        __F: ::microversion_axum::__private::Extracts<ApiVersion, __A1>,
        __F: ::microversion_axum::__private::Extracts<Json<Value>, __A2>,
        __F: ::microversion_axum::__private::Answers<String, __R0>,
        __F: ::microversion_axum::__private::Answers<Json<Value>, __R1>,
    {
        match __route {
            0usize => {
                ::microversion_axum::__private::__serving::Either::Left {
                    future: Self::__mv_route_show::<
                        __F,
                        __A0,
                        __A1,
                        __R0,
                    >(__controller, __input),
                }
            }
            _ => {
                ::microversion_axum::__private::__serving::Either::Right {
                    future: Self::__mv_route_lock::<
                        __F,
                        __A2,
                        __R1,
                    >(__controller, __input),
                }
            }
        }
    }
}
#[automatically_derived]
impl<
    __F: ::microversion_axum::__private::Facade,
    __A0: 'static,
    __A1: 'static,
    __A2: 'static,
    __R0: 'static,
    __R1: 'static,
> ::microversion_axum::__private::Routes<__F, (__A0, __A1, __A2, __R0, __R1)> for Servers
where
    __F: ::microversion_axum::__private::Extracts<Path<String>, __A0>,
    __F: ::microversion_axum::__private::Extracts<ApiVersion, __A1>,
    __F: ::microversion_axum::__private::Extracts<Json<Value>, __A2>,
    __F: ::microversion_axum::__private::Answers<String, __R0>,
    __F: ::microversion_axum::__private::Answers<Json<Value>, __R1>,
{
    fn route(
        __controller: ::std::sync::Arc<Self>,
        __route: usize,
        __input: ::microversion_axum::__private::RouteInput<__F>,
    ) -> impl ::core::future::Future<
        Output = <__F as ::microversion_axum::__private::Facade>::Response,
    > + 'static {
        ::microversion_axum::__private::__serving::operation_answer::<
            __F,
            _,
        >(
            Self::__MV_API,
            <Self as ::microversion_axum::__private::Controller>::OPERATIONS,
            __route,
            Self::__mv_routes::<
                __F,
                __A0,
                __A1,
                __A2,
                __R0,
                __R1,
            >(__controller, __route, __input),
        )
    }
}
::microversion_axum::__private::register_controller!(Servers, routes);
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
                    changes: &[],
                    examples: &[],
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
                    changes: &[],
                    examples: &[],
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
                    changes: &[],
                    examples: &[],
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
    const __MV_API: &::microversion_axum::__private::Api = <Servers>::__MV_API;
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
