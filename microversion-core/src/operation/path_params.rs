//! A route's parameters (`/servers/{id}/tags/{tag}`) read into a type, by
//! one reader for every facade: one value, a tuple or a sequence in the
//! path's order, or a struct or map by name. Each value is text, parsed as
//! the type asks (`"7"` as `u32`), as actix's and axum's path readers do.

use serde::de::value::{Error, MapDeserializer, SeqDeserializer};
use serde::de::{self, Deserializer, IntoDeserializer, Visitor};

/// Reads `params` (name, decoded value; in the path's order) into `T`.
///
/// ```
/// use microversion_core::operation::read_path_params;
///
/// assert_eq!(read_path_params::<u32>(&[("id", "7")]).unwrap(), 7);
/// assert!(read_path_params::<u32>(&[("id", "seven")]).is_err());
/// let (id, tag): (u32, String) = read_path_params(&[("id", "7"), ("tag", "a b")]).unwrap();
/// assert_eq!((id, tag.as_str()), (7, "a b"));
///
/// #[derive(serde::Deserialize)]
/// struct Tagged { id: u64, tag: String }
/// let tagged: Tagged = read_path_params(&[("id", "7"), ("tag", "web")]).unwrap();
/// assert_eq!((tagged.id, tagged.tag.as_str()), (7, "web"));
/// ```
pub fn read_path_params<'a, T: serde::Deserialize<'a>>(params: &[(&'a str, &'a str)]) -> Result<T, Error> {
    T::deserialize(Params(params))
}

/// Every parameter of a path.
struct Params<'p, 'a>(&'p [(&'a str, &'a str)]);

impl<'a> Params<'_, 'a> {
    /// The one parameter a scalar reads, or the refusal of a path with
    /// none or several.
    fn only(&self) -> Result<Value<'a>, Error> {
        match self.0 {
            [(_, value)] => Ok(Value(value)),
            params => Err(de::Error::custom(format!("expected 1 path parameter, got {}", params.len()))),
        }
    }

    fn values(&self) -> SeqDeserializer<impl Iterator<Item = Value<'a>>, Error> {
        SeqDeserializer::new(self.0.iter().map(|(_, value)| Value(value)))
    }
}

/// A scalar's methods: each reads the only parameter.
macro_rules! through_only {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
            self.only()?.$method(visitor)
        }
    )*};
}

impl<'a> Deserializer<'a> for Params<'_, 'a> {
    type Error = Error;

    through_only! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64 deserialize_char deserialize_str deserialize_string
        deserialize_bytes deserialize_byte_buf deserialize_option deserialize_unit deserialize_identifier
    }

    fn deserialize_unit_struct<V: Visitor<'a>>(self, name: &'static str, v: V) -> Result<V::Value, Error> {
        self.only()?.deserialize_unit_struct(name, v)
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(self, _: &'static str, v: V) -> Result<V::Value, Error> {
        v.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_seq(self.values())
    }

    fn deserialize_tuple<V: Visitor<'a>>(self, len: usize, visitor: V) -> Result<V::Value, Error> {
        if len != self.0.len() {
            return Err(de::Error::invalid_length(self.0.len(), &&*format!("{len} path parameters")));
        }
        visitor.visit_seq(self.values())
    }

    fn deserialize_tuple_struct<V: Visitor<'a>>(
        self,
        _: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_tuple(len, visitor)
    }

    fn deserialize_map<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_map(MapDeserializer::new(self.0.iter().map(|(name, value)| (*name, Value(value)))))
    }

    fn deserialize_struct<V: Visitor<'a>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.only()?.deserialize_enum(name, variants, visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }
}

/// One parameter's text, parsed as its type asks.
struct Value<'a>(&'a str);

/// A number or other scalar parsed from the text.
macro_rules! parsed {
    ($($method:ident => $visit:ident),* $(,)?) => {$(
        fn $method<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
            match self.0.parse() {
                Ok(value) => visitor.$visit(value),
                Err(_) => Err(de::Error::invalid_value(de::Unexpected::Str(self.0), &visitor)),
            }
        }
    )*};
}

impl<'a> Deserializer<'a> for Value<'a> {
    type Error = Error;

    parsed! {
        deserialize_bool => visit_bool, deserialize_i8 => visit_i8, deserialize_i16 => visit_i16,
        deserialize_i32 => visit_i32, deserialize_i64 => visit_i64, deserialize_i128 => visit_i128,
        deserialize_u8 => visit_u8, deserialize_u16 => visit_u16, deserialize_u32 => visit_u32,
        deserialize_u64 => visit_u64, deserialize_u128 => visit_u128, deserialize_f32 => visit_f32,
        deserialize_f64 => visit_f64, deserialize_char => visit_char,
    }

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_str(self.0)
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(self, _: &'static str, v: V) -> Result<V::Value, Error> {
        v.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_enum(self.0.into_deserializer())
    }

    serde::forward_to_deserialize_any! {
        <W: Visitor<'a>>
        str string bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

impl<'a> IntoDeserializer<'a, Error> for Value<'a> {
    type Deserializer = Value<'a>;

    fn into_deserializer(self) -> Value<'a> {
        self
    }
}

/// `read` of a route's parameters, held on the stack when there are at
/// most eight of them (a path's usual count): no allocation a request.
/// What a facade's [`Facade::path_params`](super::Facade::path_params)
/// calls with its framework's iterator.
pub fn with_path_params<'a, R>(
    params: impl Iterator<Item = (&'a str, &'a str)>,
    read: impl FnOnce(&[(&'a str, &'a str)]) -> R,
) -> R {
    const HELD: usize = 8;
    let mut held = [("", ""); HELD];
    let mut count = 0;
    let mut params = params.peekable();
    while count < HELD
        && let Some(param) = params.next()
    {
        held[count] = param;
        count += 1;
    }
    match params.peek() {
        None => read(&held[..count]),
        Some(_) => read(&held.into_iter().chain(params).collect::<Vec<_>>()),
    }
}

#[cfg(test)]
mod tests {
    use super::read_path_params;

    #[test]
    fn values_are_parsed_as_their_types_ask_and_refused_when_they_do_not_read() {
        assert_eq!(read_path_params::<i64>(&[("id", "-7")]).unwrap(), -7);
        assert_eq!(read_path_params::<String>(&[("id", "7")]).unwrap(), "7");
        assert_eq!(read_path_params::<Option<bool>>(&[("on", "true")]).unwrap(), Some(true));
        assert!(read_path_params::<u8>(&[("id", "300")]).is_err());
        assert!(read_path_params::<u32>(&[]).is_err(), "a scalar needs one parameter");
        assert!(read_path_params::<u32>(&[("a", "1"), ("b", "2")]).is_err());
        assert!(read_path_params::<(u32, u32, u32)>(&[("a", "1"), ("b", "2")]).is_err());
        assert_eq!(read_path_params::<Vec<u16>>(&[("a", "1"), ("b", "2")]).unwrap(), [1, 2]);
    }

    #[test]
    fn enums_read_a_unit_variant_by_name() {
        #[derive(serde::Deserialize, Debug, PartialEq)]
        #[serde(rename_all = "lowercase")]
        enum Kind {
            Ssh,
            X509,
        }
        assert_eq!(read_path_params::<Kind>(&[("kind", "x509")]).unwrap(), Kind::X509);
        assert!(read_path_params::<Kind>(&[("kind", "rsa")]).is_err());
        assert_ne!(read_path_params::<Kind>(&[("kind", "ssh")]).unwrap(), Kind::X509);
    }

    /// A path's parameters are read whole, up to eight on the stack and
    /// more through a list.
    #[test]
    fn every_parameter_is_read_however_many() {
        for count in [0, 1, 8, 9, 20] {
            let names: Vec<String> = (0..count).map(|i| format!("p{i}")).collect();
            let params = names.iter().map(|name| (name.as_str(), "v"));
            let read = super::with_path_params(params, |params| {
                params.iter().map(|(name, _)| name.to_string()).collect::<Vec<_>>()
            });
            assert_eq!(read, names, "{count} parameters");
        }
    }
}
