/*
 * test_lint.c - gpushare lint: every rule with its exact id, position and
 * message on small inline configs (one case per rule or variant, the whole
 * output compared); positions across "---" streams, ConfigMap values and
 * Helm values; input errors; the JSON shape; the real samples of
 * fixtures/lint/ (the good ones lint without errors, each bad one reports
 * its known problem); and the rule table against man/gpushare-lint.1.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define MANUAL "../man/gpushare-lint.1"

static gs_catalog *cat;

/* One config, the GPU for --gpu (or NULL), and every finding it must give
 * as "LINE:COL: SEVERITY: MESSAGE [ID]" lines, in order. */
typedef struct lint_case {
	const char *name;
	const char *gpu;
	const char *yaml;
	const char *want;
} lint_case;

static const lint_case cases[] = {
	{ "dp-version", NULL,
	  "version: v2\n"
	  "flags:\n"
	  "  migStrategy: none\n",
	  "1:10: error: version is 'v2', but the device plugin knows only v1; write 'version: v1' "
	  "[dp-version]\n" },
	{ "dp-version-number", NULL,
	  "version: 1\n"
	  "flags: {migStrategy: none}\n",
	  "1:10: error: version is '1', but the device plugin knows only v1; write 'version: v1' "
	  "[dp-version]\n" },
	{ "dp-both-strategies", NULL,
	  "version: v1\n"
	  "sharing:\n"
	  "  timeSlicing:\n"
	  "    failRequestsGreaterThanOne: true\n"
	  "    resources:\n"
	  "    - name: nvidia.com/gpu\n"
	  "      replicas: 4\n"
	  "  mps:\n"
	  "    resources:\n"
	  "    - name: nvidia.com/gpu\n"
	  "      replicas: 4\n",
	  "8:3: error: both timeSlicing and mps are set; the device plugin silently uses mps and "
	  "ignores timeSlicing: keep only one [dp-both-strategies]\n" },
	{ "dp-no-resources-empty-block", NULL,
	  "version: v1\n"
	  "sharing:\n"
	  "  timeSlicing: {}\n",
	  "3:3: error: timeSlicing has no resources, which the device plugin rejects; list "
	  "'resources: [{name: nvidia.com/gpu, replicas: N}]', or remove timeSlicing to stop "
	  "sharing [dp-no-resources]\n" },
	{ "dp-no-resources-empty-list", NULL,
	  "version: v1\n"
	  "sharing:\n"
	  "  mps:\n"
	  "    resources: []\n",
	  "4:5: error: mps has no resources, which the device plugin rejects; list at least one, "
	  "e.g. '- name: nvidia.com/gpu' with 'replicas: 4' [dp-no-resources]\n" },
	{ "dp-no-resources-missing", NULL,
	  "version: v1\n"
	  "sharing:\n"
	  "  timeSlicing:\n"
	  "    failRequestsGreaterThanOne: true\n",
	  "3:3: error: timeSlicing has no resources, which the device plugin rejects; list at "
	  "least one, e.g. '- name: nvidia.com/gpu' with 'replicas: 4' [dp-no-resources]\n" },
	{ "dp-replicas", NULL,
	  "version: v1\n"
	  "sharing:\n"
	  "  timeSlicing:\n"
	  "    failRequestsGreaterThanOne: true\n"
	  "    resources:\n"
	  "    - name: nvidia.com/gpu\n"
	  "      replicas: 1\n"
	  "    - name: nvidia.com/mig-1g.5gb\n"
	  "      replicas: 2.5\n"
	  "    - name: nvidia.com/mig-2g.10gb\n"
	  "      replicas: \"4\"\n"
	  "    - name: nvidia.com/mig-3g.20gb\n",
	  "7:17: error: replicas is 1, but the device plugin needs at least 2; write 2 or more, or "
	  "remove the resource to stop sharing it [dp-replicas]\n"
	  "9:17: error: replicas must be a whole number of at least 2, not '2.5' [dp-replicas]\n"
	  "11:17: error: replicas is the string \"4\"; write it without quotes [dp-replicas]\n"
	  "12:7: error: resource 'nvidia.com/mig-3g.20gb' has no replicas; write 'replicas: N' "
	  "with N of at least 2 [dp-replicas]\n" },
	{ "dp-resource-name", NULL,
	  "version: v1\n"
	  "sharing:\n"
	  "  timeSlicing:\n"
	  "    failRequestsGreaterThanOne: true\n"
	  "    resources:\n"
	  "    - replicas: 2\n"
	  "    - name: nvidia.com/Shared_GPU\n"
	  "      replicas: 2\n"
	  "    - name: nvidia.com/gpu.shared\n"
	  "      replicas: 2\n"
	  "    - name: gpu\n"
	  "      replicas: 2\n"
	  "    - name: mig-1g.10gb.me\n"
	  "      replicas: 2\n"
	  "    - name: example.com/gpu\n"
	  "      replicas: 2\n",
	  "6:7: error: resource has no name; write 'name: nvidia.com/gpu' [dp-resource-name]\n"
	  "7:13: error: resource name 'nvidia.com/Shared_GPU' is not one the device plugin serves; "
	  "write nvidia.com/gpu, or nvidia.com/mig-<profile> (e.g. nvidia.com/mig-1g.5gb) with "
	  "migStrategy mixed [dp-resource-name]\n"
	  "9:13: error: 'nvidia.com/gpu.shared' is the renamed resource, not one the device plugin "
	  "serves; name nvidia.com/gpu and set 'renameByDefault: true' [dp-resource-name]\n"
	  "15:13: error: resource name 'example.com/gpu' is not one the device plugin serves; "
	  "write nvidia.com/gpu, or nvidia.com/mig-<profile> (e.g. nvidia.com/mig-1g.5gb) with "
	  "migStrategy mixed [dp-resource-name]\n" },
	{ "dp-mps-mig-mixed", NULL,
	  "version: v1\n"
	  "flags:\n"
	  "  migStrategy: mixed\n"
	  "sharing:\n"
	  "  mps:\n"
	  "    resources:\n"
	  "    - name: nvidia.com/gpu\n"
	  "      replicas: 4\n",
	  "5:3: error: MPS does not work with flags.migStrategy mixed (the device plugin refuses "
	  "to start); use timeSlicing on MIG GPUs, or migStrategy none [dp-mps-mig]\n" },
	{ "dp-mps-mig-resource", NULL,
	  "version: v1\n"
	  "sharing:\n"
	  "  mps:\n"
	  "    resources:\n"
	  "    - name: nvidia.com/mig-1g.5gb\n"
	  "      replicas: 4\n",
	  "5:13: error: MPS on MIG is not supported: the device plugin cannot share "
	  "nvidia.com/mig-1g.5gb with MPS; share MIG devices with timeSlicing, or MPS on "
	  "nvidia.com/gpu [dp-mps-mig]\n" },
	{ "dp-mps-replicas", NULL,
	  "version: v1\n"
	  "sharing:\n"
	  "  mps:\n"
	  "    resources:\n"
	  "    - name: nvidia.com/gpu\n"
	  "      replicas: 49\n",
	  "6:17: error: MPS replicas 49 exceed the MPS control daemon's limit of 48 clients; write "
	  "at most 48 [dp-mps-replicas]\n" },
	{ "dp-mps-replicas-v100", "V100-SXM2-16GB",
	  "version: v1\n"
	  "sharing:\n"
	  "  mps:\n"
	  "    resources:\n"
	  "    - name: nvidia.com/gpu\n"
	  "      replicas: 20\n",
	  "6:17: error: MPS replicas 20 exceed the limit of 16 clients on V100-SXM2-16GB (compute "
	  "capability 7.0, below 7.5); write at most 16 [dp-mps-replicas]\n" },
	{ "dp-mps-replicas-h100", "H100-SXM5-80GB",
	  "version: v1\n"
	  "sharing:\n"
	  "  mps:\n"
	  "    resources:\n"
	  "    - name: nvidia.com/gpu\n"
	  "      replicas: 20\n",
	  "" },
	{ "dp-mps-replicas-old-gpu", NULL,
	  "version: v1\n"
	  "sharing:\n"
	  "  mps:\n"
	  "    resources:\n"
	  "    - name: nvidia.com/gpu\n"
	  "      replicas: 20\n",
	  "6:17: warning: MPS replicas 20 fail on GPUs below compute capability 7.5 (e.g. V100), "
	  "which allow 16 clients; write at most 16 for such nodes, or pass --gpu "
	  "[dp-mps-replicas-old-gpu]\n" },
	{ "dp-rename", NULL,
	  "version: v1\n"
	  "sharing:\n"
	  "  timeSlicing:\n"
	  "    failRequestsGreaterThanOne: true\n"
	  "    resources:\n"
	  "    - name: nvidia.com/gpu\n"
	  "      rename: gpu-shared\n"
	  "      replicas: 4\n",
	  "7:7: warning: rename is reset at runtime by the device plugin; remove it and set "
	  "'renameByDefault: true' to advertise <name>.shared [dp-rename]\n" },
	{ "dp-devices", NULL,
	  "version: v1\n"
	  "sharing:\n"
	  "  timeSlicing:\n"
	  "    failRequestsGreaterThanOne: true\n"
	  "    resources:\n"
	  "    - name: nvidia.com/gpu\n"
	  "      replicas: 4\n"
	  "      devices: [0, \"1\", \"0:1\", GPU-b1028956-cfa2-0990-bf4a-5da9abb51763]\n"
	  "    - name: nvidia.com/mig-1g.5gb\n"
	  "      replicas: 2\n"
	  "      devices: 2\n"
	  "    - name: nvidia.com/mig-2g.10gb\n"
	  "      replicas: 2\n"
	  "      devices: all\n",
	  "8:7: warning: devices is reset to all at runtime, so every GPU of the node is shared; "
	  "remove it and give other nodes another config instead [dp-devices]\n"
	  "11:7: warning: devices is reset to all at runtime, so every GPU of the node is shared; "
	  "remove it and give other nodes another config instead [dp-devices]\n" },
	{ "dp-devices-invalid", NULL,
	  "version: v1\n"
	  "sharing:\n"
	  "  timeSlicing:\n"
	  "    failRequestsGreaterThanOne: true\n"
	  "    resources:\n"
	  "    - name: nvidia.com/gpu\n"
	  "      replicas: 4\n"
	  "      devices: [gpu0]\n"
	  "    - name: nvidia.com/mig-1g.5gb\n"
	  "      replicas: 2\n"
	  "      devices: first\n"
	  "    - name: nvidia.com/mig-2g.10gb\n"
	  "      replicas: 2\n"
	  "      devices: 0\n",
	  "8:17: error: device 'gpu0' is not a GPU index (0), a MIG index (0:1) or a GPU or MIG "
	  "UUID; write all [dp-devices-invalid]\n"
	  "11:16: error: devices is 'first'; write all, a count, or a list of GPU indices "
	  "[dp-devices-invalid]\n"
	  "14:16: error: devices is 0, but a count of devices must be at least 1; write all "
	  "[dp-devices-invalid]\n" },
	{ "dp-fail-requests", NULL,
	  "version: v1\n"
	  "sharing:\n"
	  "  timeSlicing:\n"
	  "    resources:\n"
	  "    - name: nvidia.com/gpu\n"
	  "      replicas: 4\n",
	  "3:3: warning: timeSlicing without failRequestsGreaterThanOne: a pod that asks for 2 "
	  "replicas gets no more compute than with 1; write 'failRequestsGreaterThanOne: true' "
	  "[dp-fail-requests]\n" },
	{ "dp-fail-requests-false", NULL,
	  "version: v1\n"
	  "sharing:\n"
	  "  timeSlicing:\n"
	  "    failRequestsGreaterThanOne: false\n"
	  "    resources:\n"
	  "    - name: nvidia.com/gpu\n"
	  "      replicas: 4\n",
	  "" },
	{ "dp-unknown-key", NULL,
	  "version: v1\n"
	  "flags:\n"
	  "  migStrategy: none\n"
	  "  renameByDefault: true\n"
	  "  colour: blue\n"
	  "timeSlicing: {}\n"
	  "sharing:\n"
	  "  timeSlicing:\n"
	  "    failRequestsGreaterThanOne: true\n"
	  "    Resources: []\n"
	  "    resources:\n"
	  "    - name: nvidia.com/gpu\n"
	  "      replica: 4\n"
	  "      Replicas: 4\n",
	  "4:3: warning: key 'renameByDefault' is ignored by the device plugin here; it belongs "
	  "under sharing.timeSlicing or sharing.mps [dp-unknown-key]\n"
	  "5:3: warning: unknown key 'colour' is ignored by the device plugin; remove it "
	  "[dp-unknown-key]\n"
	  "6:1: warning: key 'timeSlicing' is ignored by the device plugin here; it belongs under "
	  "sharing [dp-unknown-key]\n"
	  "10:5: warning: unknown key 'Resources' is ignored by the device plugin (keys here are "
	  "case-sensitive); write 'resources' [dp-unknown-key]\n"
	  "12:7: error: resource 'nvidia.com/gpu' has no replicas; write 'replicas: N' with N of "
	  "at least 2 [dp-replicas]\n"
	  "13:7: warning: unknown key 'replica' is ignored by the device plugin; write 'replicas' "
	  "[dp-unknown-key]\n"
	  "14:7: warning: unknown key 'Replicas' is ignored by the device plugin (keys here are "
	  "case-sensitive); write 'replicas' [dp-unknown-key]\n" },
	{ "dp-key-case", NULL,
	  "version: v1\n"
	  "Sharing:\n"
	  "  timeslicing:\n"
	  "    failRequestsGreaterThanOne: true\n"
	  "    resources:\n"
	  "    - name: nvidia.com/gpu\n"
	  "      replicas: 4\n",
	  "2:1: warning: key 'Sharing' works only because the device plugin ignores case here; "
	  "write 'sharing' [dp-key-case]\n"
	  "3:3: warning: key 'timeslicing' works only because the device plugin ignores case here; "
	  "write 'timeSlicing' [dp-key-case]\n" },
	{ "dp-mig-strategy", NULL,
	  "version: v1\n"
	  "flags:\n"
	  "  migStrategy: Mixed\n",
	  "3:16: error: migStrategy is 'Mixed'; write 'mixed' (one of none, single, mixed) "
	  "[dp-mig-strategy]\n" },
	{ "dp-mig-strategy-list", NULL,
	  "version: v1\n"
	  "flags:\n"
	  "  migStrategy: auto\n",
	  "3:16: error: migStrategy is 'auto'; write one of none, single, mixed "
	  "[dp-mig-strategy]\n" },
	{ "dp-flag-value", NULL,
	  "version: v1\n"
	  "flags:\n"
	  "  deviceDiscoveryStrategy: nvml\n"
	  "  plugin:\n"
	  "    deviceListStrategy: [envvar, cdi]\n"
	  "    deviceIDStrategy: uuids\n"
	  "    sharedDevicesAllocationPolicy: spread\n",
	  "5:34: error: deviceListStrategy is 'cdi'; write one of envvar, volume-mounts, "
	  "cdi-annotations, cdi-cri [dp-flag-value]\n"
	  "6:23: error: deviceIDStrategy is 'uuids'; write 'uuid' (one of uuid, index) "
	  "[dp-flag-value]\n"
	  "7:36: error: sharedDevicesAllocationPolicy is 'spread'; write one of distributed, "
	  "packed [dp-flag-value]\n" },
	{ "dp-type", NULL,
	  "version: v1\n"
	  "flags:\n"
	  "  failOnInitError: maybe\n"
	  "  plugin: [a]\n"
	  "sharing:\n"
	  "  timeSlicing:\n"
	  "    failRequestsGreaterThanOne: true\n"
	  "    resources: {name: nvidia.com/gpu}\n",
	  "3:20: error: 'failOnInitError' must be true or false, not 'maybe' [dp-type]\n"
	  "4:11: error: 'plugin' must be a mapping, not a list [dp-type]\n"
	  "8:16: error: resources must be a list, not a mapping [dp-type]\n" },
	{ "dp-type-resource", NULL,
	  "version: v1\n"
	  "sharing:\n"
	  "  timeSlicing:\n"
	  "    failRequestsGreaterThanOne: true\n"
	  "    resources:\n"
	  "    - nvidia.com/gpu\n",
	  "6:7: error: each resource must be a mapping with name and replicas, not a scalar "
	  "[dp-type]\n" },
	{ "mig-version-missing", NULL,
	  "mig-configs:\n"
	  "  all-disabled:\n"
	  "  - devices: all\n"
	  "    mig-enabled: false\n",
	  "1:1: error: mig-parted config has no version, so mig-parted rejects it; add 'version: "
	  "v1' [mig-version]\n" },
	{ "mig-version", NULL,
	  "version: v2\n"
	  "mig-configs:\n"
	  "  all-disabled:\n"
	  "  - devices: all\n"
	  "    mig-enabled: false\n",
	  "1:10: error: version is 'v2', but mig-parted knows only v1; write 'version: v1' "
	  "[mig-version]\n" },
	{ "mig-unknown-key", NULL,
	  "version: v1\n"
	  "mig-configs:\n"
	  "  a:\n"
	  "  - devices: all\n"
	  "    mig-enabled: true\n"
	  "    migDevices: {\"1g.5gb\": 7}\n"
	  "    mig-devices: {}\n"
	  "default: a\n",
	  "6:5: error: unknown key 'migDevices', which makes mig-parted reject the file; write "
	  "'mig-devices' [mig-unknown-key]\n"
	  "8:1: error: unknown key 'default', which makes mig-parted reject the file; remove it "
	  "[mig-unknown-key]\n" },
	{ "mig-empty", NULL,
	  "version: v1\n"
	  "mig-configs:\n"
	  "  a: []\n"
	  "  b:\n",
	  "3:3: error: config 'a' has no entries, which mig-parted rejects; add one, like '- "
	  "devices: all' with 'mig-enabled: false' [mig-empty]\n"
	  "4:3: error: config 'b' has no entries, which mig-parted rejects; add one, like '- "
	  "devices: all' with 'mig-enabled: false' [mig-empty]\n" },
	{ "mig-empty-configs", NULL,
	  "version: v1\n"
	  "mig-configs: {}\n",
	  "2:1: error: mig-configs is empty; add a named config, like 'all-disabled: [{devices: "
	  "all, mig-enabled: false}]' [mig-empty]\n" },
	{ "mig-empty-missing", NULL,
	  "version: v1\n"
	  "mig-config:\n"
	  "  a:\n"
	  "  - devices: all\n"
	  "    mig-enabled: false\n",
	  "1:1: error: mig-parted config has no mig-configs; add 'mig-configs:' with at least one "
	  "named config [mig-empty]\n"
	  "2:1: error: unknown key 'mig-config', which makes mig-parted reject the file; write "
	  "'mig-configs' [mig-unknown-key]\n" },
	{ "mig-required", NULL,
	  "version: v1\n"
	  "mig-configs:\n"
	  "  a:\n"
	  "  - mig-enabled: false\n"
	  "  - devices: all\n",
	  "4:5: error: entry has no devices; write 'devices: all' or a list of GPU indices "
	  "[mig-required]\n"
	  "5:5: error: entry has no mig-enabled; write 'mig-enabled: true' or false "
	  "[mig-required]\n" },
	{ "mig-devices", NULL,
	  "version: v1\n"
	  "mig-configs:\n"
	  "  a:\n"
	  "  - devices: first\n"
	  "    mig-enabled: false\n"
	  "  - devices: [0, gpu1]\n"
	  "    mig-enabled: false\n"
	  "  - devices: [0, 1]\n"
	  "    mig-enabled: false\n",
	  "4:14: error: devices is 'first'; write all or a list of GPU indices like [0, 1] "
	  "[mig-devices]\n"
	  "6:18: error: devices entry 'gpu1' is not a GPU index; write indices like [0, 1] "
	  "[mig-devices]\n" },
	{ "mig-enabled-without-devices", NULL,
	  "version: v1\n"
	  "mig-configs:\n"
	  "  a:\n"
	  "  - devices: all\n"
	  "    mig-enabled: true\n",
	  "5:5: error: mig-enabled is true but the entry has no mig-devices; list them, like "
	  "'mig-devices: {\"1g.5gb\": 7}', or write 'mig-devices: {}' to only enable MIG "
	  "[mig-enabled-without-devices]\n" },
	{ "mig-disabled-with-devices", NULL,
	  "version: v1\n"
	  "mig-configs:\n"
	  "  a:\n"
	  "  - devices: all\n"
	  "    mig-enabled: false\n"
	  "    mig-devices:\n"
	  "      \"1g.5gb\": 7\n"
	  "  - devices: all\n"
	  "    mig-enabled: false\n"
	  "    mig-devices: {}\n",
	  "6:5: error: mig-enabled is false but mig-devices lists devices; write 'mig-enabled: "
	  "true', or remove mig-devices [mig-disabled-with-devices]\n" },
	{ "mig-profile", NULL,
	  "version: v1\n"
	  "mig-configs:\n"
	  "  a:\n"
	  "  - devices: all\n"
	  "    mig-enabled: true\n"
	  "    mig-devices:\n"
	  "      \"1g.5GB\": 1\n"
	  "      \"1g.5gb+foo\": 1\n"
	  "      \"4c.3g.40gb\": 1\n"
	  "      \"3g\": 1\n",
	  "7:7: error: '1g.5GB' is not a MIG profile name; write '1g.5gb' [mig-profile]\n"
	  "8:7: error: '1g.5gb+foo' is not a MIG profile name; write <g>g.<mem>gb with an optional "
	  "<c>c. prefix and +me, -me, +gfx or +me.all suffix, e.g. '1g.5gb' [mig-profile]\n"
	  "9:7: error: '4c.3g.40gb' is not a MIG profile name; write <g>g.<mem>gb with an optional "
	  "<c>c. prefix and +me, -me, +gfx or +me.all suffix, e.g. '1g.5gb' [mig-profile]\n"
	  "10:7: error: '3g' is not a MIG profile name; write <g>g.<mem>gb with an optional <c>c. "
	  "prefix and +me, -me, +gfx or +me.all suffix, e.g. '1g.5gb' [mig-profile]\n" },
	{ "mig-count", NULL,
	  "version: v1\n"
	  "mig-configs:\n"
	  "  a:\n"
	  "  - devices: all\n"
	  "    mig-enabled: true\n"
	  "    mig-devices:\n"
	  "      \"1g.5gb\": -1\n"
	  "      \"2g.10gb\": x\n"
	  "  - devices: all\n"
	  "    mig-enabled: true\n"
	  "    mig-devices:\n"
	  "      \"1g.5gb\": 0\n"
	  "      \"2g.10gb\": 0\n",
	  "7:17: error: count '-1' of 1g.5gb must be a whole number, 0 or more [mig-count]\n"
	  "8:18: error: count 'x' of 2g.10gb must be a whole number, 0 or more [mig-count]\n"
	  "11:5: error: every count in mig-devices is 0, which mig-parted rejects; give a profile "
	  "a count, or write 'mig-devices: {}' [mig-count]\n" },
	{ "mig-geometry-gpu", "A100-SXM4-40GB",
	  "version: v1\n"
	  "mig-configs:\n"
	  "  a:\n"
	  "  - devices: all\n"
	  "    mig-enabled: true\n"
	  "    mig-devices:\n"
	  "      \"3g.20gb\": 2\n"
	  "      \"1g.5gb\": 1\n"
	  "  b:\n"
	  "  - devices: all\n"
	  "    mig-enabled: true\n"
	  "    mig-devices:\n"
	  "      \"1g.5gb\": 8\n"
	  "  c:\n"
	  "  - devices: all\n"
	  "    mig-enabled: true\n"
	  "    mig-devices:\n"
	  "      \"4g.40gb\": 1\n"
	  "  d:\n"
	  "  - devices: all\n"
	  "    mig-enabled: true\n"
	  "    mig-devices:\n"
	  "      \"4g.20gb\": 1\n"
	  "      \"3g.20gb\": 1\n",
	  "6:5: error: mig-devices do not fit A100-SXM4-40GB: needs 9 memory slices, "
	  "A100-SXM4-40GB has 8; see 'gpushare mig A100-SXM4-40GB' for valid geometries "
	  "[mig-geometry]\n"
	  "12:5: error: mig-devices do not fit A100-SXM4-40GB: 8 instances of 1g.5gb, but "
	  "A100-SXM4-40GB allows at most 7; see 'gpushare mig A100-SXM4-40GB' for valid geometries "
	  "[mig-geometry]\n"
	  "17:5: error: mig-devices do not fit A100-SXM4-40GB: A100-SXM4-40GB has no MIG profile "
	  "'4g.40gb'; see 'gpushare mig A100-SXM4-40GB' for valid geometries [mig-geometry]\n" },
	{ "mig-geometry-filter", NULL,
	  "version: v1\n"
	  "mig-configs:\n"
	  "  a:\n"
	  "  - device-filter: [\"0x20B010DE\", \"0x233010DE\"]\n"
	  "    devices: all\n"
	  "    mig-enabled: true\n"
	  "    mig-devices:\n"
	  "      \"1g.10gb\": 7\n"
	  "  b:\n"
	  "  - device-filter: \"0x2BB510DE\"\n"
	  "    devices: all\n"
	  "    mig-enabled: true\n"
	  "    mig-devices:\n"
	  "      \"1g.24gb+gfx\": 4\n"
	  "  c:\n"
	  "  - device-filter: 0x233010de:0x16c110de\n"
	  "    devices: all\n"
	  "    mig-enabled: true\n"
	  "    mig-devices:\n"
	  "      \"1g.10gb\": 7\n",
	  "7:5: error: mig-devices do not fit A100-SXM4-40GB (device-filter 0x20B010DE): 7 "
	  "instances of 1g.10gb, but A100-SXM4-40GB allows at most 4; see 'gpushare mig "
	  "A100-SXM4-40GB' for valid geometries [mig-geometry]\n" },
	{ "mig-geometry-no-mig-gpu", "T4",
	  "version: v1\n"
	  "mig-configs:\n"
	  "  a:\n"
	  "  - devices: all\n"
	  "    mig-enabled: true\n"
	  "    mig-devices:\n"
	  "      \"1g.5gb\": 7\n",
	  "6:5: error: T4 does not support MIG, so this entry cannot apply to it; pass the --gpu "
	  "the config is for [mig-geometry]\n" },
	{ "mig-geometry-compute-instances", "H100-SXM5-80GB",
	  "version: v1\n"
	  "mig-configs:\n"
	  "  a:\n"
	  "  - devices: all\n"
	  "    mig-enabled: true\n"
	  "    mig-devices:\n"
	  "      \"1c.3g.40gb\": 6\n"
	  "      \"1g.10gb\": 1\n"
	  "  b:\n"
	  "  - devices: all\n"
	  "    mig-enabled: true\n"
	  "    mig-devices:\n"
	  "      \"1c.3g.40gb\": 7\n",
	  "6:5: error: mig-devices do not fit H100-SXM5-80GB: needs 9 memory slices, "
	  "H100-SXM5-80GB has 8; see 'gpushare mig H100-SXM5-80GB' for valid geometries "
	  "[mig-geometry]\n"
	  "12:5: error: mig-devices do not fit H100-SXM5-80GB: 3 instances of 3g.40gb, but "
	  "H100-SXM5-80GB allows at most 2; see 'gpushare mig H100-SXM5-80GB' for valid geometries "
	  "[mig-geometry]\n" },
	{ "mig-geometry-any", NULL,
	  "version: v1\n"
	  "mig-configs:\n"
	  "  a:\n"
	  "  - devices: all\n"
	  "    mig-enabled: true\n"
	  "    mig-devices:\n"
	  "      \"1g.5gb\": 8\n"
	  "  b:\n"
	  "  - devices: all\n"
	  "    mig-enabled: true\n"
	  "    mig-devices:\n"
	  "      \"1g.34gb+me\": 1\n"
	  "  c:\n"
	  "  - devices: all\n"
	  "    mig-enabled: true\n"
	  "    mig-devices:\n"
	  "      \"4g.20gb\": 1\n"
	  "      \"4g.40gb\": 1\n"
	  "  d:\n"
	  "  - devices: all\n"
	  "    mig-enabled: true\n"
	  "    mig-devices:\n"
	  "      \"7g.79gb\": 1\n",
	  "6:5: warning: mig-devices fit no MIG GPU in gpushare's catalog (8 instances of 1g.5gb, "
	  "but A100-PCIE-40GB allows at most 7); see 'gpushare mig MODEL' for valid geometries, or "
	  "pass --gpu [mig-geometry-any]\n"
	  "11:5: warning: no MIG GPU in gpushare's catalog has profile '1g.34gb+me'; check the "
	  "name with 'gpushare gpus MODEL', or ignore this if the config is for another GPU "
	  "[mig-geometry-any]\n"
	  "16:5: warning: no MIG GPU in gpushare's catalog has all of these profiles; check the "
	  "names with 'gpushare gpus MODEL' [mig-geometry-any]\n" },
	{ "mig-device-filter", NULL,
	  "version: v1\n"
	  "mig-configs:\n"
	  "  a:\n"
	  "  - device-filter: [A100, \"0x20B010DE:0x145F10DE\", \"0xZZ\"]\n"
	  "    devices: all\n"
	  "    mig-enabled: false\n",
	  "4:21: warning: device-filter 'A100' is not a PCI device ID like 0x20B010DE, so it never "
	  "matches a GPU [mig-device-filter]\n"
	  "4:52: warning: device-filter '0xZZ' is not a PCI device ID like 0x20B010DE, so it never "
	  "matches a GPU [mig-device-filter]\n" },
	{ "mig-type", NULL,
	  "version: v1\n"
	  "mig-configs:\n"
	  "  a:\n"
	  "  - devices: all\n"
	  "    mig-enabled: maybe\n"
	  "  - devices: all\n"
	  "    mig-enabled: true\n"
	  "    mig-devices: [\"1g.5gb\"]\n"
	  "  - devices: all\n"
	  "    device-filter: {id: 1}\n"
	  "    mig-enabled: false\n"
	  "  - all\n"
	  "  b: {devices: all}\n",
	  "5:18: error: mig-enabled must be true or false [mig-type]\n"
	  "8:18: error: mig-devices must map profiles to counts, like {\"1g.5gb\": 7}, not a list "
	  "[mig-type]\n"
	  "10:20: error: device-filter must be a PCI device ID string or a list of them, not a "
	  "mapping [mig-type]\n"
	  "12:5: error: each entry must be a mapping with devices and mig-enabled, not a scalar "
	  "[mig-type]\n"
	  "13:6: error: config 'b' must be a list of entries, not a mapping [mig-type]\n" },
	{ "dra-old-api", NULL,
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: gpu.nvidia.com/v1alpha1\n"
	  "          kind: GpuConfig\n"
	  "          sharing:\n"
	  "            strategy: TimeSlicing\n"
	  "            timeSlicingConfig:\n"
	  "              interval: Long\n",
	  "16:23: error: parameters apiVersion gpu.nvidia.com/v1alpha1 was renamed "
	  "resource.nvidia.com/v1beta1 in February 2025 and current drivers cannot decode it; "
	  "write 'apiVersion: resource.nvidia.com/v1beta1' [dra-old-api]\n"
	  "19:23: warning: strategy TimeSlicing needs the NVIDIA DRA driver's TimeSlicingSettings "
	  "feature gate (alpha, off by default); without it the claim fails when the pod starts: "
	  "enable featureGates.TimeSlicingSettings in the driver's Helm values "
	  "[dra-feature-gate]\n" },
	{ "dra-params-api", NULL,
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1\n"
	  "          kind: GpuConfig\n"
	  "---\n"
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GPUConfig\n",
	  "16:23: error: the NVIDIA DRA driver decodes only resource.nvidia.com/v1beta1 "
	  "parameters, not 'resource.nvidia.com/v1'; write 'apiVersion: "
	  "resource.nvidia.com/v1beta1' [dra-params-api]\n"
	  "35:17: error: parameters kind 'GPUConfig' is not one the NVIDIA DRA driver knows; write "
	  "'GpuConfig' [dra-params-api]\n" },
	{ "dra-driver", NULL,
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: nvidia.com/gpu\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n",
	  "14:17: error: driver is 'nvidia.com/gpu', but GpuConfig parameters are for the NVIDIA "
	  "GPU driver; write 'driver: gpu.nvidia.com' [dra-driver]\n" },
	{ "dra-driver-other-vendor", NULL,
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: tpu.example.com\n"
	  "        parameters:\n"
	  "          apiVersion: example.com/v1\n"
	  "          kind: TpuConfig\n",
	  "" },
	{ "dra-unknown-key", NULL,
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n"
	  "          sharing:\n"
	  "            strategy: TimeSlicing\n"
	  "            replicas: 4\n"
	  "          metadata: {}\n",
	  "19:23: warning: strategy TimeSlicing needs the NVIDIA DRA driver's TimeSlicingSettings "
	  "feature gate (alpha, off by default); without it the claim fails when the pod starts: "
	  "enable featureGates.TimeSlicingSettings in the driver's Helm values [dra-feature-gate]\n"
	  "20:13: error: unknown key 'replicas' in sharing, which the NVIDIA DRA driver rejects "
	  "(it decodes strictly); remove it [dra-unknown-key]\n"
	  "21:11: error: unknown key 'metadata' in GpuConfig, which the NVIDIA DRA driver rejects "
	  "(it decodes strictly); remove it [dra-unknown-key]\n" },
	{ "dra-strategy", NULL,
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n"
	  "          sharing:\n"
	  "            strategy: timeslicing\n"
	  "---\n"
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n"
	  "          sharing:\n"
	  "            strategy: Shared\n"
	  "---\n"
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n"
	  "          sharing:\n"
	  "            mpsConfig: {}\n",
	  "19:23: error: sharing strategy 'timeslicing' is not known (the names are "
	  "case-sensitive); write 'TimeSlicing' [dra-strategy]\n"
	  "39:23: error: sharing strategy 'Shared' is not known; write TimeSlicing or MPS "
	  "[dra-strategy]\n"
	  "58:11: error: sharing has no strategy; write 'strategy: TimeSlicing' or 'strategy: MPS' "
	  "[dra-strategy]\n" },
	{ "dra-interval", NULL,
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n"
	  "          sharing:\n"
	  "            strategy: TimeSlicing\n"
	  "            timeSlicingConfig:\n"
	  "              interval: VeryLong\n"
	  "---\n"
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n"
	  "          sharing:\n"
	  "            strategy: TimeSlicing\n"
	  "            timeSlicingConfig: {interval: long}\n"
	  "---\n"
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n"
	  "          sharing:\n"
	  "            strategy: TimeSlicing\n"
	  "            timeSlicingConfig: {}\n",
	  "19:23: warning: strategy TimeSlicing needs the NVIDIA DRA driver's TimeSlicingSettings "
	  "feature gate (alpha, off by default); without it the claim fails when the pod starts: "
	  "enable featureGates.TimeSlicingSettings in the driver's Helm values [dra-feature-gate]\n"
	  "21:25: error: time-slice interval 'VeryLong' is not known; write Default, Short, Medium "
	  "or Long [dra-interval]\n"
	  "41:23: warning: strategy TimeSlicing needs the NVIDIA DRA driver's TimeSlicingSettings "
	  "feature gate (alpha, off by default); without it the claim fails when the pod starts: "
	  "enable featureGates.TimeSlicingSettings in the driver's Helm values [dra-feature-gate]\n"
	  "42:43: error: time-slice interval 'long' is not known; write 'Long' [dra-interval]\n"
	  "62:23: warning: strategy TimeSlicing needs the NVIDIA DRA driver's TimeSlicingSettings "
	  "feature gate (alpha, off by default); without it the claim fails when the pod starts: "
	  "enable featureGates.TimeSlicingSettings in the driver's Helm values [dra-feature-gate]\n"
	  "63:13: error: timeSlicingConfig has no interval, which the driver cannot validate; "
	  "write 'interval: Default' (or Short, Medium, Long) [dra-interval]\n" },
	{ "dra-mig-timeslicing", NULL,
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: MigDeviceConfig\n"
	  "          sharing:\n"
	  "            strategy: TimeSlicing\n"
	  "            timeSlicingConfig: {interval: Default}\n",
	  "19:23: warning: strategy TimeSlicing needs the NVIDIA DRA driver's TimeSlicingSettings "
	  "feature gate (alpha, off by default); without it the claim fails when the pod starts: "
	  "enable featureGates.TimeSlicingSettings in the driver's Helm values [dra-feature-gate]\n"
	  "20:13: error: MigDeviceConfig has no timeSlicingConfig: time slices cannot be set on "
	  "MIG devices; remove it [dra-mig-timeslicing]\n" },
	{ "dra-strategy-config", NULL,
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n"
	  "          sharing:\n"
	  "            strategy: TimeSlicing\n"
	  "            mpsConfig:\n"
	  "              defaultActiveThreadPercentage: 50\n"
	  "---\n"
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n"
	  "          sharing:\n"
	  "            strategy: MPS\n"
	  "            timeSlicingConfig:\n"
	  "              interval: Short\n",
	  "19:23: warning: strategy TimeSlicing needs the NVIDIA DRA driver's TimeSlicingSettings "
	  "feature gate (alpha, off by default); without it the claim fails when the pod starts: "
	  "enable featureGates.TimeSlicingSettings in the driver's Helm values [dra-feature-gate]\n"
	  "20:13: error: mpsConfig cannot be used with the TimeSlicing strategy; remove it, or "
	  "write 'strategy: MPS' [dra-strategy-config]\n"
	  "41:23: warning: strategy MPS needs the NVIDIA DRA driver's MPSSupport feature gate "
	  "(alpha, off by default); without it the claim fails when the pod starts: enable "
	  "featureGates.MPSSupport in the driver's Helm values [dra-feature-gate]\n"
	  "42:13: error: timeSlicingConfig cannot be used with the MPS strategy; remove it, or "
	  "write 'strategy: TimeSlicing' [dra-strategy-config]\n" },
	{ "dra-thread-percentage", NULL,
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n"
	  "          sharing:\n"
	  "            strategy: MPS\n"
	  "            mpsConfig:\n"
	  "              defaultActiveThreadPercentage: 150\n"
	  "---\n"
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n"
	  "          sharing:\n"
	  "            strategy: MPS\n"
	  "            mpsConfig: {defaultActiveThreadPercentage: half}\n",
	  "19:23: warning: strategy MPS needs the NVIDIA DRA driver's MPSSupport feature gate "
	  "(alpha, off by default); without it the claim fails when the pod starts: enable "
	  "featureGates.MPSSupport in the driver's Helm values [dra-feature-gate]\n"
	  "21:46: error: defaultActiveThreadPercentage is '150'; write a whole number from 0 to "
	  "100 [dra-thread-percentage]\n"
	  "41:23: warning: strategy MPS needs the NVIDIA DRA driver's MPSSupport feature gate "
	  "(alpha, off by default); without it the claim fails when the pod starts: enable "
	  "featureGates.MPSSupport in the driver's Helm values [dra-feature-gate]\n"
	  "42:56: error: defaultActiveThreadPercentage is 'half'; write a whole number from 0 to "
	  "100 [dra-thread-percentage]\n" },
	{ "dra-memory-limit", NULL,
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n"
	  "          sharing:\n"
	  "            strategy: MPS\n"
	  "            mpsConfig:\n"
	  "              defaultPinnedDeviceMemoryLimit: 512Ki\n"
	  "              defaultPerDevicePinnedMemoryLimit:\n"
	  "                \"0\": lots\n"
	  "                \"1\": 1Mi\n"
	  "                \"2\": 1048576\n"
	  "                \"3\": 0.5Mi\n"
	  "                \"4\": 10Gi\n"
	  "                \"5\": 1e9\n",
	  "19:23: warning: strategy MPS needs the NVIDIA DRA driver's MPSSupport feature gate "
	  "(alpha, off by default); without it the claim fails when the pod starts: enable "
	  "featureGates.MPSSupport in the driver's Helm values [dra-feature-gate]\n"
	  "21:47: error: defaultPinnedDeviceMemoryLimit '512Ki' is below 1Mi, which the driver "
	  "rejects as an invalid limit; write a size like 8Gi [dra-memory-limit]\n"
	  "23:22: error: the pinned memory limit 'lots' is not a quantity; write a size like 8Gi "
	  "[dra-memory-limit]\n"
	  "26:22: error: the pinned memory limit '0.5Mi' is below 1Mi, which the driver rejects as "
	  "an invalid limit; write a size like 8Gi [dra-memory-limit]\n" },
	{ "dra-feature-gate", NULL,
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n"
	  "          sharing:\n"
	  "            strategy: TimeSlicing\n"
	  "            timeSlicingConfig:\n"
	  "              interval: Long\n"
	  "---\n"
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n"
	  "          sharing:\n"
	  "            strategy: MPS\n",
	  "19:23: warning: strategy TimeSlicing needs the NVIDIA DRA driver's TimeSlicingSettings "
	  "feature gate (alpha, off by default); without it the claim fails when the pod starts: "
	  "enable featureGates.TimeSlicingSettings in the driver's Helm values [dra-feature-gate]\n"
	  "41:23: warning: strategy MPS needs the NVIDIA DRA driver's MPSSupport feature gate "
	  "(alpha, off by default); without it the claim fails when the pod starts: enable "
	  "featureGates.MPSSupport in the driver's Helm values [dra-feature-gate]\n" },
	{ "dra-api-version", NULL,
	  "apiVersion: resource.k8s.io/v1beta3\n"
	  "kind: ResourceClaim\n"
	  "metadata: {name: a}\n"
	  "---\n"
	  "apiVersion: resource.k8s.io/v1alpha2\n"
	  "kind: ResourceClaim\n"
	  "metadata: {name: b}\n",
	  "1:13: error: resource.k8s.io/v1beta3 does not exist; write resource.k8s.io/v1 "
	  "(Kubernetes 1.34 and later), v1beta2 (1.33) or v1beta1 (1.32) [dra-api-version]\n"
	  "5:13: error: resource.k8s.io/v1alpha2 (classic DRA) was removed in Kubernetes 1.31; "
	  "write resource.k8s.io/v1 (1.34 and later), v1beta2 (1.33) or v1beta1 (1.32) "
	  "[dra-api-version]\n" },
	{ "dra-api-alpha", NULL,
	  "apiVersion: resource.k8s.io/v1alpha3\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n",
	  "1:13: warning: resource.k8s.io/v1alpha3 ResourceClaims are served only by Kubernetes "
	  "1.31; write resource.k8s.io/v1 (1.34 and later) with 'exactly:', or v1beta1 "
	  "[dra-api-alpha]\n" },
	{ "dra-request-shape", NULL,
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      deviceClassName: gpu.nvidia.com\n"
	  "      count: 1\n"
	  "    - name: none\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n"
	  "---\n"
	  "apiVersion: resource.k8s.io/v1beta1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    - name: none\n"
	  "    - name: any\n"
	  "      firstAvailable:\n"
	  "      - {name: a, deviceClassName: mig.nvidia.com}\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n",
	  "9:7: error: resource.k8s.io/v1 puts deviceClassName under 'exactly:'; write 'exactly: "
	  "{deviceClassName: gpu.nvidia.com}' (the flat form is resource.k8s.io/v1beta1's) "
	  "[dra-request-shape]\n"
	  "11:7: error: request 'none' needs 'exactly:' with a deviceClassName (or firstAvailable) "
	  "[dra-request-shape]\n"
	  "28:7: error: resource.k8s.io/v1beta1 has no 'exactly:'; put deviceClassName directly on "
	  "the request, or write apiVersion resource.k8s.io/v1 [dra-request-shape]\n"
	  "30:7: error: request 'none' needs a deviceClassName [dra-request-shape]\n" },
	{ "dra-template-spec", NULL,
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaimTemplate\n"
	  "metadata: {name: t}\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly: {deviceClassName: gpu.nvidia.com}\n",
	  "4:1: error: a ResourceClaimTemplate holds its claim in spec.spec; indent devices under "
	  "another 'spec:' [dra-template-spec]\n" },
	{ "dra-removed-attribute", NULL,
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: DeviceClass\n"
	  "metadata: {name: d}\n"
	  "spec:\n"
	  "  selectors:\n"
	  "  - cel:\n"
	  "      expression: device.attributes['gpu.nvidia.com'].index == 0\n"
	  "  - cel:\n"
	  "      expression: \"device.attributes[\\\"gpu.nvidia.com\\\"]['minor'] == 1 && "
	  "device.attributes['gpu.nvidia.com'].parentIndex == 0\"\n"
	  "  - cel:\n"
	  "      expression: device.attributes['gpu.nvidia.com'].pcieBusID == '0000:3b:00.0'\n"
	  "  - cel:\n"
	  "      expression: device.attributes['resource.kubernetes.io'].pciBusID == "
	  "'0000:3b:00.0'\n",
	  "7:19: warning: CEL selector uses attribute 'index', which the NVIDIA DRA driver no "
	  "longer publishes (gone since v25.8), so it matches no device; select by uuid or "
	  "productName [dra-removed-attribute]\n"
	  "9:19: warning: CEL selector uses attribute 'minor', which the NVIDIA DRA driver no "
	  "longer publishes (gone since v25.8), so it matches no device; select by uuid or "
	  "productName [dra-removed-attribute]\n"
	  "9:19: warning: CEL selector uses attribute 'parentIndex', which the NVIDIA DRA driver "
	  "no longer publishes (gone since v25.8), so it matches no device; select by uuid or "
	  "productName [dra-removed-attribute]\n"
	  "11:19: warning: CEL selector uses attribute 'pcieBusID', which the NVIDIA DRA driver "
	  "replaced in v25.12; write device.attributes['resource.kubernetes.io'].pciBusID "
	  "[dra-removed-attribute]\n" },
	{ "dra-memory-attribute", NULL,
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "        selectors:\n"
	  "        - cel:\n"
	  "            expression: device.attributes['gpu.nvidia.com'].memory >= 40000\n"
	  "        - cel:\n"
	  "            expression: "
	  "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('40Gi')) >= 0\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n",
	  "13:25: warning: CEL selector reads memory as an attribute, but it is a capacity; write "
	  "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('40Gi')) >= 0 "
	  "[dra-memory-attribute]\n" },
	{ "dra-template-sharing", NULL,
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaimTemplate\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  spec:\n"
	  "    devices:\n"
	  "      requests:\n"
	  "      - name: gpu\n"
	  "        exactly:\n"
	  "          deviceClassName: gpu.nvidia.com\n"
	  "      config:\n"
	  "      - requests: [gpu]\n"
	  "        opaque:\n"
	  "          driver: gpu.nvidia.com\n"
	  "          parameters:\n"
	  "            apiVersion: resource.nvidia.com/v1beta1\n"
	  "            kind: GpuConfig\n"
	  "            sharing:\n"
	  "              strategy: TimeSlicing\n"
	  "              timeSlicingConfig:\n"
	  "                interval: Long\n",
	  "19:13: warning: a ResourceClaimTemplate gives every pod its own claim, so pods never "
	  "share this GPU; to share it, create a ResourceClaim and reference it with "
	  "resourceClaimName [dra-template-sharing]\n"
	  "20:25: warning: strategy TimeSlicing needs the NVIDIA DRA driver's TimeSlicingSettings "
	  "feature gate (alpha, off by default); without it the claim fails when the pod starts: "
	  "enable featureGates.TimeSlicingSettings in the driver's Helm values "
	  "[dra-feature-gate]\n" },
	/* DRA driver Helm values, as `plan --emit` writes them: clean, and the
	 * gate they turn on silences the claim's dra-feature-gate. */
	{ "dra-values-emitted", NULL,
	  "nvidiaDriverRoot: /run/nvidia/driver\n"
	  "gpuResourcesEnabledOverride: true\n"
	  "resources:\n"
	  "  gpus:\n"
	  "    enabled: true\n"
	  "  computeDomains:\n"
	  "    enabled: false\n"
	  "webhook:\n"
	  "  enabled: false\n"
	  "featureGates:\n"
	  "  TimeSlicingSettings: true\n"
	  "---\n"
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n"
	  "          sharing:\n"
	  "            strategy: TimeSlicing\n",
	  "" },
	/* A gate the values leave off: the claim's warning stays. */
	{ "dra-values-gate-off", NULL,
	  "gpuResourcesEnabledOverride: true\n"
	  "featureGates:\n"
	  "  MPSSupport: true\n"
	  "  TimeSlicingSettings: false\n"
	  "---\n"
	  "apiVersion: resource.k8s.io/v1\n"
	  "kind: ResourceClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  devices:\n"
	  "    requests:\n"
	  "    - name: gpu\n"
	  "      exactly:\n"
	  "        deviceClassName: gpu.nvidia.com\n"
	  "    config:\n"
	  "    - requests: [gpu]\n"
	  "      opaque:\n"
	  "        driver: gpu.nvidia.com\n"
	  "        parameters:\n"
	  "          apiVersion: resource.nvidia.com/v1beta1\n"
	  "          kind: GpuConfig\n"
	  "          sharing:\n"
	  "            strategy: TimeSlicing\n",
	  "24:23: warning: strategy TimeSlicing needs the NVIDIA DRA driver's TimeSlicingSettings "
	  "feature gate (alpha, off by default); without it the claim fails when the pod starts: "
	  "enable featureGates.TimeSlicingSettings in the driver's Helm values "
	  "[dra-feature-gate]\n" },
	{ "dra-values-type", NULL,
	  "gpuResourcesEnabledOverride: \"true\"\n"
	  "resources:\n"
	  "  gpus: {enabled: true}\n"
	  "  computeDomains: {enabled: [false]}\n"
	  "webhook: {enabled: \"false\"}\n",
	  "1:1: error: resources.gpus.enabled is true, but gpuResourcesEnabledOverride is not "
	  "true, so the chart refuses to install (the GPU kubelet plugin must not run beside the "
	  "device plugin); turn the device plugin off and write 'gpuResourcesEnabledOverride: "
	  "true' [dra-values-override]\n"
	  "1:30: error: gpuResourcesEnabledOverride is 'true', but the chart tests it as a "
	  "boolean (a string like \"false\" counts as true); write true or false "
	  "[dra-values-type]\n"
	  "4:29: error: resources.computeDomains.enabled is a list, but the chart tests it as a "
	  "boolean (a string like \"false\" counts as true); write true or false "
	  "[dra-values-type]\n"
	  "5:20: error: webhook.enabled is 'false', but the chart tests it as a boolean (a string "
	  "like \"false\" counts as true); write true or false [dra-values-type]\n" },
	/* resources.gpus.enabled is true by default. */
	{ "dra-values-override", NULL,
	  "nvidiaDriverRoot: /\n"
	  "resources:\n"
	  "  computeDomains:\n"
	  "    enabled: false\n",
	  "1:1: error: resources.gpus.enabled is true by default, but gpuResourcesEnabledOverride "
	  "is not true, so the chart refuses to install (the GPU kubelet plugin must not run "
	  "beside the device plugin); turn the device plugin off and write "
	  "'gpuResourcesEnabledOverride: true' [dra-values-override]\n" },
	{ "dra-values-override-false", NULL,
	  "gpuResourcesEnabledOverride: false\n"
	  "resources:\n"
	  "  gpus:\n"
	  "    enabled: true\n",
	  "1:1: error: resources.gpus.enabled is true, but gpuResourcesEnabledOverride is not "
	  "true, so the chart refuses to install (the GPU kubelet plugin must not run beside the "
	  "device plugin); turn the device plugin off and write 'gpuResourcesEnabledOverride: "
	  "true' [dra-values-override]\n" },
	/* Without the GPU kubelet plugin the override is not needed. */
	{ "dra-values-gpus-off", NULL,
	  "resources:\n"
	  "  gpus: {enabled: false}\n"
	  "  computeDomains: {enabled: true}\n",
	  "" },
	{ "dra-values-gate", NULL,
	  "gpuResourcesEnabledOverride: true\n"
	  "featureGates:\n"
	  "  TimeSlicingSetting: true\n"
	  "  MPSSupport: true\n"
	  "  DynamicMIG: true\n"
	  "  PassthroughSupport: \"yes\"\n"
	  "  SomeFutureGate: true\n",
	  "3:3: error: feature gate 'TimeSlicingSetting' is not known to the DRA driver, which "
	  "refuses to start (\"unrecognized feature gate\"); write 'TimeSlicingSettings' "
	  "[dra-values-gate]\n"
	  "4:3: error: feature gate MPSSupport cannot be on with DynamicMIG: the driver refuses "
	  "to start; turn one of them off [dra-values-gate]\n"
	  "6:23: error: featureGates.PassthroughSupport must be true or false: the driver "
	  "refuses any other value [dra-values-gate]\n" },
	{ "dra-values-gate-list", NULL,
	  "gpuResourcesEnabledOverride: true\n"
	  "featureGates: [TimeSlicingSettings]\n",
	  "2:15: error: featureGates must be a mapping like {TimeSlicingSettings: true}, not a "
	  "list [dra-values-gate]\n" },
	/* labels.sh under DRA sets only pool and MIG labels: still a script. */
	{ "labels-script-pool-only", NULL,
	  "#!/bin/sh\n"
	  "set -eu\n"
	  "kubectl label node \"$NODE_1\" 'nvidia.com/mig.config=a' 'gpushare.io/pool=p' "
	  "--overwrite\n",
	  "" },
	{ "karpenter-old-api", NULL,
	  "apiVersion: karpenter.sh/v1alpha5\n"
	  "kind: Provisioner\n"
	  "metadata: {name: a}\n"
	  "---\n"
	  "apiVersion: karpenter.k8s.aws/v1alpha1\n"
	  "kind: AWSNodeTemplate\n"
	  "metadata: {name: b}\n"
	  "---\n"
	  "apiVersion: karpenter.sh/v1alpha5\n"
	  "kind: Machine\n"
	  "metadata: {name: c}\n"
	  "---\n"
	  "apiVersion: karpenter.sh/v1beta1\n"
	  "kind: NodePool\n"
	  "metadata: {name: d}\n"
	  "---\n"
	  "apiVersion: karpenter.k8s.aws/v1beta1\n"
	  "kind: EC2NodeClass\n"
	  "metadata: {name: e}\n",
	  "2:7: error: Provisioner (karpenter.sh/v1alpha5) was removed in Karpenter v0.33; write a "
	  "karpenter.sh/v1 NodePool and a karpenter.k8s.aws/v1 EC2NodeClass [karpenter-old-api]\n"
	  "6:7: error: AWSNodeTemplate (karpenter.k8s.aws/v1alpha1) was removed in Karpenter "
	  "v0.33; write a karpenter.sh/v1 NodePool and a karpenter.k8s.aws/v1 EC2NodeClass "
	  "[karpenter-old-api]\n"
	  "9:13: error: karpenter.sh/v1alpha5 was removed in Karpenter v0.33; write a "
	  "karpenter.sh/v1 NodePool and a karpenter.k8s.aws/v1 EC2NodeClass [karpenter-old-api]\n"
	  "13:13: error: karpenter.sh/v1beta1 was removed in Karpenter v1.1; write 'apiVersion: "
	  "karpenter.sh/v1' (NodePool, NodeClaim) [karpenter-old-api]\n"
	  "17:13: error: karpenter.k8s.aws/v1beta1 was removed in Karpenter v1.1; write "
	  "'apiVersion: karpenter.k8s.aws/v1' (EC2NodeClass) [karpenter-old-api]\n" },
	{ "karpenter-nodeclassref", NULL,
	  "apiVersion: karpenter.sh/v1\n"
	  "kind: NodePool\n"
	  "metadata: {name: gpu}\n"
	  "spec:\n"
	  "  template:\n"
	  "    spec:\n"
	  "      requirements:\n"
	  "      - {key: karpenter.k8s.aws/instance-gpu-name, operator: In, values: [t4]}\n"
	  "---\n"
	  "apiVersion: karpenter.sh/v1\n"
	  "kind: NodePool\n"
	  "metadata: {name: gpu}\n"
	  "spec:\n"
	  "  template:\n"
	  "    spec:\n"
	  "      nodeClassRef:\n"
	  "        kind: EC2NodeClass\n"
	  "        name: \"\"\n"
	  "      requirements:\n"
	  "      - {key: karpenter.k8s.aws/instance-gpu-name, operator: In, values: [t4]}\n"
	  "---\n"
	  "apiVersion: karpenter.sh/v1\n"
	  "kind: NodePool\n"
	  "metadata: {name: gpu}\n"
	  "spec:\n"
	  "  template:\n"
	  "    spec:\n"
	  "      nodeClassRef:\n"
	  "        apiVersion: karpenter.k8s.aws/v1beta1\n"
	  "        kind: EC2NodeClass\n"
	  "        name: default\n"
	  "      requirements:\n"
	  "      - {key: karpenter.k8s.aws/instance-gpu-name, operator: In, values: [t4]}\n",
	  "6:5: error: NodePool needs spec.template.spec.nodeClassRef; write 'nodeClassRef: "
	  "{group: karpenter.k8s.aws, kind: EC2NodeClass, name: NAME}' [karpenter-nodeclassref]\n"
	  "16:7: error: nodeClassRef has no group; write 'group: karpenter.k8s.aws' "
	  "[karpenter-nodeclassref]\n"
	  "18:15: error: nodeClassRef has no name; write 'name: <the EC2NodeClass's name>' "
	  "[karpenter-nodeclassref]\n"
	  "28:7: error: nodeClassRef.apiVersion is the v1beta1 form; karpenter.sh/v1 needs 'group: "
	  "karpenter.k8s.aws' instead [karpenter-nodeclassref]\n" },
	{ "karpenter-restricted-label", NULL,
	  "apiVersion: karpenter.sh/v1\n"
	  "kind: NodePool\n"
	  "metadata: {name: gpu}\n"
	  "spec:\n"
	  "  template:\n"
	  "    metadata:\n"
	  "      labels:\n"
	  "        karpenter.sh/capacity-type: spot\n"
	  "        karpenter.sh/team: ml\n"
	  "        karpenter.k8s.aws/instance-gpu-count: \"1\"\n"
	  "        karpenter.k8s.aws/custom: x\n"
	  "        nvidia.com/device-plugin.config: ts-4\n"
	  "        kubernetes.io/hostname: a\n"
	  "    spec:\n"
	  "      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu}\n"
	  "      requirements:\n"
	  "      - {key: karpenter.sh/nodepool, operator: Exists}\n"
	  "      - {key: karpenter.sh/capacity-type, operator: In, values: [spot]}\n"
	  "      - {key: karpenter.k8s.aws/instance-gpu-memory, operator: Gt, values: "
	  "[\"16000\"]}\n",
	  "9:9: error: label 'karpenter.sh/team' is in the karpenter.sh domain, which Karpenter "
	  "reserves, so the NodePool is rejected; use your own domain, e.g. example.com/team "
	  "[karpenter-restricted-label]\n"
	  "11:9: error: label 'karpenter.k8s.aws/custom' is in the karpenter.k8s.aws domain, which "
	  "Karpenter reserves, so the NodePool is rejected; use your own domain, e.g. "
	  "example.com/custom [karpenter-restricted-label]\n"
	  "13:9: error: label 'kubernetes.io/hostname' is set by Kubernetes or Karpenter itself, "
	  "so the NodePool is rejected; use your own domain, e.g. example.com/hostname "
	  "[karpenter-restricted-label]\n"
	  "17:15: error: requirement key 'karpenter.sh/nodepool' is set by Kubernetes or Karpenter "
	  "itself, so the NodePool is rejected; use a well-known label such as "
	  "karpenter.k8s.aws/instance-gpu-name [karpenter-restricted-label]\n" },
	{ "karpenter-requirement", NULL,
	  "apiVersion: karpenter.sh/v1\n"
	  "kind: NodePool\n"
	  "metadata: {name: gpu}\n"
	  "spec:\n"
	  "  template:\n"
	  "    spec:\n"
	  "      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu}\n"
	  "      requirements:\n"
	  "      - {key: karpenter.k8s.aws/instance-family, operator: In}\n"
	  "      - {key: karpenter.k8s.aws/instance-gpu-count, operator: Gt, values: [\"a\"]}\n"
	  "      - {key: karpenter.k8s.aws/instance-gpu-count, operator: Lt, values: [\"1\", "
	  "\"2\"]}\n"
	  "      - {key: karpenter.k8s.aws/instance-gpu-count, operator: Lte, values: [\"8\"]}\n",
	  "9:60: error: operator In needs values; write 'values: [...]', or operator Exists "
	  "[karpenter-requirement]\n"
	  "10:63: error: operator Gt needs exactly one value, a whole number; write 'values: "
	  "[\"8\"]' [karpenter-requirement]\n"
	  "11:63: error: operator Lt needs exactly one value, a whole number; write 'values: "
	  "[\"8\"]' [karpenter-requirement]\n" },
	{ "config-parse", NULL,
	  "apiVersion: v1\n"
	  "kind: ConfigMap\n"
	  "metadata:\n"
	  "  name: cm\n"
	  "data:\n"
	  "  folded: >\n"
	  "    version: v1\n"
	  "    sharing:\n"
	  "      timeSlicing: {}\n"
	  "  broken: |\n"
	  "    version: v1\n"
	  "    sharing:\n"
	  "      timeSlicing: [\n"
	  "  script: |\n"
	  "    echo: [\n",
	  "6:3: error: data key 'folded' is not valid YAML: mapping values are not allowed in this "
	  "context [config-parse]\n"
	  "13:21: error: data key 'broken' is not valid YAML: did not find expected node content "
	  "while parsing a flow node [config-parse]\n" },
	{ "configmap-not-string", NULL,
	  "apiVersion: v1\n"
	  "kind: ConfigMap\n"
	  "metadata:\n"
	  "  name: cm\n"
	  "data:\n"
	  "  config.yaml:\n"
	  "    version: v1\n"
	  "    mig-configs:\n"
	  "      a:\n"
	  "      - devices: all\n"
	  "        mig-enabled: false\n"
	  "  other:\n"
	  "    a: 1\n",
	  "6:3: error: data key 'config.yaml' holds a mapping, but the config must be a string: "
	  "write 'config.yaml: |' and indent the config under it [configmap-not-string]\n" },
	{ "values-default", NULL,
	  "config:\n"
	  "  default: a100\n"
	  "  map:\n"
	  "    default: |-\n"
	  "      version: v1\n"
	  "      flags:\n"
	  "        migStrategy: none\n"
	  "    t4: |-\n"
	  "      version: v1\n"
	  "      flags:\n"
	  "        migStrategy: single\n",
	  "2:12: error: config.default 'a100' names no config of config.map; write one of: "
	  "default, t4 [values-default]\n" },
	{ "values-default-operator", NULL,
	  "devicePlugin:\n"
	  "  config:\n"
	  "    name: dp\n"
	  "    default: any\n"
	  "    data:\n"
	  "      shared-4: |-\n"
	  "        version: v1\n"
	  "        flags:\n"
	  "          migStrategy: none\n"
	  "migManager:\n"
	  "  config:\n"
	  "    default: all-balanced\n"
	  "    data:\n"
	  "      config.yaml: |-\n"
	  "        version: v1\n"
	  "        mig-configs:\n"
	  "          all-disabled:\n"
	  "          - devices: all\n"
	  "            mig-enabled: false\n",
	  "4:14: error: devicePlugin.config.default 'any' names no config of "
	  "devicePlugin.config.data; write one of: shared-4 [values-default]\n"
	  "12:14: error: migManager.config.default is 'all-balanced', but the GPU Operator accepts "
	  "only all-disabled or empty; select configs with the nvidia.com/mig.config node label "
	  "[values-default]\n" },
	{ "cross-renamed", NULL,
	  "apiVersion: v1\n"
	  "kind: ConfigMap\n"
	  "metadata: {name: time-slicing-config}\n"
	  "data:\n"
	  "  quadro-p2000: |-\n"
	  "    version: v1\n"
	  "    sharing:\n"
	  "      timeSlicing:\n"
	  "        renameByDefault: true\n"
	  "        failRequestsGreaterThanOne: true\n"
	  "        resources:\n"
	  "        - name: nvidia.com/gpu\n"
	  "          replicas: 4\n"
	  "  none: |-\n"
	  "    version: v1\n"
	  "    flags: {migStrategy: none}\n"
	  "---\n"
	  "apiVersion: apps/v1\n"
	  "kind: Deployment\n"
	  "metadata: {name: chat}\n"
	  "spec:\n"
	  "  template:\n"
	  "    spec:\n"
	  "      nodeSelector: {nvidia.com/device-plugin.config: quadro-p2000}\n"
	  "      containers:\n"
	  "      - name: server\n"
	  "        resources:\n"
	  "          limits: {nvidia.com/gpu: 1}\n"
	  "---\n"
	  "apiVersion: v1\n"
	  "kind: Pod\n"
	  "metadata: {name: free}\n"
	  "spec:\n"
	  "  containers:\n"
	  "  - name: c\n"
	  "    resources:\n"
	  "      limits: {nvidia.com/gpu: 1}\n"
	  "---\n"
	  "apiVersion: v1\n"
	  "kind: Pod\n"
	  "metadata: {name: picky}\n"
	  "spec:\n"
	  "  affinity:\n"
	  "    nodeAffinity:\n"
	  "      requiredDuringSchedulingIgnoredDuringExecution:\n"
	  "        nodeSelectorTerms:\n"
	  "        - matchExpressions:\n"
	  "          - {key: nvidia.com/device-plugin.config, operator: In, values: "
	  "[quadro-p2000]}\n"
	  "  containers:\n"
	  "  - name: c\n"
	  "    resources:\n"
	  "      requests: {nvidia.com/gpu: \"2\"}\n"
	  "      limits: {nvidia.com/gpu: \"2\"}\n",
	  "28:20: error: Deployment 'chat' requests nvidia.com/gpu, but config 'quadro-p2000' "
	  "(t.yaml:5) advertises it as nvidia.com/gpu.shared (renameByDefault: true), so no "
	  "node it may run on offers nvidia.com/gpu and the pod stays Pending; request "
	  "nvidia.com/gpu.shared, or remove renameByDefault [pod-renamed-resource]\n"
	  "53:16: error: Pod 'picky' requests nvidia.com/gpu, but config 'quadro-p2000' "
	  "(t.yaml:5) advertises it as nvidia.com/gpu.shared (renameByDefault: true), so no "
	  "node it may run on offers nvidia.com/gpu and the pod stays Pending; request "
	  "nvidia.com/gpu.shared, or remove renameByDefault [pod-renamed-resource]\n" },
	{ "cross-mps", NULL,
	  "apiVersion: v1\n"
	  "kind: ConfigMap\n"
	  "metadata: {name: dp}\n"
	  "data:\n"
	  "  ts: |-\n"
	  "    version: v1\n"
	  "    sharing:\n"
	  "      timeSlicing:\n"
	  "        resources:\n"
	  "        - name: nvidia.com/gpu\n"
	  "          rename: nvidia.com/gpu.shared\n"
	  "          replicas: 4\n"
	  "  mps: |-\n"
	  "    version: v1\n"
	  "    sharing:\n"
	  "      mps:\n"
	  "        resources:\n"
	  "        - name: nvidia.com/gpu\n"
	  "          replicas: 10\n"
	  "---\n"
	  "apiVersion: batch/v1\n"
	  "kind: CronJob\n"
	  "metadata: {name: nightly}\n"
	  "spec:\n"
	  "  jobTemplate:\n"
	  "    spec:\n"
	  "      template:\n"
	  "        spec:\n"
	  "          nodeSelector: {nvidia.com/device-plugin.config: mps}\n"
	  "          containers:\n"
	  "          - name: c\n"
	  "            resources:\n"
	  "              limits: {nvidia.com/gpu: \"2\"}\n"
	  "---\n"
	  "apiVersion: batch/v1\n"
	  "kind: Job\n"
	  "metadata: {name: train}\n"
	  "spec:\n"
	  "  template:\n"
	  "    spec:\n"
	  "      nodeSelector: {nvidia.com/device-plugin.config: ts}\n"
	  "      initContainers:\n"
	  "      - name: warm\n"
	  "        resources:\n"
	  "          limits: {nvidia.com/gpu.shared: 1}\n"
	  "      containers:\n"
	  "      - name: c\n"
	  "        resources:\n"
	  "          limits: {nvidia.com/gpu: 2}\n",
	  "8:7: warning: timeSlicing without failRequestsGreaterThanOne: a pod that asks for 2 "
	  "replicas gets no more compute than with 1; write 'failRequestsGreaterThanOne: true' "
	  "[dp-fail-requests]\n"
	  "11:11: warning: rename is reset at runtime by the device plugin; remove it and set "
	  "'renameByDefault: true' to advertise <name>.shared [dp-rename]\n"
	  "33:24: error: CronJob 'nightly' asks for 2 nvidia.com/gpu, but config 'mps' "
	  "(t.yaml:13) shares it with MPS, and the device plugin refuses more than 1 "
	  "(\"maximum request size for shared resources is 1\"): the pod fails with "
	  "UnexpectedAdmissionError; ask for 1, or run it on a config that does not share "
	  "[pod-request-above-one]\n"
	  "45:20: error: Job 'train' requests nvidia.com/gpu.shared, but no device-plugin "
	  "config it may run on renames its resource (renameByDefault: true), so no node "
	  "offers nvidia.com/gpu.shared and the pod stays Pending; write 'renameByDefault: "
	  "true' in the config, or request nvidia.com/gpu [pod-unrenamed-shared]\n"
	  "49:20: warning: Job 'train' asks for 2 nvidia.com/gpu, which config 'ts' (t.yaml:5) "
	  "time-slices: the replicas may all be one GPU, so it gets no more compute than with "
	  "1; ask for 1, or run it on a config that does not share [pod-shared-request]\n" },
	/* gpushare's patches select pools; the pools' labels name their
	 * configs: a pod of 3 GPUs on the dedicated pool is fine, on the
	 * shared one refused. */
	{ "cross-pools", NULL,
	  "apiVersion: v1\n"
	  "kind: ConfigMap\n"
	  "metadata: {name: device-plugin-config}\n"
	  "data:\n"
	  "  none: |-\n"
	  "    version: v1\n"
	  "    flags: {migStrategy: none}\n"
	  "  ts2: |-\n"
	  "    version: v1\n"
	  "    sharing:\n"
	  "      timeSlicing:\n"
	  "        failRequestsGreaterThanOne: true\n"
	  "        resources:\n"
	  "        - name: nvidia.com/gpu\n"
	  "          replicas: 2\n"
	  "---\n"
	  "apiVersion: v1\n"
	  "kind: Node\n"
	  "metadata:\n"
	  "  name: n1\n"
	  "  labels: {nvidia.com/device-plugin.config: none, gpushare.io/pool: big}\n"
	  "---\n"
	  "apiVersion: v1\n"
	  "kind: Node\n"
	  "metadata:\n"
	  "  name: n2\n"
	  "  labels: {nvidia.com/device-plugin.config: ts2, gpushare.io/pool: small}\n"
	  "---\n"
	  "apiVersion: apps/v1\n"
	  "kind: Deployment\n"
	  "metadata: {name: ollama}\n"
	  "spec:\n"
	  "  template:\n"
	  "    spec:\n"
	  "      nodeSelector: {gpushare.io/pool: big}\n"
	  "      containers:\n"
	  "      - name: c\n"
	  "        resources:\n"
	  "          limits: {nvidia.com/gpu: 3}\n"
	  "---\n"
	  "apiVersion: apps/v1\n"
	  "kind: Deployment\n"
	  "metadata: {name: wrong}\n"
	  "spec:\n"
	  "  template:\n"
	  "    spec:\n"
	  "      affinity:\n"
	  "        nodeAffinity:\n"
	  "          requiredDuringSchedulingIgnoredDuringExecution:\n"
	  "            nodeSelectorTerms:\n"
	  "            - matchExpressions:\n"
	  "              - {key: gpushare.io/pool, operator: In, values: [big, small]}\n"
	  "      containers:\n"
	  "      - name: c\n"
	  "        resources:\n"
	  "          limits: {nvidia.com/gpu: 2}\n",
	  "56:20: error: Deployment 'wrong' asks for 2 nvidia.com/gpu, but config 'ts2' "
	  "(t.yaml:8) shares it with time-slicing and failRequestsGreaterThanOne, and the "
	  "device plugin refuses more than 1 (\"maximum request size for shared resources is "
	  "1\"): the pod fails with UnexpectedAdmissionError; ask for 1, or run it on a config "
	  "that does not share [pod-request-above-one]\n" },
	{ "cross-keys", NULL,
	  "apiVersion: v1\n"
	  "kind: ConfigMap\n"
	  "metadata: {name: device-plugin-config}\n"
	  "data:\n"
	  "  time-sliced: |-\n"
	  "    version: v1\n"
	  "    sharing:\n"
	  "      timeSlicing:\n"
	  "        failRequestsGreaterThanOne: true\n"
	  "        resources:\n"
	  "        - name: nvidia.com/gpu\n"
	  "          replicas: 4\n"
	  "---\n"
	  "devicePlugin:\n"
	  "  config:\n"
	  "    name: nvidia-time-slicing-config\n"
	  "    default: tesla-t4\n"
	  "---\n"
	  "apiVersion: v1\n"
	  "kind: Node\n"
	  "metadata:\n"
	  "  name: n1\n"
	  "  labels: {nvidia.com/device-plugin.config: time-slice}\n"
	  "---\n"
	  "apiVersion: karpenter.sh/v1\n"
	  "kind: NodePool\n"
	  "metadata: {name: gpu}\n"
	  "spec:\n"
	  "  template:\n"
	  "    metadata:\n"
	  "      labels: {nvidia.com/device-plugin.config: ts-4}\n"
	  "    spec:\n"
	  "      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}\n"
	  "      requirements: []\n",
	  "5:3: warning: config 'time-sliced' shares GPUs, but no node label, labels.sh, pod "
	  "selector, NodePool or devicePlugin.config.default given selects it, so no node "
	  "shares them; label the nodes nvidia.com/device-plugin.config=time-sliced, or make "
	  "it the default [dp-config-unused]\n"
	  "16:11: error: devicePlugin.config.name 'nvidia-time-slicing-config' names none of "
	  "the ConfigMaps given that hold device-plugin configs (device-plugin-config), so the "
	  "device plugin never reads them; write the ConfigMap's name [dp-configmap-name]\n"
	  "17:14: error: devicePlugin.config.default 'tesla-t4' names no device-plugin config "
	  "given (they are: time-sliced); the device plugin fails on a node selecting it "
	  "(\"specified config does not exist\"), so GPU pods there stay Pending; write one of "
	  "those keys [dp-config-missing]\n"
	  "23:45: error: node label nvidia.com/device-plugin.config=time-slice names no "
	  "device-plugin config given (they are: time-sliced); the device plugin fails on a "
	  "node selecting it (\"specified config does not exist\"), so GPU pods there stay "
	  "Pending; write one of those keys [dp-config-missing]\n"
	  "31:49: error: NodePool label nvidia.com/device-plugin.config=ts-4 names no "
	  "device-plugin config given (they are: time-sliced); the device plugin fails on a "
	  "node selecting it (\"specified config does not exist\"), so GPU pods there stay "
	  "Pending; write one of those keys [dp-config-missing]\n" },
	{ "cross-clean", NULL,
	  "apiVersion: v1\n"
	  "kind: ConfigMap\n"
	  "metadata: {name: dp}\n"
	  "data:\n"
	  "  shared: |-\n"
	  "    version: v1\n"
	  "    sharing:\n"
	  "      timeSlicing:\n"
	  "        renameByDefault: true\n"
	  "        failRequestsGreaterThanOne: true\n"
	  "        resources:\n"
	  "        - name: nvidia.com/gpu\n"
	  "          replicas: 4\n"
	  "  none: |-\n"
	  "    version: v1\n"
	  "    flags: {migStrategy: none}\n"
	  "---\n"
	  "apiVersion: v1\n"
	  "kind: Node\n"
	  "metadata:\n"
	  "  name: n1\n"
	  "  labels: {nvidia.com/device-plugin.config: shared}\n"
	  "---\n"
	  "apiVersion: apps/v1\n"
	  "kind: StatefulSet\n"
	  "metadata: {name: chat}\n"
	  "spec:\n"
	  "  template:\n"
	  "    spec:\n"
	  "      nodeSelector: {nvidia.com/device-plugin.config: shared}\n"
	  "      containers:\n"
	  "      - name: server\n"
	  "        resources:\n"
	  "          limits: {nvidia.com/gpu.shared: 1}\n"
	  "---\n"
	  "spec:\n"
	  "  template:\n"
	  "    spec:\n"
	  "      containers:\n"
	  "      - name: patched\n"
	  "        resources:\n"
	  "          limits: {nvidia.com/gpu: 1}\n",
	  "" },
	{ "cross-no-evidence", NULL,
	  "apiVersion: v1\n"
	  "kind: ConfigMap\n"
	  "metadata: {name: dp}\n"
	  "data:\n"
	  "  a: |-\n"
	  "    version: v1\n"
	  "    sharing:\n"
	  "      timeSlicing:\n"
	  "        resources:\n"
	  "        - name: nvidia.com/gpu\n"
	  "          replicas: 4\n",
	  "8:7: warning: timeSlicing without failRequestsGreaterThanOne: a pod that asks for 2 "
	  "replicas gets no more compute than with 1; write 'failRequestsGreaterThanOne: true' "
	  "[dp-fail-requests]\n" },
	{ "stream-offsets", NULL,
	  "# first\n"
	  "---\n"
	  "version: v1\n"
	  "flags: {migStrategy: Mixed}\n"
	  "---\n"
	  "--- # an empty document\n"
	  "version: v1\n"
	  "mig-configs:\n"
	  "  a:\n"
	  "  - devices: all\n"
	  "    mig-enabled: true\n",
	  "4:22: error: migStrategy is 'Mixed'; write 'mixed' (one of none, single, mixed) "
	  "[dp-mig-strategy]\n"
	  "11:5: error: mig-enabled is true but the entry has no mig-devices; list them, like "
	  "'mig-devices: {\"1g.5gb\": 7}', or write 'mig-devices: {}' to only enable MIG "
	  "[mig-enabled-without-devices]\n" },
	{ "configmap-literal", NULL,
	  "apiVersion: v1\n"
	  "kind: ConfigMap\n"
	  "metadata:\n"
	  "  name: cm\n"
	  "data:\n"
	  "  a: |\n"
	  "    version: v1\n"
	  "    sharing:\n"
	  "      timeSlicing:\n"
	  "        failRequestsGreaterThanOne: true\n"
	  "        resources:\n"
	  "        - name: nvidia.com/gpu\n"
	  "          replicas: 1\n"
	  "  b: |-\n"
	  "\n"
	  "    version: v1\n"
	  "    sharing:\n"
	  "      mps:\n"
	  "        resources:\n"
	  "        - {name: nvidia.com/gpu, replicas: 1}\n"
	  "  c: |2\n"
	  "      version: v1\n"
	  "      flags:\n"
	  "        migStrategy: Mixed\n",
	  "13:21: error: replicas is 1, but the device plugin needs at least 2; write 2 or more, "
	  "or remove the resource to stop sharing it [dp-replicas]\n"
	  "20:44: error: replicas is 1, but the device plugin needs at least 2; write 2 or more, "
	  "or remove the resource to stop sharing it [dp-replicas]\n"
	  "24:22: error: migStrategy is 'Mixed'; write 'mixed' (one of none, single, mixed) "
	  "[dp-mig-strategy]\n" },
	{ "configmap-quoted", NULL,
	  "apiVersion: v1\n"
	  "kind: ConfigMap\n"
	  "metadata:\n"
	  "  name: cm\n"
	  "data:\n"
	  "  a: \"version: v1\\nsharing:\\n  mps:\\n    resources:\\n    - {name: nvidia.com/gpu, "
	  "replicas: 1}\\n\"\n"
	  "  b: 'version: v1\n"
	  "\n"
	  "    flags: {migStrategy: Mixed}'\n",
	  "6:3: error: replicas is 1, but the device plugin needs at least 2; write 2 or more, or "
	  "remove the resource to stop sharing it [dp-replicas]\n"
	  "7:3: error: migStrategy is 'Mixed'; write 'mixed' (one of none, single, mixed) "
	  "[dp-mig-strategy]\n" },
	{ "helm-values-literal", NULL,
	  "devicePlugin:\n"
	  "  config:\n"
	  "    data:\n"
	  "      any: |-\n"
	  "        version: v1\n"
	  "        sharing:\n"
	  "          timeSlicing:\n"
	  "            failRequestsGreaterThanOne: true\n"
	  "            resources:\n"
	  "            - name: nvidia.com/gpu\n"
	  "              replicas: 0\n"
	  "    default: any\n",
	  "11:25: error: replicas is 0, but the device plugin needs at least 2; write 2 or more, "
	  "or remove the resource to stop sharing it [dp-replicas]\n" },
	{ "k8s-list", NULL,
	  "apiVersion: v1\n"
	  "kind: List\n"
	  "items:\n"
	  "- apiVersion: v1\n"
	  "  kind: ConfigMap\n"
	  "  metadata: {name: a}\n"
	  "  data:\n"
	  "    x: |\n"
	  "      version: v1\n"
	  "      flags:\n"
	  "        migStrategy: Mixed\n"
	  "- apiVersion: karpenter.sh/v1beta1\n"
	  "  kind: NodePool\n"
	  "  metadata: {name: b}\n",
	  "11:22: error: migStrategy is 'Mixed'; write 'mixed' (one of none, single, mixed) "
	  "[dp-mig-strategy]\n"
	  "12:15: error: karpenter.sh/v1beta1 was removed in Karpenter v1.1; write 'apiVersion: "
	  "karpenter.sh/v1' (NodePool, NodeClaim) [karpenter-old-api]\n" },
	/* HAMi: its device config, nodeconfig, chart values and pod resources. */
	{ "hami-device-config", NULL,
	  "nvidia:\n"
	  "  defaultMem: 5000\n"
	  "  deviceSplitCount: 0\n"
	  "  deviceMemoryScaling: 1.5\n"
	  "  gpuCorePolicy: strict\n",
	  "2:3: warning: unknown key 'defaultMem' is ignored by HAMi; write 'defaultMemory' "
	  "[hami-unknown-key]\n"
	  "3:21: error: nvidia.deviceSplitCount is 0: HAMi then offers no slot on a GPU and no "
	  "pod can use one; write at least 1 (the default is 10) [hami-split-count]\n"
	  "4:24: warning: nvidia.deviceMemoryScaling is 1.5: HAMi offers more memory than each "
	  "GPU has, so the pods' nvidia.com/gpumem caps together may exceed it and no longer "
	  "hold; write 1 [hami-memory-scaling]\n"
	  "5:18: error: nvidia.gpuCorePolicy must be default, force or disable, not 'strict' "
	  "[hami-value]\n" },
	{ "hami-nodeconfig", NULL,
	  "{\"nodeconfig\": [{\"devicesplitcount\": -2, \"DeviceMemoryScaling\": 0.5}]}\n",
	  "1:17: error: nodeconfig entry 0 has no name: HAMi applies it to no node; write the "
	  "node's name [hami-value]\n"
	  "1:38: error: nodeconfig[0].devicesplitcount is -2: HAMi then offers no slot on a "
	  "GPU and no pod can use one; write at least 1 (the default is 10) "
	  "[hami-split-count]\n" },
	{ "hami-values", NULL,
	  "devicePlugin:\n"
	  "  deviceSplitCount: ten\n"
	  "  deviceMemoryScaling: 3\n",
	  "2:21: error: devicePlugin.deviceSplitCount must be a whole number from 1 to "
	  "2147483647, not 'ten' [hami-value]\n"
	  "3:24: warning: devicePlugin.deviceMemoryScaling is 3: HAMi offers more memory than "
	  "each GPU has, so the pods' nvidia.com/gpumem caps together may exceed it and no "
	  "longer hold; write 1 [hami-memory-scaling]\n" },
	{ "hami-gpumem-gpu", "L4",
	  "apiVersion: v1\n"
	  "kind: Pod\n"
	  "metadata: {name: p}\n"
	  "spec:\n"
	  "  containers:\n"
	  "  - name: a\n"
	  "    resources:\n"
	  "      limits: {nvidia.com/gpumem: 24000}\n",
	  "8:35: error: nvidia.com/gpumem is 24000 MiB, more than the 23034 MiB of one L4 "
	  "(--gpu): HAMi finds no GPU for it and the pod stays Pending [hami-gpumem]\n" },
	{ "hami-pod-resources", NULL,
	  "apiVersion: apps/v1\n"
	  "kind: Deployment\n"
	  "metadata: {name: d}\n"
	  "spec:\n"
	  "  template:\n"
	  "    spec:\n"
	  "      containers:\n"
	  "      - name: a\n"
	  "        resources:\n"
	  "          limits:\n"
	  "            nvidia.com/gpumem: 4Gi\n"
	  "            nvidia.com/gpumem-percentage: 30\n"
	  "            nvidia.com/gpucores: 101\n"
	  "      - name: b\n"
	  "        resources:\n"
	  "          requests: {nvidia.com/gpucores: -1}\n",
	  "11:32: error: nvidia.com/gpumem is '4Gi', but HAMi takes the number as MiB, so it "
	  "asks for 4294967296 MiB; write the MiB as a plain number: 4096 "
	  "[hami-resource-value]\n"
	  "12:43: warning: nvidia.com/gpumem-percentage is ignored: HAMi uses "
	  "nvidia.com/gpumem when both are given; keep one [hami-gpumem-both]\n"
	  "13:34: error: nvidia.com/gpucores is 101, above 100: HAMi cuts it to 100, which "
	  "holds the whole GPU; write at most 100 [hami-gpucores]\n"
	  "16:43: error: nvidia.com/gpucores is -1, but a resource cannot be negative; write "
	  "the percent of the GPU's SMs, 0 to 100 [hami-gpucores]\n"
	  "16:43: warning: nvidia.com/gpucores without nvidia.com/gpumem or "
	  "nvidia.com/gpumem-percentage: HAMi gives the container the scheduler's "
	  "defaultMemory, by default all of the GPU's memory, so no other HAMi pod fits beside "
	  "it; add nvidia.com/gpumem (MiB) [hami-cores-without-memory]\n" },
};
#define N_CASES (sizeof cases / sizeof cases[0])

static int group_setup(void **state)
{
	gs_error err;
	(void)state;
	if (gs_catalog_load(TEST_PROFILES, &cat, &err) < 0) {
		char buf[1024];
		fprintf(stderr, "%s\n", gs_error_format(&err, buf, sizeof buf));
		return -1;
	}
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	gs_catalog_free(cat);
	return 0;
}

/* The findings without the file name, one line each. Caller frees. */
static char *render(const gs_lint *l)
{
	size_t cap = 1, len = 0;
	char *out;

	for (size_t i = 0; i < gs_lint_count(l); i++)
		cap += strlen(gs_lint_at(l, i)->message) + 128;
	out = malloc(cap);
	assert_non_null(out);
	out[0] = '\0';
	for (size_t i = 0; i < gs_lint_count(l); i++) {
		const gs_finding *f = gs_lint_at(l, i);
		len += (size_t)snprintf(out + len, cap - len, "%lu:%lu: %s: %s [%s]\n", f->line,
		                        f->col, gs_severity_name(f->severity), f->message, f->id);
	}
	return out;
}

static gs_lint *lint_text(const char *text, const char *gpu)
{
	gs_lint_opts o = GS_LINT_OPTS_INIT;
	gs_lint *l = NULL;
	gs_error err;

	o.catalog = cat;
	if (gpu)
		assert_non_null(o.gpu = gs_gpu_find(cat, gpu));
	assert_gs_ok(gs_lint_new(&o, &l, &err), &err);
	assert_gs_ok(gs_lint_buffer(l, "t.yaml", text, strlen(text), &err), &err);
	assert_gs_ok(gs_lint_finish(l, &err), &err);
	return l;
}

static void test_case(void **state)
{
	const lint_case *tc = *state;
	gs_lint *l = lint_text(tc->yaml, tc->gpu);
	char *got = render(l);
	size_t errors = 0;

	assert_string_equal(got, tc->want);
	for (const char *p = tc->want; (p = strstr(p, ": error: ")); p++)
		errors++;
	assert_int_equal(gs_lint_error_count(l), errors);
	for (size_t i = 0; i < gs_lint_count(l); i++)
		assert_string_equal(gs_lint_at(l, i)->file, "t.yaml");
	free(got);
	gs_lint_free(l);
}

/* ---- the rule table ------------------------------------------------------ */

static void test_every_rule_has_a_case(void **state)
{
	(void)state;
	for (size_t r = 0; r < gs_lint_rule_count(); r++) {
		char tag[64];
		int found = 0;
		snprintf(tag, sizeof tag, " [%s]\n", gs_lint_rule_at(r)->id);
		for (size_t i = 0; i < N_CASES && !found; i++)
			found = strstr(cases[i].want, tag) != NULL;
		if (!found)
			fail_msg("no case shows rule %s", gs_lint_rule_at(r)->id);
	}
}

static void test_rule_table(void **state)
{
	size_t n = gs_lint_rule_count();
	(void)state;
	assert_true(n >= 50);
	assert_null(gs_lint_rule_at(n));
	for (size_t i = 0; i < n; i++) {
		const gs_lint_rule *r = gs_lint_rule_at(i);
		assert_non_null(r->id);
		assert_true(strspn(r->id, "abcdefghijklmnopqrstuvwxyz0123456789-") ==
		            strlen(r->id));
		assert_true(r->summary && r->summary[0]);
		assert_true(r->severity == GS_SEVERITY_ERROR || r->severity == GS_SEVERITY_WARNING);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(gs_lint_rule_at(j)->id, r->id);
	}
	assert_string_equal(gs_severity_name(GS_SEVERITY_ERROR), "error");
	assert_string_equal(gs_severity_name(GS_SEVERITY_WARNING), "warning");
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)len + 1);
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[len] = '\0';
	fclose(f);
	return buf;
}

/* The manual lists every rule as ".It Sy ID Pq SEVERITY", and no other. */
static void test_manual_lists_every_rule(void **state)
{
	char *man = read_all(MANUAL);
	size_t listed = 0;
	(void)state;
	assert_non_null(man);
	for (size_t i = 0; i < gs_lint_rule_count(); i++) {
		const gs_lint_rule *r = gs_lint_rule_at(i);
		char line[128];
		snprintf(line, sizeof line, "\n.It Sy %s Pq %s\n", r->id,
		         gs_severity_name(r->severity));
		if (!strstr(man, line))
			fail_msg("%s does not list '%s'", MANUAL, line + 1);
	}
	for (const char *p = man; (p = strstr(p, "\n.It Sy ")); p++)
		listed++;
	assert_int_equal(listed, gs_lint_rule_count());
	free(man);
}

/* ---- input --------------------------------------------------------------- */

static void expect_failure(const char *text, size_t len, int code, const char *msg)
{
	gs_lint *l = NULL;
	gs_error err;

	assert_gs_ok(gs_lint_new(NULL, &l, &err), &err);
	assert_int_equal(gs_lint_buffer(l, "t.yaml", text, len, &err), code);
	assert_gs_error(&err, msg);
	assert_int_equal(gs_lint_count(l), 0);
	gs_lint_free(l);
}

/* Blanks alone, in a buffer that does not end in NUL (the fuzzer's
 * find: the check for an empty file read past it). */
static void test_blank_buffer(void **state)
{
	char *text = malloc(3);
	(void)state;
	assert_non_null(text);
	memcpy(text, "\n  ", 3);
	expect_failure(text, 3, GS_ESCHEMA, "t.yaml: error: the file is empty: nothing to lint");
	free(text);
}

static void test_input_errors(void **state)
{
	static const char stream[] = "version: v1\nflags: {migStrategy: Mixed}\n---\n"
	                             "kind: ConfigMap\ndata:\n  a: [\n";
	static const char dup[] = "---\n---\napiVersion: v1\nkind: ConfigMap\n"
	                          "apiVersion: v1\n";
	static const char nul[] = "version: v1\0\n";
	static const char script[] = "#!/bin/sh\n# kubectl label node N x=y\necho "
	                             "kubectl label node\n";
	gs_lint *l = NULL;
	gs_error err;
	(void)state;

	/* A parse error in the second document is at its line in the file,
	 * and the first document's findings are dropped with it. */
	expect_failure(stream, strlen(stream), GS_ESYNTAX,
	               "t.yaml:7:1: error: did not find expected node content while "
	               "parsing a flow node");
	expect_failure(dup, strlen(dup), GS_ESCHEMA,
	               "t.yaml:5:1: error: duplicate key 'apiVersion'");
	expect_failure(nul, sizeof nul - 1, GS_ESYNTAX, "t.yaml: error: NUL byte in the file");
	/* A script that labels no node is not a labels script. */
	expect_failure(script, strlen(script), GS_ESCHEMA,
	               "t.yaml: error: nothing to lint: no device-plugin, mig-parted, DRA, "
	               "Karpenter or GPU Operator configuration, workload, Node or labels.sh "
	               "script");
	assert_gs_ok(gs_lint_new(NULL, &l, &err), &err);
	assert_int_equal(gs_lint_file(l, "fixtures/lint/no-such-file.yaml", &err), GS_EIO);
	gs_lint_free(l);
	gs_lint_free(NULL);
}

/* Without a catalog, geometries are not checked; the rest is. */
static void test_no_catalog(void **state)
{
	static const char text[] = "version: v1\nmig-configs:\n  a:\n  - devices: all\n"
	                           "    mig-enabled: true\n    mig-devices: {\"1g.5gb\": 9}\n"
	                           "  b: []\n";
	gs_lint *l = NULL;
	gs_error err;
	char *got;
	(void)state;

	assert_gs_ok(gs_lint_new(NULL, &l, &err), &err);
	assert_gs_ok(gs_lint_buffer(l, "t.yaml", text, strlen(text), &err), &err);
	got = render(l);
	assert_string_equal(got, "7:3: error: config 'b' has no entries, which mig-parted "
	                         "rejects; add one, like '- devices: all' with 'mig-enabled: "
	                         "false' [mig-empty]\n");
	free(got);
	gs_lint_free(l);
}

/* Several files into one result, then the JSON contract. */
static void test_files_and_json(void **state)
{
	static const char a[] = "version: v2\nflags: {}\n";
	static const char b[] = "kind: Pod\nspec:\n  containers:\n  - resources:\n"
	                        "      limits: {nvidia.com/gpu.shared: 1}\n";
	gs_lint *l = NULL;
	gs_doc *doc = NULL;
	gs_error err;
	char *json = NULL;
	(void)state;

	assert_gs_ok(gs_lint_new(NULL, &l, &err), &err);
	assert_gs_ok(gs_lint_buffer(l, "a.yaml", a, strlen(a), &err), &err);
	assert_gs_ok(gs_lint_buffer(l, "b.yaml", b, strlen(b), &err), &err);
	assert_int_equal(gs_lint_count(l), 1);
	/* b's pod asks for what a's config does not advertise: a rule across
	 * files, which finish runs (twice gives the same findings). */
	assert_gs_ok(gs_lint_finish(l, &err), &err);
	assert_gs_ok(gs_lint_finish(l, &err), &err);
	assert_int_equal(gs_lint_count(l), 2);
	assert_string_equal(gs_lint_at(l, 0)->file, "a.yaml");
	assert_string_equal(gs_lint_at(l, 1)->file, "b.yaml");
	assert_null(gs_lint_at(l, 2));
	assert_int_equal(gs_lint_error_count(l), 2);
	assert_gs_ok(gs_doc_lint(l, &doc, &err), &err);
	assert_gs_ok(gs_doc_render(doc, GS_FORMAT_JSON, &json, &err), &err);
	assert_string_equal(json,
	    "[\n"
	    "  {\n"
	    "    \"file\": \"a.yaml\",\n"
	    "    \"line\": 1,\n"
	    "    \"col\": 10,\n"
	    "    \"severity\": \"error\",\n"
	    "    \"id\": \"dp-version\",\n"
	    "    \"message\": \"version is 'v2', but the device plugin knows only v1; write "
	    "'version: v1'\"\n"
	    "  },\n"
	    "  {\n"
	    "    \"file\": \"b.yaml\",\n"
	    "    \"line\": 5,\n"
	    "    \"col\": 16,\n"
	    "    \"severity\": \"error\",\n"
	    "    \"id\": \"pod-unrenamed-shared\",\n"
	    "    \"message\": \"a Pod requests nvidia.com/gpu.shared, but no "
	    "device-plugin config it may run on renames its resource (renameByDefault: true), so "
	    "no node offers nvidia.com/gpu.shared and the pod stays Pending; write "
	    "'renameByDefault: true' in the config, or request nvidia.com/gpu\"\n"
	    "  }\n"
	    "]\n");
	free(json);
	gs_doc_free(doc);
	gs_lint_free(l);
}

/* ---- the real samples ---------------------------------------------------- */

/* Samples that lint without errors (they may warn). */
static const char *const good[] = {
	"nvidia/k8s-device-plugin-readme-mps-x10-renamed.yaml",
	"nvidia/k8s-device-plugin-readme-mps-x10.yaml",
	"nvidia/k8s-device-plugin-readme-timeslicing-x10-renamed.yaml",
	"nvidia/k8s-device-plugin-readme-timeslicing-x10.yaml",
	"nvidia/nvidia-docs-time-slicing-config-all.yaml",
	"nvidia/nvidia-docs-time-slicing-config-fine.yaml",
	"nvidia/openshift-conformance-time-slicing-config.yaml",
	"nvidia/gpu-operator-default-mig-parted-config.configmap.yaml",
	"nvidia/mig-parted-config-default.yaml",
	"nvidia/mig-parted-examples-config.yaml",
	"nvidia/nvidia-docs-custom-mig-config.configmap.yaml",
	"nvidia/nvidia-docs-mig-cm-values.helm.yaml",
	"validate/device-plugin/good/configmap-stream.yaml",
	"validate/device-plugin/good/flags-and-device-list.yaml",
	"validate/device-plugin/good/gpu-operator-values.yaml",
	"validate/device-plugin/good/mps.yaml",
	"validate/device-plugin/good/time-slicing.yaml",
	"validate/k8s/good/dra-claims-all-versions.yaml",
	"validate/k8s/good/karpenter.yaml",
	"validate/k8s/good/mig-pod.yaml",
	"validate/k8s/good/timeslicing-configmap-and-deployment.yaml",
	"validate/mig-parted/good/attributes.yaml",
	"validate/mig-parted/good/per-device.yaml",
	"validate/mig-parted/good/standard.yaml",
	/* Bad for the API server or the kubelet, in ways lint does not check
	 * (README.md): no errors from lint either. */
	"validate/k8s/bad/claimtemplate-v1beta2-bad-allocation.yaml",
	"validate/k8s/bad/deployment-selector-mismatch.yaml",
	"validate/k8s/bad/ec2nodeclass-role-and-profile.yaml",
	"validate/k8s/bad/pod-fractional-gpu.yaml",
	"validate/k8s/bad/pod-gpu-request-not-equal-limit.yaml",
	"validate/k8s/bad/pod-gpu-request-without-limit.yaml",
	"validate/k8s/bad/pod-unknown-field-and-missing-claim.yaml",
	"hami/good/configmaps.yaml",
	"hami/good/pods.yaml",
	"hami/good/values.yaml",
};

/* Bad samples and the rules that catch their known problems. */
static const struct bad_sample {
	const char *file;
	const char *ids[5];
} bad[] = {
	{ "nvidia/nvidia-docs-openshift-device-plugin-config.yaml", { "dp-replicas" } },
	{ "validate/device-plugin/bad/bad-devices-and-name.yaml",
	  { "dp-devices-invalid", "dp-resource-name" } },
	{ "validate/device-plugin/bad/chart-values-unknown-default.yaml",
	  { "values-default", "dp-replicas" } },
	{ "validate/device-plugin/bad/configmap-stream-bad-value.yaml",
	  { "dp-replicas", "dp-flag-value" } },
	{ "validate/device-plugin/bad/empty-resources-and-version.yaml",
	  { "dp-version", "dp-no-resources" } },
	{ "validate/device-plugin/bad/fractional-replicas.yaml", { "dp-replicas" } },
	{ "validate/device-plugin/bad/mps-with-mixed-mig.yaml", { "dp-mps-mig" } },
	{ "validate/device-plugin/bad/replicas-zero.yaml", { "dp-replicas" } },
	{ "validate/device-plugin/bad/unknown-key-in-resource.yaml",
	  { "dp-unknown-key", "dp-replicas" } },
	{ "validate/device-plugin/bad/unknown-top-level-key.yaml", { "dp-unknown-key" } },
	{ "validate/k8s/bad/claim-nvidia-gpuconfig-bad.yaml",
	  { "dra-interval", "dra-unknown-key", "dra-thread-percentage", "dra-strategy-config" } },
	{ "validate/k8s/bad/claim-v1-with-v1beta1-shape.yaml", { "dra-request-shape" } },
	{ "validate/k8s/bad/claim-v1beta1-with-v1-shape.yaml", { "dra-request-shape" } },
	{ "validate/k8s/bad/claimtemplate-v1-missing-spec.yaml", { "dra-template-spec" } },
	{ "validate/k8s/bad/configmap-non-string-value.yaml", { "configmap-not-string" } },
	{ "validate/k8s/bad/nodepool-bad-requirements.yaml",
	  { "karpenter-requirement", "karpenter-restricted-label" } },
	{ "validate/k8s/bad/unknown-api-version.yaml", { "dra-api-version" } },
	{ "validate/mig-parted/bad/empty-config-list.yaml", { "mig-empty", "mig-devices" } },
	{ "validate/mig-parted/bad/enabled-without-devices.yaml",
	  { "mig-enabled-without-devices" } },
	{ "validate/mig-parted/bad/invalid-profile.yaml", { "mig-profile" } },
	{ "validate/mig-parted/bad/missing-version.yaml", { "mig-version" } },
	{ "validate/mig-parted/bad/unknown-key.yaml", { "mig-unknown-key" } },
	{ "validate/mig-parted/bad/zero-counts-and-disabled-with-devices.yaml",
	  { "mig-count", "mig-disabled-with-devices" } },
	{ "hami/bad/configmaps.yaml",
	  { "hami-unknown-key", "hami-split-count", "hami-memory-scaling", "hami-value" } },
	{ "hami/bad/pods.yaml",
	  { "hami-gpumem", "hami-gpucores", "hami-resource-value", "hami-gpumem-both",
	    "hami-cores-without-memory" } },
	{ "hami/bad/values.yaml", { "hami-split-count", "hami-memory-scaling", "hami-value" } },
};

static gs_lint *lint_fixture(const char *name)
{
	gs_lint_opts o = GS_LINT_OPTS_INIT;
	gs_lint *l = NULL;
	gs_error err;
	char path[256];

	o.catalog = cat;
	snprintf(path, sizeof path, "fixtures/lint/%s", name);
	assert_gs_ok(gs_lint_new(&o, &l, &err), &err);
	assert_gs_ok(gs_lint_file(l, path, &err), &err);
	return l;
}

static void test_good_samples(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		gs_lint *l = lint_fixture(good[i]);
		for (size_t j = 0; j < gs_lint_count(l); j++) {
			const gs_finding *f = gs_lint_at(l, j);
			if (f->severity == GS_SEVERITY_ERROR)
				fail_msg("%s:%lu:%lu: %s [%s]", good[i], f->line, f->col,
				         f->message, f->id);
		}
		gs_lint_free(l);
	}
}

static void test_bad_samples(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		gs_lint *l = lint_fixture(bad[i].file);
		for (size_t k = 0; k < 5 && bad[i].ids[k]; k++) {
			int found = 0;
			for (size_t j = 0; j < gs_lint_count(l) && !found; j++)
				found = strcmp(gs_lint_at(l, j)->id, bad[i].ids[k]) == 0;
			if (!found)
				fail_msg("%s: no %s finding", bad[i].file, bad[i].ids[k]);
		}
		gs_lint_free(l);
	}
}

/* The YAML reader refuses duplicate keys, so this sample is an input
 * error, with its position. */
static void test_duplicate_key_sample(void **state)
{
	gs_lint *l = NULL;
	gs_error err;
	(void)state;
	assert_gs_ok(gs_lint_new(NULL, &l, &err), &err);
	assert_int_equal(gs_lint_file(l, "fixtures/lint/validate/k8s/bad/duplicate-key.yaml", &err),
	                 GS_ESCHEMA);
	assert_int_equal(err.line, 8);
	assert_int_equal(err.col, 3);
	gs_lint_free(l);
}

/* A script whose last line is blanks with no newline: read up to the
 * buffer's end and no further (found by fuzz_lint). The buffer is exactly
 * its bytes, with no NUL after, so a read past it is caught. */
static void test_script_trailing_blanks(void **state)
{
	static const char text[] = "#!/bin/sh\nkubectl label node a gpushare.io/pool=p\n  ";
	size_t len = sizeof text - 1;
	char *buf = malloc(len);
	gs_lint *l = NULL;
	gs_error err;
	(void)state;
	assert_non_null(buf);
	memcpy(buf, text, len);
	assert_gs_ok(gs_lint_new(NULL, &l, &err), &err);
	assert_gs_ok(gs_lint_buffer(l, "labels.sh", buf, len, &err), &err);
	assert_int_equal(gs_lint_count(l), 0);
	gs_lint_free(l);
	free(buf);
}

int main(void)
{
	struct CMUnitTest tests[N_CASES + 16];
	size_t n = 0;

	for (size_t i = 0; i < N_CASES; i++)
		tests[n++] = (struct CMUnitTest){ cases[i].name, test_case, NULL, NULL,
			                              (void *)&cases[i] };
#define ADD(fn) tests[n++] = (struct CMUnitTest)cmocka_unit_test(fn)
	ADD(test_every_rule_has_a_case);
	ADD(test_rule_table);
	ADD(test_manual_lists_every_rule);
	ADD(test_input_errors);
	ADD(test_blank_buffer);
	ADD(test_no_catalog);
	ADD(test_files_and_json);
	ADD(test_good_samples);
	ADD(test_bad_samples);
	ADD(test_duplicate_key_sample);
	ADD(test_script_trailing_blanks);
#undef ADD
	return _cmocka_run_group_tests("test_lint", tests, n, group_setup, group_teardown);
}
