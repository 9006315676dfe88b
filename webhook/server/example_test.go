package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/webhook/server"
)

// A webhook answering from the built-in handlers: Karmada asks how many
// replicas a Deployment has and what each needs.
func ExampleNew() {
	reg := interpreter.NewRegistry().Set(interpreter.LayerBuiltin, builtin.New())
	srv := httptest.NewServer(server.New(reg))
	defer srv.Close()

	resp, err := http.Post(srv.URL+"/interpreter", "application/json", strings.NewReader(`{
	  "apiVersion": "config.karmada.io/v1alpha1",
	  "kind": "ResourceInterpreterContext",
	  "request": {
	    "uid": "5b7a1f0e-1",
	    "kind": {"group": "apps", "version": "v1", "kind": "Deployment"},
	    "name": "web", "namespace": "shop",
	    "operation": "InterpretReplica",
	    "object": {
	      "apiVersion": "apps/v1", "kind": "Deployment",
	      "metadata": {"name": "web", "namespace": "shop"},
	      "spec": {"replicas": 3, "template": {"spec": {"containers": [
	        {"name": "web", "image": "nginx", "resources": {"requests": {"cpu": "250m"}}}
	      ]}}}
	    }
	  }
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var out bytes.Buffer
	_ = json.Indent(&out, body, "", "  ")
	fmt.Println(resp.Status)
	fmt.Println(out.String())
	// Output:
	// 200 OK
	// {
	//   "kind": "ResourceInterpreterContext",
	//   "apiVersion": "config.karmada.io/v1alpha1",
	//   "response": {
	//     "uid": "5b7a1f0e-1",
	//     "successful": true,
	//     "replicaRequirements": {
	//       "resourceRequest": {
	//         "cpu": "250m"
	//       }
	//     },
	//     "replicas": 3
	//   }
	// }
}
