// Package metricstest reads what a registry gathered or a scrape parsed,
// for the tests of pkg/metrics and of the servers that expose it.
package metricstest

import dto "github.com/prometheus/client_model/go"

// Sum adds up the series of f whose labels include labels: a counter's
// or a gauge's value, a histogram's count. A nil f (a family nothing was
// recorded in) sums to 0.
func Sum(f *dto.MetricFamily, labels map[string]string) float64 {
	if f == nil {
		return 0
	}
	var sum float64
	for _, m := range f.Metric {
		if !hasLabels(m, labels) {
			continue
		}
		switch {
		case m.Counter != nil:
			sum += m.Counter.GetValue()
		case m.Gauge != nil:
			sum += m.Gauge.GetValue()
		case m.Histogram != nil:
			sum += float64(m.Histogram.GetSampleCount())
		}
	}
	return sum
}

// hasLabels reports whether m carries every one of labels.
func hasLabels(m *dto.Metric, labels map[string]string) bool {
next:
	for k, v := range labels {
		for _, l := range m.Label {
			if l.GetName() == k && l.GetValue() == v {
				continue next
			}
		}
		return false
	}
	return true
}
