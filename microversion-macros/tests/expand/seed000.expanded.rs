impl Servers {
    #[doc(hidden)]
    const __MV_API: &'static ::microversion_actix::__private::Api = &COMPUTE;
    #[doc(hidden)]
    #[allow(clippy::unused_async, dead_code)]
    async fn __mv_update_v0(&self, id: Path<String>, body: Json<Value>) -> Json<Value> {
        body
    }
    #[doc(hidden)]
    fn __mv_schemas_update_v0() -> &'static ::microversion_actix::__private::LazySchemas {
        static SCHEMAS: ::microversion_actix::__private::LazySchemas = ::microversion_actix::__private::LazySchemas::new(
            ::microversion_actix::__private::VersionRange::ANY,
            || {
                ::microversion_actix::__private::VersionedSchemas::compile(
                    &[
                        ::microversion_actix::__private::SchemaSource {
                            name: "dummy",
                            range: ::microversion_actix::__private::VersionRange::between(
                                ::microversion_actix::__private::Version::new(2, 3),
                                ::microversion_actix::__private::Version::new(2, 8),
                            ),
                            schema: dummy
                                as fn() -> ::microversion_actix::__private::serde_json::Value,
                        },
                        ::microversion_actix::__private::SchemaSource {
                            name: "dummy2",
                            range: ::microversion_actix::__private::VersionRange::from(
                                ::microversion_actix::__private::Version::new(2, 9),
                            ),
                            schema: dummy2
                                as fn() -> ::microversion_actix::__private::serde_json::Value,
                        },
                    ],
                )
            },
        );
        &SCHEMAS
    }
    #[doc(hidden)]
    #[allow(dead_code)]
    fn __mv_version_specific_func_v0(&self, arg: &str) -> String {
        format!("old {arg}")
    }
    #[doc(hidden)]
    #[allow(dead_code)]
    fn __mv_version_specific_func_v1(&self, arg: &str) -> String {
        format!("new {arg}")
    }
    ///Dispatches to the variant of `version_specific_func` that serves the given version.
    #[inline]
    fn version_specific_func(
        &self,
        __version: impl ::core::convert::Into<::microversion_actix::__private::Version>,
        arg: &str,
    ) -> String {
        let __version: ::microversion_actix::__private::Version = ::core::convert::Into::into(
            __version,
        );
        if __version < ::microversion_actix::__private::Version::new(2, 5) {
            self.__mv_version_specific_func_v0(arg)
        } else {
            self.__mv_version_specific_func_v1(arg)
        }
    }
    #[doc(hidden)]
    #[allow(unused_mut, unused_variables)]
    fn __mv_route_update<
        __F: ::microversion_actix::__private::Facade,
        __A0: 'static,
        __A1: 'static,
        __R0: 'static,
    >(
        __controller: ::std::sync::Arc<Self>,
        mut __input: ::microversion_actix::__private::RouteInput<__F>,
    ) -> impl ::core::future::Future<
        Output = <__F as ::microversion_actix::__private::Facade>::Response,
    > + 'static
    where
        __F: ::microversion_actix::__private::Extracts<Path<String>, __A0>,
        __F: ::microversion_actix::__private::Extracts<Json<Value>, __A1>,
        __F: ::microversion_actix::__private::Answers<Json<Value>, __R0>,
    {
        async move {
            let __version = __input.version;
            if __version >= ::microversion_actix::__private::Version::new(2, 1) {
                if let ::core::result::Result::Err(refusal) = ::microversion_actix::__private::__serving::validate_body::<
                    __F,
                >(&mut __input, Self::__mv_schemas_update_v0())
                    .await
                {
                    return refusal;
                }
                let id: Path<String> = match <__F as ::microversion_actix::__private::Extracts<
                    Path<String>,
                    _,
                >>::extract(&mut __input)
                    .await
                {
                    ::core::result::Result::Ok(argument) => argument,
                    ::core::result::Result::Err(refusal) => return refusal,
                };
                let body: Json<Value> = match <__F as ::microversion_actix::__private::Extracts<
                    Json<Value>,
                    _,
                >>::extract(&mut __input)
                    .await
                {
                    ::core::result::Result::Ok(argument) => argument,
                    ::core::result::Result::Err(refusal) => return refusal,
                };
                let __out = __controller.__mv_update_v0(id, body).await;
                <__F as ::microversion_actix::__private::Answers<
                    _,
                    _,
                >>::answer(__out, &__input)
            } else {
                ::microversion_actix::__private::__serving::missing::<
                    __F,
                >(
                    ::microversion_actix::__private::MissingVariant::new(
                        __version,
                        404u16,
                        ::core::option::Option::None,
                        <Self as ::microversion_actix::__private::Controller>::OPERATIONS,
                        "update",
                    ),
                )
            }
        }
    }
    #[doc(hidden)]
    fn __mv_routes<
        __F: ::microversion_actix::__private::Facade,
        __A0: 'static,
        __A1: 'static,
        __R0: 'static,
    >(
        __controller: ::std::sync::Arc<Self>,
        __route: usize,
        __input: ::microversion_actix::__private::RouteInput<__F>,
    ) -> impl ::core::future::Future<
        Output = <__F as ::microversion_actix::__private::Facade>::Response,
    > + 'static
    where
        __F: ::microversion_actix::__private::Extracts<Path<String>, __A0>,
        __F: ::microversion_actix::__private::Extracts<Json<Value>, __A1>,
        __F: ::microversion_actix::__private::Answers<Json<Value>, __R0>,
    {
        match __route {
            _ => Self::__mv_route_update::<__F, __A0, __A1, __R0>(__controller, __input),
        }
    }
}
#[automatically_derived]
impl<
    __F: ::microversion_actix::__private::Facade,
    __A0: 'static,
    __A1: 'static,
    __R0: 'static,
> ::microversion_actix::__private::Routes<__F, (__A0, __A1, __R0)> for Servers
where
    __F: ::microversion_actix::__private::Extracts<Path<String>, __A0>,
    __F: ::microversion_actix::__private::Extracts<Json<Value>, __A1>,
    __F: ::microversion_actix::__private::Answers<Json<Value>, __R0>,
{
    fn route(
        __controller: ::std::sync::Arc<Self>,
        __route: usize,
        __input: ::microversion_actix::__private::RouteInput<__F>,
    ) -> impl ::core::future::Future<
        Output = <__F as ::microversion_actix::__private::Facade>::Response,
    > + 'static {
        ::microversion_actix::__private::__serving::operation_answer::<
            __F,
            _,
        >(
            Self::__MV_API,
            <Self as ::microversion_actix::__private::Controller>::OPERATIONS,
            __route,
            Self::__mv_routes::<__F, __A0, __A1, __R0>(__controller, __route, __input),
        )
    }
}
::microversion_actix::__private::register_controller!(Servers, routes);
#[automatically_derived]
impl ::microversion_actix::__private::Controller for Servers {
    const OPERATIONS: &'static [::microversion_actix::__private::Operation] = &[
        ::microversion_actix::__private::Operation {
            name: "update",
            http_method: ::core::option::Option::Some("PUT"),
            path: ::core::option::Option::Some("/servers/{id}"),
            variants: &[
                ::microversion_actix::__private::OperationVariant {
                    range: ::microversion_actix::__private::VersionRange::from(
                        ::microversion_actix::__private::Version::new(2, 1),
                    ),
                    schemas: &[
                        ::microversion_actix::__private::SchemaDescription {
                            name: "dummy",
                            range: ::microversion_actix::__private::VersionRange::between(
                                ::microversion_actix::__private::Version::new(2, 3),
                                ::microversion_actix::__private::Version::new(2, 8),
                            ),
                            document: ::microversion_actix::__private::SchemaDocument::Fixed(
                                dummy
                                    as fn() -> ::microversion_actix::__private::serde_json::Value,
                            ),
                        },
                        ::microversion_actix::__private::SchemaDescription {
                            name: "dummy2",
                            range: ::microversion_actix::__private::VersionRange::from(
                                ::microversion_actix::__private::Version::new(2, 9),
                            ),
                            document: ::microversion_actix::__private::SchemaDocument::Fixed(
                                dummy2
                                    as fn() -> ::microversion_actix::__private::serde_json::Value,
                            ),
                        },
                    ],
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
        ::microversion_actix::__private::Operation {
            name: "version_specific_func",
            http_method: ::core::option::Option::None,
            path: ::core::option::Option::None,
            variants: &[
                ::microversion_actix::__private::OperationVariant {
                    range: ::microversion_actix::__private::VersionRange::between(
                        ::microversion_actix::__private::Version::new(2, 1),
                        ::microversion_actix::__private::Version::new(2, 4),
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
                ::microversion_actix::__private::OperationVariant {
                    range: ::microversion_actix::__private::VersionRange::from(
                        ::microversion_actix::__private::Version::new(2, 5),
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
    ];
    fn check_schemas() -> ::core::result::Result<
        (),
        ::microversion_actix::__private::SchemaError,
    > {
        Self::__mv_schemas_update_v0().check()?;
        ::core::result::Result::Ok(())
    }
}
#[doc(hidden)]
const _: () = {
    const __MV_API: &::microversion_actix::__private::Api = <Servers>::__MV_API;
    ::core::assert!(
        __MV_API
        .declares(::microversion_actix::__private::VersionRange::only(::microversion_actix::__private::Version::new(2,
        1))),
        "a version of `update`, 2.1, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API
        .declares(::microversion_actix::__private::VersionRange::only(::microversion_actix::__private::Version::new(2,
        3))),
        "a version of the schema `dummy`, 2.3, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API
        .declares(::microversion_actix::__private::VersionRange::only(::microversion_actix::__private::Version::new(2,
        8))),
        "a version of the schema `dummy`, 2.8, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API
        .declares(::microversion_actix::__private::VersionRange::only(::microversion_actix::__private::Version::new(2,
        9))),
        "a version of the schema `dummy2`, 2.9, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API
        .declares(::microversion_actix::__private::VersionRange::only(::microversion_actix::__private::Version::new(2,
        4))),
        "a version of `version_specific_func`, 2.4, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API
        .declares(::microversion_actix::__private::VersionRange::only(::microversion_actix::__private::Version::new(2,
        5))),
        "a version of `version_specific_func`, 2.5, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API.compiled_min().packed() >=
        ::microversion_actix::__private::Version::new(2, 1).packed(),
        "`version_specific_func` returns its value directly, since its variants serve every version from 2.1 on without a gap, but the API starts before 2.1: add a variant for the versions before it, or bound its last variant to return `Result<_, UnservedVersion>`"
    );
};
const _: () = ::microversion_actix::__private::check_route_path("/{id}");
