repl $REPO/examples/workloads.yaml
# stdin: $FIXTURES/repl/edit_plan.gsh
# After the summary line, the same text as `gpushare plan` of the file
# with summarizer's compute at 40%.
