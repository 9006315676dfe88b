package podspec

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseQuantity(t *testing.T) {
	tests := []struct {
		name    string
		in      any
		want    string
		wantErr string
	}{
		{name: "string", in: "250m", want: "250m"},
		{name: "string with spaces", in: " 1Gi ", want: "1Gi"},
		{name: "int64", in: int64(3), want: "3"},
		{name: "int", in: 2048, want: "2048"},
		{name: "int32", in: int32(5), want: "5"},
		{name: "whole float64", in: 4.0, want: "4"},
		{name: "fractional float64", in: 0.25, want: "250m"},
		{name: "tiny float64", in: 1e-7, want: "100e-9"},
		{name: "large float64", in: 1e21, want: "1e+21"},
		{name: "null", in: nil, want: "0"},
		{name: "NaN", in: math.NaN(), wantErr: "quantity NaN is not a finite number"},
		{name: "infinity", in: math.Inf(1), wantErr: "quantity +Inf is not a finite number"},
		{name: "boolean", in: true, wantErr: "expected a quantity (string or number), got a boolean"},
		{name: "list", in: []any{"1"}, wantErr: "expected a quantity (string or number), got a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := parseQuantity(tt.in)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, q.String())
		})
	}
}

func TestIsScalarResourceName(t *testing.T) {
	tests := map[string]bool{
		"hugepages-2Mi":              true,
		"attachable-volumes-aws-ebs": true,
		"kubernetes.io/anything":     true,
		"example.kubernetes.io/x":    true,
		"nvidia.com/gpu":             true,
		"vendor.io/nic":              true,
		"storage":                    false,
		"foo":                        false,
		"requests.nvidia.com/gpu":    false,
		"example.com/Bad_Name!":      false,
		"/gpu":                       false,
	}
	for name, want := range tests {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, want, isScalarResourceName(name))
		})
	}
}

func TestNodeSelectorTypes(t *testing.T) {
	got, err := Requirements(map[string]any{"nodeSelector": map[string]string{"a": "b"}})
	require.NoError(t, err)
	require.NotNil(t, got)
	assert.Equal(t, map[string]string{"a": "b"}, got.NodeClaim.NodeSelector)
	_, err = Requirements(map[string]any{"nodeSelector": "a=b"})
	require.EqualError(t, err, "nodeSelector: expected an object, got a string")
}
