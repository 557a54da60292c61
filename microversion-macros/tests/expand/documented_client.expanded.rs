impl Flavors {
    #[doc(hidden)]
    const __MV_API: &'static ::microversion_actix::__private::Api = &COMPUTE;
    #[doc(hidden)]
    #[allow(clippy::unused_async, dead_code)]
    /// Shows one flavor.
    ///
    /// By its id.
    async fn __mv_show_v0(&self, id: Path<String>) -> Json<Value> {
        Json(Value::String(id.into_inner()))
    }
    #[doc(hidden)]
    #[allow(unused_mut, unused_variables)]
    fn __mv_route_show<
        __F: ::microversion_actix::__private::Facade,
        __A0: 'static,
        __R0: 'static,
    >(
        __controller: ::std::sync::Arc<Self>,
        mut __input: ::microversion_actix::__private::RouteInput<__F>,
    ) -> impl ::core::future::Future<
        Output = <__F as ::microversion_actix::__private::Facade>::Response,
    > + 'static
    where
        __F: ::microversion_actix::__private::Extracts<Path<String>, __A0>,
        __F: ::microversion_actix::__private::Answers<Json<Value>, __R0>,
    {
        async move {
            let __version = __input.version;
            let id: Path<String> = match <__F as ::microversion_actix::__private::Extracts<
                Path<String>,
                _,
            >>::extract(&mut __input)
                .await
            {
                ::core::result::Result::Ok(argument) => argument,
                ::core::result::Result::Err(refusal) => return refusal,
            };
            let __out = __controller.__mv_show_v0(id).await;
            <__F as ::microversion_actix::__private::Answers<
                _,
                _,
            >>::answer(__out, &__input)
        }
    }
    #[doc(hidden)]
    fn __mv_routes<
        __F: ::microversion_actix::__private::Facade,
        __A0: 'static,
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
        __F: ::microversion_actix::__private::Answers<Json<Value>, __R0>,
    {
        match __route {
            _ => Self::__mv_route_show::<__F, __A0, __R0>(__controller, __input),
        }
    }
}
#[automatically_derived]
impl<
    __F: ::microversion_actix::__private::Facade,
    __A0: 'static,
    __R0: 'static,
> ::microversion_actix::__private::Routes<__F, (__A0, __R0)> for Flavors
where
    __F: ::microversion_actix::__private::Extracts<Path<String>, __A0>,
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
            Self::__mv_routes::<__F, __A0, __R0>(__controller, __route, __input),
        )
    }
}
::microversion_actix::__private::register_controller!(Flavors, routes);
#[automatically_derived]
impl ::microversion_actix::__private::Controller for Flavors {
    const OPERATIONS: &'static [::microversion_actix::__private::Operation] = &[
        ::microversion_actix::__private::Operation {
            name: "show",
            http_method: ::core::option::Option::Some("GET"),
            path: ::core::option::Option::Some("/flavors/{id}"),
            variants: &[
                ::microversion_actix::__private::OperationVariant {
                    range: ::microversion_actix::__private::VersionRange::ANY,
                    schemas: &[],
                    query_schemas: &[],
                    response: ::core::option::Option::None,
                    errors: &[],
                    deprecation: ::core::option::Option::None,
                    doc: "Shows one flavor.\n\nBy its id.",
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
    const __MV_API: &::microversion_actix::__private::Api = <Flavors>::__MV_API;
};
const _: () = ::microversion_actix::__private::check_route_path("/flavors/{id}");
///The typed client of [`Flavors`]: one method per operation, sent through a `microversion_core::client::typed_client::Transport` at its version.
#[derive(Clone, Copy)]
pub struct FlavorsClient<'c, T: ?::core::marker::Sized>(&'c T);
impl Flavors {
    /// The typed client of these operations, sent through `transport`.
    pub fn client<
        T: ::microversion_actix::__private::typed_client::Transport
            + ?::core::marker::Sized,
    >(transport: &T) -> FlavorsClient<'_, T> {
        FlavorsClient(transport)
    }
}
impl<
    'c,
    T: ::microversion_actix::__private::typed_client::Transport + ?::core::marker::Sized,
> FlavorsClient<'c, T> {
    #[doc(hidden)]
    const SHOW_IS_SERVED: () = {
        if let ::core::option::Option::Some(version) = <T as ::microversion_actix::__private::typed_client::Transport>::FIXED {
            ::core::assert!(
                ::microversion_actix::__private::typed_client::served_at(&
                [::microversion_actix::__private::VersionRange::ANY], version),
                "Flavors::show does not exist at this client's version; it is served at every version"
            );
        }
    };
    /**Shows one flavor.

By its id.

`GET /flavors/{id}`, served at every version.*/
    pub async fn show(
        &self,
        id: String,
    ) -> ::core::result::Result<
        ::microversion_actix::__private::typed_client::Rendered<Value>,
        ::microversion_actix::__private::typed_client::CallError,
    > {
        let () = Self::SHOW_IS_SERVED;
        #[allow(unused_mut)]
        let mut __parts = ::microversion_actix::__private::typed_client::CallParts::default();
        __parts.path = ::std::vec![::std::string::ToString::to_string(& id)];
        let call = ::microversion_actix::__private::typed_client::Call {
            operation: "Flavors::show",
            method: "GET",
            path: ::microversion_actix::__private::typed_client::fill_path(
                "/flavors/{id}",
                &__parts.path,
            )?,
            query: __parts.query,
            body: __parts.body,
        };
        ::microversion_actix::__private::typed_client::send(
                self.0,
                &[::microversion_actix::__private::VersionRange::ANY],
                call,
            )
            .await
    }
}
