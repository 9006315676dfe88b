package source

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Permission is a verb on a resource.
type Permission struct {
	Verb     string
	Resource schema.GroupResource
}

func (p Permission) String() string { return p.Verb + " " + p.Resource.String() }

// AccessError says which permissions the client lacks.
type AccessError struct {
	User    string // who the API server says the client is, when known
	Missing []Permission
}

func (e *AccessError) Error() string {
	missing := make([]string, len(e.Missing))
	for i, p := range e.Missing {
		missing[i] = p.String()
	}
	who := "the client"
	if e.User != "" {
		who = "user " + `"` + e.User + `"`
	}
	return "forbidden: " + who + " may not " + strings.Join(missing, ", ") +
		" (grant them with a ClusterRole, as deploy/rbac.yaml does)"
}
