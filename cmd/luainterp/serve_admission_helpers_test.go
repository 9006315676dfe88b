package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/luainterp/luainterp/kube/admission"
)

// tenantCustomization is the customization of the tenant whose rate the
// admission tests and benchmark watch: InterpretHealth of example.io/v1
// Tenant.
const tenantCustomization = `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: tenant
spec:
  target:
    apiVersion: example.io/v1
    kind: Tenant
  customizations:
    healthInterpretation:
      luaScript: |-
        function InterpretHealth(obj)
          return obj.status ~= nil and obj.status.ready == true
        end
`

// tenantHealth is the body of the tenant's InterpretHealth request.
const tenantHealth = `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext",
	"request":{"uid":"u-1","operation":"InterpretHealth","object":{"apiVersion":"example.io/v1","kind":"Tenant","metadata":{"name":"t","namespace":"default"},"status":{"ready":true}}}}`

// loopingScript's top level loops: a review of it runs (its syntax cannot
// tell whether it defines GetReplicas) until the deadline.
const loopingScript = "while true do end\nfunction GetReplicas(obj)\n  return 1, nil\nend\n"

// manyFunctions is a script of the most functions allowed (1,000), about
// 130 KB, distinct for each seed and not defining GetReplicas: a review
// of it is refused.
func manyFunctions(seed int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "-- %d\n", seed)
	for i := range 1000 {
		fmt.Fprintf(&b, "function Helper%d_%d(obj)\n  local spec = obj.spec or {}\n  return spec.replicas or %d, spec.template\nend\n", seed, i, i)
	}
	return b.String()
}

// admissionReview is the AdmissionReview of a CREATE of a Gadget
// customization named name whose replicaResource script is given.
func admissionReview(t testing.TB, name, script string) string {
	t.Helper()
	object := gadgetCustomization(t, name, script)
	raw, err := object.MarshalJSON()
	require.NoError(t, err)
	body, err := json.Marshal(admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
		Request: &admissionv1.AdmissionRequest{
			UID:       types.UID("review-" + name),
			Kind:      metav1.GroupVersionKind{Group: "config.karmada.io", Version: "v1alpha1", Kind: "ResourceInterpreterCustomization"},
			Operation: admissionv1.Create,
			Name:      name,
			Object:    runtime.RawExtension{Raw: raw},
		},
	})
	require.NoError(t, err)
	return string(body)
}

// postAdmission POSTs an AdmissionReview to the admission path of base
// and returns the HTTP status and, for HTTP 200, the response.
func postAdmission(client *http.Client, base, body string) (int, *admissionv1.AdmissionResponse, error) {
	resp, err := client.Post(base+admission.Path, "application/json", strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp.StatusCode, nil, err
	}
	review := admissionv1.AdmissionReview{}
	if err := json.Unmarshal(data, &review); err != nil {
		return resp.StatusCode, nil, err
	}
	return resp.StatusCode, review.Response, nil
}

// metricValue returns the value of the sample of metrics text whose name
// and labels are given in full (`name{label="value"}`), -1 when absent.
func metricValue(metrics, sample string) float64 {
	for line := range strings.Lines(metrics) {
		if rest, ok := strings.CutPrefix(line, sample+" "); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			if err == nil {
				return v
			}
		}
	}
	return -1
}

// servingAt waits for the address a serve process listens on.
func servingAt(t testing.TB, p *process) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if m := servingAddress.FindStringSubmatch(p.stderr.String()); m != nil {
			return m[1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("serve did not listen within 60s:\n%s", p.stderr)
	return ""
}
