package testenv

// Option configures the API server of Start.
type Option func(*options)

type options struct {
	featureGates string
}

// WithFeatureGates sets kube-apiserver's --feature-gates, as the flag
// takes them ("ShardedListAndWatch=true,Other=false"): a benchmark that
// measures a gated feature against the same server without it starts an
// Env of each.
func WithFeatureGates(gates string) Option {
	return func(o *options) { o.featureGates = gates }
}
