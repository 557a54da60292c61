//! Keypairs (`/os-keypairs`), following Nova's microversions: `type` and the
//! 201/204 status codes from 2.2, `user_id` from 2.10, paging from 2.35,
//! strict query parameters from 2.75, import only (no generation) from 2.92.

use std::sync::Arc;

use crate::web::{
    ApiError, ApiVersion, Json, JsonQuery, Origin, Path, Response, StatusCode, controller, empty_response,
    json_response,
};
use md5::Digest as _;
use microversion_core::Version;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use ssh_key::rand_core::OsRng;

use crate::api::COMPUTE;
use crate::listing;
use crate::store::{DEFAULT_USER, KeyType, Keypair, Store};

const V2_2: Version = Version::lit("2.2");
const V2_10: Version = Version::lit("2.10");
const V2_35: Version = Version::lit("2.35");
const V2_75: Version = Version::lit("2.75");
const V2_92: Version = Version::lit("2.92");

/// The keypair resource.
pub struct Keypairs {
    store: Arc<Store>,
}

impl Keypairs {
    pub(crate) fn new(store: Arc<Store>) -> Keypairs {
        Keypairs { store }
    }
}

/// Whose keypair a show or delete from 2.10 names, as Nova's
/// `KeypairController` reads it: the first `user_id` (`_get_user_id`), an
/// empty one the caller's (`user_id or context.user_id`). From 2.75 any
/// other parameter is refused in the words of Nova's query schema, whose
/// root `additionalProperties` message stands alone.
fn owner(version: ApiVersion, query: &JsonQuery) -> Result<&str, ApiError> {
    // Sorted, as Python's jsonschema lists them (`sorted(extras, key=str)`).
    let mut unknown: Vec<String> = match query.value().as_object() {
        Some(keys) => keys.keys().filter(|key| *key != "user_id").map(|key| format!("'{key}'")).collect(),
        None => Vec::new(),
    };
    unknown.sort();
    if version >= V2_75 && !unknown.is_empty() {
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
    async fn list(
        &self,
        version: ApiVersion,
        origin: Origin,
        query: JsonQuery,
    ) -> Result<Response, ApiError> {
        let last = |key: &str| query.last(key);
        // Nova's `KeypairController._get_user_id`: the first `user_id`.
        let first_user = query.values("user_id").next();
        let user = if version >= V2_10 { first_user.unwrap_or(DEFAULT_USER) } else { DEFAULT_USER };
        let mut keypairs = self.store.keypairs(user).await?;
        let mut page_links = None;
        // Paging arrived in 2.35: before, `limit` and `marker` mean nothing.
        if version >= V2_35 {
            listing::skip_past_marker(
                &mut keypairs,
                last("marker"),
                |k| &k.name,
                |marker| ApiError::bad_request(format!("Marker {marker} could not be found.")),
            )?;
            // Nova's `get_limit_and_marker` and `_get_collection_links`: at
            // most `max_limit` a page, and a `next` link whenever the page is
            // full, even when nothing follows it.
            let size = listing::page_size(&query);
            keypairs.truncate(size);
            let last_name = keypairs.last().map(|k| k.name.as_str());
            page_links = listing::next_link(&origin, "os-keypairs", &query, size, last_name, keypairs.len());
        }
        let views: Vec<Value> = keypairs.iter().map(|k| json!({"keypair": self.view(version, k)})).collect();
        let mut body = json!({"keypairs": views});
        if let Some(links) = page_links {
            body["keypairs_links"] = links;
        }
        Ok(json_response(StatusCode::OK, &body))
    }

    /// Shows one keypair of the user, by its name.
    #[get("/os-keypairs/{name}")]
    #[errors(404, 503)]
    #[api_version("2.1", "2.9")]
    #[response(200, show_response)]
    async fn show(&self, version: ApiVersion, name: Path<String>) -> Result<Response, ApiError> {
        self.show_for(version, DEFAULT_USER, &name).await
    }

    /// Shows one keypair, by its name.
    ///
    /// From 2.10 an administrator names its owner with `user_id`.
    // A query parameter the older variant does not extract.
    #[get("/os-keypairs/{name}")]
    #[errors(400, 404, 503)]
    #[api_version("2.10")]
    #[response(200, show_response)]
    async fn show(
        &self,
        version: ApiVersion,
        name: Path<String>,
        query: JsonQuery,
    ) -> Result<Response, ApiError> {
        self.show_for(version, owner(version, &query)?, &name).await
    }

    /// Imports a public key, or creates a keypair and answers its private key.
    ///
    /// At 2.1 it answers 200, and the body has `name` and `public_key` only.
    #[post("/os-keypairs")]
    #[errors(400, 403, 409, 503)]
    #[api_version("2.1", "2.1")]
    #[response(200, create_response)]
    #[schema(create_v2_1, "2.1", "2.1")]
    async fn create(&self, version: ApiVersion, body: Json<CreateBody>) -> Result<Response, ApiError> {
        Ok(json_response(StatusCode::OK, &self.create_keypair(version, body.0.keypair).await?))
    }

    /// Imports a public key, or creates a keypair and answers its private key.
    ///
    /// From 2.2 it answers 201 and takes a `type` (`ssh` or `x509`); from
    /// 2.10 an administrator names the owner with `user_id`; from 2.92 the
    /// public key is required: the service no longer generates keys.
    #[post("/os-keypairs")]
    #[errors(400, 403, 409, 503)]
    #[api_version("2.2")]
    #[response(201, create_response)]
    #[schema(create_v2_2, "2.2", "2.9")]
    #[schema(create_v2_10, "2.10", "2.91")]
    #[schema(create_v2_92, "2.92")]
    async fn create(&self, version: ApiVersion, body: Json<CreateBody>) -> Result<Response, ApiError> {
        Ok(json_response(StatusCode::CREATED, &self.create_keypair(version, body.0.keypair).await?))
    }

    /// Deletes a keypair; answers 202 at 2.1.
    #[delete("/os-keypairs/{name}")]
    #[errors(404, 503)]
    #[api_version("2.1", "2.1")]
    #[response(202)]
    async fn delete(&self, name: Path<String>) -> Result<Response, ApiError> {
        self.remove(DEFAULT_USER, &name).await?;
        Ok(empty_response(StatusCode::ACCEPTED))
    }

    /// Deletes a keypair; answers 204 from 2.2.
    #[delete("/os-keypairs/{name}")]
    #[errors(404, 503)]
    #[api_version("2.2", "2.9")]
    #[response(204)]
    async fn delete(&self, name: Path<String>) -> Result<Response, ApiError> {
        self.remove(DEFAULT_USER, &name).await?;
        Ok(empty_response(StatusCode::NO_CONTENT))
    }

    /// Deletes a keypair; from 2.10 an administrator names its owner with
    /// `user_id`.
    #[delete("/os-keypairs/{name}")]
    #[errors(400, 404, 503)]
    #[api_version("2.10")]
    #[response(204)]
    async fn delete(
        &self,
        version: ApiVersion,
        name: Path<String>,
        query: JsonQuery,
    ) -> Result<Response, ApiError> {
        self.remove(owner(version, &query)?, &name).await?;
        Ok(empty_response(StatusCode::NO_CONTENT))
    }

    /// The fields every view has: no type before 2.2 ...
    #[api_version("2.1", "2.1")]
    fn view(&self, keypair: &Keypair) -> Map<String, Value> {
        base_view(keypair)
    }

    /// ... and the type from 2.2.
    #[api_version("2.2")]
    fn view(&self, keypair: &Keypair) -> Map<String, Value> {
        let mut view = base_view(keypair);
        view.insert("type".into(), json!(keypair.key_type.as_str()));
        view
    }

    async fn show_for(&self, version: ApiVersion, user: &str, name: &str) -> Result<Response, ApiError> {
        let keypair = self.store.keypair(user, name).await?.ok_or_else(|| not_found(user, name))?;
        let mut view = self.view(version, &keypair);
        view.insert("user_id".into(), json!(keypair.user_id));
        view.insert("id".into(), json!(keypair.id));
        view.insert("created_at".into(), json!(keypair.created_at));
        view.insert("updated_at".into(), Value::Null);
        view.insert("deleted_at".into(), Value::Null);
        view.insert("deleted".into(), json!(false));
        Ok(json_response(StatusCode::OK, &json!({"keypair": view})))
    }

    /// Creates from a body the version's schema accepted: imports the given
    /// public key, or generates a key pair and returns its private key.
    async fn create_keypair(&self, version: ApiVersion, body: NewKeypair) -> Result<Value, ApiError> {
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
        let mut view = self.view(version, &keypair);
        view.insert("user_id".into(), json!(keypair.user_id));
        if let Some(private_key) = private_key {
            view.insert("private_key".into(), json!(private_key));
        }
        Ok(json!({"keypair": view}))
    }

    async fn remove(&self, user: &str, name: &str) -> Result<(), ApiError> {
        if self.store.remove_keypair(user, name).await? { Ok(()) } else { Err(not_found(user, name)) }
    }
}

fn base_view(keypair: &Keypair) -> Map<String, Value> {
    let mut view = Map::new();
    view.insert("name".into(), json!(keypair.name));
    view.insert("public_key".into(), json!(keypair.public_key));
    view.insert("fingerprint".into(), json!(keypair.fingerprint));
    view
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

/// The create body as Nova's schema has it from `since`: `type` from 2.2,
/// `user_id` from 2.10, and from 2.92 a wider name and a required `public_key`.
fn create_schema(since: Version) -> Value {
    let mut properties = Map::new();
    let pattern = if since >= V2_92 { NAME_FROM_2_92 } else { NAME_BEFORE_2_92 };
    properties.insert("name".into(), name(pattern));
    properties.insert("public_key".into(), json!({"type": "string"}));
    if since >= V2_2 {
        properties.insert("type".into(), json!({"enum": ["ssh", "x509"]}));
    }
    if since >= V2_10 {
        properties.insert("user_id".into(), json!({"type": "string", "minLength": 1, "maxLength": 255}));
    }
    let required: &[&str] = if since >= V2_92 { &["name", "public_key"] } else { &["name"] };
    create_body(Value::Object(properties), required)
}

fn create_v2_1() -> Value {
    create_schema(Version::lit("2.1"))
}

fn create_v2_2() -> Value {
    create_schema(V2_2)
}

fn create_v2_10() -> Value {
    create_schema(V2_10)
}

fn create_v2_92() -> Value {
    create_schema(V2_92)
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
