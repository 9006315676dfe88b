package manifest

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	// obj is an object as Parse returns it: its source and its name.
	type obj struct {
		Source string
		Name   any
	}
	tests := []struct {
		name string
		data string
		want []obj
		err  string // in full; "" for none
	}{
		{
			name: "documents",
			data: "kind: A\nmetadata: {name: a}\n---\nkind: B\nmetadata: {name: b}\n",
			want: []obj{{"f.yaml:1: document 1", "a"}, {"f.yaml:4: document 2", "b"}},
		},
		{
			name: "a List stands for its items",
			data: "apiVersion: v1\nkind: List\nitems:\n- {kind: A, metadata: {name: a}}\n- {kind: B, metadata: {name: b}}\n",
			want: []obj{{"f.yaml:1: document 1 item 1", "a"}, {"f.yaml:1: document 1 item 2", "b"}},
		},
		{
			name: "a typed List too",
			data: `{"kind": "ConfigMapList", "items": [{"kind": "ConfigMap", "metadata": {"name": "c"}}]}`,
			want: []obj{{"f.yaml:1: document 1 item 1", "c"}},
		},
		{
			name: "a List without items is empty",
			data: "kind: List\nitems: null\n---\nkind: A\nmetadata: {name: a}\n",
			want: []obj{{"f.yaml:4: document 2", "a"}},
		},
		{
			name: "a kind ending in List without items is an object",
			data: "kind: AllowList\nmetadata: {name: a}\n",
			want: []obj{{"f.yaml:1: document 1", "a"}},
		},
		{
			name: "a null document is no object",
			data: "null\n---\nkind: A\nmetadata: {name: a}\n",
			want: []obj{{"f.yaml:3: document 2", "a"}},
		},
		{
			name: "bad documents do not stop the others",
			data: "- a\n---\nkind: A\nmetadata: {name: a}\n---\n# the next is broken\nkind: [B\n---\nkind: List\nitems: [{kind: C}, 3]\n---\nkind: List\nitems: {a: b}\n",
			want: []obj{{"f.yaml:3: document 2", "a"}, {"f.yaml:9: document 4 item 1", nil}},
			err: "f.yaml:1: document 1: want an object, got a list\n" +
				"f.yaml:7: document 3: invalid YAML: did not find expected ',' or ']'\n" +
				"f.yaml:9: document 4 item 2: want an object, got a number\n" +
				"f.yaml:12: document 5: items: want a list, got an object",
		},
		{
			name: "a key given twice",
			data: "kind: A\n---\nkind: A\nmetadata:\n  name: a\n  name: b\n  labels: {}\n  labels: {}\n",
			want: []obj{{"f.yaml:1: document 1", nil}},
			err:  `f.yaml:6: document 2: invalid YAML: key "name" already set in map; line 8: key "labels" already set in map`,
		},
		{
			name: "a YAML error without a line",
			data: "kind: A\n---\n\tkind: B\n",
			want: []obj{{"f.yaml:1: document 1", nil}},
			err:  "f.yaml:3: document 2: invalid YAML: found character that cannot start any token",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := Parse("f.yaml", []byte(tt.data))
			if tt.err == "" {
				require.NoError(t, err)
			} else {
				require.EqualError(t, err, tt.err)
				var e *Error
				assert.ErrorAs(t, err, &e)
			}
			var got []obj
			for _, o := range objs {
				var name any
				if md, ok := o.Object["metadata"].(map[string]any); ok {
					name = md["name"]
				}
				got = append(got, obj{o.Source.String(), name})
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestObjectsIntegers(t *testing.T) {
	for _, data := range []string{"spec: {replicas: 3, ratio: 0.5, big: 9007199254740993}\n", `{"spec": {"replicas": 3, "ratio": 0.5, "big": 9007199254740993}}`} {
		objs, err := Parse("f", []byte(data))
		require.NoError(t, err)
		require.Len(t, objs, 1)
		assert.Equal(t, map[string]any{"replicas": int64(3), "ratio": 0.5, "big": int64(9007199254740993)}, objs[0].Object["spec"], data)
	}
}

func TestOne(t *testing.T) {
	docs := Split(File{Name: "f.yaml", Data: []byte("a: 1\n---\nb: 2\n---\nc: 3\n")})
	tests := []struct {
		name string
		docs []Document
		err  string
	}{
		{"one", docs[:1], ""},
		{"none", nil, "no document found"},
		{"three", docs, "want one document, got 3 (the second is f.yaml:3: document 2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := One(tt.docs)
			if tt.err != "" {
				require.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, docs[0], doc)
		})
	}
}

func TestSkipped(t *testing.T) {
	assert.Equal(t, "skipped apps/v1 Deployment: not a Widget", Skipped("apps/v1", "Deployment", "Widget"))
	assert.Equal(t, "skipped: not a Kubernetes object (no apiVersion and kind)", Skipped("", "", "Widget"))
}

func TestSourceAndErrors(t *testing.T) {
	tests := []struct {
		name string
		err  *Error
		want string
	}{
		{"file", &Error{Source: Source{File: "f.yaml"}, Err: errString("no such file")}, "f.yaml: no such file"},
		{"line", &Error{Source: Source{File: "f.yaml", Line: 3}, Err: errString("x")}, "f.yaml:3: x"},
		{"document", &Error{Source: Source{File: "f.yaml", Line: 3, Document: 2}, Err: errString("x")}, "f.yaml:3: document 2: x"},
		{"item and name", &Error{Source: Source{File: "f.yaml", Line: 3, Document: 2, Item: 4}, Name: "web", Err: errString("x")},
			`f.yaml:3: document 2 item 4 "web": x`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.err.Error())
		})
	}
}

func TestErrors(t *testing.T) {
	a, b, c := &Error{Err: errString("a")}, &Error{Err: errString("b")}, &Error{Err: errString("c")}
	assert.Equal(t, []*Error{a, b, c}, Errors(errors.Join(a, errors.Join(b, errString("other")), nil, c)))
	assert.Equal(t, []*Error{a}, Errors(a))
	assert.Nil(t, Errors(nil))
}

type errString string

func (e errString) Error() string { return string(e) }
