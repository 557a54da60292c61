//! Keypairs (`/os-keypairs`), following Nova's microversions: `type` and the
//! 201/204 status codes from 2.2, `user_id` from 2.10, paging from 2.35,
//! strict query parameters from 2.75, import only (no generation) from 2.92.
//!
//! Each operation is one handler, written for the newest version; the
//! versions before each of Nova's changes are served by that change's
//! conversions (docs/22-version-changes.md): [`KeypairType`] (2.2),
//! [`KeypairOwner`] (2.10), [`KeypairPaging`] (2.35) and
//! [`KeypairStrictQuery`] (2.75). 2.92 changed the create body's schema
//! only (`#[schema]`).

use std::sync::Arc;

use crate::web::{ApiError, Json, JsonQuery, Origin, Path, StatusCode, controller, version_change};
use md5::Digest as _;
use microversion_core::change::{Downgrade, Upgrade};
use microversion_core::portable::Answer;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use ssh_key::rand_core::OsRng;

use crate::api::COMPUTE;
use crate::listing;
use crate::store::{DEFAULT_USER, KeyType, Keypair, Store};

/// The keypair resource.
pub struct Keypairs {
    store: Arc<Store>,
}

impl Keypairs {
    pub(crate) fn new(store: Arc<Store>) -> Keypairs {
        Keypairs { store }
    }
}

/// Whose keypair a show or delete names, as Nova's `KeypairController`
/// reads it: the first `user_id` (`_get_user_id`), an empty one the
/// caller's (`user_id or context.user_id`). Any other parameter is refused
/// in the words of Nova's query schema, whose root `additionalProperties`
/// message stands alone (before 2.75, [`KeypairStrictQuery`] leaves none).
fn owner(query: &JsonQuery) -> Result<&str, ApiError> {
    // Sorted, as Python's jsonschema lists them (`sorted(extras, key=str)`).
    let mut unknown: Vec<String> = match query.value().as_object() {
        Some(keys) => keys.keys().filter(|key| *key != "user_id").map(|key| format!("'{key}'")).collect(),
        None => Vec::new(),
    };
    unknown.sort();
    if !unknown.is_empty() {
        let verb = if unknown.len() == 1 { "was" } else { "were" };
        let detail =
            format!("Additional properties are not allowed ({} {verb} unexpected)", unknown.join(", "));
        return Err(ApiError::bad_request(detail));
    }
    Ok(query.values("user_id").next().filter(|user| !user.is_empty()).unwrap_or(DEFAULT_USER))
}

#[controller(api = COMPUTE, actix, axum, client)]
impl Keypairs {
    /// Lists the keypairs of a user.
    ///
    /// From 2.10 an administrator names the user with `user_id`; from 2.35
    /// `limit` and `marker` page the list; from 2.75 other query keys are
    /// refused.
    #[get("/os-keypairs")]
    #[errors(400, 503)]
    #[response(200, list_response)]
    #[schema(query = list_query_v2_1, "2.1", "2.9")]
    #[schema(query = list_query_v2_10, "2.10", "2.34")]
    #[schema(query = list_query_v2_35, "2.35", "2.74")]
    #[schema(query = list_query_v2_75, "2.75")]
    #[change(KeypairType, answer)]
    #[change(KeypairOwner, query)]
    #[change(KeypairPaging, query)]
    async fn list(&self, origin: Origin, query: JsonQuery) -> Result<Answer<Listed>, ApiError> {
        // Nova's `KeypairController._get_user_id`: the first `user_id`.
        let user = query.values("user_id").next().unwrap_or(DEFAULT_USER);
        let mut keypairs = self.store.keypairs(user).await?;
        listing::skip_past_marker(
            &mut keypairs,
            query.last("marker"),
            |k| &k.name,
            |marker| ApiError::bad_request(format!("Marker {marker} could not be found.")),
        )?;
        // Nova's `get_limit_and_marker` and `_get_collection_links`: at
        // most `max_limit` a page, and a `next` link whenever the page is
        // full, even when nothing follows it.
        let size = listing::page_size(&query);
        keypairs.truncate(size);
        let last_name = keypairs.last().map(|k| k.name.as_str());
        let keypairs_links =
            listing::next_link(&origin, "os-keypairs", &query, size, last_name, keypairs.len());
        let keypairs = keypairs.iter().map(|k| Shown { keypair: KeypairView::of(k, Nothing {}) }).collect();
        Ok(Answer::ok(Listed { keypairs, keypairs_links }))
    }

    /// Shows one keypair, by its name.
    ///
    /// From 2.10 an administrator names its owner with `user_id`.
    #[get("/os-keypairs/{name}")]
    #[errors(400, 404, 503)]
    #[response(200, show_response)]
    #[change(KeypairType, answer)]
    #[change(KeypairOwner, query, doc = "Shows one keypair of the user, by its name.", errors(404, 503))]
    #[change(KeypairStrictQuery, query)]
    async fn show(&self, name: Path<String>, query: JsonQuery) -> Result<Answer<Shown<Shows>>, ApiError> {
        let user = owner(&query)?;
        let keypair = self.store.keypair(user, &name).await?.ok_or_else(|| not_found(user, &name))?;
        let extra = ShowExtra {
            user_id: keypair.user_id.clone(),
            id: keypair.id,
            created_at: keypair.created_at.clone(),
            updated_at: None,
            deleted_at: None,
            deleted: false,
        };
        Ok(Answer::ok(Shown { keypair: KeypairView::of(&keypair, extra) }))
    }

    /// Imports a public key, or creates a keypair and answers its private key.
    ///
    /// From 2.2 it answers 201 and takes a `type` (`ssh` or `x509`); from
    /// 2.10 an administrator names the owner with `user_id`; from 2.92 the
    /// public key is required: the service no longer generates keys.
    #[post("/os-keypairs")]
    #[errors(400, 403, 409, 503)]
    #[response(201, create_response)]
    #[schema(create_v2_1, "2.1", "2.1")]
    #[schema(create_v2_2, "2.2", "2.9")]
    #[schema(create_v2_10, "2.10", "2.91")]
    #[schema(create_v2_92, "2.92")]
    #[example(
        "2.1",
        path = "/os-keypairs",
        request = "api_samples/keypairs/keypairs-import-post-req.json",
        response = "api_samples/keypairs/keypairs-import-post-resp.json"
    )]
    #[example(
        "2.2",
        path = "/os-keypairs",
        request = "api_samples/keypairs/v2.2/keypairs-import-post-req.json",
        response = "api_samples/keypairs/v2.2/keypairs-import-post-resp.json"
    )]
    #[change(
        KeypairType,
        answer,
        status = 200,
        doc = "Imports a public key, or creates a keypair and answers its private key.\n\nAt 2.1 it answers 200, and the body has `name` and `public_key` only."
    )]
    async fn create(&self, body: Json<CreateBody>) -> Result<Answer<Shown<Creates>>, ApiError> {
        Ok(Answer::created(Shown { keypair: self.create_keypair(body.0.keypair).await? }))
    }

    /// Deletes a keypair; from 2.10 an administrator names its owner with
    /// `user_id`.
    #[delete("/os-keypairs/{name}")]
    #[errors(400, 404, 503)]
    #[response(204)]
    #[change(KeypairType, answer, status = 202, doc = "Deletes a keypair; answers 202 at 2.1.")]
    #[change(KeypairOwner, query, doc = "Deletes a keypair; answers 204 from 2.2.", errors(404, 503))]
    #[change(KeypairStrictQuery, query)]
    async fn delete(&self, name: Path<String>, query: JsonQuery) -> Result<Answer<()>, ApiError> {
        let user = owner(&query)?;
        if !self.store.remove_keypair(user, &name).await? {
            return Err(not_found(user, &name));
        }
        Ok(Answer::empty(StatusCode::NO_CONTENT))
    }
}

impl Keypairs {
    /// Creates from a body the version's schema accepted: imports the given
    /// public key, or generates a key pair and returns its private key.
    async fn create_keypair(&self, body: NewKeypair) -> Result<Creates, ApiError> {
        let NewKeypair { name, public_key, key_type, user_id } = body;
        // Both of Nova's keypair name schemas include its `name` format
        // (`parameter_types.keypair_name_special_chars`), which
        // `validators._validate_name` checks: no whitespace at either end.
        if name.starts_with(char::is_whitespace) || name.ends_with(char::is_whitespace) {
            return Err(ApiError::bad_request(INVALID_NAME));
        }
        let user_id = user_id.unwrap_or_else(|| DEFAULT_USER.to_owned());
        // Nova's `KeypairAPI._check_key_pair_quotas`, before the key is read
        // or the name looked up: a user at the quota gets 403 for any create.
        let quota = self.store.keypair_quota();
        if let Some(quota) = quota
            && self.store.keypair_count(&user_id).await? >= quota
        {
            return Err(over_quota());
        }
        let (public_key, fingerprint, private_key) = match public_key {
            Some(public_key) => {
                // Stored as sent, as Nova's `KeypairAPI.import_key_pair` keeps it.
                let fingerprint = fingerprint(key_type, &public_key)?;
                (public_key, fingerprint, None)
            }
            None => {
                let generated = generate(key_type, &user_id)?;
                (generated.public_key, generated.fingerprint, Some(generated.private_key))
            }
        };
        let taken = format!("Key pair '{name}' already exists.");
        let keypair = Keypair {
            id: 0,
            name,
            user_id,
            public_key,
            fingerprint,
            key_type,
            created_at: crate::time::now_iso8601(),
        };
        // A storage failure is a 503 (`?`), never "already exists".
        let keypair = self.store.insert_keypair(keypair).await?.map_err(|_| ApiError::conflict(taken))?;
        // Nova's recheck (`CONF.quota.recheck_quota`): of creates that raced
        // past the first check (a fleet's nodes), none keeps a keypair above the quota.
        if let Some(quota) = quota
            && self.store.keypair_count(&keypair.user_id).await? > quota
        {
            self.store.remove_keypair(&keypair.user_id, &keypair.name).await?;
            return Err(over_quota());
        }
        Ok(KeypairView::of(&keypair, CreateExtra { user_id: keypair.user_id.clone(), private_key }))
    }
}

// ---- What the head answers, by type.

/// A keypair as every view shows it, with the fields of one answer
/// (`extra`); `type` is `None` only before 2.2 ([`KeypairType`]).
#[derive(Debug, Serialize)]
pub struct KeypairView<E> {
    name: String,
    public_key: String,
    fingerprint: String,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    key_type: Option<KeyType>,
    #[serde(flatten)]
    extra: E,
}

impl<E> KeypairView<E> {
    fn of(keypair: &Keypair, extra: E) -> KeypairView<E> {
        KeypairView {
            name: keypair.name.clone(),
            public_key: keypair.public_key.clone(),
            fingerprint: keypair.fingerprint.clone(),
            key_type: Some(keypair.key_type),
            extra,
        }
    }
}

/// A list's keypair: nothing beside the view's own fields.
#[derive(Debug, Serialize)]
pub(crate) struct Nothing {}

/// What a show adds: the owner, the id, the dates and the soft-delete flags.
#[derive(Debug, Serialize)]
pub struct ShowExtra {
    user_id: String,
    id: u64,
    created_at: String,
    updated_at: Option<String>,
    deleted_at: Option<String>,
    deleted: bool,
}

/// What a create adds: the owner, and the private key of a generated pair.
#[derive(Debug, Serialize)]
pub struct CreateExtra {
    user_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    private_key: Option<String>,
}

/// A shown keypair.
pub(crate) type Shows = KeypairView<ShowExtra>;
/// A created keypair.
pub(crate) type Creates = KeypairView<CreateExtra>;

/// `{"keypair": {...}}`.
#[derive(Debug, Serialize)]
pub struct Shown<V> {
    keypair: V,
}

/// `{"keypairs": [...], "keypairs_links": [...]}`, the links of a full page.
#[derive(Debug, Serialize)]
pub struct Listed {
    keypairs: Vec<Shown<KeypairView<Nothing>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    keypairs_links: Option<Value>,
}

// ---- Nova's changes, each converting what it changed.

/// Keypairs have a `type` (`ssh` or `x509`); a create answers 201 Created
/// and a delete 204 No Content (200 and 202 before).
#[version_change(api = COMPUTE, "2.2", field(KeypairView::<Nothing>::key_type, didnt_exist))]
pub struct KeypairType;

/// What a view looked like before [`KeypairType`]: without `type`.
trait Untyped {
    fn untyped(self) -> Self;
}

impl<E> Untyped for Shown<KeypairView<E>> {
    fn untyped(mut self) -> Self {
        self.keypair.key_type = None;
        self
    }
}

impl Untyped for Listed {
    fn untyped(mut self) -> Self {
        self.keypairs = self.keypairs.into_iter().map(Untyped::untyped).collect();
        self
    }
}

impl Untyped for () {
    fn untyped(self) -> Self {}
}

impl<T: Untyped> Downgrade<Result<Answer<T>, ApiError>> for KeypairType {
    type Before = Result<Answer<T>, ApiError>;
    fn downgrade(after: Result<Answer<T>, ApiError>) -> Self::Before {
        after.map(|answer| {
            let status = match answer.status {
                StatusCode::CREATED => StatusCode::OK,
                StatusCode::NO_CONTENT => StatusCode::ACCEPTED,
                other => other,
            };
            answer.with_status(status).map(Untyped::untyped)
        })
    }
}

/// An administrator names a keypair's owner: `user_id` in a create body
/// (its schema) and in the query of list, show and delete; before, the
/// parameter meant nothing.
#[version_change(api = COMPUTE, "2.10")]
pub struct KeypairOwner;

impl Upgrade<JsonQuery> for KeypairOwner {
    type Before = JsonQuery;
    fn upgrade(before: JsonQuery) -> Result<JsonQuery, ApiError> {
        Ok(without(before, |key| key == "user_id"))
    }
}

/// The keypair list is paged by `limit` and `marker`; before, it is whole
/// and the parameters mean nothing.
#[version_change(api = COMPUTE, "2.35")]
pub struct KeypairPaging;

impl Upgrade<JsonQuery> for KeypairPaging {
    type Before = JsonQuery;
    fn upgrade(before: JsonQuery) -> Result<JsonQuery, ApiError> {
        let mut query = without(before, |key| key == "limit" || key == "marker");
        if let Some(keys) = query.0.as_object_mut() {
            keys.insert("limit".to_owned(), listing::UNPAGED);
        }
        Ok(query)
    }
}

/// A show or delete refuses query parameters other than `user_id`;
/// before, they are ignored (the list's query schema says the same of
/// its own).
#[version_change(api = COMPUTE, "2.75")]
pub struct KeypairStrictQuery;

impl Upgrade<JsonQuery> for KeypairStrictQuery {
    type Before = JsonQuery;
    fn upgrade(before: JsonQuery) -> Result<JsonQuery, ApiError> {
        Ok(without(before, |key| key != "user_id"))
    }
}

/// `query` without the keys `drop` names.
fn without(mut query: JsonQuery, drop: impl Fn(&str) -> bool) -> JsonQuery {
    if let Some(keys) = query.0.as_object_mut() {
        keys.retain(|key, _| !drop(key));
    }
    query
}

/// Nova's default `[quota] key_pairs`: the most keypairs a user holds.
pub const KEYPAIR_QUOTA: u64 = 100;

/// Nova's `KeypairLimitExceeded`, answered 403 by its keypair controller.
fn over_quota() -> ApiError {
    ApiError::from_status(StatusCode::FORBIDDEN, "Quota exceeded, too many key pairs.")
}

fn not_found(user: &str, name: &str) -> ApiError {
    ApiError::not_found(format!("Keypair {name} not found for user {user}"))
}

/// `{"keypair": {...}}` of a create, as the version's schema (Nova's own,
/// which the documents show and whose words the refusals use) accepted it,
/// and as the typed client sends it.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct CreateBody {
    /// The keypair.
    pub keypair: NewKeypair,
}

/// A keypair to create: imported when it has a public key, else generated.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct NewKeypair {
    /// Its name, unique per user.
    pub name: String,
    /// The key to import; none to have one generated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub public_key: Option<String>,
    /// From 2.2 (not sent when `ssh`, the default of every version).
    #[serde(rename = "type", default, skip_serializing_if = "KeyType::is_ssh")]
    pub key_type: KeyType,
    /// From 2.10, an administrator's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
}

fn invalid_key() -> ApiError {
    ApiError::bad_request("Keypair data is invalid: failed to generate fingerprint")
}

fn colon_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(":")
}

/// Nova's fingerprints: MD5 of the key blob for ssh keys, SHA-1 of the
/// certificate for x509 ones, as colon-separated hex.
fn fingerprint(key_type: KeyType, public_key: &str) -> Result<String, ApiError> {
    match key_type {
        KeyType::Ssh => {
            let key = ssh_key::PublicKey::from_openssh(public_key.trim()).map_err(|_| invalid_key())?;
            let blob = key.to_bytes().map_err(|_| invalid_key())?;
            Ok(colon_hex(&md5::Md5::digest(&blob)))
        }
        KeyType::X509 => {
            let der = certificate_der(public_key).map_err(|why| {
                ApiError::bad_request(format!(
                    "Keypair data is invalid: failed to generate X509 fingerprint. Error message: {why}"
                ))
            })?;
            Ok(colon_hex(&sha1::Sha1::digest(&der)))
        }
    }
}

/// The DER bytes of the first PEM certificate in the text, read as Nova's
/// `crypto.generate_x509_fingerprint` has `cryptography` read it
/// (`load_pem_x509_certificate`): `Err` holds why not, in its words where
/// they do not depend on its parser (the framing, another kind of PEM).
fn certificate_der(text: &str) -> Result<Vec<u8>, String> {
    use x509_cert::der::Decode as _;
    let unreadable = |what: String| {
        format!(
            "Unable to load PEM file. See https://cryptography.io/en/latest/faq/#why-can-t-i-import-my-pem-file \
             for more details. {what}"
        )
    };
    let blocks = pem::parse_many(text).map_err(|e| {
        unreadable(match e {
            pem::PemError::InvalidData(cause) => format!("InvalidData({cause})"),
            other => format!("{other:?}"),
        })
    })?;
    if blocks.is_empty() {
        return Err(unreadable("MalformedFraming".into()));
    }
    let certificate =
        blocks.into_iter().find(|block| matches!(block.tag(), "CERTIFICATE" | "X509 CERTIFICATE"));
    let der = certificate
        .ok_or("Valid PEM but no BEGIN CERTIFICATE/END CERTIFICATE delimiters. Are you sure this is a certificate?")?
        .into_contents();
    x509_cert::Certificate::from_der(&der).map_err(|e| format!("error parsing asn1 value: {e}"))?;
    Ok(der)
}

struct Generated {
    public_key: String,
    private_key: String,
    fingerprint: String,
}

/// A new key pair: RSA 2048 for ssh, as Nova generates it, and a
/// self-signed certificate for x509.
fn generate(key_type: KeyType, user_id: &str) -> Result<Generated, ApiError> {
    let failed = |e: &dyn std::fmt::Display| ApiError::internal(format!("key generation failed: {e}"));
    match key_type {
        KeyType::Ssh => {
            // Nova's `crypto.generate_key_pair`: paramiko's `RSAKey.generate(2048)`,
            // the private key in PKCS#1 PEM (`BEGIN RSA PRIVATE KEY`), the public
            // key `ssh-rsa <blob> Generated-by-Nova`.
            use rsa::pkcs1::EncodeRsaPrivateKey as _;
            use rsa::traits::PublicKeyParts as _;
            let private = rsa::RsaPrivateKey::new(&mut OsRng, 2048).map_err(|e| failed(&e))?;
            let mpint = |n: &rsa::BigUint| ssh_key::Mpint::from_positive_bytes(&n.to_bytes_be());
            let public = ssh_key::public::RsaPublicKey {
                e: mpint(private.e()).map_err(|e| failed(&e))?,
                n: mpint(private.n()).map_err(|e| failed(&e))?,
            };
            let public_key = ssh_key::PublicKey::new(public.into(), "Generated-by-Nova")
                .to_openssh()
                .map_err(|e| failed(&e))?;
            let private_key =
                private.to_pkcs1_pem(rsa::pkcs1::LineEnding::LF).map_err(|e| failed(&e))?.to_string();
            let fingerprint = fingerprint(KeyType::Ssh, &public_key)?;
            Ok(Generated { public_key, private_key, fingerprint })
        }
        KeyType::X509 => {
            // Nova's `crypto.generate_winrm_x509_cert`: `openssl req -x509
            // -days 3650 -newkey rsa:2048 -subj /CN=<user>` with the client
            // authentication usage and the user's `<user>@localhost` UPN,
            // then `openssl pkcs12 -export -password pass:`, base64-encoded,
            // as the private key; the certificate's PEM is the public key.
            use rsa::pkcs8::EncodePrivateKey as _;
            let private = rsa::RsaPrivateKey::new(&mut OsRng, 2048).map_err(|e| failed(&e))?;
            let pkcs8 = private.to_pkcs8_der().map_err(|e| failed(&e))?;
            let pem = private.to_pkcs8_pem(rsa::pkcs8::LineEnding::LF).map_err(|e| failed(&e))?;
            let key_pair = rcgen::KeyPair::from_pem_and_sign_algo(&pem, &rcgen::PKCS_RSA_SHA256)
                .map_err(|e| failed(&e))?;
            let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).map_err(|e| failed(&e))?;
            params.distinguished_name = rcgen::DistinguishedName::new();
            params.distinguished_name.push(rcgen::DnType::CommonName, user_id);
            params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ClientAuth];
            // The Microsoft UPN (1.3.6.1.4.1.311.20.2.3).
            let upn = rcgen::OtherNameValue::Utf8String(format!("{user_id}@localhost"));
            params.subject_alt_names =
                vec![rcgen::SanType::OtherName((vec![1, 3, 6, 1, 4, 1, 311, 20, 2, 3], upn))];
            let now = time::OffsetDateTime::now_utc();
            (params.not_before, params.not_after) = (now, now + time::Duration::days(3650));
            let cert = params.self_signed(&key_pair).map_err(|e| failed(&e))?;
            let mut salt = [0u8; 8];
            ssh_key::rand_core::RngCore::fill_bytes(&mut OsRng, &mut salt);
            let pfx = crate::pkcs12::export(pkcs8.as_bytes(), cert.der(), &salt);
            use base64::Engine as _;
            Ok(Generated {
                public_key: cert.pem(),
                private_key: base64::engine::general_purpose::STANDARD.encode(pfx),
                fingerprint: colon_hex(&sha1::Sha1::digest(cert.der())),
            })
        }
    }
}

/// A random (version 4) UUID, for flavors created without an id.
pub(crate) fn uuid4() -> String {
    uuid::Uuid::new_v4().to_string()
}

// ---- Schemas, as Nova's `schemas/keypairs.py` has them.

fn name(pattern: &str) -> Value {
    json!({"type": "string", "minLength": 1, "maxLength": 255, "pattern": pattern})
}

/// Nova's `InvalidName`, with the reason of its `valid_name_regex`.
pub(crate) const INVALID_NAME: &str = "An invalid 'name' value was provided. The name must be: printable characters. Can not start or end with whitespace.";

const NAME_BEFORE_2_92: &str = "^[a-zA-Z0-9 _-]+$";
const NAME_FROM_2_92: &str = "^[a-zA-Z0-9 @._-]+$";

fn create_body(properties: Value, required: &[&str]) -> Value {
    json!({
        "type": "object",
        "properties": {"keypair": {
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": false,
        }},
        "required": ["keypair"],
        "additionalProperties": false,
    })
}

/// The create body as Nova's schema has it: the name's pattern, the
/// optional keys beside `name` and `public_key` (`type` from 2.2,
/// `user_id` from 2.10), and whether the public key is required (2.92).
fn create_schema(pattern: &str, optional: &[&str], key_required: bool) -> Value {
    let mut properties = Map::new();
    properties.insert("name".into(), name(pattern));
    properties.insert("public_key".into(), json!({"type": "string"}));
    if optional.contains(&"type") {
        properties.insert("type".into(), json!({"enum": ["ssh", "x509"]}));
    }
    if optional.contains(&"user_id") {
        properties.insert("user_id".into(), json!({"type": "string", "minLength": 1, "maxLength": 255}));
    }
    let required: &[&str] = if key_required { &["name", "public_key"] } else { &["name"] };
    create_body(Value::Object(properties), required)
}

fn create_v2_1() -> Value {
    create_schema(NAME_BEFORE_2_92, &[], false)
}

fn create_v2_2() -> Value {
    create_schema(NAME_BEFORE_2_92, &["type"], false)
}

fn create_v2_10() -> Value {
    create_schema(NAME_BEFORE_2_92, &["type", "user_id"], false)
}

fn create_v2_92() -> Value {
    create_schema(NAME_FROM_2_92, &["type", "user_id"], true)
}

// ---- Response schemas: what the views above write.

/// A keypair as the views show it, with `extra` fields of one answer; `type`
/// appears from 2.2.
fn keypair_object(extra: Value) -> Value {
    let mut properties = json!({
        "name": {"type": "string"},
        "public_key": {"type": "string"},
        "fingerprint": {"type": "string"},
        "type": {"enum": ["ssh", "x509"]},
        "user_id": {"type": "string"},
    });
    if let (Some(properties), Some(extra)) = (properties.as_object_mut(), extra.as_object()) {
        properties.extend(extra.clone());
    }
    json!({
        "type": "object",
        "required": ["name", "public_key", "fingerprint"],
        "properties": properties,
        "additionalProperties": false,
    })
}

fn one_keypair(extra: Value) -> Value {
    json!({"type": "object", "required": ["keypair"], "properties": {"keypair": keypair_object(extra)},
           "additionalProperties": false})
}

fn list_response() -> Value {
    let link = json!({"type": "object", "required": ["rel", "href"],
                      "properties": {"rel": {"type": "string"}, "href": {"type": "string"}}});
    json!({
        "type": "object",
        "required": ["keypairs"],
        "properties": {
            "keypairs": {"type": "array", "items": one_keypair(json!({}))},
            "keypairs_links": {"type": "array", "items": link},
        },
        "additionalProperties": false,
    })
}

fn show_response() -> Value {
    one_keypair(json!({
        "id": {"type": "integer"},
        "created_at": {"type": "string"},
        "updated_at": {"type": "null"},
        "deleted_at": {"type": "null"},
        "deleted": {"type": "boolean"},
    }))
}

fn create_response() -> Value {
    one_keypair(json!({"private_key": {"type": "string"}}))
}

/// The list query with `keys` (all strings, `limit` Nova's
/// `non_negative_integer`), unknown keys
/// allowed unless `strict`.
fn list_query(keys: &[&str], strict: bool) -> Value {
    let mut properties = Map::new();
    for key in keys {
        let item = if *key == "limit" { listing::non_negative_integer() } else { json!({"type": "string"}) };
        properties.insert((*key).to_owned(), json!({"type": "array", "items": item}));
    }
    json!({"type": "object", "properties": properties, "additionalProperties": !strict})
}

fn list_query_v2_1() -> Value {
    list_query(&[], false)
}

fn list_query_v2_10() -> Value {
    list_query(&["user_id"], false)
}

fn list_query_v2_35() -> Value {
    list_query(&["user_id", "limit", "marker"], false)
}

fn list_query_v2_75() -> Value {
    list_query(&["user_id", "limit", "marker"], true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rsa::pkcs1::DecodeRsaPrivateKey as _;
    use rsa::traits::PublicKeyParts as _;

    /// Nova's `nova.crypto.generate_key_pair`: an RSA 2048 key, its private
    /// half in PKCS#1 PEM, its public half `ssh-rsa ... Generated-by-Nova`,
    /// the MD5 fingerprint of the public blob.
    #[test]
    fn a_generated_ssh_pair_is_rsa_2048_as_nova_generate_key_pair_writes_it() {
        let generated = generate(KeyType::Ssh, "alice").expect("a generated pair");
        let private = rsa::RsaPrivateKey::from_pkcs1_pem(&generated.private_key).expect("PKCS#1 PEM");
        assert_eq!(private.n().bits(), 2048);
        assert!(generated.private_key.starts_with("-----BEGIN RSA PRIVATE KEY-----\n"));
        assert!(generated.private_key.ends_with("-----END RSA PRIVATE KEY-----\n"));

        let fields: Vec<&str> = generated.public_key.split(' ').collect();
        assert_eq!((fields[0], fields[2]), ("ssh-rsa", "Generated-by-Nova"), "{}", generated.public_key);
        let public = ssh_key::PublicKey::from_openssh(&generated.public_key).expect("an OpenSSH public key");
        let rsa_public = public.key_data().rsa().expect("an RSA key");
        assert_eq!(
            rsa_public.n.as_positive_bytes(),
            Some(&private.n().to_bytes_be()[..]),
            "the pair's halves"
        );
        assert_eq!(rsa_public.e.as_positive_bytes(), Some(&[1, 0, 1][..]));

        let blob = public.to_bytes().expect("the blob");
        assert_eq!(generated.fingerprint, colon_hex(&md5::Md5::digest(&blob)));
        assert_ne!(generate(KeyType::Ssh, "alice").expect("another pair").public_key, generated.public_key);
    }

    /// Nova's `nova.crypto.generate_winrm_x509_cert`: the private key is
    /// the base64 of a PKCS#12 file with the empty password, which OpenSSL
    /// itself reads back (MAC verified) into an RSA 2048 key and the very
    /// certificate of the public key: `CN=<user>`, client authentication,
    /// the `<user>@localhost` UPN, ten years; the fingerprint is its SHA-1.
    #[test]
    fn a_generated_x509_pair_is_a_pkcs12_file_openssl_reads() {
        use base64::Engine as _;
        let generated = generate(KeyType::X509, "alice").expect("a generated pair");
        let pfx = base64::engine::general_purpose::STANDARD.decode(&generated.private_key).expect("base64");
        let dir = std::env::temp_dir().join(format!("compute-pkcs12-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a directory");
        let file = dir.join("pair.p12");
        std::fs::write(&file, &pfx).expect("the file");
        let openssl = |args: &[&str]| {
            let out = std::process::Command::new("openssl").args(args).output().expect("openssl runs");
            assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
            String::from_utf8_lossy(&out.stdout).into_owned()
        };
        let path = file.to_str().expect("a UTF-8 path");
        let contents = openssl(&["pkcs12", "-in", path, "-passin", "pass:", "-nodes"]);
        let _ = std::fs::remove_dir_all(&dir);
        let key_pem = &contents[contents.find("-----BEGIN PRIVATE KEY-----").expect("the key")..];
        let key_pem = &key_pem[..key_pem.find("-----END PRIVATE KEY-----").expect("its end") + 25];
        use rsa::pkcs8::DecodePrivateKey as _;
        let key = rsa::RsaPrivateKey::from_pkcs8_pem(key_pem).expect("an RSA key");
        assert_eq!(key.n().bits(), 2048);
        let certificate = generated.public_key.trim();
        assert!(contents.contains(certificate), "the file holds the public key's certificate");

        let cert_file = std::env::temp_dir().join(format!("compute-cert-{}.pem", std::process::id()));
        std::fs::write(&cert_file, &generated.public_key).expect("the certificate");
        let text = openssl(&["x509", "-in", cert_file.to_str().expect("UTF-8"), "-noout", "-text"]);
        let fingerprint =
            openssl(&["x509", "-in", cert_file.to_str().expect("UTF-8"), "-noout", "-fingerprint", "-sha1"]);
        let _ = std::fs::remove_file(&cert_file);
        assert!(text.contains("Subject: CN=alice") || text.contains("Subject: CN = alice"), "{text}");
        assert!(text.contains("TLS Web Client Authentication"), "{text}");
        assert!(text.contains("alice@localhost"), "{text}");
        assert!(text.contains("Public-Key: (2048 bit)"), "{text}");
        let sha1 = fingerprint.trim().rsplit('=').next().expect("the digest").to_ascii_lowercase();
        assert_eq!(generated.fingerprint, sha1);
    }
}
