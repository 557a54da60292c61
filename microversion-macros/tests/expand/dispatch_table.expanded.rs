impl Servers {
    #[doc(hidden)]
    const __MV_API: &'static ::microversion_actix::__private::Api = &COMPUTE;
    #[doc(hidden)]
    #[allow(clippy::unused_async, dead_code)]
    async fn __mv_show_v0(&self, id: Path<u32>) -> String {
        format!("server {id}")
    }
    #[doc(hidden)]
    #[allow(clippy::unused_async, dead_code)]
    async fn __mv_show_v1(&self, id: Path<u32>) -> Json<Value> {
        Json(json!({ "id" : * id }))
    }
    #[doc(hidden)]
    #[allow(dead_code)]
    fn __mv_view_v0(&self) -> u8 {
        1
    }
    #[doc(hidden)]
    #[allow(dead_code)]
    fn __mv_view_v1(&self) -> u8 {
        2
    }
    #[doc(hidden)]
    #[allow(dead_code)]
    fn __mv_view_v2(&self) -> u8 {
        3
    }
    #[doc(hidden)]
    #[allow(dead_code)]
    fn __mv_view_v3(&self) -> u8 {
        4
    }
    #[doc(hidden)]
    #[allow(dead_code)]
    fn __mv_view_v4(&self) -> u8 {
        5
    }
    ///Dispatches to the variant of `view` that serves the given version.
    #[inline]
    fn view(
        &self,
        __version: impl ::core::convert::Into<::microversion_actix::__private::Version>,
    ) -> ::core::result::Result<u8, ::microversion_actix::__private::UnservedVersion> {
        let __version: ::microversion_actix::__private::Version = ::core::convert::Into::into(
            __version,
        );
        match (__version.major(), __version.minor()) {
            (2, 1) => ::core::result::Result::Ok(self.__mv_view_v0()),
            (2, 2 | 3) => ::core::result::Result::Ok(self.__mv_view_v1()),
            (2, 5) => ::core::result::Result::Ok(self.__mv_view_v2()),
            _ => {
                if __version < ::microversion_actix::__private::Version::new(3, 2) {
                    if __version >= ::microversion_actix::__private::Version::new(2, 6) {
                        ::core::result::Result::Ok(self.__mv_view_v3())
                    } else {
                        ::core::result::Result::Err(::microversion_actix::__private::UnservedVersion {
                            operation: "view",
                            version: __version,
                        })
                    }
                } else {
                    ::core::result::Result::Ok(self.__mv_view_v4())
                }
            }
        }
    }
    #[doc(hidden)]
    #[allow(unused_mut, unused_variables)]
    fn __mv_route_show<
        __F: ::microversion_actix::__private::Facade,
        __A0: 'static,
        __R0: 'static,
        __R1: 'static,
    >(
        __controller: ::std::sync::Arc<Self>,
        mut __input: ::microversion_actix::__private::RouteInput<__F>,
    ) -> impl ::core::future::Future<
        Output = <__F as ::microversion_actix::__private::Facade>::Response,
    > + 'static
    where
        __F: ::microversion_actix::__private::Extracts<Path<u32>, __A0>,
        __F: ::microversion_actix::__private::Answers<String, __R0>,
        __F: ::microversion_actix::__private::Answers<Json<Value>, __R1>,
    {
        async move {
            let __version = __input.version;
            let __variant: usize = if __version
                < ::microversion_actix::__private::Version::new(2, 47)
            {
                if __version >= ::microversion_actix::__private::Version::new(2, 1) {
                    0usize
                } else {
                    return ::microversion_actix::__private::__serving::missing::<
                        __F,
                    >(
                        ::microversion_actix::__private::MissingVariant::new(
                            __version,
                            404u16,
                            ::core::option::Option::None,
                            <Self as ::microversion_actix::__private::Controller>::OPERATIONS,
                            "show",
                        ),
                    )
                }
            } else {
                1usize
            };
            let id: Path<u32> = match <__F as ::microversion_actix::__private::Extracts<
                Path<u32>,
                _,
            >>::extract(&mut __input)
                .await
            {
                ::core::result::Result::Ok(argument) => argument,
                ::core::result::Result::Err(refusal) => return refusal,
            };
            match __variant {
                0usize => {
                    let __out = __controller.__mv_show_v0(id).await;
                    <__F as ::microversion_actix::__private::Answers<
                        _,
                        _,
                    >>::answer(__out, &__input)
                }
                _ => {
                    let __out = __controller.__mv_show_v1(id).await;
                    <__F as ::microversion_actix::__private::Answers<
                        _,
                        _,
                    >>::answer(__out, &__input)
                }
            }
        }
    }
    #[doc(hidden)]
    fn __mv_routes<
        __F: ::microversion_actix::__private::Facade,
        __A0: 'static,
        __R0: 'static,
        __R1: 'static,
    >(
        __controller: ::std::sync::Arc<Self>,
        __route: usize,
        __input: ::microversion_actix::__private::RouteInput<__F>,
    ) -> impl ::core::future::Future<
        Output = <__F as ::microversion_actix::__private::Facade>::Response,
    > + 'static
    where
        __F: ::microversion_actix::__private::Extracts<Path<u32>, __A0>,
        __F: ::microversion_actix::__private::Answers<String, __R0>,
        __F: ::microversion_actix::__private::Answers<Json<Value>, __R1>,
    {
        match __route {
            _ => Self::__mv_route_show::<__F, __A0, __R0, __R1>(__controller, __input),
        }
    }
}
#[automatically_derived]
impl<
    __F: ::microversion_actix::__private::Facade,
    __A0: 'static,
    __R0: 'static,
    __R1: 'static,
> ::microversion_actix::__private::Routes<__F, (__A0, __R0, __R1)> for Servers
where
    __F: ::microversion_actix::__private::Extracts<Path<u32>, __A0>,
    __F: ::microversion_actix::__private::Answers<String, __R0>,
    __F: ::microversion_actix::__private::Answers<Json<Value>, __R1>,
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
            Self::__mv_routes::<__F, __A0, __R0, __R1>(__controller, __route, __input),
        )
    }
}
::microversion_actix::__private::register_controller!(Servers, routes);
#[automatically_derived]
impl ::microversion_actix::__private::Controller for Servers {
    const OPERATIONS: &'static [::microversion_actix::__private::Operation] = &[
        ::microversion_actix::__private::Operation {
            name: "show",
            http_method: ::core::option::Option::Some("GET"),
            path: ::core::option::Option::Some("/servers/{id}"),
            variants: &[
                ::microversion_actix::__private::OperationVariant {
                    range: ::microversion_actix::__private::VersionRange::between(
                        ::microversion_actix::__private::Version::new(2, 1),
                        ::microversion_actix::__private::Version::new(2, 46),
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
                        ::microversion_actix::__private::Version::new(2, 47),
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
        ::microversion_actix::__private::Operation {
            name: "view",
            http_method: ::core::option::Option::None,
            path: ::core::option::Option::None,
            variants: &[
                ::microversion_actix::__private::OperationVariant {
                    range: ::microversion_actix::__private::VersionRange::only(
                        ::microversion_actix::__private::Version::new(2, 1),
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
                    range: ::microversion_actix::__private::VersionRange::between(
                        ::microversion_actix::__private::Version::new(2, 2),
                        ::microversion_actix::__private::Version::new(2, 3),
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
                    range: ::microversion_actix::__private::VersionRange::only(
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
                ::microversion_actix::__private::OperationVariant {
                    range: ::microversion_actix::__private::VersionRange::between(
                        ::microversion_actix::__private::Version::new(2, 6),
                        ::microversion_actix::__private::Version::new(3, 1),
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
                        ::microversion_actix::__private::Version::new(3, 2),
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
        "a version of `show`, 2.1, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API
        .declares(::microversion_actix::__private::VersionRange::only(::microversion_actix::__private::Version::new(2,
        46))),
        "a version of `show`, 2.46, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API
        .declares(::microversion_actix::__private::VersionRange::only(::microversion_actix::__private::Version::new(2,
        47))),
        "a version of `show`, 2.47, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API
        .declares(::microversion_actix::__private::VersionRange::only(::microversion_actix::__private::Version::new(2,
        2))),
        "a version of `view`, 2.2, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API
        .declares(::microversion_actix::__private::VersionRange::only(::microversion_actix::__private::Version::new(2,
        3))),
        "a version of `view`, 2.3, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API
        .declares(::microversion_actix::__private::VersionRange::only(::microversion_actix::__private::Version::new(2,
        5))),
        "a version of `view`, 2.5, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API
        .declares(::microversion_actix::__private::VersionRange::only(::microversion_actix::__private::Version::new(2,
        6))),
        "a version of `view`, 2.6, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API
        .declares(::microversion_actix::__private::VersionRange::only(::microversion_actix::__private::Version::new(3,
        1))),
        "a version of `view`, 3.1, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API
        .declares(::microversion_actix::__private::VersionRange::only(::microversion_actix::__private::Version::new(3,
        2))),
        "a version of `view`, 3.2, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
};
const _: () = ::microversion_actix::__private::check_route_path("/servers/{id}");
const _: () = ::microversion_actix::__private::check_route_path("/servers/{id}");
