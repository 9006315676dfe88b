package serveconfig

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/luainterp/luainterp/internal/quantity"
)

// Duration is a duration written as Go writes one ("100ms", "1m30s"). It
// is also a flag value (pflag.Value). Text that is not a duration decodes
// without error and is reported by Validate, by its path.
type Duration struct {
	time.Duration
	invalid string
}

// D makes a Duration.
func D(d time.Duration) Duration { return Duration{Duration: d} }

func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		*d = Duration{invalid: string(b)}
		return nil
	}
	if err := d.Set(s); err != nil {
		*d = Duration{invalid: strconv.Quote(s)}
	}
	return nil
}

func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.Duration.String()) }

// Set parses s, for a flag.
func (d *Duration) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("%q: want a duration such as 10s", s)
	}
	*d = Duration{Duration: v}
	return nil
}

func (d *Duration) String() string { return d.Duration.String() }

// Type names the flag's value in help.
func (d *Duration) Type() string { return "duration" }

// check reports a value that did not decode, or a negative one.
func (d Duration) check() string {
	switch {
	case d.invalid != "":
		return fmt.Sprintf("%s: want a duration such as 10s", d.invalid)
	case d.Duration < 0:
		return fmt.Sprintf("want 0 or more, got %s", d.Duration)
	}
	return ""
}

// Bytes is a size in bytes, written as a number or a Kubernetes quantity
// ("128Mi", "1G"). It is also a flag value (pflag.Value). Text that is
// not a size decodes without error and is reported by Validate.
type Bytes struct {
	N       int64
	invalid string
}

// B makes a Bytes.
func B(n int64) Bytes { return Bytes{N: n} }

func (b *Bytes) UnmarshalJSON(data []byte) error {
	var n int64
	if err := json.Unmarshal(data, &n); err == nil {
		*b = Bytes{N: n}
		return nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		*b = Bytes{invalid: string(data)}
		return nil
	}
	if err := b.Set(s); err != nil {
		*b = Bytes{invalid: strconv.Quote(s)}
	}
	return nil
}

func (b Bytes) MarshalJSON() ([]byte, error) { return json.Marshal(b.String()) }

// Set parses s, a number of bytes or a quantity, for a flag.
func (b *Bytes) Set(s string) error {
	q, err := quantity.Parse(s)
	if err != nil {
		return fmt.Errorf("%q: want a size such as 128Mi", s)
	}
	n, ok := q.AsInt64()
	if !ok {
		return fmt.Errorf("%q: want a whole number of bytes", s)
	}
	*b = Bytes{N: n}
	return nil
}

func (b *Bytes) String() string { return resource.NewQuantity(b.N, resource.BinarySI).String() }

// Type names the flag's value in help.
func (b *Bytes) Type() string { return "size" }

// check reports a value that did not decode, or one below 1.
func (b Bytes) check() string {
	switch {
	case b.invalid != "":
		return fmt.Sprintf("%s: want a size such as 128Mi", b.invalid)
	case b.N < 1:
		return fmt.Sprintf("want a positive size, got %d", b.N)
	}
	return ""
}
