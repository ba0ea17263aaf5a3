instances --gpu T4G
