plan $FIXTURES/retention/throughput.yaml
# issue 17: per-unit prices from each workload's throughput. Checked by hand: $3.06/h
# a V100; sentiment-api 1200 tokens/s = 4.32M tokens/h, $3.06/4.32 = $0.7083 per 1M
# tokens dedicated, $0.678653/(4.32 x 0.76) = $0.2067 and /(4.32 x 0.445) = $0.3530
# shared; ner-api 30 requests/s = 108k/h, $3.06/108 = $0.0283 and
# $0.612/(108 x 0.8) = $0.0071 per 1k requests; summarizer 500 tokens/s at its
# measured 20%: $3.06/1.8 = $1.7000 against $0.765/(1.8 x 0.2) = $2.1250, so sharing
# stops paying.
