package floor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// MaxBodyBytes bounds the body the floor reads, as a webhook must.
const MaxBodyBytes = 8 << 20

// request is the ResourceInterpreterContext as the floor decodes it: its
// fields, the objects as generic maps, the status items as they come.
type request struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Request    *struct {
		UID  string `json:"uid"`
		Kind struct {
			Group   string `json:"group"`
			Version string `json:"version"`
			Kind    string `json:"kind"`
		} `json:"kind"`
		Name             string           `json:"name"`
		Namespace        string           `json:"namespace"`
		Operation        string           `json:"operation"`
		Object           map[string]any   `json:"object"`
		ObservedObject   map[string]any   `json:"observedObject"`
		Replicas         *int32           `json:"replicas"`
		AggregatedStatus []map[string]any `json:"aggregatedStatus"`
	} `json:"request"`
}

// Template is a fixed answer split around its uid's value, and the
// apiVersion and kind a request must have: the answer's own.
type Template struct {
	before, after    []byte
	apiVersion, kind string
}

// NewTemplate returns the template of answer, an answer to a request of
// uid; it fails when answer does not say that uid once, or names no
// apiVersion or kind.
func NewTemplate(answer []byte, uid string) (Template, error) {
	quoted, err := json.Marshal(uid)
	if err != nil {
		return Template{}, err
	}
	var typeMeta struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := json.Unmarshal(answer, &typeMeta); err != nil || typeMeta.APIVersion == "" || typeMeta.Kind == "" {
		return Template{}, fmt.Errorf("the answer %.80s…: want a JSON object with its apiVersion and kind", answer)
	}
	field := append([]byte(`"uid":`), quoted...)
	if bytes.Count(answer, field) != 1 {
		return Template{}, fmt.Errorf("the answer %.80s…: want its uid %s once", answer, quoted)
	}
	i := bytes.Index(answer, field) + len(`"uid":`)
	return Template{before: answer[:i], after: answer[i+len(quoted):], apiVersion: typeMeta.APIVersion, kind: typeMeta.Kind}, nil
}

// Handler returns the floor, answering t with each request's uid.
func Handler(t Template) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var review request
		if err := json.Unmarshal(body, &review); err != nil || review.Request == nil ||
			review.APIVersion != t.apiVersion || review.Kind != t.kind {
			http.Error(w, "not a ResourceInterpreterContext request", http.StatusBadRequest)
			return
		}
		uid, err := json.Marshal(review.Request.UID)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(t.before)
		_, _ = w.Write(uid)
		_, _ = w.Write(t.after)
	})
}
