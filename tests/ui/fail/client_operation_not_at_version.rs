// mistakes: 1
// A typed client whose version is a type calls an operation that version lacks.
use microversion_actix::portable::Path;
use microversion_actix::{Api, Microversion, Version, controller};
use microversion_core::client::typed_client::{Answer, AtVersion, Call, CallError, Transport};

const API: Api = Api::new("inventory", &[Microversion::new("1.0", "a"), Microversion::new("1.1", "b")]);

struct Items;

#[controller(api = API, client)]
impl Items {
    #[delete("/items/{id}")]
    #[api_version("1.1")]
    async fn remove(&self, id: Path<u32>) -> String {
        format!("removed {}", *id)
    }
}

struct Offline;

impl Transport for Offline {
    fn version(&self) -> Version {
        Version::new(1, 0)
    }

    async fn send(&self, _: Call) -> Result<Answer, CallError> {
        Err(CallError::Transport("offline".into()))
    }
}

fn main() {
    let Ok(at_1_0) = AtVersion::<_, 1, 0>::new(Offline) else { return };
    let _ = Items::client(&at_1_0).remove(7);
}
