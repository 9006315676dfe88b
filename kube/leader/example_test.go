package leader_test

import (
	"errors"
	"fmt"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/luainterp/luainterp/kube/leader"
)

// New checks the terms of the election before anything talks to the API
// server.
func ExampleNew() {
	client := kubernetes.NewForConfigOrDie(&rest.Config{Host: "https://127.0.0.1:6443"})
	e, err := leader.New(client, "karmada-system", "luainterp-controller", leader.WithIdentity("pod-a"))
	fmt.Println(e.Lease(), e.Identity(), err)

	_, err = leader.New(client, "karmada-system", "luainterp-controller",
		leader.WithLeaseDuration(5*time.Second), leader.WithRenewDeadline(5*time.Second))
	fmt.Println(errors.Is(err, leader.ErrInvalidConfig), err)
	// Output:
	// karmada-system/luainterp-controller pod-a <nil>
	// true invalid leader election: renew deadline 5s is not shorter than the lease duration 5s
}
