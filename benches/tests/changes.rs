//! The two controllers of the version-change bench answer every version
//! alike, as that version words it: what the bench compares is the same
//! answer served two ways.

use microversion_benches::changes::{Variants, Walked, answer, router};
use serde_json::{Value, json};

#[tokio::test(flavor = "current_thread")]
async fn walked_changes_and_variants_answer_every_version_alike() {
    let (walked, variants) = (router(Walked), router(Variants));
    for minor in 0..=10 {
        let (status, body) = answer(&walked, minor).await;
        assert_eq!((status, &body), (200, &answer(&variants, minor).await.1), "1.{minor}");
        let body: Value = serde_json::from_slice(&body).expect("JSON");
        let mut expected = json!({"id": 7, "count": 42});
        expected[format!("n{minor}")] = json!("widget");
        assert_eq!(body, expected, "1.{minor}");
    }
}
