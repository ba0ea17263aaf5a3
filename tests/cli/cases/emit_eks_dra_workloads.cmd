emit workloads --manifests $FIXTURES/emit/eks-team-dra-manifests.yaml $FIXTURES/emit/eks-team-dra.yaml
