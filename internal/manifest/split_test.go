package manifest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSplit(t *testing.T) {
	// doc is a document as Split returns it, without its data.
	type doc struct {
		Line, Document int
		Data           string
		JSON           bool
	}
	tests := []struct {
		name string
		data string
		want []doc
	}{
		{
			name: "one YAML document",
			data: "a: 1\nb: 2\n",
			want: []doc{{1, 1, "a: 1\nb: 2\n", false}},
		},
		{
			name: "separators, and documents of comments that are not counted",
			data: "---\na: 1\n--- \n# comment\n\n---\t# the next\nb: 2\r\n---x: 3\n---\n",
			want: []doc{{2, 1, "a: 1\n", false}, {7, 2, "b: 2\r\n---x: 3\n", false}},
		},
		{
			name: "a comment before the first separator",
			data: "# the cases\n---\nname: a\n",
			want: []doc{{3, 1, "name: a\n", false}},
		},
		{
			name: "a document of leading comments starts at the separator's next line",
			data: "a: 1\n---\n# b\nb: 2\n",
			want: []doc{{1, 1, "a: 1\n", false}, {3, 2, "# b\nb: 2\n", false}},
		},
		{
			name: "no final newline",
			data: "a: 1\n---\nb: 2",
			want: []doc{{1, 1, "a: 1\n", false}, {3, 2, "b: 2", false}},
		},
		{
			name: "a JSON stream",
			data: "\n{\"a\": 1}\n\n  {\"b\":\n 2} [3]",
			want: []doc{{2, 1, `{"a": 1}`, true}, {4, 2, "{\"b\":\n 2}", true}, {5, 3, "[3]", true}},
		},
		{
			name: "YAML flow style that is not JSON",
			data: "{a: 1}\n---\n{b: 2}\n",
			want: []doc{{1, 1, "{a: 1}\n", false}, {3, 2, "{b: 2}\n", false}},
		},
		{
			name: "broken JSON is read as YAML, whose parser says where",
			data: "{\"a\": 1}\n{\"b\": \n",
			want: []doc{{1, 1, "{\"a\": 1}\n{\"b\": \n", false}},
		},
		{name: "nothing", data: "", want: nil},
		{name: "only comments", data: "# nothing\n---\n\n", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []doc
			for _, d := range Split(File{Name: "f.yaml", Data: []byte(tt.data)}) {
				assert.Equal(t, "f.yaml", d.File)
				assert.Zero(t, d.Item)
				got = append(got, doc{d.Line, d.Document, string(d.Data), d.json})
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
