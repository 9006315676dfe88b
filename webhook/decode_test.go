package webhook

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	evanphx "github.com/evanphx/json-patch/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter"
)

// inContext wraps a request in a ResourceInterpreterContext.
func inContext(request string) string {
	return `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext","request":` + request + `}`
}

// decodeInTwoSteps decodes a body as DecodeRequestBody's callers do when
// it declines: DecodeStrict of the context, then Decode of its request.
func decodeInTwoSteps(body []byte) (*ResourceInterpreterRequest, interpreter.Request, error) {
	var review ResourceInterpreterContext
	if err := DecodeStrict(body, &review); err != nil {
		return nil, interpreter.Request{}, err
	}
	if review.APIVersion != APIVersion || review.Kind != ContextKind || review.Request == nil {
		return nil, interpreter.Request{}, errors.New("not a request context")
	}
	req, err := review.Request.Decode()
	return review.Request, req, err
}

// decodeBodies are request bodies DecodeRequestBody takes (one) or
// declines; twoSteps says whether the two-step decoding takes them.
var decodeBodies = []struct {
	name     string
	body     string
	one      bool
	twoSteps bool
}{
	{"InterpretReplica", inContext(`{"uid":"u","operation":"InterpretReplica","object":` + widgetJSON + `,"replicas":0}`), true, true},
	{"kind from the request", inContext(`{"uid":"u","kind":{"group":"example.io","version":"v1","kind":"Widget"},
		"operation":"InterpretHealth","object":{"metadata":{"name":"w"}}}`), false, true},
	{"ReviseReplica", inContext(`{"uid":"u","operation":"ReviseReplica","object":` + widgetJSON + `,"replicas":4}`), true, true},
	{"Retain", inContext(`{"uid":"u","operation":"Retain","object":` + widgetJSON + `,"observedObject":` + widgetJSON + `}`), true, true},
	{"AggregateStatus", inContext(`{"uid":"u","operation":"AggregateStatus","object":` + widgetJSON +
		`,"aggregatedStatus":[{"clusterName":"m1","status":{"readyReplicas":2},"applied":true}]}`), true, true},
	{"large and fractional numbers", inContext(`{"uid":"u","operation":"InterpretReplica","object":` +
		strings.Replace(widgetJSON, `"replicas":3`, `"replicas":3,"big":9223372036854775807,"ratio":0.5,"e":1e3`, 1) + `}`), true, true},
	{"ignored observedObject not an object", inContext(`{"uid":"u","operation":"InterpretReplica","object":` + widgetJSON + `,"observedObject":"x"}`), false, true},
	{"duplicate key in the object", inContext(`{"uid":"u","operation":"InterpretReplica","object":{"apiVersion":"v1","kind":"Pod","kind":"Pod"}}`), false, false},
	{"duplicate key in the context", `{"apiVersion":"config.karmada.io/v1alpha1","apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext","request":{}}`, false, false},
	{"duplicate key in a status", inContext(`{"uid":"u","operation":"AggregateStatus","object":` + widgetJSON +
		`,"aggregatedStatus":[{"clusterName":"m1","status":{"a":1,"a":2}}]}`), false, false},
	{"bad UTF-8 in the object", inContext(`{"uid":"u","operation":"InterpretReplica","object":{"apiVersion":"v1","kind":"Pod","x":"` + "\xff" + `"}}`), false, false},
	{"null object", inContext(`{"uid":"u","operation":"InterpretReplica","object":null}`), false, false},
	{"object not an object", inContext(`{"uid":"u","operation":"InterpretReplica","object":[1]}`), false, false},
	{"Retain with a null observed", inContext(`{"uid":"u","operation":"Retain","object":` + widgetJSON + `,"observedObject":null}`), false, false},
	{"kind mismatch", inContext(`{"uid":"u","kind":{"group":"apps","version":"v1","kind":"Deployment"},"operation":"InterpretReplica","object":` + widgetJSON + `}`), false, false},
	{"another apiVersion", strings.Replace(inContext(`{"uid":"u","operation":"InterpretReplica","object":`+widgetJSON+`}`), "v1alpha1", "v1", 1), false, false},
	{"no request", `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext"}`, false, false},
	{"not JSON", `{"apiVersion":`, false, false},
	{"escapes", inContext(`{"uid":"u\"1\u00e9\ud83d\ude00","operation":"InterpretReplica","object":` +
		strings.Replace(widgetJSON, `"replicas":3`, `"replicas":3,"s":"a\\b\/c\n\t\u0041 \ud800 \udc00x \ud800\u0041","k\u0065y":1`, 1) + `}`), true, true},
	{"white space everywhere", " \n" + strings.ReplaceAll(inContext(`{"uid":"u","operation":"InterpretReplica","object":`+widgetJSON+`,"replicas":0}`), ",", " ,\t ") + "\r\n", true, true},
	{"the request's kind and names", inContext(`{"uid":"u","kind":{"group":"example.io","version":"v1","kind":"Widget"},"name":"w","namespace":"ns",
		"operation":"interpretreplica","object":` + widgetJSON + `,"observedObject":null,"replicas":null,"aggregatedStatus":null}`), true, true},
	{"every status item field", inContext(`{"uid":"u","operation":"AggregateStatus","object":` + widgetJSON +
		`,"aggregatedStatus":[{"clusterName":"m1","status":{"a":[1,{"b":null}],"c":"\u0041"},"applied":false,"appliedMessage":"m","health":"Healthy"},
		{"clusterName":"m2","status":"odd"},{"clusterName":"m3"}]}`), true, true},
	{"no status items", inContext(`{"uid":"u","operation":"AggregateStatus","object":` + widgetJSON + `,"aggregatedStatus":[]}`), true, true},
	{"a null status", inContext(`{"uid":"u","operation":"AggregateStatus","object":` + widgetJSON + `,"aggregatedStatus":[{"clusterName":"m1","status":null}]}`), false, true},
	{"a status number out of range", inContext(`{"uid":"u","operation":"AggregateStatus","object":` + widgetJSON + `,"aggregatedStatus":[{"status":{"n":1e999}}]}`), false, false},
	{"a field the protocol does not have", inContext(`{"uid":"u","operation":"InterpretReplica","object":` + widgetJSON + `,"extra":1}`), false, true},
	{"a response", `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext","response":{"uid":"u"},"request":` +
		`{"uid":"u","operation":"InterpretReplica","object":` + widgetJSON + `}}`, false, true},
	{"an escaped field name", inContext(`{"\u0075id":"u","operation":"InterpretReplica","object":` + widgetJSON + `}`), false, true},
	{"a null uid", inContext(`{"uid":null,"operation":"InterpretReplica","object":` + widgetJSON + `}`), false, false},
	{"replicas not whole", inContext(`{"uid":"u","operation":"ReviseReplica","object":` + widgetJSON + `,"replicas":1e1}`), false, false},
	{"replicas past int32", inContext(`{"uid":"u","operation":"ReviseReplica","object":` + widgetJSON + `,"replicas":2147483648}`), false, false},
	{"a number out of range", inContext(`{"uid":"u","operation":"InterpretReplica","object":` + strings.Replace(widgetJSON, `"replicas":3`, `"replicas":-1e400`, 1) + `}`), false, false},
	{"a control character in a string", inContext(`{"uid":"u","operation":"InterpretReplica","object":` + strings.Replace(widgetJSON, `"w"`, "\"w\x01\"", 1) + `}`), false, false},
	{"a bad escape", inContext(`{"uid":"u","operation":"InterpretReplica","object":` + strings.Replace(widgetJSON, `"w"`, `"\x"`, 1) + `}`), false, false},
	{"a leading zero", inContext(`{"uid":"u","operation":"InterpretReplica","object":` + strings.Replace(widgetJSON, `"replicas":3`, `"replicas":03`, 1) + `}`), false, false},
	{"a trailing comma", inContext(`{"uid":"u","operation":"InterpretReplica","object":` + strings.Replace(widgetJSON, `"replicas":3`, `"replicas":3,`, 1) + `}`), false, false},
	{"text after the context", inContext(`{"uid":"u","operation":"InterpretReplica","object":`+widgetJSON+`}`) + ` {}`, false, false},
	{"nested too deep", inContext(`{"uid":"u","operation":"InterpretReplica","object":` + strings.Replace(widgetJSON, `"replicas":3`,
		`"deep":`+strings.Repeat("[", 10001)+strings.Repeat("]", 10001), 1) + `}`), false, false},
}

func TestDecodeRequestBody(t *testing.T) {
	for _, tt := range decodeBodies {
		t.Run(tt.name, func(t *testing.T) {
			wire, req, ok := DecodeRequestBody([]byte(tt.body))
			require.Equal(t, tt.one, ok)
			twoWire, twoReq, err := decodeInTwoSteps([]byte(tt.body))
			require.Equal(t, tt.twoSteps, err == nil, "two steps: %v", err)
			if ok {
				assertSameRequest(t, twoWire, twoReq, wire, req)
			}
		})
	}
}

// assertSameRequest asserts that the single pass decoded what the two
// steps decoded.
func assertSameRequest(t *testing.T, twoWire *ResourceInterpreterRequest, twoReq interpreter.Request, wire *ResourceInterpreterRequest, req interpreter.Request) {
	t.Helper()
	assert.Equal(t, twoReq, req)
	assert.Same(t, req.Object, wire.Object.Object, "the wire request carries the decoded object")
	if req.ObservedObject != nil {
		assert.Same(t, req.ObservedObject, wire.ObservedObject.Object)
	}
	revised := req.Object.DeepCopy()
	revised.Object["revised"] = true
	// Against revised itself, not against the patch CreatePatch makes
	// from the JSON: that one replaces a number written otherwise than Go
	// writes it, which evanphx cannot apply under an empty key ("//0").
	var want any
	require.NoError(t, json.Unmarshal(must(json.Marshal(revised.Object)), &want))
	assert.Equal(t, want, patched(t, twoWire.Object.Raw, must(wire.patchTo(revised))),
		"the patch from the decoded object turns the request's object into the revised one")
	wire.Object, wire.ObservedObject = twoWire.Object, twoWire.ObservedObject
	assert.Equal(t, twoWire, wire)
}

// patched returns original patched, with numbers as float64: the one
// difference a patch from a decoded object makes is that a number written
// otherwise than Go writes it (1e3, 1.0) is not replaced by itself.
func patched(t *testing.T, original, patch []byte) any {
	t.Helper()
	p, err := evanphx.DecodePatch(patch)
	require.NoError(t, err)
	out, err := p.Apply(original)
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(out, &v))
	return v
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// FuzzDecodeRequestBody checks that every body the single pass takes, the
// two steps take too, with the same result.
func FuzzDecodeRequestBody(f *testing.F) {
	for _, tt := range decodeBodies {
		f.Add(tt.body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		wire, req, ok := DecodeRequestBody([]byte(body))
		if !ok {
			return
		}
		twoWire, twoReq, err := decodeInTwoSteps([]byte(body))
		require.NoError(t, err, "the single pass took %q", body)
		assertSameRequest(t, twoWire, twoReq, wire, req)
	})
}

// What a request's answer leaves behind does not keep the body: the
// statuses are copies, and the objects' strings are cut from a copy.
func TestDecodeRequestBodyCopies(t *testing.T) {
	body := []byte(inContext(`{"uid":"u","operation":"AggregateStatus","object":` + widgetJSON +
		`,"aggregatedStatus":[{"clusterName":"m1","status":{"readyReplicas":2}}]}`))
	wire, req, ok := DecodeRequestBody(body)
	require.True(t, ok)
	for i := range body {
		body[i] = ' '
	}
	assert.JSONEq(t, `{"readyReplicas":2}`, string(wire.AggregatedStatus[0].Status.Raw))
	assert.Equal(t, "example.io/v1", req.Object.GetAPIVersion())
	assert.Equal(t, "w", req.Object.GetName())
}
