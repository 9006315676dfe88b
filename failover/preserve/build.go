package preserve

import (
	"bytes"
	"encoding/json"
	"fmt"

	"k8s.io/client-go/util/jsonpath"

	"github.com/luainterp/luainterp/binding/api"
)

// Build returns the preservedLabelState the rules give for rawStatus, the
// JSON status of the evicted cluster, or the first rule's failure (a
// *RuleError) and no labels.
func Build(rules []api.StatePreservationRule, rawStatus []byte, opts ...Option) (map[string]string, error) {
	limits := newLimits(opts)
	labels := make(map[string]string, len(rules))
	var status *decoded
	for i, rule := range rules {
		fail := func(err error) (map[string]string, error) {
			return nil, &RuleError{Index: i, Rule: rule, Err: err}
		}
		if _, err := jsonpath.Parse(rule.JSONPath, rule.JSONPath); err != nil {
			return fail(err)
		}
		if status == nil {
			var err error
			if status, err = decode(rawStatus, limits); err != nil {
				return fail(err)
			}
		}
		value, err := evaluate(rule.JSONPath, status, limits)
		if err != nil {
			return fail(err)
		}
		labels[rule.AliasLabelName] = value
	}
	return labels, nil
}

// decoded is a status decoded once for all rules.
type decoded struct {
	value any
	size  int // in bytes, as JSON
}

func decode(raw []byte, limits Limits) (*decoded, error) {
	if len(raw) > limits.StatusBytes {
		return nil, limitf("the status is %d bytes, more than the %d a state preservation rule reads", len(raw), limits.StatusBytes)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("failed to unmarshal rawStatus: %w", err)
	}
	return &decoded{value: v, size: len(raw)}, nil
}

// evaluate runs one template over the status: first the estimate of its
// work, then client-go, its output bounded.
func evaluate(path string, status *decoded, limits Limits) (value string, err error) {
	// Parsed again: evaluating a template with ranges rewrites its tree.
	j := jsonpath.New(path).AllowMissingKeys(false)
	if err := j.Parse(path); err != nil {
		return "", err
	}
	if n, over := estimate(path, status.value, status.size, limits.Values); over {
		return "", limitf("jsonpath %q would visit more than %d values of the status (at least %d)", path, limits.Values, n)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("failed to execute jsonpath %q: %v", path, r)
		}
	}()
	out := &boundedBuffer{limit: limits.ValueBytes}
	if err := j.Execute(out, status.value); err != nil {
		if out.over {
			return "", limitf("jsonpath %q gives a value longer than %d bytes", path, limits.ValueBytes)
		}
		return "", fmt.Errorf("failed to execute jsonpath %q: %w", path, err)
	}
	return out.String(), nil
}

// boundedBuffer refuses writes past its limit.
type boundedBuffer struct {
	bytes.Buffer
	limit int
	over  bool
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.limit {
		b.over = true
		return 0, ErrLimit
	}
	return b.Buffer.Write(p)
}
