/*
 * rules.c - the lint rules: id, severity and summary of each, in the
 * order of the manual (and of the enum in kit.h).
 */
#include "lint/kit.h"

#define E GS_SEVERITY_ERROR
#define W GS_SEVERITY_WARNING

static const gs_lint_rule rules[R_COUNT] = {
	[R_DP_VERSION] = { "dp-version", E, "device-plugin config version other than v1" },
	[R_DP_BOTH_STRATEGIES] = { "dp-both-strategies", E,
		"both sharing.timeSlicing and sharing.mps: MPS silently wins" },
	[R_DP_NO_RESOURCES] = { "dp-no-resources", E,
		"timeSlicing or mps without resources, or with none (timeSlicing: {})" },
	[R_DP_REPLICAS] = { "dp-replicas", E,
		"a shared resource without replicas, or replicas not an integer of at least 2" },
	[R_DP_RESOURCE_NAME] = { "dp-resource-name", E,
		"resource name missing, or not nvidia.com/gpu or nvidia.com/mig-<profile>" },
	[R_DP_MPS_MIG] = { "dp-mps-mig", E,
		"MPS with flags.migStrategy mixed, or MPS on a nvidia.com/mig-* resource" },
	[R_DP_MPS_REPLICAS] = { "dp-mps-replicas", E,
		"MPS replicas above the MPS control daemon's client limit: 48, or 16 on a --gpu "
		"below compute capability 7.5" },
	[R_DP_MPS_REPLICAS_OLD_GPU] = { "dp-mps-replicas-old-gpu", W,
		"MPS replicas above 16 fail on GPUs below compute capability 7.5 (V100, P100)" },
	[R_DP_RENAME] = { "dp-rename", W,
		"rename is reset at runtime; only renameByDefault renames" },
	[R_DP_DEVICES] = { "dp-devices", W,
		"devices other than all is reset to all at runtime" },
	[R_DP_DEVICES_INVALID] = { "dp-devices-invalid", E,
		"devices not all, a positive count or a list of GPU indices or UUIDs" },
	[R_DP_FAIL_REQUESTS] = { "dp-fail-requests", W,
		"timeSlicing without failRequestsGreaterThanOne: a pod asking for 2 replicas "
		"gets no more compute" },
	[R_DP_UNKNOWN_KEY] = { "dp-unknown-key", W,
		"a key the device plugin does not know and silently ignores" },
	[R_DP_KEY_CASE] = { "dp-key-case", W,
		"a key spelt with other capitals, matched only because Go ignores case there" },
	[R_DP_MIG_STRATEGY] = { "dp-mig-strategy", E,
		"flags.migStrategy not none, single or mixed" },
	[R_DP_FLAG_VALUE] = { "dp-flag-value", E,
		"a flags value the device plugin rejects (deviceListStrategy, "
		"deviceIDStrategy, ...)" },
	[R_DP_TYPE] = { "dp-type", E, "a device-plugin value of the wrong type" },

	[R_MIG_VERSION] = { "mig-version", E, "mig-parted config without version: v1" },
	[R_MIG_UNKNOWN_KEY] = { "mig-unknown-key", E,
		"a key mig-parted does not know (it rejects the whole file)" },
	[R_MIG_EMPTY] = { "mig-empty", E, "mig-configs empty, or a config with no entries" },
	[R_MIG_REQUIRED] = { "mig-required", E, "an entry without devices or mig-enabled" },
	[R_MIG_DEVICES] = { "mig-devices", E, "devices not all and not a list of GPU indices" },
	[R_MIG_ENABLED_WITHOUT_DEVICES] = { "mig-enabled-without-devices", E,
		"mig-enabled: true without mig-devices" },
	[R_MIG_DISABLED_WITH_DEVICES] = { "mig-disabled-with-devices", E,
		"mig-enabled: false with MIG devices" },
	[R_MIG_PROFILE] = { "mig-profile", E,
		"a profile not of the form [<c>c.]<g>g.<mem>gb[+me|-me|+gfx|+me.all]" },
	[R_MIG_COUNT] = { "mig-count", E,
		"a count that is negative or not an integer, or all counts 0" },
	[R_MIG_GEOMETRY] = { "mig-geometry", E,
		"mig-devices that do not fit the GPU (--gpu, or the model its device-filter "
		"names)" },
	[R_MIG_GEOMETRY_ANY] = { "mig-geometry-any", W,
		"mig-devices that fit no MIG GPU of the catalog" },
	[R_MIG_DEVICE_FILTER] = { "mig-device-filter", W,
		"a device-filter that is not a PCI id like 0x20B010DE and so never matches" },
	[R_MIG_TYPE] = { "mig-type", E, "a mig-parted value of the wrong type" },

	[R_DRA_OLD_API] = { "dra-old-api", E,
		"opaque parameters in gpu.nvidia.com/v1alpha1, renamed "
		"resource.nvidia.com/v1beta1" },
	[R_DRA_PARAMS_API] = { "dra-params-api", E,
		"opaque parameters of an apiVersion or kind the NVIDIA DRA driver cannot decode" },
	[R_DRA_DRIVER] = { "dra-driver", E,
		"NVIDIA GPU parameters for a driver other than gpu.nvidia.com" },
	[R_DRA_UNKNOWN_KEY] = { "dra-unknown-key", E,
		"a key in the opaque parameters (the driver decodes them strictly)" },
	[R_DRA_STRATEGY] = { "dra-strategy", E, "sharing.strategy not exactly TimeSlicing or MPS" },
	[R_DRA_INTERVAL] = { "dra-interval", E,
		"interval not Default, Short, Medium or Long, or timeSlicingConfig without "
		"interval" },
	[R_DRA_MIG_TIMESLICING] = { "dra-mig-timeslicing", E,
		"timeSlicingConfig in a MigDeviceConfig" },
	[R_DRA_STRATEGY_CONFIG] = { "dra-strategy-config", E,
		"mpsConfig with TimeSlicing, or timeSlicingConfig with MPS" },
	[R_DRA_THREAD_PERCENTAGE] = { "dra-thread-percentage", E,
		"defaultActiveThreadPercentage not an integer from 0 to 100" },
	[R_DRA_MEMORY_LIMIT] = { "dra-memory-limit", E,
		"a pinned memory limit that is not a quantity of at least 1Mi" },
	[R_DRA_FEATURE_GATE] = { "dra-feature-gate", W,
		"sharing needs the driver's TimeSlicingSettings or MPSSupport feature gate" },
	[R_DRA_API_VERSION] = { "dra-api-version", E,
		"a resource.k8s.io version that does not exist" },
	[R_DRA_API_ALPHA] = { "dra-api-alpha", W,
		"resource.k8s.io/v1alpha3 claims, served only by Kubernetes 1.31" },
	[R_DRA_REQUEST_SHAPE] = { "dra-request-shape", E,
		"a request shape that does not match the apiVersion (exactly: or flat "
		"deviceClassName)" },
	[R_DRA_TEMPLATE_SPEC] = { "dra-template-spec", E,
		"a ResourceClaimTemplate without spec.spec" },
	[R_DRA_REMOVED_ATTRIBUTE] = { "dra-removed-attribute", W,
		"a CEL selector using a removed attribute: index, minor, parentIndex, pcieBusID" },
	[R_DRA_MEMORY_ATTRIBUTE] = { "dra-memory-attribute", W,
		"a CEL selector reading memory as an attribute instead of device.capacity" },
	[R_DRA_TEMPLATE_SHARING] = { "dra-template-sharing", W,
		"a ResourceClaimTemplate with sharing: every pod gets its own claim, nothing "
		"is shared" },

	[R_DRA_VALUES_TYPE] = { "dra-values-type", E,
		"a DRA driver chart switch (enabled, gpuResourcesEnabledOverride) that is not "
		"a boolean" },
	[R_DRA_VALUES_OVERRIDE] = { "dra-values-override", E,
		"resources.gpus.enabled without gpuResourcesEnabledOverride: true: the chart "
		"refuses to install" },
	[R_DRA_VALUES_GATE] = { "dra-values-gate", E,
		"a misspelt feature gate, a gate that is not a boolean, or DynamicMIG with a "
		"gate it excludes" },

	[R_KARPENTER_OLD_API] = { "karpenter-old-api", E,
		"Provisioner, AWSNodeTemplate or a v1alpha5/v1beta1 Karpenter API" },
	[R_KARPENTER_NODECLASSREF] = { "karpenter-nodeclassref", E,
		"a NodePool nodeClassRef without group, kind or name" },
	[R_KARPENTER_RESTRICTED_LABEL] = { "karpenter-restricted-label", E,
		"a NodePool label or requirement in a domain Karpenter reserves" },
	[R_KARPENTER_REQUIREMENT] = { "karpenter-requirement", E,
		"a NodePool requirement In without values, or Gt/Lt without one integer" },

	[R_CONFIG_PARSE] = { "config-parse", E, "an embedded config that is not valid YAML" },
	[R_CONFIGMAP_NOT_STRING] = { "configmap-not-string", E,
		"a config written as a mapping where a string (a | block) is required" },
	[R_VALUES_DEFAULT] = { "values-default", E, "a Helm default that names no config" },

	[R_RENAMED_NOT_REQUESTED] = { "pod-renamed-resource", E,
		"pods request nvidia.com/gpu (or a MIG resource) that every config they may run on "
		"renames to <name>.shared: they stay Pending" },
	[R_SHARED_NOT_RENAMED] = { "pod-unrenamed-shared", E,
		"pods request <name>.shared, but no config they may run on has renameByDefault: "
		"true" },
	[R_REQUEST_ABOVE_ONE] = { "pod-request-above-one", E,
		"a container asks for more than 1 of a resource shared with MPS or with "
		"failRequestsGreaterThanOne: the device plugin refuses it" },
	[R_SHARED_REQUEST] = { "pod-shared-request", W,
		"a container asks for more than 1 time-sliced replica, which may all be one GPU" },
	[R_CONFIG_MISSING] = { "dp-config-missing", E,
		"a node label, labels.sh, pod selector, NodePool label or Helm default names no "
		"device-plugin config given" },
	[R_CONFIG_UNUSED] = { "dp-config-unused", W,
		"a sharing config that no node label, pod selector or Helm default selects" },
	[R_CONFIGMAP_NAME] = { "dp-configmap-name", E,
		"devicePlugin.config.name names none of the device-plugin ConfigMaps given" },

	[R_HAMI_SPLIT_COUNT] = { "hami-split-count", E,
		"a HAMi deviceSplitCount below 1: no pod gets a slot on the GPU" },
	[R_HAMI_MEMORY_SCALING] = { "hami-memory-scaling", W,
		"a HAMi deviceMemoryScaling above 1 oversubscribes GPU memory: the gpumem caps no "
		"longer hold" },
	[R_HAMI_VALUE] = { "hami-value", E,
		"a HAMi config value of the wrong type or out of range, or a nodeconfig entry "
		"without a name" },
	[R_HAMI_UNKNOWN_KEY] = { "hami-unknown-key", W,
		"a key in HAMi's nvidia device config or nodeconfig that HAMi silently ignores" },
	[R_HAMI_GPUMEM] = { "hami-gpumem", E,
		"nvidia.com/gpumem above the GPU's memory (the pod's nvidia.com/gpu.product "
		"selector or affinity, --gpu, or the largest GPU of the catalog): the pod stays "
		"Pending" },
	[R_HAMI_GPUCORES] = { "hami-gpucores", E,
		"nvidia.com/gpucores above 100 (HAMi caps it: the whole GPU) or negative" },
	[R_HAMI_RESOURCE_VALUE] = { "hami-resource-value", E,
		"a HAMi resource that is not a whole number (gpumem in MiB, percentages), "
		"negative, or a gpumem-percentage above 100" },
	[R_HAMI_GPUMEM_BOTH] = { "hami-gpumem-both", W,
		"nvidia.com/gpumem with nvidia.com/gpumem-percentage: HAMi ignores the "
		"percentage" },
	[R_HAMI_CORES_WITHOUT_MEMORY] = { "hami-cores-without-memory", W,
		"nvidia.com/gpucores without gpumem or gpumem-percentage: the container gets "
		"defaultMemory, by default all of the GPU's memory" },
};

#undef E
#undef W

size_t gs_lint_rule_count(void)
{
	return R_COUNT;
}

const gs_lint_rule *gs_lint_rule_at(size_t i)
{
	return i < R_COUNT ? &rules[i] : NULL;
}

const char *gs_severity_name(gs_severity s)
{
	return s == GS_SEVERITY_ERROR ? "error" : "warning";
}
