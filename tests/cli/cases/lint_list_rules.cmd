lint --list-rules
