//! The compute API's declaration: its headers and its version history, one
//! line per microversion. Min, max, discovery and `docs/compute-versions.md`
//! all come from here.

use microversion_core::{Api, Deprecation, Microversion};

use crate::web::history;

/// The compute API, 2.1 to 2.96, as Nova serves it: every microversion with
/// the change it made.
pub const COMPUTE: Api = Api::new("compute", HISTORY)
    .with_legacy_headers(&["X-OpenStack-Nova-API-Version"])
    .with_id("v2.1")
    .with_updated("2013-07-23T11:33:21Z")
    // The versions before 2.60 are on their way out (docs/18-a-versions-life.md):
    // every answer at them says so, and discovery announces 2.60 as the next minimum.
    .with_deprecation(
        Deprecation::versions("2.1", "2.59")
            .since("2026-06-01")
            .sunset("2027-06-01")
            .link("https://docs.openstack.org/nova/latest/reference/api-microversion-history.html"),
    );

const HISTORY: &[Microversion] = history![
    "2.1" => "Initial version of the v2.1 API.",
    "2.2" => "Keypairs have a `type` (ssh or x509); keypair create answers 201 and delete 204.",
    "2.3" => "Servers show extended attributes such as reservation id and launch index (servers, outside this example).",
    "2.4" => "Fixed IPs show whether they are reserved (os-fixed-ips, outside this example).",
    "2.5" => "Non-admins may filter servers by IPv6 address (servers, outside this example).",
    "2.6" => "A single remote-consoles API replaces the per-protocol actions (outside this example).",
    "2.7" => "Adding a project to the access list of a public flavor answers 409.",
    "2.8" => "MKS remote consoles (outside this example).",
    "2.9" => "Servers show whether they are locked (servers, outside this example).",
    "2.10" => "Keypairs accept `user_id`, in the create body and as a query parameter of list, show and delete.",
    "2.11" => "Compute services can be forced down (os-services, outside this example).",
    "2.12" => "Virtual interfaces show their network id (outside this example).",
    "2.13" => "Server groups show user and project ids (outside this example).",
    "2.14" => "Evacuate no longer takes onSharedStorage (outside this example).",
    "2.15" => "Soft affinity and soft anti-affinity server group policies (outside this example).",
    "2.16" => "Servers show the status of their host (outside this example).",
    "2.17" => "A server can be asked for a crash dump (outside this example).",
    "2.18" => "The project id is optional in URLs (outside this example).",
    "2.19" => "Servers have a description (outside this example).",
    "2.20" => "Volumes attach to shelved-offloaded servers (outside this example).",
    "2.21" => "Instance actions of deleted servers can be read (outside this example).",
    "2.22" => "A live migration can be forced to complete (outside this example).",
    "2.23" => "In-progress server migrations can be listed and shown (outside this example).",
    "2.24" => "A live migration can be aborted (outside this example).",
    "2.25" => "Live migration takes block_migration `auto` and drops disk_over_commit (outside this example).",
    "2.26" => "Servers have tags (outside this example).",
    "2.27" => "The standard `OpenStack-API-Version` header is accepted (read here, as in Nova, whatever version it names).",
    "2.28" => "Hypervisors show cpu_info as an object (outside this example).",
    "2.29" => "Evacuate takes a `force` flag (outside this example).",
    "2.30" => "Live migration takes a `force` flag (outside this example).",
    "2.31" => "Console auth tokens work for every console type (outside this example).",
    "2.32" => "Networks and block devices of a new server can be tagged (outside this example).",
    "2.33" => "Hypervisors can be paged (outside this example).",
    "2.34" => "Live migration checks run asynchronously (outside this example).",
    "2.35" => "Keypairs can be paged with `limit` and `marker`.",
    "2.36" => "The image, network and volume proxy APIs are deprecated (outside this example).",
    "2.37" => "Networks of a new server can be `auto` or `none` (outside this example).",
    "2.38" => "An invalid status filter answers 400 (servers, outside this example).",
    "2.39" => "Limits no longer report image metadata (outside this example).",
    "2.40" => "Tenant usage can be paged (outside this example).",
    "2.41" => "Aggregates show a uuid (outside this example).",
    "2.42" => "Device tags on new servers come back after a regression (outside this example).",
    "2.43" => "The os-hosts API is deprecated (outside this example).",
    "2.44" => "Network proxy actions of servers are deprecated (outside this example).",
    "2.45" => "Creating an image answers with its id in the body (outside this example).",
    "2.46" => "Instance action events show the request id (outside this example).",
    "2.47" => "Servers embed their flavor instead of linking to it (outside this example).",
    "2.48" => "Server diagnostics have a standard shape (outside this example).",
    "2.49" => "Volume attachments can be tagged (outside this example).",
    "2.50" => "Quota classes show server group quotas and drop network quotas (outside this example).",
    "2.51" => "The volume-extended external event (outside this example).",
    "2.52" => "Servers can be tagged when created (outside this example).",
    "2.53" => "Services and hypervisors are identified by uuid (outside this example).",
    "2.54" => "A server rebuild can change its keypair (outside this example).",
    "2.55" => "Flavors have a `description`, set on create and updated with the new `PUT /flavors/{id}`.",
    "2.56" => "A cold migration can target a host (outside this example).",
    "2.57" => "Personality files are gone from create and rebuild (outside this example).",
    "2.58" => "Instance actions can be paged and filtered by change time (outside this example).",
    "2.59" => "Migrations can be paged and filtered by change time (outside this example).",
    "2.60" => "Volumes can be attached to several servers (outside this example).",
    "2.61" => "Flavor views show `extra_specs`.",
    "2.62" => "Instance action events show host and hostId (outside this example).",
    "2.63" => "Servers can be created with trusted certificates (outside this example).",
    "2.64" => "Server groups have one `policy` and `rules` (outside this example).",
    "2.65" => "Queued live migrations can be aborted (outside this example).",
    "2.66" => "A changes-before filter for servers, actions and migrations (outside this example).",
    "2.67" => "Block devices of a new server take a volume_type (outside this example).",
    "2.68" => "Forced live migration and evacuation are removed (outside this example).",
    "2.69" => "Servers in a down cell show a minimal view (outside this example).",
    "2.70" => "Volume attachments and interfaces show their tags (outside this example).",
    "2.71" => "Servers show their server groups (outside this example).",
    "2.72" => "Ports with resource requests can be used at create (outside this example).",
    "2.73" => "Servers can be locked with a reason (outside this example).",
    "2.74" => "A new server can be sent to a host or hypervisor (outside this example).",
    "2.75" => "Stricter validation across the API: flavor views show `swap` as 0 instead of \"\", and unknown query parameters of the flavor and keypair lists are refused.",
    "2.76" => "The power-update external event (outside this example).",
    "2.77" => "Unshelve takes an availability zone (outside this example).",
    "2.78" => "The server topology API (outside this example).",
    "2.79" => "Volume attachments take delete_on_termination (outside this example).",
    "2.80" => "Migrations can be filtered by user and project (outside this example).",
    "2.81" => "Images can be cached in advance per aggregate (outside this example).",
    "2.82" => "The accelerator-request-bound external event (outside this example).",
    "2.83" => "More server list filters for non-admins (outside this example).",
    "2.84" => "Instance action events show details (outside this example).",
    "2.85" => "delete_on_termination of an attachment can be updated (outside this example).",
    "2.86" => "Flavor extra specs are validated: a key Nova knows is checked by its validator, and a key in a namespace Nova knows must be one it knows.",
    "2.87" => "Volume-backed servers can be rescued (outside this example).",
    "2.88" => "Hypervisor views drop resource fields; hypervisor statistics are gone (outside this example).",
    "2.89" => "Volume attachments show attachment_id and bdm_uuid (outside this example).",
    "2.90" => "Servers take a hostname on create, update and rebuild (outside this example).",
    "2.91" => "A server can be unshelved to a host (outside this example).",
    "2.92" => "Keypairs are only imported: `public_key` is required, and names may use more characters.",
    "2.93" => "Volume-backed servers can be rebuilt (outside this example).",
    "2.94" => "Server hostnames can be fully qualified (outside this example).",
    "2.95" => "Evacuated servers stay stopped (outside this example).",
    "2.96" => "Servers show their pinned availability zone (outside this example).",
];
