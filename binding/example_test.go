package binding_test

import (
	"fmt"

	"github.com/luainterp/luainterp/binding"
)

func ExampleWorkName() {
	fmt.Println(binding.WorkName("Deployment", "nginx", "default"))
	fmt.Println(binding.ExecutionNamespace("member1"))
	// Output:
	// nginx-687f7fb96f
	// karmada-es-member1
}

func ExampleApportion() {
	fmt.Println(binding.Apportion(map[string]int64{"member1": 1, "member2": 2, "member3": 3}, 13, ""))
	// Output: map[member1:2 member2:4 member3:7]
}
