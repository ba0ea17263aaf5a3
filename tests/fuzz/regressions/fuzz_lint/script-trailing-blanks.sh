#!/bin/sh
kubectl label node a gpushare.io/pool=p
  