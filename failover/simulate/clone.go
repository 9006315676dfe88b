package simulate

import (
	"encoding/json"

	"github.com/luainterp/luainterp/binding/api"
)

// clone copies a binding deeply, so a simulation never changes its input.
func clone(b *api.ResourceBinding) *api.ResourceBinding {
	data, err := json.Marshal(b)
	if err != nil {
		panic(err) // the types marshal by construction
	}
	var out api.ResourceBinding
	if err := json.Unmarshal(data, &out); err != nil {
		panic(err)
	}
	return &out
}
