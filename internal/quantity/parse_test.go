package quantity

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/resource"
)

func TestParse(t *testing.T) {
	for _, s := range []string{
		"0", "1", "100m", "1.5", "-2", "+3", "1Gi", "512Mi", "1E", "2Ei", "1e3", "1E-9", "129e6", "5e+30", "1e-30",
		"1e030", "1n", strings.Repeat("9", MaxDigits), "0." + strings.Repeat("1", MaxDigits-1),
	} {
		t.Run(s, func(t *testing.T) {
			got, err := Parse(s)
			require.NoError(t, err)
			assert.Equal(t, 0, got.Cmp(resource.MustParse(s)))
		})
	}
}

func TestParseRefuses(t *testing.T) {
	tests := []struct{ value, want string }{
		{"1e-1000000000", `quantity "1e-1000000000" is too large to parse: an exponent outside ±30`},
		{"1e31", `quantity "1e31" is too large to parse: an exponent outside ±30`},
		{"1E-31", `quantity "1E-31" is too large to parse: an exponent outside ±30`},
		{"1e0000000000000000099", `quantity "1e0000000000000000099" is too large to parse: an exponent outside ±30`},
		{strings.Repeat("1", 65), `quantity "1111111111111111111111111111111111111111..." is too large to parse: more than 64 digits`},
		{"1." + strings.Repeat("0", 64), `quantity "1.00000000000000000000000000000000000000..." is too large to parse: more than 64 digits`},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			_, err := Parse(tt.value)
			var qe *Error
			require.ErrorAs(t, err, &qe)
			assert.Equal(t, tt.value, qe.Value)
			assert.EqualError(t, err, tt.want)
		})
	}
}

// Text that is no quantity at all is left to resource.ParseQuantity's own error.
func TestParseSyntax(t *testing.T) {
	for _, s := range []string{"", "e", "1e", "1ee5", "abc", "1e5x", "--1"} {
		_, err := Parse(s)
		assert.Error(t, err, s)
		var qe *Error
		assert.NotErrorAs(t, err, &qe, s)
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{"1e-1000000000", "1Gi", "100m", "1e30", "5E-3", "1.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 200 {
			return
		}
		if Check(s) == nil {
			_, _ = resource.ParseQuantity(s) // must be cheap: the fuzzer times out otherwise
		}
	})
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("1e-1000000000"); err == nil {
			b.Fatal("parsed")
		}
	}
}
