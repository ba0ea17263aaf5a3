lint /dev/null
