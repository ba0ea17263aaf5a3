repl $REPO/examples/workloads.yaml
# stdin: $FIXTURES/repl/plan_json.gsh
# The same JSON as plan_workloads_json.out.
