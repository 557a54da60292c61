// mistakes: 2
// Version readers that cannot be read together: one error each, at the declaration.
use microversion_actix::version::VersionReader;
use microversion_actix::{Api, Microversion};

const TWICE: Api = Api::new("shop", &[Microversion::new("1.0", "a")])
    .with_readers(&[VersionReader::Query("v"), VersionReader::Standard, VersionReader::Query("v")]);

const STANDARD_BY_NAME: Api = Api::new("shop", &[Microversion::new("1.0", "a")])
    .with_readers(&[VersionReader::Header("openstack-api-version")]);

fn main() {}
