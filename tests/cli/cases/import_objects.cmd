import --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods-owners.json
# object from the owners: a CronJob (Job named <name>-<minutes>), a Job named with a date, a StatefulSet with two GPU containers, a Deployment with a sidecar, a DaemonSet that object cannot name.
