// mistakes: 3
use microversion_actix::portable::{ApiError, Json};
use microversion_actix::{Downgrade, Upgrade, controller, version_change};

/// Servers have a description.
#[version_change(api = microversion_tests::API, "2.5")]
struct Described;

/// Servers have tags.
#[version_change(api = microversion_tests::API, "2.5")]
struct Tagged;

/// Servers are locked.
#[version_change(api = microversion_tests::API, "2.3")]
struct Locked;

macro_rules! same {
    ($($change:ident),*) => {$(
        impl Upgrade<Json<String>> for $change {
            type Before = Json<String>;
            fn upgrade(before: Json<String>) -> Result<Json<String>, ApiError> {
                Ok(before)
            }
        }
        impl Downgrade<Json<String>> for $change {
            type Before = Json<String>;
            fn downgrade(after: Json<String>) -> Json<String> {
                after
            }
        }
    )*};
}
same!(Described, Tagged, Locked);

struct Servers;

#[controller(api = microversion_tests::API)]
impl Servers {
    // Two changes of one version, then one listed after a newer one.
    #[post("/servers")]
    #[api_version("2.1")]
    #[change(Described, body)]
    #[change(Tagged, body, answer)]
    #[change(Locked, answer)]
    async fn create(&self, body: Json<String>) -> Json<String> {
        body
    }

    // A change at the first version of its variant has nothing before it.
    #[put("/servers")]
    #[api_version("2.5")]
    #[change(Tagged, body)]
    async fn update(&self, body: Json<String>) -> Json<String> {
        body
    }
}

fn main() {}
