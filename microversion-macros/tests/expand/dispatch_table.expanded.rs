impl Servers {
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
    #[allow(unused_mut, unused_variables)]
    fn __mv_route_show(
        __controller: ::microversion_actix::__private::Shared<Self>,
        __input: ::microversion_actix::__private::OperationInput,
    ) -> impl ::core::future::Future<
        Output = ::microversion_actix::__private::Response,
    > + 'static {
        #[allow(non_snake_case)]
        fn response_of_show<__R: ::microversion_actix::__private::RouteResponse>(
            __out: __R,
            __req: &::microversion_actix::__private::Request,
        ) -> ::microversion_actix::__private::Response {
            ::microversion_actix::__private::RouteResponse::respond(__out, __req)
        }
        async move {
            let ::microversion_actix::__private::OperationInput {
                request: mut __req,
                payload: mut __payload,
                version: __version,
            } = __input;
            let __key: u32 = __version.packed();
            let __variant: usize = if __key < 0x0002_002f_u32 {
                if __key >= 0x0002_0001_u32 {
                    0usize
                } else {
                    return ::microversion_actix::__private::missing(
                        __version,
                        404u16,
                        ::core::option::Option::None,
                        <Self as ::microversion_actix::__private::Controller>::OPERATIONS,
                        "show",
                    )
                }
            } else {
                1usize
            };
            let __a0: Path<u32> = {
                #[allow(non_snake_case)]
                fn argument_id_of_show<
                    __T: ::microversion_actix::__private::RouteArgument,
                >(
                    __req: &mut ::microversion_actix::__private::Request,
                    __payload: &mut ::microversion_actix::__private::Payload,
                ) -> impl ::core::future::Future<
                    Output = ::core::result::Result<
                        __T,
                        ::microversion_actix::__private::Error,
                    >,
                > {
                    ::microversion_actix::__private::Extracting::new(
                        <__T as ::microversion_actix::__private::RouteArgument>::extract(
                            __req,
                            __payload,
                        ),
                    )
                }
                match argument_id_of_show(&mut __req, &mut __payload).await {
                    ::core::result::Result::Ok(__value) => __value,
                    ::core::result::Result::Err(__error) => {
                        return ::microversion_actix::__private::error_response(__error);
                    }
                }
            };
            match __variant {
                0usize => {
                    let __out = __controller.__mv_show_v0(__a0).await;
                    {
                        let __answer = __out;
                        response_of_show(__answer, &__req)
                    }
                }
                _ => {
                    let __out = __controller.__mv_show_v1(__a0).await;
                    {
                        let __answer = __out;
                        response_of_show(__answer, &__req)
                    }
                }
            }
        }
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
        let __key: u32 = __version.packed();
        match __key {
            0x0002_0001_u32 => ::core::result::Result::Ok(self.__mv_view_v0()),
            0x0002_0002_u32 | 0x0002_0003_u32 => {
                ::core::result::Result::Ok(self.__mv_view_v1())
            }
            0x0002_0005_u32 => ::core::result::Result::Ok(self.__mv_view_v2()),
            _ => {
                if __key < 0x0003_0002_u32 {
                    if __key >= 0x0002_0006_u32 {
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
    fn __mv_routes(
        __controller: ::microversion_actix::__private::Shared<Self>,
        __route: usize,
        __input: ::microversion_actix::__private::OperationInput,
    ) -> impl ::core::future::Future<
        Output = ::microversion_actix::__private::Response,
    > + 'static {
        async move {
            match __route {
                _ => Self::__mv_route_show(__controller, __input).await,
            }
        }
    }
}
#[automatically_derived]
impl ::microversion_actix::__private::actix_web::dev::HttpServiceFactory for Servers {
    fn register(
        self,
        __config: &mut ::microversion_actix::__private::actix_web::dev::AppService,
    ) {
        #[allow(unused_variables)]
        let __controller = ::std::rc::Rc::new(self);
        ::microversion_actix::__private::actix_web::dev::HttpServiceFactory::register(
            ::microversion_actix::__private::actix_web::web::resource("/servers/{id}")
                .route(
                    ::microversion_actix::__private::actix_web::web::route()
                        .method(
                            ::microversion_actix::__private::actix_web::http::Method::GET,
                        )
                        .service(
                            ::microversion_actix::__private::OperationRoute::new(
                                &__controller,
                                0usize,
                                Self::__mv_routes,
                            ),
                        ),
                )
                .default_service(
                    ::microversion_actix::__private::MethodNotAllowed::for_path(
                        <Self as ::microversion_actix::__private::Controller>::OPERATIONS,
                        "/servers/{id}",
                    ),
                ),
            __config,
        );
    }
}
#[automatically_derived]
impl ::microversion_actix::__private::Controller for Servers {
    const OPERATIONS: &'static [::microversion_actix::__private::Operation] = &[
        ::microversion_actix::__private::Operation {
            name: "show",
            http_method: ::core::option::Option::Some("GET"),
            path: ::core::option::Option::Some("/servers/{id}"),
            variants: &[
                ::microversion_actix::__private::OperationVariant {
                    range: ::microversion_actix::__private::packed_range(
                        0x0002_0001_u32,
                        0x0002_002e_u32,
                    ),
                    schemas: &[],
                    query_schemas: &[],
                    response: ::core::option::Option::None,
                    errors: &[],
                },
                ::microversion_actix::__private::OperationVariant {
                    range: ::microversion_actix::__private::packed_range(
                        0x0002_002f_u32,
                        ::core::primitive::u32::MAX,
                    ),
                    schemas: &[],
                    query_schemas: &[],
                    response: ::core::option::Option::None,
                    errors: &[],
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
                    range: ::microversion_actix::__private::packed_range(
                        0x0002_0001_u32,
                        0x0002_0001_u32,
                    ),
                    schemas: &[],
                    query_schemas: &[],
                    response: ::core::option::Option::None,
                    errors: &[],
                },
                ::microversion_actix::__private::OperationVariant {
                    range: ::microversion_actix::__private::packed_range(
                        0x0002_0002_u32,
                        0x0002_0003_u32,
                    ),
                    schemas: &[],
                    query_schemas: &[],
                    response: ::core::option::Option::None,
                    errors: &[],
                },
                ::microversion_actix::__private::OperationVariant {
                    range: ::microversion_actix::__private::packed_range(
                        0x0002_0005_u32,
                        0x0002_0005_u32,
                    ),
                    schemas: &[],
                    query_schemas: &[],
                    response: ::core::option::Option::None,
                    errors: &[],
                },
                ::microversion_actix::__private::OperationVariant {
                    range: ::microversion_actix::__private::packed_range(
                        0x0002_0006_u32,
                        0x0003_0001_u32,
                    ),
                    schemas: &[],
                    query_schemas: &[],
                    response: ::core::option::Option::None,
                    errors: &[],
                },
                ::microversion_actix::__private::OperationVariant {
                    range: ::microversion_actix::__private::packed_range(
                        0x0003_0002_u32,
                        ::core::primitive::u32::MAX,
                    ),
                    schemas: &[],
                    query_schemas: &[],
                    response: ::core::option::Option::None,
                    errors: &[],
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
    const __MV_API: &::microversion_actix::__private::Api = &COMPUTE;
    ::core::assert!(
        __MV_API.declares(::microversion_actix::__private::packed_range(0x0002_0001_u32,
        0x0002_0001_u32)),
        "a version of `show`, 2.1, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API.declares(::microversion_actix::__private::packed_range(0x0002_002e_u32,
        0x0002_002e_u32)),
        "a version of `show`, 2.46, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API.declares(::microversion_actix::__private::packed_range(0x0002_002f_u32,
        0x0002_002f_u32)),
        "a version of `show`, 2.47, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API.declares(::microversion_actix::__private::packed_range(0x0002_0002_u32,
        0x0002_0002_u32)),
        "a version of `view`, 2.2, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API.declares(::microversion_actix::__private::packed_range(0x0002_0003_u32,
        0x0002_0003_u32)),
        "a version of `view`, 2.3, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API.declares(::microversion_actix::__private::packed_range(0x0002_0005_u32,
        0x0002_0005_u32)),
        "a version of `view`, 2.5, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API.declares(::microversion_actix::__private::packed_range(0x0002_0006_u32,
        0x0002_0006_u32)),
        "a version of `view`, 2.6, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API.declares(::microversion_actix::__private::packed_range(0x0003_0001_u32,
        0x0003_0001_u32)),
        "a version of `view`, 3.1, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API.declares(::microversion_actix::__private::packed_range(0x0003_0002_u32,
        0x0003_0002_u32)),
        "a version of `view`, 3.2, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
};
