#[automatically_derived]
impl<'a> ::microversion_actix::__private::VersionedModel for Summary<'a> {
    fn serialize_at<__S: ::microversion_actix::__private::serde::Serializer>(
        &self,
        __version: ::microversion_actix::__private::Version,
        __serializer: __S,
    ) -> ::core::result::Result<__S::Ok, __S::Error> {
        use ::microversion_actix::__private::serde::ser::SerializeMap as _;
        let mut __map = __serializer.serialize_map(::core::option::Option::None)?;
        __map.serialize_entry("name", &self.name)?;
        if ::microversion_actix::__private::VersionRange::from(
                ::microversion_actix::__private::Version::new(2, 5),
            )
            .contains(__version)
        {
            __map.serialize_entry("description", &self.description)?;
        }
        __map.end()
    }
    fn deserialize_at(
        __version: ::microversion_actix::__private::Version,
        __value: ::microversion_actix::__private::serde_json::Value,
        __path: &str,
        __errors: &mut ::std::vec::Vec<::microversion_actix::__private::Violation>,
    ) -> ::core::option::Option<Self> {
        let _ = (__version, __value);
        let __path = if __path.is_empty() { "/" } else { __path };
        __errors
            .push(
                ::microversion_actix::__private::Violation::new(
                    __path,
                    "readOnly",
                    "`Summary` borrows its data, so it is only rendered: it cannot be read from a request",
                ),
            );
        ::core::option::Option::None
    }
    fn json_schema_at(
        __version: ::microversion_actix::__private::Version,
    ) -> ::microversion_actix::__private::serde_json::Value {
        let mut __properties = ::microversion_actix::__private::serde_json::Map::new();
        let mut __required: ::std::vec::Vec<
            ::microversion_actix::__private::serde_json::Value,
        > = ::std::vec::Vec::new();
        __properties
            .insert(
                "name".into(),
                <&'a str as ::microversion_actix::__private::DerivedSchema>::derived_schema(),
            );
        __required.push("name".into());
        if ::microversion_actix::__private::VersionRange::from(
                ::microversion_actix::__private::Version::new(2, 5),
            )
            .contains(__version)
        {
            __properties
                .insert(
                    "description".into(),
                    <Option<
                        &'a str,
                    > as ::microversion_actix::__private::DerivedSchema>::derived_schema(),
                );
        }
        let mut __schema = ::microversion_actix::__private::serde_json::json!(
            { "type" : "object", "properties" : __properties, "additionalProperties" :
            false, }
        );
        if !__required.is_empty() {
            __schema["required"] = ::microversion_actix::__private::serde_json::Value::Array(
                __required,
            );
        }
        __schema
    }
    fn changes(__out: &mut ::std::vec::Vec<::microversion_actix::__private::Version>) {
        __out.extend_from_slice(&[::microversion_actix::__private::Version::new(2, 5)]);
    }
}
#[automatically_derived]
impl<T: Clone> ::microversion_actix::__private::VersionedModel for Page<T>
where
    Vec<T>: ::microversion_actix::__private::VersionedModel,
    Vec<T>: ::microversion_actix::__private::serde::Serialize,
    Vec<T>: ::microversion_actix::__private::serde::de::DeserializeOwned,
    Vec<T>: ::core::default::Default,
    Vec<T>: ::microversion_actix::__private::DerivedSchema,
{
    fn serialize_at<__S: ::microversion_actix::__private::serde::Serializer>(
        &self,
        __version: ::microversion_actix::__private::Version,
        __serializer: __S,
    ) -> ::core::result::Result<__S::Ok, __S::Error> {
        use ::microversion_actix::__private::serde::ser::SerializeMap as _;
        let mut __map = __serializer.serialize_map(::core::option::Option::None)?;
        __map
            .serialize_entry(
                "items",
                &::microversion_actix::__private::VersionedModel::at(
                    &self.items,
                    __version,
                ),
            )?;
        if ::microversion_actix::__private::VersionRange::from(
                ::microversion_actix::__private::Version::new(2, 3),
            )
            .contains(__version)
        {
            __map.serialize_entry("previous", &self.previous)?;
        }
        __map.serialize_entry("count", &self.count)?;
        __map.end()
    }
    fn deserialize_at(
        __version: ::microversion_actix::__private::Version,
        __value: ::microversion_actix::__private::serde_json::Value,
        __path: &str,
        __errors: &mut ::std::vec::Vec<::microversion_actix::__private::Violation>,
    ) -> ::core::option::Option<Self> {
        let __before = __errors.len();
        let mut __object = ::microversion_actix::__private::object_at(
            __value,
            __path,
            __errors,
        )?;
        let __f_items: ::core::option::Option<Vec<T>> = ::microversion_actix::__private::read_field(
            &mut __object,
            "items",
            ::microversion_actix::__private::VersionRange::ANY,
            ::microversion_actix::__private::Presence::Required,
            __version,
            __path,
            __errors,
            |
                __v,
                __p: &str,
                __e: &mut ::std::vec::Vec<::microversion_actix::__private::Violation>|
            {
                <Vec<
                    T,
                > as ::microversion_actix::__private::VersionedModel>::deserialize_at(
                    __version,
                    __v,
                    __p,
                    __e,
                )
            },
            || ::core::option::Option::None,
        );
        let __f_previous: ::core::option::Option<Vec<T>> = ::microversion_actix::__private::read_field(
            &mut __object,
            "previous",
            ::microversion_actix::__private::VersionRange::from(
                ::microversion_actix::__private::Version::new(2, 3),
            ),
            ::microversion_actix::__private::Presence::Default,
            __version,
            __path,
            __errors,
            ::microversion_actix::__private::parse_plain::<Vec<T>>,
            || ::core::option::Option::Some(::core::default::Default::default()),
        );
        let __f_count: ::core::option::Option<u32> = ::microversion_actix::__private::read_field(
            &mut __object,
            "count",
            ::microversion_actix::__private::VersionRange::ANY,
            ::microversion_actix::__private::Presence::Required,
            __version,
            __path,
            __errors,
            ::microversion_actix::__private::parse_plain::<u32>,
            || ::core::option::Option::None,
        );
        ::microversion_actix::__private::deny_unknown(__object, __path, __errors);
        if __errors.len() > __before {
            return ::core::option::Option::None;
        }
        ::core::option::Option::Some(Self {
            items: __f_items?,
            previous: __f_previous?,
            count: __f_count?,
        })
    }
    fn json_schema_at(
        __version: ::microversion_actix::__private::Version,
    ) -> ::microversion_actix::__private::serde_json::Value {
        let mut __properties = ::microversion_actix::__private::serde_json::Map::new();
        let mut __required: ::std::vec::Vec<
            ::microversion_actix::__private::serde_json::Value,
        > = ::std::vec::Vec::new();
        __properties
            .insert(
                "items".into(),
                <Vec<
                    T,
                > as ::microversion_actix::__private::VersionedModel>::json_schema_at(
                    __version,
                ),
            );
        __required.push("items".into());
        if ::microversion_actix::__private::VersionRange::from(
                ::microversion_actix::__private::Version::new(2, 3),
            )
            .contains(__version)
        {
            __properties
                .insert(
                    "previous".into(),
                    <Vec<
                        T,
                    > as ::microversion_actix::__private::DerivedSchema>::derived_schema(),
                );
        }
        __properties
            .insert(
                "count".into(),
                <u32 as ::microversion_actix::__private::DerivedSchema>::derived_schema(),
            );
        __required.push("count".into());
        let mut __schema = ::microversion_actix::__private::serde_json::json!(
            { "type" : "object", "properties" : __properties, "additionalProperties" :
            false, }
        );
        if !__required.is_empty() {
            __schema["required"] = ::microversion_actix::__private::serde_json::Value::Array(
                __required,
            );
        }
        __schema
    }
    fn changes(__out: &mut ::std::vec::Vec<::microversion_actix::__private::Version>) {
        __out.extend_from_slice(&[::microversion_actix::__private::Version::new(2, 3)]);
        <Vec<T> as ::microversion_actix::__private::VersionedModel>::changes(__out);
    }
}
#[automatically_derived]
impl<T: Clone> ::microversion_actix::__private::VersionedStruct for Page<T>
where
    Vec<T>: ::microversion_actix::__private::VersionedModel,
    Vec<T>: ::microversion_actix::__private::serde::Serialize,
    Vec<T>: ::microversion_actix::__private::serde::de::DeserializeOwned,
    Vec<T>: ::core::default::Default,
    Vec<T>: ::microversion_actix::__private::DerivedSchema,
    Page<T>: 'static,
{
    fn compiled_schemas() -> ::core::result::Result<
        &'static ::microversion_actix::__private::VersionedSchemas,
        &'static ::microversion_actix::__private::SchemaError,
    > {
        static CELLS: ::std::sync::OnceLock<
            ::std::sync::Mutex<
                ::std::collections::HashMap<
                    ::core::any::TypeId,
                    &'static ::std::sync::OnceLock<
                        ::core::result::Result<
                            ::microversion_actix::__private::VersionedSchemas,
                            ::microversion_actix::__private::SchemaError,
                        >,
                    >,
                >,
            >,
        > = ::std::sync::OnceLock::new();
        let __cell: &'static ::std::sync::OnceLock<
            ::core::result::Result<
                ::microversion_actix::__private::VersionedSchemas,
                ::microversion_actix::__private::SchemaError,
            >,
        > = *CELLS
            .get_or_init(::core::default::Default::default)
            .lock()
            .unwrap_or_else(::std::sync::PoisonError::into_inner)
            .entry(::core::any::TypeId::of::<Self>())
            .or_insert_with(|| ::std::boxed::Box::leak(
                ::core::default::Default::default(),
            ));
        ::microversion_actix::__private::model_schemas::<Self>(__cell, "Page")
    }
}
