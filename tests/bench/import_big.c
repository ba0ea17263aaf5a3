/*
 * import_big.c - times `gpushare import` as a user runs it on a large
 * cluster whose objects look like real ones.
 *
 *   build/bench/import_big [PODS [NODES]]      (default: 100000 400)
 *
 * It writes, with a fixed seed, `kubectl get nodes -o json` and `kubectl
 * get pods -A -o json` as kubectl prints them (a List, keys in order,
 * four-space indentation) into a scratch directory, then runs
 * `./gpushare import --nodes nodes.json --pods pods.json` (the workload file
 * to /dev/null) in a child and reports its wall time, CPU time and peak
 * resident memory (wait4's ru_maxrss).
 *
 * The pods are what GPU inference Deployments' pods are: labels and an
 * annotation, an owner reference, an inference container with a command,
 * environment variables, resources and volume mounts; a node selector,
 * tolerations, the projected service account token volume; status
 * conditions and container statuses. One Deployment in five has richer
 * pods: arguments, more variables (one from the downward API), ports,
 * liveness and readiness probes, a security context, a metrics sidecar,
 * node affinity and a shared-memory volume. As kubectl prints them (it
 * leaves out managedFields since 1.21) they average about 10 KB. With
 * IMPORT_BIG_MANAGED=1 every pod also has the managedFields of the
 * controller and the kubelet, as the API server returns them and
 * `kubectl get --show-managed-fields` prints them: about 17 KB. Each pod
 * requests one share of a time-sliced GPU (one Deployment in twenty: two).
 * The nodes are 8-GPU instances (A10G, L4, L40S, A100, H100) time-sliced
 * 32 ways, with gpu-feature-discovery's labels, kubelet's capacity,
 * conditions and image list.
 *
 * Run from the repository top, after `make` (it runs ./gpushare). With
 * IMPORT_BIG_DIR set, the files are written there and kept. The goal is
 * printed beside the figures; missing it prints FAIL but exits 0, as the
 * other benchmarks do; the exit status is 1 when the import fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rng.h"

#define SEED UINT64_C(0x9e3779b97f4a7c15)
#define GOAL_S 30.0        /* the whole import, wall time */
#define GOAL_MIB 256.0     /* its peak resident memory */
#define SLOTS 256          /* 8 GPUs x 32 time-slicing replicas */

/* ---- a JSON writer that indents as kubectl does ---------------------------------- */

typedef struct jw {
	FILE *f;
	int depth;
	int empty[64]; /* the container at each depth has no member yet */
} jw;

static void indent(jw *w)
{
	fputc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("    ", w->f);
}

static void member(jw *w, const char *key)
{
	if (w->depth > 0) {
		if (!w->empty[w->depth])
			fputc(',', w->f);
		w->empty[w->depth] = 0;
		indent(w);
	}
	if (key)
		fprintf(w->f, "\"%s\": ", key);
}

static void open_(jw *w, const char *key, char c)
{
	member(w, key);
	fputc(c, w->f);
	w->empty[++w->depth] = 1;
}

static void close_(jw *w, char c)
{
	int was_empty = w->empty[w->depth--];
	if (!was_empty)
		indent(w);
	fputc(c, w->f);
}

#define OBJ(w, k) open_(w, k, '{')
#define ARR(w, k) open_(w, k, '[')
#define END_OBJ(w) close_(w, '}')
#define END_ARR(w) close_(w, ']')

static void str(jw *w, const char *key, const char *fmt, ...)
{
	va_list ap;
	member(w, key);
	fputc('"', w->f);
	va_start(ap, fmt);
	vfprintf(w->f, fmt, ap);
	va_end(ap);
	fputc('"', w->f);
}

static void raw(jw *w, const char *key, const char *fmt, ...)
{
	va_list ap;
	member(w, key);
	va_start(ap, fmt);
	vfprintf(w->f, fmt, ap);
	va_end(ap);
}

/* An empty object: the "{}" managedFields is made of. */
static void none(jw *w, const char *key)
{
	OBJ(w, key);
	END_OBJ(w);
}

/* ---- values -------------------------------------------------------------------------- */

static void hex(rng *r, char *out, int n)
{
	static const char digits[] = "0123456789abcdef";
	for (int i = 0; i < n; i++)
		out[i] = digits[rng_next(r) % 16];
	out[n] = '\0';
}

static void uid(rng *r, char out[37])
{
	char h[33];
	hex(r, h, 32);
	snprintf(out, 37, "%.8s-%.4s-4%.3s-8%.3s-%.12s", h, h + 8, h + 12, h + 15, h + 18);
}

static void suffix(rng *r, char *out, int n)
{
	static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
	for (int i = 0; i < n; i++)
		out[i] = alphabet[rng_next(r) % (sizeof alphabet - 1)];
	out[n] = '\0';
}

typedef struct shape {
	const char *instance, *product, *family, *memory;
} shape;

static const shape shapes[] = {
	{ "g5.48xlarge", "NVIDIA-A10G", "ampere", "23028" },
	{ "g6.48xlarge", "NVIDIA-L4", "ada-lovelace", "23034" },
	{ "g6e.48xlarge", "NVIDIA-L40S", "ada-lovelace", "46068" },
	{ "p4d.24xlarge", "NVIDIA-A100-SXM4-40GB", "ampere", "40960" },
	{ "p5.48xlarge", "NVIDIA-H100-80GB-HBM3", "hopper", "81559" },
};
#define N_SHAPES (sizeof shapes / sizeof shapes[0])

static const char *const images[] = {
	"vllm/vllm-openai", "nvcr.io/nvidia/tritonserver",
	"ghcr.io/huggingface/text-generation-inference",
	"nvcr.io/nvidia/pytorch", "docker.io/ollama/ollama",
};
#define N_IMAGES (sizeof images / sizeof images[0])

/* ---- a node ------------------------------------------------------------------------- */

static void node_labels(jw *w, int i, const shape *s)
{
	OBJ(w, "labels");
	str(w, "beta.kubernetes.io/arch", "amd64");
	str(w, "beta.kubernetes.io/instance-type", "%s", s->instance);
	str(w, "beta.kubernetes.io/os", "linux");
	str(w, "eks.amazonaws.com/capacityType", i % 5 ? "ON_DEMAND" : "SPOT");
	str(w, "eks.amazonaws.com/nodegroup", "gpu-%s", s->instance);
	str(w, "failure-domain.beta.kubernetes.io/region", "us-east-1");
	str(w, "failure-domain.beta.kubernetes.io/zone", "us-east-1%c", 'a' + i % 4);
	str(w, "kubernetes.io/arch", "amd64");
	str(w, "kubernetes.io/hostname", "ip-10-0-%d-%d.ec2.internal", i / 250, i % 250);
	str(w, "kubernetes.io/os", "linux");
	str(w, "node.kubernetes.io/instance-type", "%s", s->instance);
	str(w, "nvidia.com/cuda.driver-version.full", "550.90.07");
	str(w, "nvidia.com/cuda.driver.major", "550");
	str(w, "nvidia.com/cuda.driver.minor", "90");
	str(w, "nvidia.com/cuda.runtime-version.full", "12.4");
	str(w, "nvidia.com/gfd.timestamp", "%d", 1736000000 + i);
	str(w, "nvidia.com/gpu-driver-upgrade-state", "upgrade-done");
	str(w, "nvidia.com/gpu.compute.major", "8");
	str(w, "nvidia.com/gpu.count", "8");
	str(w, "nvidia.com/gpu.deploy.container-toolkit", "true");
	str(w, "nvidia.com/gpu.deploy.dcgm-exporter", "true");
	str(w, "nvidia.com/gpu.deploy.device-plugin", "true");
	str(w, "nvidia.com/gpu.deploy.gpu-feature-discovery", "true");
	str(w, "nvidia.com/gpu.family", "%s", s->family);
	str(w, "nvidia.com/gpu.machine", "%s", s->instance);
	str(w, "nvidia.com/gpu.memory", "%s", s->memory);
	str(w, "nvidia.com/gpu.present", "true");
	str(w, "nvidia.com/gpu.product", "%s-SHARED", s->product);
	str(w, "nvidia.com/gpu.replicas", "32");
	str(w, "nvidia.com/gpu.sharing-strategy", "time-slicing");
	str(w, "nvidia.com/mig.capable", "false");
	str(w, "nvidia.com/mig.strategy", "single");
	str(w, "topology.kubernetes.io/region", "us-east-1");
	str(w, "topology.kubernetes.io/zone", "us-east-1%c", 'a' + i % 4);
	END_OBJ(w);
}

static void resources(jw *w, const char *key, int alloc)
{
	OBJ(w, key);
	str(w, "cpu", alloc ? "191450m" : "192");
	str(w, "ephemeral-storage", alloc ? "1002182376325" : "1073741824Ki");
	str(w, "hugepages-1Gi", "0");
	str(w, "hugepages-2Mi", "0");
	str(w, "memory", alloc ? "780448436Ki" : "790429876Ki");
	str(w, "nvidia.com/gpu", "%d", SLOTS);
	str(w, "pods", "300");
	END_OBJ(w);
}

static void write_node(jw *w, rng *r, int i, const shape *s)
{
	static const char *const conds[] = { "MemoryPressure", "DiskPressure", "PIDPressure",
	                                     "Ready" };
	char id[37];
	OBJ(w, NULL);
	str(w, "apiVersion", "v1");
	str(w, "kind", "Node");
	OBJ(w, "metadata");
	OBJ(w, "annotations");
	str(w, "alpha.kubernetes.io/provided-node-ip", "10.0.%d.%d", i / 250, i % 250);
	str(w, "nfd.node.kubernetes.io/feature-labels",
	    "cpu-cpuid.ADX,cpu-cpuid.AESNI,cpu-cpuid.AVX,cpu-cpuid.AVX2,pci-10de.present");
	str(w, "node.alpha.kubernetes.io/ttl", "0");
	str(w, "volumes.kubernetes.io/controller-managed-attach-detach", "true");
	END_OBJ(w);
	str(w, "creationTimestamp", "2025-01-0%dT0%d:12:44Z", 1 + i % 9, i % 10);
	node_labels(w, i, s);
	str(w, "name", "ip-10-0-%d-%d.ec2.internal", i / 250, i % 250);
	str(w, "resourceVersion", "%d", 81000000 + i);
	uid(r, id);
	str(w, "uid", "%s", id);
	END_OBJ(w);
	OBJ(w, "spec");
	str(w, "providerID", "aws:///us-east-1%c/i-0%016llx", 'a' + i % 4,
	    (unsigned long long)(rng_next(r) >> 4));
	ARR(w, "taints");
	OBJ(w, NULL);
	str(w, "effect", "NoSchedule");
	str(w, "key", "nvidia.com/gpu");
	str(w, "value", "true");
	END_OBJ(w);
	END_ARR(w);
	END_OBJ(w);
	OBJ(w, "status");
	ARR(w, "addresses");
	OBJ(w, NULL);
	str(w, "address", "10.0.%d.%d", i / 250, i % 250);
	str(w, "type", "InternalIP");
	END_OBJ(w);
	OBJ(w, NULL);
	str(w, "address", "ip-10-0-%d-%d.ec2.internal", i / 250, i % 250);
	str(w, "type", "Hostname");
	END_OBJ(w);
	END_ARR(w);
	resources(w, "allocatable", 1);
	resources(w, "capacity", 0);
	ARR(w, "conditions");
	for (int c = 0; c < 4; c++) {
		OBJ(w, NULL);
		str(w, "lastHeartbeatTime", "2025-07-20T10:%02d:00Z", i % 60);
		str(w, "lastTransitionTime", "2025-01-0%dT0%d:13:20Z", 1 + i % 9, i % 10);
		str(w, "message", c == 3 ? "kubelet is posting ready status"
		                         : "kubelet has sufficient resources");
		if (c == 3)
			str(w, "reason", "KubeletReady");
		else
			str(w, "reason", "KubeletHasSufficient%s", conds[c]);
		str(w, "status", c == 3 ? "True" : "False");
		str(w, "type", "%s", conds[c]);
		END_OBJ(w);
	}
	END_ARR(w);
	ARR(w, "images");
	for (int k = 0; k < 24; k++) {
		char digest[65];
		hex(r, digest, 64);
		OBJ(w, NULL);
		ARR(w, "names");
		str(w, NULL, "%s@sha256:%s", images[k % N_IMAGES], digest);
		str(w, NULL, "%s:v0.%d.%d", images[k % N_IMAGES], 4 + k % 5, k);
		END_ARR(w);
		raw(w, "sizeBytes", "%d", 1000000000 + k * 12345678);
		END_OBJ(w);
	}
	END_ARR(w);
	OBJ(w, "nodeInfo");
	str(w, "architecture", "amd64");
	str(w, "containerRuntimeVersion", "containerd://1.7.22");
	str(w, "kernelVersion", "5.10.225-213.878.amzn2.x86_64");
	str(w, "kubeProxyVersion", "v1.31.2-eks-7f9249a");
	str(w, "kubeletVersion", "v1.31.2-eks-7f9249a");
	str(w, "operatingSystem", "linux");
	str(w, "osImage", "Amazon Linux 2");
	END_OBJ(w);
	END_OBJ(w);
	END_OBJ(w);
}

/* ---- a pod ------------------------------------------------------------------------- */

typedef struct pod {
	int p, node, workload, gpus, envs, rich, managed;
	char ns[32], deploy[32], rs[48], name[64], rs_uid[37], hash[11], sa[40], token[6];
	const char *image;
} pod;

static const char *const env_names[] = {
	"MODEL_NAME", "MAX_MODEL_LEN", "GPU_MEMORY_UTILIZATION", "TENSOR_PARALLEL_SIZE",
	"HF_HOME", "HF_HUB_OFFLINE", "VLLM_WORKER_MULTIPROC_METHOD", "NCCL_DEBUG",
	"OMP_NUM_THREADS", "LOG_LEVEL", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_SERVICE_NAME",
	"PROMETHEUS_MULTIPROC_DIR", "CUDA_DEVICE_ORDER", "SERVED_MODEL_NAME", "PORT",
	"MAX_NUM_SEQS",
};

/* The fields the ReplicaSet controller set when it made the pod. */
static void managed_controller(jw *w, const pod *d)
{
	char key[160];
	OBJ(w, NULL);
	str(w, "apiVersion", "v1");
	str(w, "fieldsType", "FieldsV1");
	OBJ(w, "fieldsV1");
	OBJ(w, "f:metadata");
	OBJ(w, "f:annotations");
	none(w, ".");
	none(w, "f:checksum/config");
	if (d->rich) {
		none(w, "f:prometheus.io/port");
		none(w, "f:prometheus.io/scrape");
	}
	END_OBJ(w);
	none(w, "f:generateName");
	OBJ(w, "f:labels");
	none(w, ".");
	none(w, "f:app.kubernetes.io/instance");
	none(w, "f:app.kubernetes.io/name");
	none(w, "f:pod-template-hash");
	none(w, "f:team");
	END_OBJ(w);
	OBJ(w, "f:ownerReferences");
	none(w, ".");
	snprintf(key, sizeof key, "k:{\\\"uid\\\":\\\"%s\\\"}", d->rs_uid);
	none(w, key);
	END_OBJ(w);
	END_OBJ(w);
	OBJ(w, "f:spec");
	none(w, d->rich ? "f:affinity" : "f:nodeSelector");
	OBJ(w, "f:containers");
	OBJ(w, "k:{\\\"name\\\":\\\"server\\\"}");
	none(w, ".");
	if (d->rich)
		none(w, "f:args");
	none(w, "f:command");
	OBJ(w, "f:env");
	for (int e = 0; e < d->envs; e++) {
		snprintf(key, sizeof key, "k:{\\\"name\\\":\\\"%s\\\"}", env_names[e]);
		OBJ(w, key);
		none(w, ".");
		none(w, "f:name");
		none(w, "f:value");
		END_OBJ(w);
	}
	END_OBJ(w);
	none(w, "f:image");
	none(w, "f:imagePullPolicy");
	if (d->rich)
		none(w, "f:livenessProbe");
	none(w, "f:name");
	if (d->rich) {
		none(w, "f:ports");
		none(w, "f:readinessProbe");
	}
	OBJ(w, "f:resources");
	none(w, ".");
	none(w, "f:limits");
	none(w, "f:requests");
	END_OBJ(w);
	if (d->rich)
		none(w, "f:securityContext");
	none(w, "f:volumeMounts");
	END_OBJ(w);
	if (d->rich) {
		OBJ(w, "k:{\\\"name\\\":\\\"metrics\\\"}");
		none(w, ".");
		none(w, "f:args");
		none(w, "f:image");
		none(w, "f:name");
		none(w, "f:ports");
		none(w, "f:resources");
		END_OBJ(w);
	}
	END_OBJ(w);
	none(w, "f:tolerations");
	none(w, "f:volumes");
	END_OBJ(w);
	END_OBJ(w);
	str(w, "manager", "kube-controller-manager");
	str(w, "operation", "Update");
	str(w, "time", "2025-07-1%dT08:%02d:11Z", d->workload % 10, d->p % 60);
	END_OBJ(w);
}

/* The status fields the kubelet set. */
static void managed_kubelet(jw *w, const pod *d)
{
	static const char *const types[] = { "ContainersReady", "Initialized",
	                                     "PodReadyToStartContainers", "Ready" };
	char key[160];
	OBJ(w, NULL);
	str(w, "apiVersion", "v1");
	str(w, "fieldsType", "FieldsV1");
	OBJ(w, "fieldsV1");
	OBJ(w, "f:status");
	OBJ(w, "f:conditions");
	for (int c = 0; c < 4; c++) {
		snprintf(key, sizeof key, "k:{\\\"type\\\":\\\"%s\\\"}", types[c]);
		OBJ(w, key);
		none(w, ".");
		none(w, "f:lastProbeTime");
		none(w, "f:lastTransitionTime");
		none(w, "f:status");
		none(w, "f:type");
		END_OBJ(w);
	}
	END_OBJ(w);
	none(w, "f:containerStatuses");
	none(w, "f:hostIP");
	none(w, "f:hostIPs");
	none(w, "f:phase");
	none(w, "f:podIP");
	none(w, "f:podIPs");
	none(w, "f:startTime");
	END_OBJ(w);
	END_OBJ(w);
	str(w, "manager", "kubelet");
	str(w, "operation", "Update");
	str(w, "subresource", "status");
	str(w, "time", "2025-07-1%dT08:%02d:52Z", d->workload % 10, d->p % 60);
	END_OBJ(w);
}

static void probe(jw *w, const char *key, const char *path, int delay)
{
	OBJ(w, key);
	raw(w, "failureThreshold", "3");
	OBJ(w, "httpGet");
	str(w, "path", "%s", path);
	str(w, "port", "http");
	str(w, "scheme", "HTTP");
	END_OBJ(w);
	raw(w, "initialDelaySeconds", "%d", delay);
	raw(w, "periodSeconds", "10");
	raw(w, "successThreshold", "1");
	raw(w, "timeoutSeconds", "5");
	END_OBJ(w);
}

static void mount(jw *w, const char *path, const char *name, int ro)
{
	OBJ(w, NULL);
	str(w, "mountPath", "%s", path);
	str(w, "name", "%s", name);
	if (ro)
		raw(w, "readOnly", "true");
	END_OBJ(w);
}

static void server_container(jw *w, const pod *d)
{
	char token[64];
	snprintf(token, sizeof token, "kube-api-access-%s", d->token);
	OBJ(w, NULL);
	if (d->rich) {
		ARR(w, "args");
		str(w, NULL, "--model=/models/%s", d->deploy);
		str(w, NULL, "--port=8000");
		str(w, NULL, "--max-model-len=8192");
		str(w, NULL, "--gpu-memory-utilization=0.90");
		END_ARR(w);
	}
	ARR(w, "command");
	str(w, NULL, "python3");
	str(w, NULL, "-m");
	str(w, NULL, "vllm.entrypoints.openai.api_server");
	END_ARR(w);
	ARR(w, "env");
	for (int e = 0; e < d->envs; e++) {
		OBJ(w, NULL);
		str(w, "name", "%s", env_names[e]);
		if (e == 0)
			str(w, "value", "meta-llama/Llama-3.1-8B-Instruct");
		else
			str(w, "value", "%d", 4096 >> (e % 8));
		END_OBJ(w);
	}
	if (d->rich) {
		OBJ(w, NULL);
		str(w, "name", "POD_NAME");
		OBJ(w, "valueFrom");
		OBJ(w, "fieldRef");
		str(w, "apiVersion", "v1");
		str(w, "fieldPath", "metadata.name");
		END_OBJ(w);
		END_OBJ(w);
		END_OBJ(w);
	}
	END_ARR(w);
	str(w, "image", "%s:v0.%d.%d", d->image, 4 + d->workload % 5, d->workload % 7);
	str(w, "imagePullPolicy", "IfNotPresent");
	if (d->rich)
		probe(w, "livenessProbe", "/health", 120);
	str(w, "name", "server");
	if (d->rich) {
		ARR(w, "ports");
		OBJ(w, NULL);
		raw(w, "containerPort", "8000");
		str(w, "name", "http");
		str(w, "protocol", "TCP");
		END_OBJ(w);
		END_ARR(w);
		probe(w, "readinessProbe", "/v1/models", 30);
	}
	OBJ(w, "resources");
	OBJ(w, "limits");
	str(w, "memory", "48Gi");
	str(w, "nvidia.com/gpu", "%d", d->gpus);
	END_OBJ(w);
	OBJ(w, "requests");
	str(w, "cpu", "4");
	str(w, "memory", "32Gi");
	str(w, "nvidia.com/gpu", "%d", d->gpus);
	END_OBJ(w);
	END_OBJ(w);
	if (d->rich) {
		OBJ(w, "securityContext");
		raw(w, "allowPrivilegeEscalation", "false");
		OBJ(w, "capabilities");
		ARR(w, "drop");
		str(w, NULL, "ALL");
		END_ARR(w);
		END_OBJ(w);
		raw(w, "runAsNonRoot", "true");
		raw(w, "runAsUser", "1000");
		END_OBJ(w);
	}
	str(w, "terminationMessagePath", "/dev/termination-log");
	str(w, "terminationMessagePolicy", "File");
	ARR(w, "volumeMounts");
	if (d->rich)
		mount(w, "/dev/shm", "dshm", 0);
	mount(w, "/var/run/secrets/kubernetes.io/serviceaccount", token, 1);
	END_ARR(w);
	END_OBJ(w);
}

static void sidecar(jw *w, const pod *d)
{
	char token[64];
	snprintf(token, sizeof token, "kube-api-access-%s", d->token);
	OBJ(w, NULL);
	ARR(w, "args");
	str(w, NULL, "--listen=:9400");
	str(w, NULL, "--scrape=http://localhost:8000/metrics");
	END_ARR(w);
	str(w, "image", "ghcr.io/example/metrics-relay:1.8.2");
	str(w, "imagePullPolicy", "IfNotPresent");
	str(w, "name", "metrics");
	ARR(w, "ports");
	OBJ(w, NULL);
	raw(w, "containerPort", "9400");
	str(w, "name", "metrics");
	str(w, "protocol", "TCP");
	END_OBJ(w);
	END_ARR(w);
	OBJ(w, "resources");
	OBJ(w, "limits");
	str(w, "memory", "128Mi");
	END_OBJ(w);
	OBJ(w, "requests");
	str(w, "cpu", "50m");
	str(w, "memory", "64Mi");
	END_OBJ(w);
	END_OBJ(w);
	str(w, "terminationMessagePath", "/dev/termination-log");
	str(w, "terminationMessagePolicy", "File");
	ARR(w, "volumeMounts");
	mount(w, "/var/run/secrets/kubernetes.io/serviceaccount", token, 1);
	END_ARR(w);
	END_OBJ(w);
}

static void toleration(jw *w, const char *effect, const char *key, int seconds)
{
	OBJ(w, NULL);
	str(w, "effect", "%s", effect);
	str(w, "key", "%s", key);
	str(w, "operator", "Exists");
	if (seconds)
		raw(w, "tolerationSeconds", "%d", seconds);
	END_OBJ(w);
}

static void affinity(jw *w, const shape *s)
{
	OBJ(w, "affinity");
	OBJ(w, "nodeAffinity");
	OBJ(w, "requiredDuringSchedulingIgnoredDuringExecution");
	ARR(w, "nodeSelectorTerms");
	OBJ(w, NULL);
	ARR(w, "matchExpressions");
	OBJ(w, NULL);
	str(w, "key", "nvidia.com/gpu.product");
	str(w, "operator", "In");
	ARR(w, "values");
	str(w, NULL, "%s-SHARED", s->product);
	END_ARR(w);
	END_OBJ(w);
	END_ARR(w);
	END_OBJ(w);
	END_ARR(w);
	END_OBJ(w);
	END_OBJ(w);
	END_OBJ(w);
}

static void volumes(jw *w, const pod *d)
{
	ARR(w, "volumes");
	if (d->rich) {
		OBJ(w, NULL);
		OBJ(w, "emptyDir");
		str(w, "medium", "Memory");
		str(w, "sizeLimit", "16Gi");
		END_OBJ(w);
		str(w, "name", "dshm");
		END_OBJ(w);
	}
	OBJ(w, NULL);
	str(w, "name", "kube-api-access-%s", d->token);
	OBJ(w, "projected");
	raw(w, "defaultMode", "420");
	ARR(w, "sources");
	OBJ(w, NULL);
	OBJ(w, "serviceAccountToken");
	raw(w, "expirationSeconds", "3607");
	str(w, "path", "token");
	END_OBJ(w);
	END_OBJ(w);
	OBJ(w, NULL);
	OBJ(w, "configMap");
	ARR(w, "items");
	OBJ(w, NULL);
	str(w, "key", "ca.crt");
	str(w, "path", "ca.crt");
	END_OBJ(w);
	END_ARR(w);
	str(w, "name", "kube-root-ca.crt");
	END_OBJ(w);
	END_OBJ(w);
	OBJ(w, NULL);
	OBJ(w, "downwardAPI");
	ARR(w, "items");
	OBJ(w, NULL);
	OBJ(w, "fieldRef");
	str(w, "apiVersion", "v1");
	str(w, "fieldPath", "metadata.namespace");
	END_OBJ(w);
	str(w, "path", "namespace");
	END_OBJ(w);
	END_ARR(w);
	END_OBJ(w);
	END_OBJ(w);
	END_ARR(w);
	END_OBJ(w);
	END_OBJ(w);
	END_ARR(w);
}

static void pod_spec(jw *w, const pod *d, const shape *s)
{
	OBJ(w, "spec");
	if (d->rich)
		affinity(w, s);
	ARR(w, "containers");
	server_container(w, d);
	if (d->rich)
		sidecar(w, d);
	END_ARR(w);
	str(w, "dnsPolicy", "ClusterFirst");
	raw(w, "enableServiceLinks", "true");
	str(w, "nodeName", "ip-10-0-%d-%d.ec2.internal", d->node / 250, d->node % 250);
	if (!d->rich) {
		OBJ(w, "nodeSelector");
		str(w, "nvidia.com/gpu.product", "%s-SHARED", s->product);
		END_OBJ(w);
	}
	str(w, "preemptionPolicy", "PreemptLowerPriority");
	raw(w, "priority", "0");
	str(w, "restartPolicy", "Always");
	str(w, "schedulerName", "default-scheduler");
	OBJ(w, "securityContext");
	raw(w, "fsGroup", "1000");
	END_OBJ(w);
	str(w, "serviceAccount", "%s", d->sa);
	str(w, "serviceAccountName", "%s", d->sa);
	raw(w, "terminationGracePeriodSeconds", "30");
	ARR(w, "tolerations");
	toleration(w, "NoExecute", "node.kubernetes.io/not-ready", 300);
	toleration(w, "NoExecute", "node.kubernetes.io/unreachable", 300);
	toleration(w, "NoSchedule", "nvidia.com/gpu", 0);
	END_ARR(w);
	volumes(w, d);
	END_OBJ(w);
}

static void container_status(jw *w, rng *r, const pod *d, const char *name,
                             const char *image)
{
	char id[65], digest[65];
	hex(r, id, 64);
	hex(r, digest, 64);
	OBJ(w, NULL);
	str(w, "containerID", "containerd://%s", id);
	str(w, "image", "%s", image);
	str(w, "imageID", "%.*s@sha256:%s", (int)strcspn(image, ":"), image, digest);
	none(w, "lastState");
	str(w, "name", "%s", name);
	raw(w, "ready", "true");
	raw(w, "restartCount", "%d", d->p % 7 == 0);
	raw(w, "started", "true");
	OBJ(w, "state");
	OBJ(w, "running");
	str(w, "startedAt", "2025-07-1%dT08:%02d:40Z", d->workload % 10, d->p % 60);
	END_OBJ(w);
	END_OBJ(w);
	END_OBJ(w);
}

static void pod_status(jw *w, rng *r, const pod *d)
{
	static const char *const types[] = { "PodReadyToStartContainers", "Initialized", "Ready",
	                                     "ContainersReady", "PodScheduled" };
	char image[160];
	OBJ(w, "status");
	ARR(w, "conditions");
	for (int c = 0; c < 5; c++) {
		OBJ(w, NULL);
		raw(w, "lastProbeTime", "null");
		str(w, "lastTransitionTime", "2025-07-1%dT08:%02d:%02dZ", d->workload % 10,
		    d->p % 60, 10 + c * 9);
		str(w, "status", "True");
		str(w, "type", "%s", types[c]);
		END_OBJ(w);
	}
	END_ARR(w);
	ARR(w, "containerStatuses");
	if (d->rich)
		container_status(w, r, d, "metrics", "ghcr.io/example/metrics-relay:1.8.2");
	snprintf(image, sizeof image, "%s:v0.%d.%d", d->image, 4 + d->workload % 5,
	         d->workload % 7);
	container_status(w, r, d, "server", image);
	END_ARR(w);
	str(w, "hostIP", "10.0.%d.%d", d->node / 250, d->node % 250);
	ARR(w, "hostIPs");
	OBJ(w, NULL);
	str(w, "ip", "10.0.%d.%d", d->node / 250, d->node % 250);
	END_OBJ(w);
	END_ARR(w);
	str(w, "phase", "Running");
	str(w, "podIP", "10.%d.%d.%d", 64 + d->p / 65536, d->p / 256 % 256, d->p % 256);
	ARR(w, "podIPs");
	OBJ(w, NULL);
	str(w, "ip", "10.%d.%d.%d", 64 + d->p / 65536, d->p / 256 % 256, d->p % 256);
	END_OBJ(w);
	END_ARR(w);
	str(w, "qosClass", "Burstable");
	str(w, "startTime", "2025-07-1%dT08:%02d:09Z", d->workload % 10, d->p % 60);
	END_OBJ(w);
}

static void write_pod(jw *w, rng *r, const pod *d, const shape *s)
{
	char id[37], sum[65];
	OBJ(w, NULL);
	str(w, "apiVersion", "v1");
	str(w, "kind", "Pod");
	OBJ(w, "metadata");
	OBJ(w, "annotations");
	hex(r, sum, 64);
	str(w, "checksum/config", "%s", sum);
	if (d->rich) {
		str(w, "prometheus.io/port", "9400");
		str(w, "prometheus.io/scrape", "true");
	}
	END_OBJ(w);
	str(w, "creationTimestamp", "2025-07-1%dT08:%02d:09Z", d->workload % 10, d->p % 60);
	str(w, "generateName", "%s-", d->rs);
	OBJ(w, "labels");
	str(w, "app.kubernetes.io/instance", "%s", d->deploy);
	str(w, "app.kubernetes.io/name", "%s", d->deploy);
	str(w, "pod-template-hash", "%s", d->hash);
	str(w, "team", "team-%02d", d->workload % 25);
	END_OBJ(w);
	if (d->managed) {
		ARR(w, "managedFields");
		managed_controller(w, d);
		managed_kubelet(w, d);
		END_ARR(w);
	}
	str(w, "name", "%s", d->name);
	str(w, "namespace", "%s", d->ns);
	ARR(w, "ownerReferences");
	OBJ(w, NULL);
	str(w, "apiVersion", "apps/v1");
	raw(w, "blockOwnerDeletion", "true");
	raw(w, "controller", "true");
	str(w, "kind", "ReplicaSet");
	str(w, "name", "%s", d->rs);
	str(w, "uid", "%s", d->rs_uid);
	END_OBJ(w);
	END_ARR(w);
	str(w, "resourceVersion", "%d", 90000000 + d->p);
	uid(r, id);
	str(w, "uid", "%s", id);
	END_OBJ(w);
	pod_spec(w, d, s);
	pod_status(w, r, d);
	END_OBJ(w);
}

/* ---- the cluster ------------------------------------------------------------------ */

static void list_begin(jw *w)
{
	w->depth = 0;
	OBJ(w, NULL);
	str(w, "apiVersion", "v1");
	ARR(w, "items");
}

static void list_end(jw *w)
{
	END_ARR(w);
	str(w, "kind", "List");
	OBJ(w, "metadata");
	str(w, "resourceVersion", "");
	END_OBJ(w);
	END_OBJ(w);
	fputc('\n', w->f);
}

/* Deployments of 1 to 64 replicas in 40 namespaces, their pods on
 * consecutive slots of the nodes in order. */
static int generate(const char *dir, int n_pods, int n_nodes, int managed)
{
	char path[2][512];
	jw w[2];
	rng r = { SEED };
	pod d;
	int left = 0, slot = 0;

	memset(&d, 0, sizeof d);
	d.managed = managed;
	memset(w, 0, sizeof w);
	snprintf(path[0], sizeof path[0], "%s/nodes.json", dir);
	snprintf(path[1], sizeof path[1], "%s/pods.json", dir);
	for (int i = 0; i < 2; i++)
		if (!(w[i].f = fopen(path[i], "w")))
			return -1;
	list_begin(&w[0]);
	for (int i = 0; i < n_nodes; i++)
		write_node(&w[0], &r, i, &shapes[i % N_SHAPES]);
	list_end(&w[0]);
	list_begin(&w[1]);
	for (d.p = 0; d.p < n_pods; d.p++) {
		char pod_sfx[6];
		if (left == 0) {
			d.workload++;
			left = 1 + (int)(rng_next(&r) % 64);
			snprintf(d.ns, sizeof d.ns, "ml-%02d", d.workload % 40);
			snprintf(d.deploy, sizeof d.deploy, "llm-%04d", d.workload);
			suffix(&r, d.hash, 10);
			snprintf(d.rs, sizeof d.rs, "%s-%s", d.deploy, d.hash);
			uid(&r, d.rs_uid);
			snprintf(d.sa, sizeof d.sa, "%s-sa", d.deploy);
			d.rich = d.workload % 5 == 0;
			d.envs = d.rich ? 8 + (int)(rng_next(&r) % 6) : 2 + (int)(rng_next(&r) % 3);
			d.image = images[d.workload % N_IMAGES];
			d.gpus = d.workload % 20 == 0 ? 2 : 1;
		}
		left--;
		suffix(&r, pod_sfx, 5);
		suffix(&r, d.token, 5);
		snprintf(d.name, sizeof d.name, "%s-%s", d.rs, pod_sfx);
		d.node = slot / SLOTS % n_nodes;
		slot += d.gpus;
		write_pod(&w[1], &r, &d, &shapes[d.node % N_SHAPES]);
	}
	list_end(&w[1]);
	for (int i = 0; i < 2; i++)
		if (fclose(w[i].f) != 0)
			return -1;
	return 0;
}

/* ---- the import, as a user runs it -------------------------------------------------- */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double file_mib(const char *dir, const char *name)
{
	char path[512];
	struct stat st;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	return stat(path, &st) == 0 ? st.st_size / 1048576.0 : -1;
}

/* Runs argv with stdout to /dev/null and stderr to err_path; its wall
 * time, CPU time and peak RSS. Returns its exit status, or -1. */
static int run(char *const argv[], const char *err_path, double *wall, double *cpu,
               double *rss_mib)
{
	struct rusage ru;
	double t0 = now_s();
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int out = open("/dev/null", O_WRONLY), err = open(err_path, O_WRONLY | O_CREAT |
		                                                  O_TRUNC, 0644);
		if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid)
		return -1;
	*wall = now_s() - t0;
	*cpu = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	*rss_mib = ru.ru_maxrss / 1024.0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(int argc, char **argv)
{
	int n_pods = argc > 1 ? atoi(argv[1]) : 100000, n_nodes = argc > 2 ? atoi(argv[2]) : 400;
	char tmp[] = "/tmp/gpushare-import-big-XXXXXX", nodes[600], pods[600], err[600];
	const char *keep = getenv("IMPORT_BIG_DIR"), *dir = keep && *keep ? keep : tmp;
	const char *mf = getenv("IMPORT_BIG_MANAGED");
	int managed = mf && strcmp(mf, "1") == 0;
	double t0, gen, wall, cpu, rss, mib;
	int rc;

	if (n_pods < 1 || n_nodes < 1 || (long)n_nodes * SLOTS < n_pods) {
		fprintf(stderr, "usage: import_big [PODS [NODES]] (PODS <= %d x NODES)\n", SLOTS);
		return 2;
	}
	if (access("./gpushare", X_OK) != 0) {
		fprintf(stderr, "import_big: no ./gpushare (run make, from the repository top)\n");
		return 1;
	}
	t0 = now_s();
	if ((dir == tmp && !mkdtemp(tmp)) || generate(dir, n_pods, n_nodes, managed) < 0) {
		fprintf(stderr, "import_big: cannot write the lists in %s: %s\n", dir,
		        strerror(errno));
		return 1;
	}
	gen = now_s() - t0;
	snprintf(nodes, sizeof nodes, "%s/nodes.json", dir);
	snprintf(pods, sizeof pods, "%s/pods.json", dir);
	snprintf(err, sizeof err, "%s/import.err", dir);
	mib = file_mib(dir, "pods.json");
	printf("import of a large cluster: %d nodes (%.1f MiB), %d pods (%.1f MiB, %.1f KB a "
	       "pod%s), written in %.1f s\n",
	       n_nodes, file_mib(dir, "nodes.json"), n_pods, mib, mib * 1048576 / n_pods / 1000,
	       managed ? ", with managedFields" : "", gen);
	{
		char *args[] = { "./gpushare", "import", "--nodes", nodes, "--pods", pods, NULL };
		rc = run(args, err, &wall, &cpu, &rss);
	}
	if (rc != 0) {
		char line[512];
		FILE *f = fopen(err, "r");
		printf("  gpushare import failed (status %d)%s\n", rc, f ? ":" : "");
		while (f && fgets(line, sizeof line, f))
			printf("    %s", line);
		if (f)
			fclose(f);
	} else {
		printf("  gpushare import --nodes nodes.json --pods pods.json:\n");
		int ok = wall <= GOAL_S && rss <= GOAL_MIB;
		printf("    wall %.2f s (cpu %.2f s), peak RSS %.1f MiB, %.0f MiB/s  %s (goal: "
		       "under %.0f s and %.0f MiB)\n",
		       wall, cpu, rss, mib / wall, ok ? "ok" : "FAIL", GOAL_S, GOAL_MIB);
	}
	if (dir == tmp) {
		unlink(nodes);
		unlink(pods);
		unlink(err);
		rmdir(tmp);
	}
	return rc == 0 ? 0 : 1;
}
