package preserve_test

import (
	"fmt"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover/preserve"
)

func ExampleBuild() {
	labels, err := preserve.Build([]api.StatePreservationRule{
		{AliasLabelName: "flink.example.io/job-id", JSONPath: "{.jobStatus.jobId}"},
		{AliasLabelName: "ckpt", JSONPath: "{.jobStatus.checkpoint}"},
	}, []byte(`{"jobStatus":{"jobId":"8f1d2c3b","checkpoint":1700000000123}}`))
	fmt.Println(labels, err)
	for _, p := range preserve.Invalid(labels) {
		fmt.Println(p)
	}
	// Output:
	// map[ckpt:1.700000000123e+12 flink.example.io/job-id:8f1d2c3b] <nil>
	// preserved label ckpt="1.700000000123e+12" is not a valid label: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')
}
