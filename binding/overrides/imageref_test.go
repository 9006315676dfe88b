package overrides

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testDigest = "sha256:dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9c"

func TestParseImage(t *testing.T) {
	tests := []struct {
		in   string
		want imageRef
	}{
		{"fictional.registry.example/imagename:v1.0.0", imageRef{Registry: "fictional.registry.example", Repository: "imagename", Tag: "v1.0.0"}},
		{"myhost/foo/bar:2", imageRef{Repository: "myhost/foo/bar", Tag: "2"}},
		{"localhost/foo", imageRef{Registry: "localhost", Repository: "foo"}},
		{"localhost:5000/foo", imageRef{Registry: "localhost:5000", Repository: "foo"}},
		{"nginx:1.0@" + testDigest, imageRef{Repository: "nginx", Tag: "1.0"}},
		{"nginx@" + testDigest, imageRef{Repository: "nginx", Digest: testDigest}},
		{"docker.io/library/nginx:1.25", imageRef{Registry: "docker.io", Repository: "library/nginx", Tag: "1.25"}},
		{"perl:5.34.0", imageRef{Repository: "perl", Tag: "5.34.0"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseImage(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseImageErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `parse image "": repository name must have at least one component`},
		{"Nginx:1.0", `parse image "Nginx:1.0": repository name must be lowercase`},
		{"nginx:bad tag", `parse image "nginx:bad tag": invalid reference format`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := parseImage(tt.in)
			assert.EqualError(t, err, tt.want)
		})
	}
}

func TestImageOperations(t *testing.T) {
	const base = "fictional.registry.example/imagename:v1.0.0"
	tests := []struct {
		image, component, operator, value, want string
	}{
		{base, "Registry", "add", ".test", "fictional.registry.example.test/imagename:v1.0.0"},
		{base, "Registry", "replace", "fictional.registry.us", "fictional.registry.us/imagename:v1.0.0"},
		{base, "Registry", "remove", "", "imagename:v1.0.0"},
		{base, "Repository", "add", "/nginx", "fictional.registry.example/imagename/nginx:v1.0.0"},
		{base, "Repository", "replace", "nginx", "fictional.registry.example/nginx:v1.0.0"},
		{base, "Repository", "remove", "", "fictional.registry.example/:v1.0.0"},
		{base, "Tag", "add", testDigest, base},
		{base, "Tag", "replace", testDigest, "fictional.registry.example/imagename@" + testDigest},
		{base, "Tag", "remove", "", "fictional.registry.example/imagename"},
		{"perl:5.34.0", "Registry", "add", "registry.k8s.io", "registry.k8s.io/perl:5.34.0"},
		{"docker.io/library/nginx:1.25", "Registry", "add", "registry.example.com", "docker.ioregistry.example.com/library/nginx:1.25"},
		{"nginx:1.25", "Tag", "add", "-debug", "nginx:1.25-debug"},
		{"nginx:1.25", "Tag", "replace", "bad tag", "nginx:1.25"},
		{"nginx:1.0@" + testDigest, "Tag", "remove", "", "nginx"},
		{"nginx@" + testDigest, "Tag", "remove", "", "nginx"},
		{"nginx", "Tag", "add", "-debug", "nginx"},
	}
	for _, tt := range tests {
		t.Run(tt.component+" "+tt.operator+" "+tt.image, func(t *testing.T) {
			ref, err := parseImage(tt.image)
			require.NoError(t, err)
			require.NoError(t, ref.apply(tt.component, tt.operator, tt.value))
			assert.Equal(t, tt.want, ref.String())
		})
	}
}
