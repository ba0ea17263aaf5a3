/*
 * commands.c - the command table: each command's name, help texts, option
 * table and function. main.c dispatches through it; --help, completion and
 * the REPL read it too, so it lives apart from all of them.
 */
#include <string.h>

#include "cli.h"

const cli_cmd cli_commands[] = {
	{ "plan", cmd_plan, "plan the cheapest way to share GPUs among workloads",
	  "[options] FILE",
	  "Plan the cheapest deployable way to share GPUs among the workloads of\n"
	  "FILE (see gpushare-workloads(5)): strategies, packing, instances, cost.",
	  plan_opts, NULL },
	{ "emit", cmd_emit, "print one kind of Kubernetes configuration for a plan",
	  "[options] KIND FILE",
	  "Plan FILE and print one kind of its Kubernetes configuration:",
	  emit_opts, cli_emit_kinds_help },
	{ "advise", cmd_advise, "advise which sharing strategies suit one workload",
	  "--memory SIZE --compute SHARE [options]",
	  "Advise which sharing strategies suit one workload, and why.",
	  advise_opts, NULL },
	{ "import", cmd_import, "import workloads and GPU utilization from a cluster",
	  "(--nodes FILE --pods FILE | --context NAME) [--metrics FILE]... [options]",
	  "Read a cluster's GPU nodes and pods (kubectl -o json files, or kubectl run\n"
	  "with --context) and their DCGM metrics; write a workload file to plan from,\n"
	  "or report how busy the GPUs really are.",
	  import_opts, NULL },
	{ "cost", cmd_cost, "who pays for which GPU of a cluster, and what sits idle",
	  "--nodes FILE --pods FILE [--claims FILE]... [--metrics FILE]... [options]",
	  "Split each GPU node's price over the pods that hold its GPUs (dedicated,\n"
	  "time-sliced, MPS, MIG slices, DRA claims) and the idle capacity nobody\n"
	  "holds, per workload, namespace or team; the rows and idle add up to the\n"
	  "nodes' prices exactly.",
	  cost_opts, NULL },
	{ "savings", cmd_savings, "what W whole-GPU workloads save by sharing GPUs",
	  "--instance TYPE --replicas N [options]",
	  "Compare W workloads that each hold a whole GPU with the same workloads\n"
	  "sharing GPUs, N replicas per GPU, and print the cost before and after.",
	  savings_opts, NULL },
	{ "gpus", cmd_gpus, "list GPU models, or show one with its MIG profiles",
	  "[options] [MODEL]",
	  "List the GPU models gpushare knows, or show one in detail.",
	  gpus_opts, NULL },
	{ "instances", cmd_instances, "list cloud instance types and their prices",
	  "[options]",
	  "List cloud instance types with their GPUs and hourly prices.",
	  instances_opts, NULL },
	{ "mig", cmd_mig, "list or check MIG geometries of a GPU model",
	  "[options] MODEL [PROFILE...]",
	  "List the valid MIG geometries of a GPU model, or check one and show\n"
	  "where each instance is placed (or why it cannot be).",
	  mig_opts, NULL },
	{ "lint", cmd_lint, "check device-plugin, mig-parted, DRA and Karpenter configs",
	  "[options] FILE...",
	  "Check existing NVIDIA device-plugin, mig-parted, DRA and Karpenter\n"
	  "configuration (bare, in ConfigMaps or in Kubernetes YAML streams) and\n"
	  "explain each problem with its location.",
	  lint_opts, NULL },
	{ "repl", cmd_repl, "start an interactive what-if session", "[options] [FILE]",
	  "Start a what-if session on the workloads of FILE (or none): edit them,\n"
	  "see the plan's cost after every change, compare and save scenarios.\n"
	  "Reads a script, one command a line, when stdin is not a terminal.",
	  repl_opts, NULL },
	{ "completion", cmd_completion, "print a bash or zsh completion script", "bash|zsh",
	  "Print a completion script generated from gpushare's own option tables:\n"
	  "  gpushare completion bash > /etc/bash_completion.d/gpushare",
	  completion_opts, NULL },
	{ NULL, NULL, NULL, NULL, NULL, NULL, NULL },
};

const cli_cmd *cli_find_command(const char *name)
{
	for (const cli_cmd *c = cli_commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}
