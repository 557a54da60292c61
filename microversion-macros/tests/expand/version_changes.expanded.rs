/// Widgets' `colour` is spelled `color`.
struct ColorSpelling;
#[automatically_derived]
impl ::microversion_axum::__private::VersionChange for ColorSpelling {
    const VERSION: ::microversion_axum::__private::Version = ::microversion_axum::__private::Version::new(
        1,
        2,
    );
    const DESCRIPTION: &'static str = "Widgets' `colour` is spelled `color`.";
    const DECLARES: &'static [::microversion_axum::__private::Declared] = &[
        ::microversion_axum::__private::Declared::FieldRenamed {
            ty: "Widget",
            field: "color",
            from: "colour",
        },
    ];
}
const _: () = {
    const __MV_API: &::microversion_axum::__private::Api = &SHOP;
    ::core::assert!(
        __MV_API
        .declares(::microversion_axum::__private::VersionRange::only(::microversion_axum::__private::Version::new(1,
        2))),
        "the version change `ColorSpelling`, 1.2, is outside the versions declared by `SHOP`: declare it in its version history first"
    );
};
#[allow(dead_code, clippy::all)]
const _: () = {
    fn __mv_declared(__value: &Widget) {
        let _ = &__value.color;
    }
};
impl Widgets {
    #[doc(hidden)]
    const __MV_API: &'static ::microversion_axum::__private::Api = &SHOP;
    #[doc(hidden)]
    #[allow(clippy::unused_async, dead_code)]
    async fn __mv_create_v0(
        &self,
        body: Json<NewWidget>,
    ) -> Result<Answer<Widget>, ApiError> {
        Ok(Answer::created(Widget::from(body.0)))
    }
    #[doc(hidden)]
    #[allow(unused_mut, unused_variables)]
    fn __mv_route_create<
        __F: ::microversion_axum::__private::Facade,
        __A0: 'static,
        __A1: 'static,
        __R0: 'static,
        __R1: 'static,
    >(
        __controller: ::std::sync::Arc<Self>,
        mut __input: ::microversion_axum::__private::RouteInput<__F>,
    ) -> impl ::core::future::Future<
        Output = <__F as ::microversion_axum::__private::Facade>::Response,
    > + 'static
    where
        __F: ::microversion_axum::__private::ExtractsThrough<
            (ColorSpelling, ()),
            Json<NewWidget>,
            __A0,
        >,
        __F: ::microversion_axum::__private::Extracts<Json<NewWidget>, __A1>,
        __F: ::microversion_axum::__private::AnswersThrough<
            (ColorSpelling, ()),
            Result<Answer<Widget>, ApiError>,
            __R0,
        >,
        __F: ::microversion_axum::__private::Answers<
            Result<Answer<Widget>, ApiError>,
            __R1,
        >,
    {
        async move {
            let __version = __input.version;
            if __version >= ::microversion_axum::__private::Version::new(1, 0) {
                const _: () = ::core::assert!(
                    ::microversion_axum::__private::VersionRange::from(::microversion_axum::__private::Version::new(1,
                    0)).contains(< ColorSpelling as
                    ::microversion_axum::__private::VersionChange > ::VERSION) &&
                    ::microversion_axum::__private::Version::new(1, 0).lt(< ColorSpelling
                    as ::microversion_axum::__private::VersionChange > ::VERSION),
                    "the version change `ColorSpelling` is not inside the versions this variant of `create` serves, after its first (1.0 and later): it would have no version before it to serve"
                );
                let _ = <ColorSpelling as ::microversion_axum::__private::Upgrade<
                    Json<NewWidget>,
                >>::upgrade;
                let _ = <ColorSpelling as ::microversion_axum::__private::Downgrade<
                    Result<Answer<Widget>, ApiError>,
                >>::downgrade;
                if __version
                    .lt(
                        <ColorSpelling as ::microversion_axum::__private::VersionChange>::VERSION,
                    )
                {
                    let body: Json<NewWidget> = match <__F as ::microversion_axum::__private::ExtractsThrough<
                        (ColorSpelling, ()),
                        Json<NewWidget>,
                        _,
                    >>::extract(&mut __input)
                        .await
                    {
                        ::core::result::Result::Ok(argument) => argument,
                        ::core::result::Result::Err(refusal) => return refusal,
                    };
                    let __out = __controller.__mv_create_v0(body).await;
                    const __DECLARED: ::microversion_axum::__private::ResponseDescription = ::microversion_axum::__private::ResponseDescription {
                        status: 200u16,
                        body: ::core::option::Option::None,
                        body_name: ::core::option::Option::None,
                    };
                    let __answer = <__F as ::microversion_axum::__private::AnswersThrough<
                        (ColorSpelling, ()),
                        Result<Answer<Widget>, ApiError>,
                        _,
                    >>::answer(__out, &__input);
                    ::microversion_axum::__private::__serving::check_response::<
                        __F,
                    >(&__input, &__DECLARED, __answer)
                        .await
                } else {
                    let body: Json<NewWidget> = match <__F as ::microversion_axum::__private::Extracts<
                        Json<NewWidget>,
                        _,
                    >>::extract(&mut __input)
                        .await
                    {
                        ::core::result::Result::Ok(argument) => argument,
                        ::core::result::Result::Err(refusal) => return refusal,
                    };
                    let __out = __controller.__mv_create_v0(body).await;
                    const __DECLARED: ::microversion_axum::__private::ResponseDescription = ::microversion_axum::__private::ResponseDescription {
                        status: 201u16,
                        body: ::core::option::Option::None,
                        body_name: ::core::option::Option::None,
                    };
                    let __answer = <__F as ::microversion_axum::__private::Answers<
                        _,
                        _,
                    >>::answer(__out, &__input);
                    ::microversion_axum::__private::__serving::check_response::<
                        __F,
                    >(&__input, &__DECLARED, __answer)
                        .await
                }
            } else {
                ::microversion_axum::__private::__serving::missing::<
                    __F,
                >(
                    ::microversion_axum::__private::MissingVariant::new(
                        __version,
                        404u16,
                        ::core::option::Option::None,
                        <Self as ::microversion_axum::__private::Controller>::OPERATIONS,
                        "create",
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
        __F: ::microversion_axum::__private::ExtractsThrough<
            (ColorSpelling, ()),
            Json<NewWidget>,
            __A0,
        >,
        __F: ::microversion_axum::__private::Extracts<Json<NewWidget>, __A1>,
        __F: ::microversion_axum::__private::AnswersThrough<
            (ColorSpelling, ()),
            Result<Answer<Widget>, ApiError>,
            __R0,
        >,
        __F: ::microversion_axum::__private::Answers<
            Result<Answer<Widget>, ApiError>,
            __R1,
        >,
    {
        match __route {
            _ => {
                Self::__mv_route_create::<
                    __F,
                    __A0,
                    __A1,
                    __R0,
                    __R1,
                >(__controller, __input)
            }
        }
    }
}
#[automatically_derived]
impl<
    __F: ::microversion_axum::__private::Facade,
    __A0: 'static,
    __A1: 'static,
    __R0: 'static,
    __R1: 'static,
> ::microversion_axum::__private::Routes<__F, (__A0, __A1, __R0, __R1)> for Widgets
where
    __F: ::microversion_axum::__private::ExtractsThrough<
        (ColorSpelling, ()),
        Json<NewWidget>,
        __A0,
    >,
    __F: ::microversion_axum::__private::Extracts<Json<NewWidget>, __A1>,
    __F: ::microversion_axum::__private::AnswersThrough<
        (ColorSpelling, ()),
        Result<Answer<Widget>, ApiError>,
        __R0,
    >,
    __F: ::microversion_axum::__private::Answers<Result<Answer<Widget>, ApiError>, __R1>,
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
                __R0,
                __R1,
            >(__controller, __route, __input),
        )
    }
}
::microversion_axum::__private::register_controller!(Widgets, routes);
#[automatically_derived]
impl ::microversion_axum::__private::Controller for Widgets {
    const OPERATIONS: &'static [::microversion_axum::__private::Operation] = &[
        ::microversion_axum::__private::Operation {
            name: "create",
            http_method: ::core::option::Option::Some("POST"),
            path: ::core::option::Option::Some("/widgets"),
            variants: &[
                ::microversion_axum::__private::OperationVariant {
                    range: ::microversion_axum::__private::change_band(
                        &SHOP,
                        ::microversion_axum::__private::VersionRange::from(
                            ::microversion_axum::__private::Version::new(1, 0),
                        ),
                        &[
                            <ColorSpelling as ::microversion_axum::__private::VersionChange>::VERSION,
                        ],
                        0usize,
                    ),
                    schemas: &[],
                    query_schemas: &[],
                    response: ::core::option::Option::Some(::microversion_axum::__private::ResponseDescription {
                        status: 200u16,
                        body: ::core::option::Option::None,
                        body_name: ::core::option::Option::None,
                    }),
                    errors: &[],
                    deprecation: ::core::option::Option::None,
                    doc: "Creates a widget (200).",
                    changes: &[
                        ::microversion_axum::__private::ChangeNote::of::<
                            ColorSpelling,
                        >("ColorSpelling"),
                    ],
                    examples: &[],
                },
                ::microversion_axum::__private::OperationVariant {
                    range: ::microversion_axum::__private::change_band(
                        &SHOP,
                        ::microversion_axum::__private::VersionRange::from(
                            ::microversion_axum::__private::Version::new(1, 0),
                        ),
                        &[
                            <ColorSpelling as ::microversion_axum::__private::VersionChange>::VERSION,
                        ],
                        1usize,
                    ),
                    schemas: &[],
                    query_schemas: &[],
                    response: ::core::option::Option::Some(::microversion_axum::__private::ResponseDescription {
                        status: 201u16,
                        body: ::core::option::Option::None,
                        body_name: ::core::option::Option::None,
                    }),
                    errors: &[],
                    deprecation: ::core::option::Option::None,
                    doc: "",
                    changes: &[
                        ::microversion_axum::__private::ChangeNote::of::<
                            ColorSpelling,
                        >("ColorSpelling"),
                    ],
                    examples: &[],
                },
            ],
            missing_status: 404u16,
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
    const __MV_API: &::microversion_axum::__private::Api = <Widgets>::__MV_API;
    ::core::assert!(
        __MV_API
        .declares(::microversion_axum::__private::VersionRange::only(::microversion_axum::__private::Version::new(1,
        0))),
        "a version of `create`, 1.0, is outside the versions declared by `SHOP`: declare it in its version history first"
    );
};
const _: () = ::microversion_axum::__private::check_route_path("/widgets");
