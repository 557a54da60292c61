#[automatically_derived]
impl ::microversion_actix::__private::VersionedModel for Flavor {
    fn serialize_at<__S: ::microversion_actix::__private::serde::Serializer>(
        &self,
        __version: ::microversion_actix::__private::Version,
        __serializer: __S,
    ) -> ::core::result::Result<__S::Ok, __S::Error> {
        use ::microversion_actix::__private::serde::ser::SerializeMap as _;
        let mut __map = __serializer.serialize_map(::core::option::Option::None)?;
        __map.serialize_entry("id", &self.id)?;
        __map.serialize_entry("OS-FLV-EXT-DATA:ephemeral", &self.ephemeral)?;
        if ::microversion_actix::__private::VersionRange::from(
                ::microversion_actix::__private::Version::new(2, 55),
            )
            .contains(__version)
        {
            __map.serialize_entry("description", &self.description)?;
        }
        if ::microversion_actix::__private::VersionRange::from(
                ::microversion_actix::__private::Version::new(2, 61),
            )
            .contains(__version)
        {
            __map.serialize_entry("extra_specs", &self.extra_specs)?;
        }
        if ::microversion_actix::__private::VersionRange::until(
                ::microversion_actix::__private::Version::new(2, 74),
            )
            .contains(__version)
        {
            __map.serialize_entry("swap", &swap_before_2_75(&self.swap))?;
        } else {
            __map.serialize_entry("swap", &self.swap)?;
        }
        __map
            .serialize_entry(
                "links",
                &::microversion_actix::__private::VersionedModel::at(
                    &self.links,
                    __version,
                ),
            )?;
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
        let __f_id: ::core::option::Option<String> = ::microversion_actix::__private::read_field(
            &mut __object,
            "id",
            ::microversion_actix::__private::VersionRange::ANY,
            ::microversion_actix::__private::Presence::Required,
            __version,
            __path,
            __errors,
            ::microversion_actix::__private::parse_plain::<String>,
            || ::core::option::Option::None,
        );
        let __f_ephemeral: ::core::option::Option<u64> = ::microversion_actix::__private::read_field(
            &mut __object,
            "OS-FLV-EXT-DATA:ephemeral",
            ::microversion_actix::__private::VersionRange::ANY,
            ::microversion_actix::__private::Presence::Required,
            __version,
            __path,
            __errors,
            ::microversion_actix::__private::parse_plain::<u64>,
            || ::core::option::Option::None,
        );
        let __f_description: ::core::option::Option<Option<String>> = ::microversion_actix::__private::read_field(
            &mut __object,
            "description",
            ::microversion_actix::__private::VersionRange::from(
                ::microversion_actix::__private::Version::new(2, 55),
            ),
            ::microversion_actix::__private::Presence::Optional,
            __version,
            __path,
            __errors,
            ::microversion_actix::__private::parse_plain::<Option<String>>,
            || ::core::option::Option::Some(::core::option::Option::None),
        );
        let __f_extra_specs: ::core::option::Option<BTreeMap<String, String>> = ::microversion_actix::__private::read_field(
            &mut __object,
            "extra_specs",
            ::microversion_actix::__private::VersionRange::from(
                ::microversion_actix::__private::Version::new(2, 61),
            ),
            ::microversion_actix::__private::Presence::Default,
            __version,
            __path,
            __errors,
            ::microversion_actix::__private::parse_plain::<BTreeMap<String, String>>,
            || ::core::option::Option::Some(::core::default::Default::default()),
        );
        let __f_swap: ::core::option::Option<u64> = ::microversion_actix::__private::read_field(
            &mut __object,
            "swap",
            ::microversion_actix::__private::VersionRange::ANY,
            ::microversion_actix::__private::Presence::Required,
            __version,
            __path,
            __errors,
            ::microversion_actix::__private::parse_plain::<u64>,
            || ::core::option::Option::None,
        );
        let __f_links: ::core::option::Option<Vec<Link>> = ::microversion_actix::__private::read_field(
            &mut __object,
            "links",
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
                    Link,
                > as ::microversion_actix::__private::VersionedModel>::deserialize_at(
                    __version,
                    __v,
                    __p,
                    __e,
                )
            },
            || ::core::option::Option::None,
        );
        ::microversion_actix::__private::deny_unknown(__object, __path, __errors);
        if __errors.len() > __before {
            return ::core::option::Option::None;
        }
        ::core::option::Option::Some(Self {
            id: __f_id?,
            ephemeral: __f_ephemeral?,
            description: __f_description?,
            extra_specs: __f_extra_specs?,
            swap: __f_swap?,
            links: __f_links?,
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
                "id".into(),
                <String as ::microversion_actix::__private::DerivedSchema>::derived_schema(),
            );
        __required.push("id".into());
        __properties
            .insert(
                "OS-FLV-EXT-DATA:ephemeral".into(),
                <u64 as ::microversion_actix::__private::DerivedSchema>::derived_schema(),
            );
        __required.push("OS-FLV-EXT-DATA:ephemeral".into());
        if ::microversion_actix::__private::VersionRange::from(
                ::microversion_actix::__private::Version::new(2, 55),
            )
            .contains(__version)
        {
            __properties
                .insert(
                    "description".into(),
                    {
                        let mut __field = <Option<
                            String,
                        > as ::microversion_actix::__private::DerivedSchema>::derived_schema();
                        if let ::core::option::Option::Some(__object) = __field
                            .as_object_mut()
                        {
                            __object
                                .entry("description")
                                .or_insert_with(|| {
                                    "A free-form description of the flavor.".into()
                                });
                        }
                        __field
                    },
                );
        }
        if ::microversion_actix::__private::VersionRange::from(
                ::microversion_actix::__private::Version::new(2, 61),
            )
            .contains(__version)
        {
            __properties
                .insert(
                    "extra_specs".into(),
                    <BTreeMap<
                        String,
                        String,
                    > as ::microversion_actix::__private::DerivedSchema>::derived_schema(),
                );
        }
        __properties
            .insert(
                "swap".into(),
                if ::microversion_actix::__private::VersionRange::until(
                        ::microversion_actix::__private::Version::new(2, 74),
                    )
                    .contains(__version)
                {
                    ::microversion_actix::__private::serde_json::json!({})
                } else {
                    <u64 as ::microversion_actix::__private::DerivedSchema>::derived_schema()
                },
            );
        __required.push("swap".into());
        __properties
            .insert(
                "links".into(),
                <Vec<
                    Link,
                > as ::microversion_actix::__private::VersionedModel>::json_schema_at(
                    __version,
                ),
            );
        __required.push("links".into());
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
        __out
            .extend_from_slice(
                &[
                    ::microversion_actix::__private::Version::new(2, 55),
                    ::microversion_actix::__private::Version::new(2, 61),
                    ::microversion_actix::__private::Version::new(2, 75),
                ],
            );
        <Vec<Link> as ::microversion_actix::__private::VersionedModel>::changes(__out);
    }
}
#[automatically_derived]
impl ::microversion_actix::__private::VersionedStruct for Flavor {
    fn compiled_schemas() -> ::core::result::Result<
        &'static ::microversion_actix::__private::VersionedSchemas,
        &'static ::microversion_actix::__private::SchemaError,
    > {
        static CELL: ::std::sync::OnceLock<
            ::core::result::Result<
                ::microversion_actix::__private::VersionedSchemas,
                ::microversion_actix::__private::SchemaError,
            >,
        > = ::std::sync::OnceLock::new();
        ::microversion_actix::__private::model_schemas::<Self>(&CELL, "Flavor")
    }
}
#[doc(hidden)]
const _: () = {
    const __MV_API: &::microversion_actix::__private::Api = &COMPUTE;
    ::core::assert!(
        __MV_API
        .declares(::microversion_actix::__private::VersionRange::only(::microversion_actix::__private::Version::new(2,
        55))),
        "a version of `description`, 2.55, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API
        .declares(::microversion_actix::__private::VersionRange::only(::microversion_actix::__private::Version::new(2,
        61))),
        "a version of `extra_specs`, 2.61, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
    ::core::assert!(
        __MV_API
        .declares(::microversion_actix::__private::VersionRange::only(::microversion_actix::__private::Version::new(2,
        74))),
        "a version of a representation of `swap`, 2.74, is outside the versions declared by `COMPUTE`: declare it in its version history first"
    );
};
