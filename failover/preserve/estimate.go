package preserve

import (
	"reflect"
	"unsafe"

	"k8s.io/client-go/util/jsonpath"
)

// estimate bounds from above how many values client-go materialises when it
// evaluates path over status: the values of every step of every action,
// kept until printing. It reports the count reached and whether it passed
// limit, and stops counting there.
//
// The sets client-go builds are counted as multisets of distinct status
// nodes, so counting takes time linear in the status per step however
// large the sets grow ({..a..a}, a chain of unions). Where the set depends
// on values (an index, a slice, a filter), every element is assumed taken.
//
// Without recursive descents and unions a set never holds a node twice,
// so no step passes the status's node count, itself below its size in
// bytes: a template of few steps over a small status needs no count.
func estimate(path string, status any, statusBytes int, limit int64) (int64, bool) {
	p, err := jsonpath.Parse(path, path)
	if err != nil {
		return 0, false
	}
	if steps, multiplying := shape(p.Root); !multiplying && int64(steps)*int64(statusBytes) <= limit {
		return 0, false
	}
	e := &estimator{root: status, limit: limit}
	e.sequence(p.Root.Nodes, e.single(status))
	return e.cost, e.cost > limit
}

// shape counts the nodes of a template and reports whether it has a node
// that can put a status node twice in a set.
func shape(n jsonpath.Node) (steps int, multiplying bool) {
	steps = 1
	var children []*jsonpath.ListNode
	switch x := n.(type) {
	case *jsonpath.RecursiveNode, *jsonpath.UnionNode:
		return steps, true
	case *jsonpath.ListNode:
		children = []*jsonpath.ListNode{x}
	case *jsonpath.FilterNode:
		children = []*jsonpath.ListNode{x.Left, x.Right}
	}
	for _, l := range children {
		if l == nil {
			continue
		}
		for _, c := range l.Nodes {
			s, m := shape(c)
			steps += s
			multiplying = multiplying || m
		}
	}
	return steps, multiplying
}

type estimator struct {
	root  any
	limit int64
	cost  int64
}

// key identifies a status node that has children: a non-empty object,
// array or string.
type key struct {
	kind reflect.Kind
	ptr  unsafe.Pointer
	n    int
}

type item struct {
	v any
	n int64
}

// bag is a multiset of values: nodes with children by identity, and
// childless values only counted.
type bag struct {
	items  map[key]*item
	leaves int64
}

func keyOf(v any) (key, bool) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) > 0 {
			return key{reflect.Map, reflect.ValueOf(x).UnsafePointer(), 0}, true
		}
	case []any:
		if len(x) > 0 {
			return key{reflect.Slice, unsafe.Pointer(&x[0]), len(x)}, true
		}
	case string:
		if len(x) > 0 {
			return key{reflect.String, unsafe.Pointer(unsafe.StringData(x)), len(x)}, true
		}
	}
	return key{}, false
}

func (e *estimator) single(v any) *bag {
	b := &bag{items: map[key]*item{}}
	e.add(b, v, 1)
	return b
}

func (e *estimator) add(b *bag, v any, n int64) {
	if n <= 0 {
		return
	}
	k, ok := keyOf(v)
	if !ok {
		b.leaves = e.sum(b.leaves, n)
		return
	}
	if it := b.items[k]; it != nil {
		it.n = e.sum(it.n, n)
		return
	}
	b.items[k] = &item{v: v, n: n}
}

// sum adds without passing the limit by more than one, so counts never
// overflow.
func (e *estimator) sum(a, b int64) int64 {
	if a > e.limit-b {
		return e.limit + 1
	}
	return a + b
}

func (e *estimator) size(b *bag) int64 {
	n := b.leaves
	for _, it := range b.items {
		n = e.sum(n, it.n)
	}
	return n
}

func (e *estimator) over() bool { return e.cost > e.limit }

func (e *estimator) charge(n int64) { e.cost = e.sum(e.cost, n) }

// sequence follows FindResults: each action starts from root; a range
// action makes its results the root of the actions up to its end.
// It returns how many nodes it used, its end included.
func (e *estimator) sequence(nodes []jsonpath.Node, root *bag) int {
	for i := 0; i < len(nodes) && !e.over(); i++ {
		list, ok := nodes[i].(*jsonpath.ListNode)
		if !ok {
			e.charge(1)
			continue
		}
		result := e.list(root, list)
		e.charge(e.size(result))
		switch identifier(list) {
		case "end":
			return i + 1
		case "range":
			i += e.sequence(nodes[i+1:], result)
		}
	}
	return len(nodes)
}

func identifier(list *jsonpath.ListNode) string {
	for _, n := range list.Nodes {
		if id, ok := n.(*jsonpath.IdentifierNode); ok {
			return id.Name
		}
	}
	return ""
}

func (e *estimator) list(in *bag, list *jsonpath.ListNode) *bag {
	cur := in
	for _, n := range list.Nodes {
		if e.over() {
			break
		}
		cur = e.step(cur, n)
		e.charge(int64(len(cur.items)) + 1)
	}
	return cur
}

func (e *estimator) step(in *bag, node jsonpath.Node) *bag {
	out := &bag{items: map[key]*item{}}
	switch n := node.(type) {
	case *jsonpath.TextNode:
		out.leaves = 1
	case *jsonpath.IntNode, *jsonpath.FloatNode, *jsonpath.BoolNode:
		out.leaves = e.size(in)
	case *jsonpath.ListNode:
		return e.list(in, n)
	case *jsonpath.IdentifierNode:
		if n.Name == "range" {
			return in
		}
	case *jsonpath.FieldNode:
		for _, it := range in.items {
			if m, ok := it.v.(map[string]any); ok {
				if v, ok := m[n.Value]; ok {
					e.add(out, v, it.n)
				}
			}
		}
	case *jsonpath.ArrayNode:
		e.elements(in, out)
	case *jsonpath.FilterNode:
		e.elements(in, out)
		e.charge(e.size(e.list(out, n.Left)))
		e.charge(e.size(e.list(out, n.Right)))
	case *jsonpath.WildcardNode:
		for _, it := range in.items {
			switch x := it.v.(type) {
			case map[string]any:
				for _, v := range x {
					e.add(out, v, it.n)
				}
			case []any:
				for _, v := range x {
					e.add(out, v, it.n)
				}
			case string:
				out.leaves = e.sum(out.leaves, e.times(it.n, int64(len(x))))
			}
		}
	case *jsonpath.RecursiveNode:
		e.recursive(in, out)
	case *jsonpath.UnionNode:
		for _, l := range n.Nodes {
			r := e.list(in, l)
			for k, it := range r.items {
				if o := out.items[k]; o != nil {
					o.n = e.sum(o.n, it.n)
				} else {
					out.items[k] = &item{v: it.v, n: it.n}
				}
			}
			out.leaves = e.sum(out.leaves, r.leaves)
		}
	}
	return out
}

func (e *estimator) times(a, b int64) int64 {
	if b != 0 && a > e.limit/b {
		return e.limit + 1
	}
	return a * b
}

// elements takes every element of every array in the bag.
func (e *estimator) elements(in, out *bag) {
	for _, it := range in.items {
		if s, ok := it.v.([]any); ok {
			for _, v := range s {
				e.add(out, v, it.n)
			}
		}
	}
}

// recursive counts what evalRecursive returns: every node with children
// below or at a node of the bag, once per occurrence of each of its
// ancestors-or-self in the bag. One walk of the status, carrying the
// ancestors' counts, finds them all; a bag value outside the status (a
// literal string) is counted alone.
func (e *estimator) recursive(in, out *bag) {
	seen := map[key]bool{}
	var walk func(v any, acc int64)
	walk = func(v any, acc int64) {
		e.charge(1)
		if e.over() {
			return
		}
		k, ok := keyOf(v)
		if !ok {
			return
		}
		if it := in.items[k]; it != nil {
			acc = e.sum(acc, it.n)
			seen[k] = true
		}
		e.add(out, v, acc)
		switch x := v.(type) {
		case map[string]any:
			for _, c := range x {
				walk(c, acc)
			}
		case []any:
			for _, c := range x {
				walk(c, acc)
			}
		}
	}
	walk(e.root, 0)
	for k, it := range in.items {
		if !seen[k] {
			e.add(out, it.v, it.n)
		}
	}
}
