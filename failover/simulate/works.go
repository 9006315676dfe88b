package simulate

import (
	"reflect"
	"slices"
	"strings"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover"
)

// Work is a Work as stored, decoded generically, with whether it is being
// deleted (its finalizers hold it).
type Work struct {
	Object       map[string]any
	BeingDeleted bool
}

// Key is namespace/name.
func (w *Work) Key() string {
	meta, _ := w.Object["metadata"].(map[string]any)
	ns, _ := meta["namespace"].(string)
	name, _ := meta["name"].(string)
	return ns + "/" + name
}

func (w *Work) cluster() string {
	ns, _, _ := strings.Cut(w.Key(), "/")
	return strings.TrimPrefix(ns, api.ExecutionNamespacePrefix)
}

// Round is what one binding controller round did: outcome.yaml's entries.
type Round struct {
	DirectlyPurgePending  bool     `json:"directlyPurgePending"`
	EnsureWorkRan         bool     `json:"ensureWorkRan"`
	RequeueAfterSeconds   int64    `json:"requeueAfterSeconds"`
	WorksCreated          []string `json:"worksCreated"`
	WorksDeleted          []string `json:"worksDeleted"`
	WorksStillTerminating []string `json:"worksStillTerminating"`
	WorksTerminating      []string `json:"worksTerminating"`
	WorksUnchanged        []string `json:"worksUnchanged"`
	WorksUpdated          []string `json:"worksUpdated"`
}

// Ensure makes the Works of the binding's target clusters (the binding
// pipeline: luainterp propagate).
type Ensure func() ([]map[string]any, error)

// Works runs rounds of Karmada's binding controller after its template
// fetch (fact 48) over the binding's Works: delete the orphans (outside
// failover.RetainedClusters); stop and come back after failover.PurgeWait
// while a Work remains in a cluster of failover.DirectlyPurgedClusters;
// otherwise create or update the target clusters' Works with ensure.
// Between rounds the Works being deleted are gone. It returns each round
// and the Works after the last, sorted by namespace and name.
func Works(spec *api.ResourceBindingSpec, existing []*Work, rounds int, ensure Ensure) ([]Round, []*Work, error) {
	works := make([]*Work, len(existing))
	for i, w := range existing {
		works[i] = &Work{Object: w.Object, BeingDeleted: w.BeingDeleted}
	}
	retained, purged := failover.RetainedClusters(spec), failover.DirectlyPurgedClusters(spec)
	var out []Round
	for range rounds {
		var r Round
		before := map[string]*Work{}
		for _, w := range works {
			before[w.Key()] = &Work{Object: w.Object, BeingDeleted: w.BeingDeleted}
		}
		for _, w := range works {
			if !retained[w.cluster()] {
				r.WorksDeleted = append(r.WorksDeleted, w.Key())
				w.BeingDeleted = true
			}
		}
		r.DirectlyPurgePending = slices.ContainsFunc(works, func(w *Work) bool { return purged[w.cluster()] })
		if r.DirectlyPurgePending {
			r.RequeueAfterSeconds = int64(failover.PurgeWait.Seconds())
		} else {
			made, err := ensure()
			if err != nil {
				return out, works, err
			}
			r.EnsureWorkRan = true
			works = merge(works, made)
		}
		for _, w := range works {
			old := before[w.Key()]
			switch {
			case old == nil:
				r.WorksCreated = append(r.WorksCreated, w.Key())
			case w.BeingDeleted && old.BeingDeleted:
				r.WorksStillTerminating = append(r.WorksStillTerminating, w.Key())
			case w.BeingDeleted:
				r.WorksTerminating = append(r.WorksTerminating, w.Key())
			case reflect.DeepEqual(old.Object, w.Object):
				r.WorksUnchanged = append(r.WorksUnchanged, w.Key())
			default:
				r.WorksUpdated = append(r.WorksUpdated, w.Key())
			}
		}
		for _, list := range [][]string{r.WorksCreated, r.WorksDeleted, r.WorksStillTerminating, r.WorksTerminating, r.WorksUnchanged, r.WorksUpdated} {
			slices.Sort(list)
		}
		out = append(out, r)
		works = slices.DeleteFunc(works, func(w *Work) bool { return w.BeingDeleted })
	}
	slices.SortFunc(works, func(a, b *Work) int { return strings.Compare(a.Key(), b.Key()) })
	return out, works, nil
}

// merge creates or replaces the Works made, keeping the others.
func merge(works []*Work, made []map[string]any) []*Work {
	for _, obj := range made {
		w := &Work{Object: obj}
		if i := slices.IndexFunc(works, func(o *Work) bool { return o.Key() == w.Key() }); i >= 0 {
			works[i] = w
			continue
		}
		works = append(works, w)
	}
	return works
}
